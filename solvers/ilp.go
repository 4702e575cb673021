package solvers

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sort"
	"time"

	"github.com/sudokuar/sudokuar/ilp"
	"github.com/sudokuar/sudokuar/sudoku"
)

// ILP solves Sudoku as a 0-1 integer program with GLPK (package ilp): a
// binary per open cell and candidate, "exactly one" per cell and per (unit,
// digit) not yet placed, every filled cell kept (the console's validate and
// hint). The puzzle is reduced first: singles until nothing changes, then
// probing (a candidate whose placement on a copy contradicts is dropped),
// then, for Solve only, breakSymmetry. GLPK branches depth first, the
// fewest candidates first; Stats.Nodes counts its nodes.
type ILP struct {
	shapes map[sudoku.Shape]*units
	level  int // how much to reduce before GLPK: reduceSingles or reduceProbe
}

// The reductions ILP can apply before GLPK; the benchmarks compare them.
const (
	reduceSingles = iota + 1 // naked and hidden singles
	reduceProbe              // singles, then probing each candidate
)

// NewILP returns a GLPK-backed solver.
func NewILP() *ILP { return &ILP{shapes: map[sudoku.Shape]*units{}, level: reduceProbe} }

// Name returns "ilp".
func (*ILP) Name() string { return "ilp" }

// Solve returns a solution of g that keeps every filled cell. It returns
// *TimeoutError wrapping ctx.Err() when ctx ends first, and the errors of
// the Solver interface otherwise (*sudoku.ConflictError, sudoku.ErrNoSolution,
// sudoku.ErrInvalidGrid wrapped). Stats.Nodes counts GLPK's
// branch-and-bound nodes (0 when the reduction solved the puzzle).
func (s *ILP) Solve(ctx context.Context, g sudoku.Grid) (Result, error) {
	res, _, err := s.solve(ctx, g, false)
	return res, err
}

// Unique solves g like Solve and also reports whether that solution is
// the only one. When the reduction alone solves g, the solution is forced
// and so unique; otherwise the found solution is excluded from the 0-1
// program (ilp.Model.Exclude) and GLPK solves again: another solution
// means not unique, none means unique. Errors as for Solve.
func (s *ILP) Unique(ctx context.Context, g sudoku.Grid) (Result, bool, error) {
	return s.solve(ctx, g, true)
}

func (s *ILP) solve(ctx context.Context, g sudoku.Grid, unique bool) (Result, bool, error) {
	start := time.Now()
	if err := checkGrid(g); err != nil {
		return Result{}, false, err
	}
	if cs := sudoku.Validate(g); len(cs) > 0 {
		return Result{}, false, &sudoku.ConflictError{Conflicts: cs}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, false, &TimeoutError{Solver: s.Name(), Conflicts: -1, Err: err}
	}
	u, ok := s.shapes[g.Shape]
	if !ok {
		u = newUnits(g.Shape)
		s.shapes[g.Shape] = u
	}
	r := newReduction(u)
	ok = r.load(g)
	if ok && !unique {
		ok = r.breakSymmetry(g)
	}
	if ok && s.level >= reduceProbe {
		ok = r.probe(newReduction(u))
	}
	if !ok {
		return Result{Stats: Stats{Elapsed: time.Since(start)}}, false, sudoku.ErrNoSolution
	}
	if r.open == 0 {
		// Forced all the way: the only solution.
		return Result{Solution: r.grid(g.Shape), Stats: Stats{Elapsed: time.Since(start)}}, true, nil
	}

	m, vars := r.model()
	opts := ilp.Options{DepthFirst: true}
	var st Stats
	fail := func(err error) (Result, bool, error) {
		st.Elapsed = time.Since(start)
		// GLPK's own clock may end the search at the deadline a moment
		// before ctx's timer says so: ilp then reports the deadline
		// itself, and it is as much a timeout.
		for _, end := range []error{context.DeadlineExceeded, context.Canceled} {
			if errors.Is(err, end) {
				return Result{Stats: st}, false, &TimeoutError{Solver: s.Name(), Conflicts: -1, Stats: st, Err: end}
			}
		}
		return Result{Stats: st}, false, fmt.Errorf("ilp solver: %w", err)
	}
	sol, err := m.Solve(ctx, opts)
	if sol != nil {
		st.Nodes += uint64(sol.Nodes)
	}
	if err != nil {
		return fail(err)
	}
	if sol.Status == ilp.Infeasible {
		st.Elapsed = time.Since(start)
		return Result{Stats: st}, false, sudoku.ErrNoSolution
	}
	isUnique := false
	if unique {
		// The cell constraints come first in the model, so Exclude
		// sees that they fix the number of ones and adds the strong cut.
		if _, err := m.Exclude(sol, vars); err != nil {
			return fail(err)
		}
		other, err := m.Solve(ctx, opts)
		if other != nil {
			st.Nodes += uint64(other.Nodes)
		}
		if err != nil {
			return fail(err)
		}
		isUnique = other.Status == ilp.Infeasible
	}
	st.Elapsed = time.Since(start)
	r.read(vars, sol)
	grid := r.grid(g.Shape)
	// GLPK's answers are floating point within a tolerance: make sure
	// this one is a Sudoku solution before anyone sees it.
	if err := Check(g, grid); err != nil {
		return Result{Stats: st}, false, fmt.Errorf("ilp solver: GLPK's answer is wrong: %v", err)
	}
	return Result{Solution: grid, Stats: st}, isUnique, nil
}

