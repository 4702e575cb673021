package sudoku

import (
	"context"
	"errors"
	"fmt"

	"github.com/sudokuar/sudokuar/dlx"
)

// Solver solves puzzles of one shape with its fastest exact engine: the
// bit-parallel solver for 9×9 with 3×3 boxes (bits.go), dancing links
// otherwise (NewDLXSolver: always). The exact-cover matrix (a row per cell
// and value; columns for each cell, and each value once per row, column and
// box) is built once; each puzzle selects its givens, searches, and undoes
// the selections. Reuse one Solver for many puzzles, from one goroutine.
type Solver struct {
	shape  Shape
	n      int
	m      *dlx.Matrix // built by matrix on first use
	bits   *bitSolver  // nil: solve with dancing links
	budget uint64
	dst    []int // where record writes the current solution
	record func(rows []int) bool
	// Masks of the values seen per row, column and box, to catch
	// conflicting givens before the search.
	seen []uint32
	box  []int32 // box of each cell
}

// NewSolver builds a solver for grids of shape s, using the bit-parallel
// engine for 9×9 grids with 3×3 boxes and dancing links for the others.
func NewSolver(s Shape) (*Solver, error) {
	sv, err := NewDLXSolver(s)
	if err != nil {
		return nil, err
	}
	if s == (Shape{3, 3}) {
		sv.bits = new(bitSolver)
	}
	return sv, nil
}

// NewDLXSolver builds a solver for grids of shape s that always searches
// with dancing links (the solver zoo's dlx, and the DLX benchmarks).
func NewDLXSolver(s Shape) (*Solver, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("%w: box shape %v", ErrInvalidGrid, s)
	}
	n := s.N()
	sv := &Solver{
		shape: s,
		n:     n,
		seen:  make([]uint32, 3*n),
		box:   make([]int32, n*n),
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			sv.box[r*n+c] = int32(s.boxOf(r, c))
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

// matrix returns the exact-cover matrix, building it on first use.
func (sv *Solver) matrix() *dlx.Matrix {
	if sv.m != nil {
		return sv.m
	}
	n := sv.n
	nn := n * n
	sv.m = dlx.New(4*nn, 0)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			b := int(sv.box[r*n+c])
			for d := 0; d < n; d++ {
				// Row number (r*n+c)*n+d encodes cell and value.
				sv.m.AddRow(r*n+c, nn+r*n+d, 2*nn+c*n+d, 3*nn+b*n+d)
			}
		}
	}
	sv.m.SetBudget(sv.budget)
	return sv.m
}

// Engine names the search the solver uses: "bits" or "dlx".
func (sv *Solver) Engine() string {
	if sv.bits != nil {
		return "bits"
	}
	return "dlx"
}

// Shape returns the shape of the grids the solver takes.
func (sv *Solver) Shape() Shape { return sv.shape }

// Stats returns the search work done so far (for benchmarks): for the
// bit-parallel engine, Nodes counts propagations and Updates guesses.
func (sv *Solver) Stats() dlx.Stats {
	var st dlx.Stats
	if sv.m != nil {
		st = sv.m.Stats()
	}
	if sv.bits != nil {
		st.Nodes += sv.bits.nodes
		st.Updates += sv.bits.guess
	}
	return st
}

// ResetStats sets the work counters to zero.
func (sv *Solver) ResetStats() {
	if sv.m != nil {
		sv.m.ResetStats()
	}
	if sv.bits != nil {
		sv.bits.nodes, sv.bits.guess = 0, 0
	}
}

// SetBudget limits each later search to about n search nodes (0: no
// limit; for the bit-parallel engine a node is a propagation, and it
// needs some 30 times fewer than dancing links); a search that runs out
// fails with an error wrapping dlx.ErrBudget. Useful when solving guesses that may be far from a real
// puzzle.
func (sv *Solver) SetBudget(n uint64) {
	sv.budget = n
	if sv.m != nil {
		sv.m.SetBudget(n)
	}
	if sv.bits != nil {
		sv.bits.budget = n
	}
}

// load checks g and hands its givens to the engine. On error nothing
// stays selected.
func (sv *Solver) load(g Grid) error {
	if err := sv.check(g); err != nil {
		return err
	}
	if sv.bits != nil {
		sv.bits.load(g.Cells)
		return nil
	}
	m := sv.matrix()
	n := sv.n
	for i, v := range g.Cells {
		if v != 0 && !m.Select(i*n+v-1) {
			m.Reset() // cannot happen after the mask check, but stay safe
			return &ConflictError{Conflicts: Validate(g)}
		}
	}
	return nil
}

// check reports whether g fits the solver and its givens keep the rules.
func (sv *Solver) check(g Grid) error {
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
	return nil
}

// search runs the engine on the loaded grid: up to limit solutions, the
// first written to dst when dst is not nil.
func (sv *Solver) search(limit int, dst []int) (int, error) {
	if sv.bits != nil {
		return sv.bits.search(limit, dst)
	}
	if dst == nil {
		return sv.m.SearchThenReset(limit, nil)
	}
	sv.dst = dst
	defer func() { sv.dst = nil }()
	return sv.m.SearchThenReset(limit, sv.record)
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
	found, err := sv.search(1, dst)
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
// the search busy for minutes. A 9×9 goes to the bit-parallel search,
// which only the node budget (SetBudget) stops.
func (sv *Solver) CountContext(ctx context.Context, g Grid, limit int) (int, error) {
	if err := sv.load(g); err != nil {
		var ce *ConflictError
		if errors.As(err, &ce) {
			return 0, nil
		}
		return 0, err
	}
	var found int
	var err error
	if ctx.Done() == nil || sv.bits != nil {
		// A context that never ends (Count), or a 9×9: the bit-parallel
		// search does not look at ctx; the node budget (SetBudget) bounds
		// it.
		found, err = sv.search(limit, nil)
	} else {
		found, err = sv.m.SearchThenResetContext(ctx, limit, nil)
	}
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
