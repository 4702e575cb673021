package logic

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Rating is how hard a puzzle is for a person: the rating of the hardest
// step of the easiest-first solution on the Sudoku Explainer scale
// (1.0–11+), its level, the technique of that step, and the steps. EP and
// ED are the forum's other two figures, as Sudoku Explainer's serate
// computes them: EP (pearl) the hardest step up to and including the
// first that settles a cell, ED (diamond) the rating of the first step.
type Rating struct {
	SE      float64 `json:"se"`
	EP      float64 `json:"ep"`
	ED      float64 `json:"ed"`
	Level   Level   `json:"level"`
	Hardest string  `json:"hardest"`
	Steps   []Step  `json:"steps,omitempty"`
}

// Rate solves p the way Sudoku Explainer rates: at every step it applies
// the first step that the techniques, in Sudoku Explainer's order, find;
// the puzzle's rating is the highest step rating. Errors: those of NewGrid
// (*SizeError, wrapped sudoku.ErrInvalidGrid, *sudoku.ConflictError), a
// wrapped sudoku.ErrNoSolution, a wrapped ErrSeveralSolutions ("several
// solutions: not rated") and a wrapped ErrStuck.
func Rate(p sudoku.Grid) (Rating, error) {
	return RateContext(context.Background(), p)
}

// RateContext is Rate that gives up, with ctx's error, when ctx is done.
func RateContext(ctx context.Context, p sudoku.Grid) (Rating, error) {
	g, _, err := prepare(p)
	if err != nil {
		if errors.Is(err, ErrSeveralSolutions) {
			return Rating{}, fmt.Errorf("%w: not rated", err)
		}
		return Rating{}, err
	}
	return rateGrid(ctx, g, true)
}

// prepare builds the grid of p and checks that p has exactly one solution,
// which it returns.
func prepare(p sudoku.Grid) (*Grid, sudoku.Grid, error) {
	g, err := NewGrid(p)
	if err != nil {
		return nil, sudoku.Grid{}, err
	}
	sol, err := uniqueSolution(p)
	if err != nil {
		return nil, sudoku.Grid{}, err
	}
	g.unique = true
	return g, sol, nil
}

// uniqueSolution returns the solution of p, or ErrNoSolution or
// ErrSeveralSolutions.
func uniqueSolution(p sudoku.Grid) (sudoku.Grid, error) {
	sv, release, err := getSolver(p.Shape)
	if err != nil {
		return sudoku.Grid{}, err
	}
	defer release()
	switch n, err := sv.Count(p, 2); {
	case err != nil:
		return sudoku.Grid{}, err
	case n == 0:
		return sudoku.Grid{}, fmt.Errorf("logic: %w", sudoku.ErrNoSolution)
	case n > 1:
		return sudoku.Grid{}, ErrSeveralSolutions
	}
	return sv.Solve(p)
}

// rateGrid solves g in rating order, keeping the steps if keep is set.
func rateGrid(ctx context.Context, g *Grid, keep bool) (Rating, error) {
	var r Rating
	pearlDone := false
	if ctx.Done() != nil {
		g.ctx = ctx
		defer func() { g.ctx = nil }()
	}
	for !g.Solved() {
		if err := ctx.Err(); err != nil {
			return Rating{}, err
		}
		s, ok := nextStep(g, rateOrder)
		if err := ctx.Err(); err != nil {
			return Rating{}, err
		}
		if !ok {
			return Rating{}, fmt.Errorf("%w (after %d steps)", ErrStuck, len(r.Steps))
		}
		if s.Rating > r.SE {
			r.SE, r.Hardest = s.Rating, s.Technique
		}
		if !pearlDone {
			if r.ED == 0 {
				r.ED = s.Rating
			}
			r.EP = r.SE
			pearlDone = s.placesDigit()
		}
		if err := g.Apply(s); err != nil {
			return Rating{}, err
		}
		if keep {
			r.Steps = append(r.Steps, s)
		}
	}
	r.Level = LevelOf(r.SE)
	return r, nil
}

// round1 rounds a rating to one decimal, as the SE scale is written.
func round1(x float64) float64 { return math.Round(x*10) / 10 }
