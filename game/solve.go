package game

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/sudokuar/sudokuar/solvers"
	"github.com/sudokuar/sudokuar/sudoku"
)

// GenerateTries is how many times Generate starts over before it gives up,
// as the console game's specification says.
const GenerateTries = 1000

// solve returns a solution of the board, ErrUnsolvable, or the solver's
// error (wrapping ctx.Err() when ctx ended). A solution that breaks a rule
// or a value on the board is an error, not an answer.
func (g *Game) solve(ctx context.Context, sv solvers.Solver, board sudoku.Grid) (sudoku.Grid, error) {
	res, err := sv.Solve(ctx, board)
	if err != nil {
		var ce *sudoku.ConflictError
		if ctx.Err() == nil && (errors.Is(err, sudoku.ErrNoSolution) || errors.As(err, &ce)) {
			return sudoku.Grid{}, ErrUnsolvable
		}
		return sudoku.Grid{}, fmt.Errorf("game: %s solver: %w", sv.Name(), err)
	}
	if err := solvers.Check(board, res.Solution); err != nil {
		return sudoku.Grid{}, fmt.Errorf("game: %s solver returned a wrong solution: %v", sv.Name(), err)
	}
	return res.Solution, nil
}

// Solvable reports whether the board as it stands (every value in it, fixed
// or not) can be completed, asking sv. Errors: ErrErroneous, or the
// solver's error (wrapping ctx.Err() when ctx ended).
func (g *Game) Solvable(ctx context.Context, sv solvers.Solver) (bool, error) {
	if !g.sudoku() {
		return false, ErrNotSudoku
	}
	if g.Erroneous() {
		return false, ErrErroneous
	}
	_, err := g.solve(ctx, sv, g.Grid())
	if errors.Is(err, ErrUnsolvable) {
		return false, nil
	}
	return err == nil, err
}

// Hint returns the value of the cell at row, col in a solution of the board
// as it stands, found by sv. The checks come in the console game's order:
// *RangeError, ErrErroneous, ErrFixed, ErrFilled (the cell has a value),
// then ErrUnsolvable or the solver's error.
func (g *Game) Hint(ctx context.Context, sv solvers.Solver, row, col int) (int, error) {
	i, err := g.index(row, col)
	if err != nil {
		return 0, err
	}
	switch {
	case !g.sudoku():
		return 0, ErrNotSudoku
	case g.Erroneous():
		return 0, ErrErroneous
	case g.fixed[i]:
		return 0, ErrFixed
	case g.values[i] != 0:
		return 0, ErrFilled
	}
	sol, err := g.solve(ctx, sv, g.Grid())
	if err != nil {
		return 0, err
	}
	return sol.Cells[i], nil
}

// CountSolutions counts the ways to complete the board as it stands with
// the explicit-stack backtracker (solvers.Count: limit 0 counts all,
// progress as documented there). Errors: ErrErroneous, or a count stopped
// by ctx (the count so far is returned with it).
func (g *Game) CountSolutions(ctx context.Context, limit uint64, progress func(solvers.CountProgress)) (uint64, error) {
	if !g.sudoku() {
		return 0, ErrNotSudoku
	}
	if g.Erroneous() {
		return 0, ErrErroneous
	}
	return solvers.Count(ctx, g.Grid(), limit, progress)
}

// Generate writes a random puzzle on an empty board as one move, as the
// console game's specification says: fill random cells with legal values,
// solve with sv, keep keep random cells of the solution (up to
// GenerateTries attempts; the puzzle need not be unique). Errors in the
// specification's order: *RangeError (fill or keep outside
// 0..EmptyCells()), ErrNotEmpty, ErrGeneratorFailed; when ctx ends, ctx's
// error with the board unchanged.
func (g *Game) Generate(ctx context.Context, sv solvers.Solver, rng *rand.Rand, fill, keep int) (Move, error) {
	e := g.EmptyCells()
	if fill < 0 || fill > e {
		return Move{}, &RangeError{What: "fill", Value: fill, Min: 0, Max: e}
	}
	if keep < 0 || keep > e {
		return Move{}, &RangeError{What: "keep", Value: keep, Min: 0, Max: e}
	}
	if !g.Empty() {
		return Move{}, ErrNotEmpty
	}
	if !g.sudoku() {
		return Move{}, ErrNotSudoku
	}
	nn := len(g.values)
	for try := 0; try < GenerateTries; try++ {
		if err := ctx.Err(); err != nil {
			return Move{}, err
		}
		// scratch is a board of its own: its counts answer "legal?".
		scratch, _ := New(g.shape)
		ok := true
		for _, i := range rng.Perm(nn)[:fill] {
			legal := scratch.legal(i).Values()
			if len(legal) == 0 {
				ok = false
				break
			}
			scratch.put(i, legal[rng.IntN(len(legal))])
		}
		if !ok {
			continue
		}
		sol, err := g.solve(ctx, sv, scratch.Grid())
		if err != nil {
			if ctx.Err() != nil {
				return Move{}, ctx.Err()
			}
			continue // unsolvable, or the solver failed: start over
		}
		m := Move{Kind: KindGenerate}
		kept := make([]bool, nn)
		for _, i := range rng.Perm(nn)[:keep] {
			kept[i] = true
		}
		for i := range kept {
			if kept[i] {
				m.Changes = append(m.Changes, g.change(i, sol.Cells[i], g.marks[i]))
			}
		}
		if len(m.Changes) == 0 {
			return m, nil
		}
		return g.record(m), nil
	}
	return Move{}, ErrGeneratorFailed
}
