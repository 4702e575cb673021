package solvers

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/sudokuar/sudokuar/sudoku"
)

// The metaheuristics (anneal, cga) search Lewis's space ("Metaheuristics
// can solve sudoku puzzles", J. Heuristics 2007): each box's free cells are
// a permutation of the values its givens miss, cells hold only candidates,
// a move swaps two free cells of one box, and the cost is the number of
// values missing from rows plus those missing from columns (0: solved).

// boxPuzzle is the fixed part of that space for one puzzle.
type boxPuzzle struct {
	*prepared
	free      [][]int32 // free cells of each box
	swappable []int32   // boxes with two free cells or more
	nfree     int
	// scratch for fill
	owner []int32 // owner[v]: the cell holding value v in the matching, or -1
	seen  []bool
}

// newBoxPuzzle sets up the space for p. It fails with sudoku.ErrNoSolution
// when some box cannot place its missing values in its free cells at all.
func newBoxPuzzle(p *prepared) (*boxPuzzle, error) {
	bp := &boxPuzzle{prepared: p, free: make([][]int32, p.n), owner: make([]int32, p.n+1), seen: make([]bool, p.n+1)}
	for b, cells := range p.boxCells {
		for _, i := range cells {
			if p.cells[i] == 0 {
				bp.free[b] = append(bp.free[b], i)
			}
		}
		if len(bp.free[b]) >= 2 {
			bp.swappable = append(bp.swappable, int32(b))
		}
		bp.nfree += len(bp.free[b])
	}
	probe := append([]int(nil), p.cells...)
	rng := rand.New(rand.NewPCG(1, 2))
	for b := range bp.free {
		if !bp.fillBox(rng, probe, b) {
			return nil, fmt.Errorf("%w: box %d cannot hold its missing values", sudoku.ErrNoSolution, b+1)
		}
	}
	return bp, nil
}

// fill writes a random permutation of every box's missing values into its
// free cells of cells, each cell getting one of its candidates.
func (bp *boxPuzzle) fill(rng *rand.Rand, cells []int) {
	for b := range bp.free {
		bp.fillBox(rng, cells, b)
	}
}

// fillBox finds a random perfect matching of box b's free cells to
// candidates (augmenting paths, cells and values taken in random order)
// and writes it into cells. It reports false when there is none.
func (bp *boxPuzzle) fillBox(rng *rand.Rand, cells []int, b int) bool {
	free := bp.free[b]
	for v := range bp.owner {
		bp.owner[v] = -1
	}
	order := rng.Perm(len(free))
	for _, k := range order {
		clear(bp.seen)
		if !bp.augment(rng, free[k]) {
			return false
		}
	}
	for v, i := range bp.owner {
		if i >= 0 {
			cells[i] = v
		}
	}
	return true
}

// augment finds a value for cell i, moving other cells to other values if
// need be (Kuhn's algorithm).
func (bp *boxPuzzle) augment(rng *rand.Rand, i int32) bool {
	c := bp.cand[i]
	k := bits.OnesCount32(c)
	if k == 0 {
		return false
	}
	// Start at a random candidate and go round.
	skip := rng.IntN(k)
	for range k {
		rest := c
		for range skip {
			rest &= rest - 1
		}
		v := bits.TrailingZeros32(rest)
		skip = (skip + 1) % k
		if bp.seen[v] {
			continue
		}
		bp.seen[v] = true
		if bp.owner[v] < 0 || bp.augment(rng, bp.owner[v]) {
			bp.owner[v] = i
			return true
		}
	}
	return false
}

// canSwap reports whether free cells i and j of one box may trade values
// and each still hold a candidate.
func (bp *boxPuzzle) canSwap(cells []int, i, j int32) bool {
	return bp.cand[i]&(1<<cells[j]) != 0 && bp.cand[j]&(1<<cells[i]) != 0
}

// cost returns the number of values missing from the rows of cells plus
// those missing from its columns.
func (bp *boxPuzzle) cost(cells []int, masks []uint32) int {
	n := bp.n
	masks = masks[:2*n]
	clear(masks)
	for i, v := range cells {
		masks[bp.row[i]] |= 1 << v
		masks[n+int(bp.col[i])] |= 1 << v
	}
	missing := 0
	for _, m := range masks {
		missing += n - bits.OnesCount32(m)
	}
	return missing
}

// grid returns cells as a grid of the puzzle's shape.
func (bp *boxPuzzle) grid(cells []int) sudoku.Grid {
	return sudoku.Grid{Shape: bp.shape, Cells: append([]int(nil), cells...)}
}

// finish turns the best state of a metaheuristic into the solver's answer:
// the solution when its cost is 0 (checked against the puzzle, so a bug
// can never hand out a wrong grid), otherwise a *TimeoutError with the
// state's number of conflicting pairs.
func (bp *boxPuzzle) finish(name string, puzzle sudoku.Grid, best []int, reached bool, st Stats, err error) (Result, error) {
	g := bp.grid(best)
	if reached {
		if cerr := Check(puzzle, g); cerr != nil {
			return Result{Stats: st}, fmt.Errorf("solvers: %s: internal error, cost 0 but %v", name, cerr)
		}
		return Result{Solution: g, Stats: st}, nil
	}
	return Result{Stats: st}, &TimeoutError{Solver: name, Conflicts: len(sudoku.Validate(g)), Best: g, Stats: st, Err: err}
}
