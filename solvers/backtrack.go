package solvers

import (
	"context"
	"math/bits"
	"time"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Backtrack is the classic recursive backtracker, as the Java seed
// describes it: find the first empty cell (row by row), place the smallest
// value that no cell of its row, column or box holds, and go on; when a
// cell has no such value left, go back and try the next value in the cell
// before. The only concession to speed is that the values each unit holds
// are kept as bit masks. It does not choose the most constrained cell, so
// it is fast on easy puzzles and can take very long on hard ones: that is
// the point of having it in the zoo.
type Backtrack struct {
	l     *layout
	cells []int
	used  []uint32 // values placed in each unit: rows, columns, boxes
	empty []int32  // the empty cells, in row-major order
	ctx   context.Context
	nodes uint64
	stop  error // set when the context ended
	// count mode
	limit int
	found int
	first []int // the first solution seen
}

// NewBacktrack returns a recursive backtracker.
func NewBacktrack() *Backtrack { return &Backtrack{} }

// Name returns "backtrack".
func (*Backtrack) Name() string { return "backtrack" }

// ctxEvery is how many search nodes pass between looks at the context.
const ctxEvery = 1 << 14

// load checks g and sets up the search over its empty cells.
func (b *Backtrack) load(ctx context.Context, g sudoku.Grid) error {
	if err := checkGivens(g); err != nil {
		return err
	}
	if b.l == nil || b.l.shape != g.Shape {
		b.l = newLayout(g.Shape)
	}
	n := b.l.n
	b.cells = append(b.cells[:0], g.Cells...)
	b.used = make([]uint32, 3*n)
	b.empty = b.empty[:0]
	for i, v := range b.cells {
		if v == 0 {
			b.empty = append(b.empty, int32(i))
			continue
		}
		b.flip(i, v)
	}
	b.ctx, b.nodes, b.stop, b.found, b.first = ctx, 0, nil, 0, nil
	return nil
}

// flip adds or removes value v of cell i in the masks of its units.
func (b *Backtrack) flip(i, v int) {
	bit := uint32(1) << v
	n := b.l.n
	b.used[b.l.row[i]] ^= bit
	b.used[n+int(b.l.col[i])] ^= bit
	b.used[2*n+int(b.l.box[i])] ^= bit
}

// search fills b.empty[k:] and reports whether to stop (enough solutions,
// or the context ended).
func (b *Backtrack) search(k int) bool {
	b.nodes++
	if b.nodes%ctxEvery == 0 {
		if err := b.ctx.Err(); err != nil {
			b.stop = err
			return true
		}
	}
	if k == len(b.empty) {
		b.found++
		if b.first == nil {
			b.first = append([]int(nil), b.cells...)
		}
		return b.limit > 0 && b.found >= b.limit
	}
	i := int(b.empty[k])
	n := b.l.n
	free := fullMask(n) &^ (b.used[b.l.row[i]] | b.used[n+int(b.l.col[i])] | b.used[2*n+int(b.l.box[i])])
	for free != 0 {
		v := bits.TrailingZeros32(free)
		free &= free - 1
		b.cells[i] = v
		b.flip(i, v)
		stop := b.search(k + 1)
		b.flip(i, v)
		b.cells[i] = 0
		if stop {
			return true
		}
	}
	return false
}

// Solve returns the first solution of g in the backtracker's order.
func (b *Backtrack) Solve(ctx context.Context, g sudoku.Grid) (Result, error) {
	start := time.Now()
	if err := b.load(ctx, g); err != nil {
		return Result{}, err
	}
	b.limit = 1
	b.search(0)
	st := Stats{Elapsed: time.Since(start), Nodes: b.nodes}
	if b.stop != nil {
		return Result{Stats: st}, &TimeoutError{Solver: b.Name(), Conflicts: -1, Stats: st, Err: b.stop}
	}
	if b.found == 0 {
		return Result{Stats: st}, sudoku.ErrNoSolution
	}
	return Result{Solution: sudoku.Grid{Shape: g.Shape, Cells: b.first}, Stats: st}, nil
}

// Count returns the number of solutions of g, stopping at limit (limit <=
// 0: all of them). Conflicting givens have no solution (0, nil); a
// malformed grid is an error. When ctx ends first it returns the count so
// far and a *TimeoutError.
func (b *Backtrack) Count(ctx context.Context, g sudoku.Grid, limit int) (int, error) {
	start := time.Now()
	if err := b.load(ctx, g); err != nil {
		if isConflict(err) {
			return 0, nil
		}
		return 0, err
	}
	b.limit = limit
	b.search(0)
	if b.stop != nil {
		return b.found, &TimeoutError{Solver: b.Name(), Conflicts: -1, Stats: Stats{Elapsed: time.Since(start), Nodes: b.nodes}, Err: b.stop}
	}
	return b.found, nil
}