// checkGrid reports why g is not a grid value a solver can take, or nil.
func checkGrid(g sudoku.Grid) error {
	if !g.Shape.Valid() {
		return fmt.Errorf("%w: box shape %v", sudoku.ErrInvalidGrid, g.Shape)
	}
	n := g.N()
	if len(g.Cells) != n*n {
		return fmt.Errorf("%w: %d cells for a %dx%d grid", sudoku.ErrInvalidGrid, len(g.Cells), n, n)
	}
	for i, v := range g.Cells {
		if v < 0 || v > n {
			return fmt.Errorf("%w: value %d at r%dc%d out of range 0..%d", sudoku.ErrInvalidGrid, v, i/n+1, i%n+1, n)
		}
	}
	return nil
}

// units lists, for one box shape, the 3N units (rows, then columns, then
// boxes), the three units of each cell and each cell's peers (the other
// cells of its units).
type units struct {
	n      int
	cells  [][]int32 // cells of each unit
	of     [][3]int32
	peers  [][]int32
	allSet uint32 // bits 1..n
}

func newUnits(s sudoku.Shape) *units {
	n := s.N()
	u := &units{n: n, cells: make([][]int32, 3*n), of: make([][3]int32, n*n), peers: make([][]int32, n*n), allSet: (1<<(n+1) - 2)}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			i := int32(r*n + c)
			b := (r/s.BoxRows)*(n/s.BoxCols) + c/s.BoxCols
			u.of[i] = [3]int32{int32(r), int32(n + c), int32(2*n + b)}
			for _, unit := range u.of[i] {
				u.cells[unit] = append(u.cells[unit], i)
			}
		}
	}
	seen := make([]int32, n*n)
	for i := range seen {
		seen[i] = -1
	}
	for i := range u.peers {
		for _, unit := range u.of[i] {
			for _, j := range u.cells[unit] {
				if j != int32(i) && seen[j] != int32(i) {
					seen[j] = int32(i)
					u.peers[i] = append(u.peers[i], j)
				}
			}
		}
	}
	return u
}

// reduction is a grid being reduced: the value of each cell (0: open), the
// candidates of each open cell as a bit set (bit d for digit d) and the
// digits placed in each unit.
type reduction struct {
	u      *units
	val    []int
	cand   []uint32
	placed []uint32
	queue  []int32 // open cells left with one candidate
	open   int
}

func newReduction(u *units) *reduction {
	nn := u.n * u.n
	return &reduction{u: u, val: make([]int, nn), cand: make([]uint32, nn), placed: make([]uint32, 3*u.n)}
}

