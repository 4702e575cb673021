package solvers

import (
	"context"
	"fmt"
	"math/bits"
	"time"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Stack is exhaustive backtracking with an explicit stack, as the console
// game's specification asks for num_solutions: each item is an open cell
// with the values left to try; a full grid counts and the search goes on.
// Unlike "backtrack" it picks the cell to open: a dead cell or unit ends
// the branch, a hidden single is opened with its one value, else the cell
// with the fewest values. The branches split the solutions without overlap,
// so the choice changes the work, never the count.
type Stack struct{}

// NewStack returns the explicit-stack backtracker.
func NewStack() *Stack { return &Stack{} }

// Name returns "stack".
func (*Stack) Name() string { return "stack" }

// Solve returns the first solution found. It checks ctx every few thousand
// search nodes and gives up with a *TimeoutError when ctx is done.
func (*Stack) Solve(ctx context.Context, g sudoku.Grid) (Result, error) {
	start := time.Now()
	s, err := newStackSearch(g)
	if err != nil {
		return Result{}, err
	}
	if s.conflict {
		return Result{}, &sudoku.ConflictError{Conflicts: sudoku.Validate(g)}
	}
	var sol sudoku.Grid
	n, err := s.run(ctx, 1, nil, func(cells []int) {
		sol = sudoku.Grid{Shape: g.Shape, Cells: append([]int(nil), cells...)}
	})
	st := Stats{Elapsed: time.Since(start), Nodes: s.nodes}
	if err != nil {
		return Result{Stats: st}, &TimeoutError{Solver: "stack", Conflicts: -1, Stats: st, Err: err}
	}
	if n == 0 {
		return Result{Stats: st}, sudoku.ErrNoSolution
	}
	return Result{Solution: sol, Stats: st}, nil
}

// Count makes Stack a Counter (for sudokuar solve --count --solver stack):
// the package function Count without progress, limit <= 0 counting all.
func (*Stack) Count(ctx context.Context, g sudoku.Grid, limit int) (int, error) {
	n, err := Count(ctx, g, uint64(max(limit, 0)), nil)
	return int(n), err
}

// CountProgress is how far a count has come, as reported to Count's
// progress callback.
type CountProgress struct {
	Solutions uint64        // solutions counted so far
	Nodes     uint64        // values placed so far
	Elapsed   time.Duration // since the count started
}

// How often the search looks up from its work, in search nodes: it checks
// ctx every checkNodes nodes (well under a millisecond) and calls the
// progress callback every progressNodes (a few milliseconds).
const (
	checkNodes    = 1 << 12
	progressNodes = 1 << 16
)

// Count returns the number of solutions of g, counted by Stack, stopping at
// limit (0: all). progress, if not nil, gets the count every progressNodes
// search nodes and at the end. When ctx is done it returns the count so far
// with an error wrapping ctx.Err(). Conflicting givens: 0 and no error; a
// malformed grid: an error wrapping sudoku.ErrInvalidGrid.
func Count(ctx context.Context, g sudoku.Grid, limit uint64, progress func(CountProgress)) (uint64, error) {
	s, err := newStackSearch(g)
	if err != nil {
		return 0, err
	}
	if s.conflict {
		return 0, nil
	}
	return s.run(ctx, limit, progress, nil)
}

// stackSearch is the state of one search: the grid, the values used per
// row, column and box as bitmasks (bit v for value v), and the stack.
type stackSearch struct {
	n                 int
	full              uint64 // bits 1..n
	cells             []int
	rows, cols, boxes []uint64
	rowOf, colOf      []int32
	boxOf             []int32
	// open lists the cells that were empty; open[:depth] hold the cells
	// on the stack, in stack order, open[depth:] those still empty. at is
	// each cell's place in open.
	open []int32
	at   []int32
	// units lists the cells of every row, column and box; used is the
	// matching bitmask of placed values (rows, cols and boxes side by
	// side); cand holds each open cell's legal values, computed by choose.
	units [][]int32
	used  []uint64
	cand  []uint64
	stack []frame
	nodes uint64
	// conflict is set when the givens already break a rule.
	conflict bool
}

// frame is one stack item: the cell open[depth] (implicit in its place on
// the stack), the value it holds now and the values it has still to try.
type frame struct {
	rest uint64
	val  int32
}

func newStackSearch(g sudoku.Grid) (*stackSearch, error) {
	if !g.Shape.Valid() {
		return nil, fmt.Errorf("%w: box shape %v", sudoku.ErrInvalidGrid, g.Shape)
	}
	n := g.N()
	if len(g.Cells) != n*n {
		return nil, fmt.Errorf("%w: %d cells for a %dx%d grid", sudoku.ErrInvalidGrid, len(g.Cells), n, n)
	}
	s := &stackSearch{
		n:     n,
		full:  (uint64(1)<<n - 1) << 1,
		cells: append([]int(nil), g.Cells...),
		used:  make([]uint64, 3*n),
		units: make([][]int32, 3*n),
		at:    make([]int32, n*n),
		cand:  make([]uint64, n*n),
		rowOf: make([]int32, n*n),
		colOf: make([]int32, n*n),
		boxOf: make([]int32, n*n),
	}
	s.rows, s.cols, s.boxes = s.used[:n], s.used[n:2*n], s.used[2*n:]
	br, bc := g.Shape.BoxRows, g.Shape.BoxCols
	for i, v := range g.Cells {
		r, c := i/n, i%n
		b := (r/br)*(n/bc) + c/bc
		s.rowOf[i], s.colOf[i], s.boxOf[i] = int32(r), int32(c), int32(b)
		s.units[r] = append(s.units[r], int32(i))
		s.units[n+c] = append(s.units[n+c], int32(i))
		s.units[2*n+b] = append(s.units[2*n+b], int32(i))
		if v < 0 || v > n {
			return nil, fmt.Errorf("%w: value %d at r%dc%d out of range 0..%d", sudoku.ErrInvalidGrid, v, r+1, c+1, n)
		}
		if v == 0 {
			s.at[i] = int32(len(s.open))
			s.open = append(s.open, int32(i))
			continue
		}
		bit := uint64(1) << v
		if (s.rows[r]|s.cols[c]|s.boxes[b])&bit != 0 {
			s.conflict = true
		}
		s.rows[r] |= bit
		s.cols[c] |= bit
		s.boxes[b] |= bit
	}
	s.stack = make([]frame, len(s.open))
	return s, nil
}

// legal returns the values cell i may take now.
func (s *stackSearch) legal(i int32) uint64 {
	return s.full &^ (s.rows[s.rowOf[i]] | s.cols[s.colOf[i]] | s.boxes[s.boxOf[i]])
}

// choose picks the cell to open at depth and the values to try there, as
// the Stack comment says, and moves the cell to open[depth]. It returns
// false when the branch is dead (some cell or unit has no room left).
func (s *stackSearch) choose(depth int) (uint64, bool) {
	best, bestMask, bestCount := int32(-1), uint64(0), 64
	for k := depth; k < len(s.open); k++ {
		i := s.open[k]
		m := s.legal(i)
		s.cand[i] = m
		if c := bits.OnesCount64(m); c < bestCount {
			best, bestMask, bestCount = i, m, c
			if c <= 1 {
				break
			}
		}
	}
	if bestCount == 0 {
		return 0, false
	}
	if bestCount > 1 {
		// Every open cell's cand is fresh: look for units where a value
		// has no place (dead) or one place (forced).
		for u, cells := range s.units {
			var once, twice uint64
			for _, i := range cells {
				if s.cells[i] == 0 {
					m := s.cand[i]
					twice |= once & m
					once |= m
				}
			}
			if once|s.used[u] != s.full {
				return 0, false
			}
			if single := once &^ twice; single != 0 {
				bit := single & -single
				for _, i := range cells {
					if s.cells[i] == 0 && s.cand[i]&bit != 0 {
						best, bestMask = i, bit
						break
					}
				}
				break
			}
		}
	}
	// Swap the chosen cell to open[depth].
	k := s.at[best]
	other := s.open[depth]
	s.open[depth], s.open[k] = best, other
	s.at[best], s.at[other] = int32(depth), k
	return bestMask, true
}

// place writes the lowest value left in the frame at depth into its cell.
func (s *stackSearch) place(depth int) {
	f := &s.stack[depth]
	bit := f.rest & -f.rest
	f.rest &^= bit
	v := int32(bits.TrailingZeros64(bit))
	f.val = v
	i := s.open[depth]
	s.cells[i] = int(v)
	s.rows[s.rowOf[i]] |= bit
	s.cols[s.colOf[i]] |= bit
	s.boxes[s.boxOf[i]] |= bit
	s.nodes++
}

// unplace empties the cell of the frame at depth.
func (s *stackSearch) unplace(depth int) {
	bit := uint64(1) << s.stack[depth].val
	i := s.open[depth]
	s.cells[i] = 0
	s.rows[s.rowOf[i]] &^= bit
	s.cols[s.colOf[i]] &^= bit
	s.boxes[s.boxOf[i]] &^= bit
}

// run is the search loop. It stops at limit solutions (0: none), calls
// progress as Count documents and visit with every full grid (the slice is
// reused).
func (s *stackSearch) run(ctx context.Context, limit uint64, progress func(CountProgress), visit func([]int)) (uint64, error) {
	start := time.Now()
	var found uint64
	report := func() {
		if progress != nil {
			progress(CountProgress{Solutions: found, Nodes: s.nodes, Elapsed: time.Since(start)})
		}
	}
	done := ctx.Done()
	nextCheck := uint64(checkNodes)
	nextReport := uint64(progressNodes)
	depth := 0
	for {
		// A full grid is a solution; otherwise push the cell choose picks.
		if depth == len(s.open) {
			found++
			if visit != nil {
				visit(s.cells)
			}
			if found == limit {
				report()
				return found, nil
			}
		} else if mask, ok := s.choose(depth); ok {
			s.stack[depth].rest = mask
			s.place(depth)
			depth++
			if s.nodes >= nextCheck {
				nextCheck = s.nodes + checkNodes
				select {
				case <-done:
					report()
					return found, fmt.Errorf("solvers: count stopped after %d solutions: %w", found, ctx.Err())
				default:
				}
				if s.nodes >= nextReport {
					nextReport = s.nodes + progressNodes
					report()
				}
			}
			continue
		}
		// Pop: undo the top cell's value and try its next one; pop the
		// cells that have none left.
		for {
			if depth == 0 {
				report()
				return found, nil
			}
			depth--
			s.unplace(depth)
			if s.stack[depth].rest != 0 {
				s.place(depth)
				depth++
				break
			}
		}
	}
}
