package solvers

import (
	"context"
	"errors"
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// ErrShape is wrapped by the error of a solver given a box shape it does
// not handle (bits takes 9×9 grids with 3×3 boxes only).
var ErrShape = errors.New("solvers: box shape not supported")

// Bits solves 9×9 grids with 3×3 boxes by bit-parallel constraint
// propagation (a bitboard per digit; naked and hidden singles and locked
// candidates over whole houses at once) and guesses on a two-candidate
// cell with a small explicit stack: the fastest exact solver here, and the
// one sudoku.NewSolver picks for 9×9. Other shapes are refused with an
// error wrapping ErrShape.
type Bits struct {
	sv *sudoku.Solver
}

// NewBits returns the bit-parallel solver.
func NewBits() *Bits { return &Bits{} }

// Name returns "bits".
func (*Bits) Name() string { return "bits" }

// solver returns the engine for g's shape, or why there is none.
func (b *Bits) solver(g sudoku.Grid) (*sudoku.Solver, error) {
	if g.Shape != (sudoku.Shape{BoxRows: 3, BoxCols: 3}) {
		return nil, fmt.Errorf("bits: %w: %v boxes (it solves 9x9 grids with 3x3 boxes; use dlx)", ErrShape, g.Shape)
	}
	if b.sv == nil {
		sv, err := sudoku.NewSolver(g.Shape)
		if err != nil {
			return nil, err
		}
		if sv.Engine() != "bits" {
			return nil, fmt.Errorf("bits: engine %s for %v", sv.Engine(), g.Shape)
		}
		b.sv = sv
	}
	return b.sv, nil
}

// Solve returns the first solution of g (the only one of a proper
// puzzle). The search is not interrupted once it starts (it takes
// microseconds); ctx is checked before it.
func (b *Bits) Solve(ctx context.Context, g sudoku.Grid) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, &TimeoutError{Solver: b.Name(), Conflicts: -1, Err: err}
	}
	sv, err := b.solver(g)
	if err != nil {
		return Result{}, err
	}
	return exactSolve(sv, g)
}

// Count returns the number of solutions of g up to limit (limit <= 0:
// all). The search is not interrupted once it starts; ctx is checked
// before it.
func (b *Bits) Count(ctx context.Context, g sudoku.Grid, limit int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, &TimeoutError{Solver: b.Name(), Conflicts: -1, Err: err}
	}
	sv, err := b.solver(g)
	if err != nil {
		return 0, err
	}
	return sv.Count(g, limit)
}
