package sudoku

import (
	"context"
	"errors"
	"fmt"

	"github.com/sudokuar/sudokuar/dlx"
)

// Solver solves puzzles of one shape. It builds the exact-cover matrix once
// (N³ rows, one per cell and value; 4N² columns: each cell filled, each
// value once per row, per column and per box) and reuses it for every
// puzzle: the givens are selected as rows of the matrix, the search runs on
// what is left, and the selections are undone. Reuse one Solver for many
// puzzles; a Solver is not safe for concurrent use.
type Solver struct {
	shape  Shape
	n      int
	m      *dlx.Matrix
	dst    []int // where record writes the current solution
	record func(rows []int) bool
	// Masks of the values seen per row, column and box, to catch
	// conflicting givens before the search.
	seen []uint32
	box  []int32 // box of each cell
}

// NewSolver builds a solver for grids of shape s.
func NewSolver(s Shape) (*Solver, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("%w: box shape %v", ErrInvalidGrid, s)
	}
	n := s.N()
	nn := n * n
	sv := &Solver{
		shape: s,
		n:     n,
		m:     dlx.New(4*nn, 0),
		seen:  make([]uint32, 3*n),
		box:   make([]int32, nn),
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			b := s.boxOf(r, c)
			sv.box[r*n+c] = int32(b)
			for d := 0; d < n; d++ {
				// Row number (r*n+c)*n+d encodes cell and value.
				sv.m.AddRow(r*n+c, nn+r*n+d, 2*nn+c*n+d, 3*nn+b*n+d)
			}
		}
	}
	sv.record = func(rows []int) bool {
		for _, x := range rows {
			sv.dst[x/sv.n] = x%sv.n + 1
		}
		return true
	}
	return sv, nil
}

// Shape returns the shape of the grids the solver takes.
func (sv *Solver) Shape() Shape { return sv.shape }

// Stats returns the search work done so far (for benchmarks).
func (sv *Solver) Stats() dlx.Stats { return sv.m.Stats() }

// SetBudget limits each later search to about n search nodes (0: no
// limit); a search that runs out fails with an error wrapping
// dlx.ErrBudget. Useful when solving guesses that may be far from a real
// puzzle.
func (sv *Solver) SetBudget(n uint64) { sv.m.SetBudget(n) }

// load checks g and selects its givens. On error nothing stays selected.
func (sv *Solver) load(g Grid) error {
	if g.Shape != sv.shape {
		return fmt.Errorf("%w: %v grid given to a %v solver", ErrInvalidGrid, g.Shape, sv.shape)
	}
	n := sv.n
	if len(g.Cells) != n*n {
		return fmt.Errorf("%w: %d cells for a %dx%d grid", ErrInvalidGrid, len(g.Cells), n, n)
	}
	clear(sv.seen)
	rows, cols, boxes := sv.seen[:n], sv.seen[n:2*n], sv.seen[2*n:]
	for i, v := range g.Cells {
		if v == 0 {
			continue
		}
		if uint(v) > uint(n) {
			return fmt.Errorf("%w: value %d at r%dc%d out of range 0..%d", ErrInvalidGrid, v, i/n+1, i%n+1, n)
		}
		bit := uint32(1) << v
		r, c, b := i/n, i%n, sv.box[i]
		if (rows[r]|cols[c]|boxes[b])&bit != 0 {
			return &ConflictError{Conflicts: Validate(g)}
		}
		rows[r] |= bit
		cols[c] |= bit
		boxes[b] |= bit
	}
	for i, v := range g.Cells {
		if v != 0 && !sv.m.Select(i*n+v-1) {
			sv.m.Reset() // cannot happen after the mask check, but stay safe
			return &ConflictError{Conflicts: Validate(g)}
		}
	}
	return nil
}

// SolveInto writes the first solution of g into dst (which must hold N*N
// cells) without allocating. Errors: ErrInvalidGrid (wrapped),
// *ConflictError, ErrNoSolution, or a budget error (see SetBudget).
func (sv *Solver) SolveInto(dst []int, g Grid) error {
	if len(dst) != sv.n*sv.n {
		return fmt.Errorf("%w: destination holds %d cells, want %d", ErrInvalidGrid, len(dst), sv.n*sv.n)
	}
	if err := sv.load(g); err != nil {
		return err
	}
	sv.dst = dst
	found, err := sv.m.SearchThenReset(1, sv.record)
	sv.dst = nil
	if err != nil {
		return fmt.Errorf("sudoku: solve: %w", err)
	}
	if found == 0 {
		return ErrNoSolution
	}
	return nil
}

// Solve returns the first solution of g (the only one if g is a proper
// puzzle). Errors as for SolveInto.
func (sv *Solver) Solve(g Grid) (Grid, error) {
	out := NewGrid(sv.shape)
	if err := sv.SolveInto(out.Cells, g); err != nil {
		return Grid{}, err
	}
	return out, nil
}

// Count returns the number of solutions of g, stopping at limit (limit <= 0
// counts them all, which for a nearly empty grid takes forever). A grid
// with conflicting givens has 0 solutions and no error; the errors are
// ErrInvalidGrid (wrapped) and the budget error.
func (sv *Solver) Count(g Grid, limit int) (int, error) {
	return sv.CountContext(context.Background(), g, limit)
}

// CountContext is Count that gives up when ctx ends (checked every few
// thousand search nodes, well under a millisecond): it returns the count
// so far and an error wrapping ctx.Err(). A server counts what strangers
// send this way: a 16×16 with no solution but no clashing givens can keep
// the search busy for minutes.
func (sv *Solver) CountContext(ctx context.Context, g Grid, limit int) (int, error) {
	if err := sv.load(g); err != nil {
		var ce *ConflictError
		if errors.As(err, &ce) {
			return 0, nil
		}
		return 0, err
	}
	found, err := sv.m.SearchThenResetContext(ctx, limit, nil)
	if err != nil {
		return found, fmt.Errorf("sudoku: count: %w", err)
	}
	return found, nil
}

// Solve returns the first solution of g. It builds a Solver for the call;
// to solve many puzzles, make one Solver and reuse it. Errors:
// ErrInvalidGrid (wrapped), *ConflictError (conflicting givens) and
// ErrNoSolution.
func Solve(g Grid) (Grid, error) {
	sv, err := NewSolver(g.Shape)
	if err != nil {
		return Grid{}, err
	}
	return sv.Solve(g)
}

// CountSolutions returns the number of solutions of g, at most limit (limit
// <= 0: all). A malformed or conflicting grid has 0.
func CountSolutions(g Grid, limit int) int {
	sv, err := NewSolver(g.Shape)
	if err != nil {
		return 0
	}
	n, _ := sv.Count(g, limit)
	return n
}

// CountSolutionsContext is CountSolutions that gives up when ctx ends,
// with the count so far and an error wrapping ctx.Err() (see
// Solver.CountContext). A malformed grid is an error wrapping
// ErrInvalidGrid; a conflicting one has 0 solutions and no error.
func CountSolutionsContext(ctx context.Context, g Grid, limit int) (int, error) {
	sv, err := NewSolver(g.Shape)
	if err != nil {
		return 0, err
	}
	return sv.CountContext(ctx, g, limit)
}

// IsUnique reports whether g has exactly one solution.
func IsUnique(g Grid) bool { return CountSolutions(g, 2) == 1 }
