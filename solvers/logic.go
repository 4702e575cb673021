package solvers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

// Logic solves the way a person does, with the techniques of package
// logic and never a guess (logic.SolveSteps). When no technique it knows
// makes progress it returns an error wrapping ErrStuck rather than guess.
// Grids from 4x4 to 16x16.
type Logic struct{}

// NewLogic returns the logical solver.
func NewLogic() *Logic { return &Logic{} }

// Name returns "logic".
func (*Logic) Name() string { return "logic" }

// Solve solves g by logic alone. Stats.Iterations counts the steps taken.
func (l *Logic) Solve(ctx context.Context, g sudoku.Grid) (Result, error) {
	start := time.Now()
	if err := checkGivens(g); err != nil {
		return Result{}, err
	}
	sol, steps, err := logic.SolveSteps(ctx, g)
	st := Stats{Elapsed: time.Since(start), Iterations: uint64(len(steps))}
	switch {
	case err == nil:
		if cerr := Check(g, sol); cerr != nil {
			return Result{Stats: st}, fmt.Errorf("solvers: logic: internal error, %v", cerr)
		}
		return Result{Solution: sol, Stats: st}, nil
	case errors.Is(err, logic.ErrStuck):
		return Result{Stats: st}, fmt.Errorf("%w after %d steps (%v)", ErrStuck, len(steps), err)
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return Result{Stats: st}, &TimeoutError{Solver: l.Name(), Conflicts: -1, Stats: st, Err: err}
	}
	return Result{Stats: st}, err
}
