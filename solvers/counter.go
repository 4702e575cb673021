package solvers

import (
	"context"
	"errors"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Counter is implemented by the exact solvers that can also count a
// puzzle's solutions (dlx, bits, backtrack, stack): `sudokuar solve --count`
// uses it.
type Counter interface {
	// Count returns the number of solutions of g, stopping at limit
	// (limit <= 0: all). Conflicting givens have 0 solutions and no
	// error; a malformed grid is an error wrapping sudoku.ErrInvalidGrid.
	// When ctx ends first it returns the count so far and an error
	// wrapping ctx.Err().
	Count(ctx context.Context, g sudoku.Grid, limit int) (int, error)
}

// isConflict reports whether err says the givens conflict.
func isConflict(err error) bool {
	var ce *sudoku.ConflictError
	return errors.As(err, &ce)
}

// Count returns the number of solutions of g up to limit with dancing
// links. The search is not interrupted once it starts; ctx is checked
// before it.
func (d *DLX) Count(ctx context.Context, g sudoku.Grid, limit int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, &TimeoutError{Solver: d.Name(), Conflicts: -1, Err: err}
	}
	sv, err := d.solver(g.Shape)
	if err != nil {
		return 0, err
	}
	return sv.Count(g, limit)
}
