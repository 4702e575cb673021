package solvers

import (
	"context"
	"time"

	"github.com/sudokuar/sudokuar/sudoku"
)

// DLX solves with Knuth's dancing links through sudoku.Solver, keeping one
// exact-cover matrix per box shape it has seen.
type DLX struct {
	byShape map[sudoku.Shape]*sudoku.Solver
}

// NewDLX returns a dancing-links solver.
func NewDLX() *DLX { return &DLX{byShape: map[sudoku.Shape]*sudoku.Solver{}} }

// Name returns "dlx".
func (*DLX) Name() string { return "dlx" }

// Solve returns the first solution of g. The search is not interrupted
// once it starts (a 9×9 takes microseconds, a 25×25 milliseconds); ctx is
// checked before it.
func (d *DLX) Solve(ctx context.Context, g sudoku.Grid) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, &TimeoutError{Solver: d.Name(), Conflicts: -1, Err: err}
	}
	sv, err := d.solver(g.Shape)
	if err != nil {
		return Result{}, err
	}
	return exactSolve(sv, g)
}

// exactSolve solves g with sv (dlx and bits), timing the search and
// counting its nodes.
func exactSolve(sv *sudoku.Solver, g sudoku.Grid) (Result, error) {
	start := time.Now()
	before := sv.Stats().Nodes
	sol, err := sv.Solve(g)
	st := Stats{Elapsed: time.Since(start), Nodes: sv.Stats().Nodes - before}
	if err != nil {
		return Result{Stats: st}, err
	}
	return Result{Solution: sol, Stats: st}, nil
}

// solver returns the exact-cover solver for shape s, built on first use.
func (d *DLX) solver(s sudoku.Shape) (*sudoku.Solver, error) {
	if sv, ok := d.byShape[s]; ok {
		return sv, nil
	}
	sv, err := sudoku.NewDLXSolver(s)
	if err != nil {
		return nil, err
	}
	d.byShape[s] = sv
	return sv, nil
}