// load reads g into r and applies the singles (see propagate). It returns
// false on a contradiction: the grid has no solution. g must be free of
// conflicts.
func (r *reduction) load(g sudoku.Grid) bool {
	u := r.u
	clear(r.placed)
	r.queue = r.queue[:0]
	for i, v := range g.Cells {
		r.val[i] = v
		if v != 0 {
			for _, unit := range u.of[i] {
				r.placed[unit] |= 1 << v
			}
		}
	}
	r.open = 0
	for i, v := range g.Cells {
		if v != 0 {
			r.cand[i] = 1 << v
			continue
		}
		r.open++
		of := u.of[i]
		r.cand[i] = u.allSet &^ (r.placed[of[0]] | r.placed[of[1]] | r.placed[of[2]])
		switch bits.OnesCount32(r.cand[i]) {
		case 0:
			return false
		case 1:
			r.queue = append(r.queue, int32(i))
		}
	}
	return r.propagate()
}

// propagate applies naked and hidden singles until neither changes
// anything. It returns false on a contradiction.
func (r *reduction) propagate() bool {
	u := r.u
	for {
		// Naked singles, and the singles they create, first: cheap.
		for len(r.queue) > 0 {
			i := r.queue[len(r.queue)-1]
			r.queue = r.queue[:len(r.queue)-1]
			if r.val[i] != 0 {
				continue
			}
			if r.cand[i] == 0 || !r.place(i, bits.TrailingZeros32(r.cand[i])) {
				return false
			}
		}
		if r.open == 0 {
			return true
		}
		// Hidden singles: per unit, the digits seen in exactly one open
		// cell. A digit neither placed nor possible anywhere is a
		// contradiction.
		progress := false
		for unit, cells := range u.cells {
			var once, twice uint32
			for _, i := range cells {
				if r.val[i] == 0 {
					twice |= once & r.cand[i]
					once |= r.cand[i]
				}
			}
			if u.allSet&^r.placed[unit]&^once != 0 {
				return false
			}
			for single := once &^ twice &^ r.placed[unit]; single != 0; single &= single - 1 {
				d := bits.TrailingZeros32(single)
				for _, i := range cells {
					if r.val[i] == 0 && r.cand[i]&(1<<d) != 0 {
						if !r.place(i, d) {
							return false
						}
						progress = true
						break
					}
				}
			}
		}
		if !progress && len(r.queue) == 0 {
			return true
		}
	}
}

// probe removes the candidates that lead to a contradiction: for each open
// cell and candidate it places the candidate on a scratch copy and
// propagates singles; a contradiction proves the candidate impossible, so
// it is dropped (and singles propagated) for real. This is the probing on
// binary variables that commercial MIP presolvers do and GLPK's does not.
// It repeats until a whole round drops nothing, and returns false when
// the grid has no solution.
func (r *reduction) probe(scratch *reduction) bool {
	for changed := true; changed && r.open > 0; {
		changed = false
		for i := range r.val {
			for c := r.cand[i]; r.val[i] == 0 && c != 0; c &= c - 1 {
				d := bits.TrailingZeros32(c)
				if r.cand[i]&(1<<d) == 0 {
					continue // dropped meanwhile
				}
				scratch.copyFrom(r)
				if scratch.place(int32(i), d) && scratch.propagate() {
					continue
				}
				changed = true
				r.cand[i] &^= 1 << d
				switch bits.OnesCount32(r.cand[i]) {
				case 0:
					return false
				case 1:
					r.queue = append(r.queue, int32(i))
				}
				if !r.propagate() {
					return false
				}
			}
		}
	}
	return true
}

// copyFrom makes r a copy of o (of the same shape).
func (r *reduction) copyFrom(o *reduction) {
	copy(r.val, o.val)
	copy(r.cand, o.cand)
	copy(r.placed, o.placed)
	r.queue = append(r.queue[:0], o.queue...)
	r.open = o.open
}

// place puts digit d in open cell i and removes d from its peers'
// candidates, queueing peers left with one. It returns false on a
// contradiction: d already placed in one of i's units (possible when two
// singles found in one pass claim the same digit), or a peer left with no
// candidate.
func (r *reduction) place(i int32, d int) bool {
	bit := uint32(1) << d
	for _, unit := range r.u.of[i] {
		if r.placed[unit]&bit != 0 {
			return false
		}
		r.placed[unit] |= bit
	}
	r.val[i] = d
	r.cand[i] = bit
	r.open--
	for _, j := range r.u.peers[i] {
		if r.val[j] != 0 || r.cand[j]&bit == 0 {
			continue
		}
		r.cand[j] &^= bit
		switch bits.OnesCount32(r.cand[j]) {
		case 0:
			return false
		case 1:
			r.queue = append(r.queue, j)
		}
	}
	return true
}

