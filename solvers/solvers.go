// Package solvers puts every way sudokuar solves a Sudoku behind one small
// interface, so the command line, the web and the benchmarks pick one by
// name (New, Names) and compare them on equal terms.
//
// In: a puzzle (any box shape) and a context bounding the time. Out: the
// solution and the search's statistics, or an error saying why there is
// none. A solver never returns a grid that breaks a rule: Check verifies it.
package solvers

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Solver solves Sudoku puzzles. A Solver is not safe for concurrent use:
// make one per goroutine (New is cheap).
type Solver interface {
	// Name is the solver's short name, as given to New and on the
	// command line (dlx, bits, backtrack, stack, ilp, logic, anneal, cga).
	Name() string
	// Solve returns a solution of g. It gives up with an error wrapping
	// ctx.Err() when ctx is done. Errors: *sudoku.ConflictError for
	// conflicting givens, sudoku.ErrNoSolution, sudoku.ErrInvalidGrid
	// (wrapped) for a malformed grid, *TimeoutError, ErrStuck.
	Solve(ctx context.Context, g sudoku.Grid) (Result, error)
}

// Result is a solution and what it took to find it.
type Result struct {
	Solution sudoku.Grid
	Stats    Stats
}

// Stats counts a solver's work. Fields a solver has no use for stay zero.
type Stats struct {
	Elapsed    time.Duration
	Nodes      uint64 // search nodes or branches tried (exact solvers)
	Iterations uint64 // moves or generations (stochastic solvers)
	Restarts   int    // restarts or reheats (stochastic solvers)
}

// ErrStuck is returned by a solver that reasons without guessing when no
// technique it knows makes progress.
var ErrStuck = errors.New("solvers: no technique makes progress")

// TimeoutError is returned when the context ends before a solution is
// found. A stochastic solver fills in Conflicts (rule violations in the
// best state it reached) so a person can see how close it came; Best is
// that state.
type TimeoutError struct {
	Solver    string
	Conflicts int // -1 when the solver has no notion of a best state
	Best      sudoku.Grid
	Stats     Stats
	Err       error // the context's error
}

func (e *TimeoutError) Error() string {
	if e.Conflicts >= 0 {
		return fmt.Sprintf("%s: gave up after %v: best state has %d conflicts", e.Solver, e.Stats.Elapsed.Round(time.Millisecond), e.Conflicts)
	}
	return fmt.Sprintf("%s: gave up after %v", e.Solver, e.Stats.Elapsed.Round(time.Millisecond))
}

func (e *TimeoutError) Unwrap() error { return e.Err }

// Options tunes the solvers that take options; the zero value is the
// default for each.
type Options struct {
	// Seed makes stochastic solvers reproducible.
	Seed uint64
	// Anneal and CGA tune the metaheuristics; their zero values are the
	// tuned defaults.
	Anneal AnnealParams
	CGA    CGAParams
}

// factory makes one kind of solver.
type factory struct {
	name    string
	summary string
	make    func(Options) Solver
}

// factories lists the solvers New knows, in the order Names gives them.
func factories() []factory {
	return []factory{
		{"dlx", "Knuth's dancing links (exact cover); the default", func(Options) Solver { return NewDLX() }},
		{"bits", "bit-parallel singles and locked candidates, bivalue guesses (9x9 with 3x3 boxes only); counts solutions (Count)", func(Options) Solver { return NewBits() }},
		{"backtrack", "classic recursive backtracking, first empty cell first", func(Options) Solver { return NewBacktrack() }},
		{"stack", "exhaustive backtracking with an explicit stack, fewest-values cell first; counts solutions (Count)", func(Options) Solver { return NewStack() }},
		{"ilp", "0-1 integer program solved by GLPK, after propagating naked and hidden singles", func(Options) Solver { return NewILP() }},
		{"logic", "human techniques only, never a guess; says when it is stuck", func(Options) Solver { return NewLogic() }},
		{"anneal", "simulated annealing over box permutations (stochastic)", func(o Options) Solver { return NewAnneal(o.Seed, o.Anneal) }},
		{"cga", "cultural genetic algorithm over box permutations (stochastic)", func(o Options) Solver { return NewCGA(o.Seed, o.CGA) }},
	}
}

// Names returns the names New accepts, the default (dlx) first.
func Names() []string {
	var out []string
	for _, f := range factories() {
		out = append(out, f.name)
	}
	return out
}

// Summary returns a one-line description of the named solver, or "".
func Summary(name string) string {
	for _, f := range factories() {
		if f.name == name {
			return f.summary
		}
	}
	return ""
}

// New returns the solver called name.
func New(name string, opts Options) (Solver, error) {
	for _, f := range factories() {
		if f.name == name {
			return f.make(opts), nil
		}
	}
	names := Names()
	sort.Strings(names)
	return nil, fmt.Errorf("solvers: unknown solver %q (want one of %v)", name, names)
}

// Check reports whether solution is a full, rule-abiding grid of the same
// shape as puzzle that keeps every given of puzzle. It returns nil or an
// error naming the first broken rule.
func Check(puzzle, solution sudoku.Grid) error {
	n := puzzle.N()
	if solution.Shape != puzzle.Shape || len(solution.Cells) != n*n || len(puzzle.Cells) != n*n {
		return fmt.Errorf("solution is %v with %d cells, puzzle %v with %d", solution.Shape, len(solution.Cells), puzzle.Shape, len(puzzle.Cells))
	}
	for i, v := range solution.Cells {
		if v < 1 || v > n {
			return fmt.Errorf("r%dc%d holds %d, want 1..%d", i/n+1, i%n+1, v, n)
		}
		if g := puzzle.Cells[i]; g != 0 && g != v {
			return fmt.Errorf("r%dc%d holds %d but the given is %d", i/n+1, i%n+1, v, g)
		}
	}
	if cs := sudoku.Validate(solution); len(cs) > 0 {
		return fmt.Errorf("breaks a rule: %v", cs[0])
	}
	return nil
}
