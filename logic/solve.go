package logic

import (
	"context"
	"errors"
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// SolveSteps solves p by logic alone, always taking the simplest step in the
// order people learn the techniques, and returns the solution with the
// steps. It never guesses: when no technique applies it returns the steps so
// far and an error wrapping ErrStuck. A puzzle with several solutions cannot
// be solved by logic at all; it fails at once with an error wrapping both
// ErrSeveralSolutions and ErrStuck. Other errors: those of NewGrid, a
// wrapped sudoku.ErrNoSolution, and ctx's error when ctx is done.
func SolveSteps(ctx context.Context, p sudoku.Grid) (sudoku.Grid, []Step, error) {
	g, err := NewGrid(p)
	if err != nil {
		return sudoku.Grid{}, nil, err
	}
	if _, err := uniqueSolution(p); err != nil {
		if errors.Is(err, ErrSeveralSolutions) {
			return sudoku.Grid{}, nil, fmt.Errorf("%w: %w", ErrSeveralSolutions, ErrStuck)
		}
		return sudoku.Grid{}, nil, err
	}
	g.unique = true
	if ctx.Done() != nil {
		g.ctx = ctx
	}
	var steps []Step
	for !g.Solved() {
		if err := ctx.Err(); err != nil {
			return sudoku.Grid{}, steps, err
		}
		s, ok := NextStep(g)
		if err := ctx.Err(); err != nil {
			return sudoku.Grid{}, steps, err
		}
		if !ok {
			return sudoku.Grid{}, steps, ErrStuck
		}
		if err := g.Apply(s); err != nil {
			return sudoku.Grid{}, steps, err
		}
		steps = append(steps, s)
	}
	return g.Values(), steps, nil
}