// model builds the 0-1 program of what is left: a binary for each open
// cell and remaining candidate, "exactly one" per open cell, and "exactly
// once" per unit and digit not yet placed in it. vars lists the binaries
// cell by cell, candidates in increasing order (read relies on it). The
// cell constraints come first, so that ilp's Exclude sees they fix the
// number of ones and adds its stronger cut.
func (r *reduction) model() (*ilp.Model, []ilp.Var) {
	u := r.u
	m := new(ilp.Model)
	first := make([]ilp.Var, len(r.val)) // first binary of each open cell
	var vars []ilp.Var
	for _, i := range r.order() {
		first[i] = ilp.Var(m.NumVars())
		for c := r.cand[i]; c != 0; c &= c - 1 {
			vars = append(vars, m.Binary())
		}
		m.Add(ilp.Sum(vars[len(vars)-bits.OnesCount32(r.cand[i]):]...), ilp.EQ, 1)
	}
	var terms []ilp.Term
	for unit, cells := range u.cells {
		for left := u.allSet &^ r.placed[unit]; left != 0; left &= left - 1 {
			d := bits.TrailingZeros32(left)
			bit := uint32(1) << d
			terms = terms[:0]
			for _, i := range cells {
				if r.val[i] == 0 && r.cand[i]&bit != 0 {
					// The candidates below d come first in the cell's run.
					k := bits.OnesCount32(r.cand[i] & (bit - 1))
					terms = append(terms, ilp.Term{Var: first[i] + ilp.Var(k), Coef: 1})
				}
			}
			m.Add(terms, ilp.EQ, 1)
		}
	}
	return m, vars
}

// breakSymmetry keeps one of every set of solutions that differ only by
// relabelling the free digits (those no filled cell holds): the one where
// they increase along a row, so the k-th open cell of that row holds a fixed
// digit or one of the k smallest free ones, and larger ones are dropped.
// Solvable stays solvable, so Solve may use it, Unique may not (the copies
// are distinct solutions). It matters on nearly empty grids. It returns
// false on a contradiction.
func (r *reduction) breakSymmetry(puzzle sudoku.Grid) bool {
	u := r.u
	used := uint32(0)
	for _, v := range puzzle.Cells {
		used |= 1 << v
	}
	free := u.allSet &^ used
	if bits.OnesCount32(free) < 2 {
		return true
	}
	// The row with the most open cells: the most candidates to drop.
	row, best := 0, -1
	for k := 0; k < u.n; k++ {
		open := 0
		for _, i := range u.cells[k] {
			if r.val[i] == 0 {
				open++
			}
		}
		if open > best {
			row, best = k, open
		}
	}
	allowed := uint32(0) // the k smallest free digits
	rest := free
	for _, i := range u.cells[row] {
		if r.val[i] != 0 {
			continue
		}
		if rest != 0 {
			allowed |= rest & -rest
			rest &= rest - 1
		}
		r.cand[i] &^= free &^ allowed
		switch bits.OnesCount32(r.cand[i]) {
		case 0:
			return false
		case 1:
			r.queue = append(r.queue, i)
		}
	}
	return r.propagate()
}

// order returns the open cells, those with the fewest candidates first
// (row-major among equals).
func (r *reduction) order() []int {
	var cells []int
	for i, v := range r.val {
		if v == 0 {
			cells = append(cells, i)
		}
	}
	sort.SliceStable(cells, func(a, b int) bool {
		return bits.OnesCount32(r.cand[cells[a]]) < bits.OnesCount32(r.cand[cells[b]])
	})
	return cells
}

// read fills the open cells from a solution of model's program.
func (r *reduction) read(vars []ilp.Var, sol *ilp.Solution) {
	k := 0
	for _, i := range r.order() {
		for c := r.cand[i]; c != 0; c &= c - 1 {
			if sol.Int(vars[k]) == 1 {
				r.val[i] = bits.TrailingZeros32(c)
			}
			k++
		}
	}
}

// grid returns the cells as a Grid.
func (r *reduction) grid(s sudoku.Shape) sudoku.Grid {
	return sudoku.Grid{Shape: s, Cells: append([]int(nil), r.val...)}
}
