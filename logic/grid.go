package logic

import (
	"context"
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Grid is a Sudoku in progress as a person keeps it on paper: the digits
// placed so far and, in every empty cell, the candidates (pencil marks)
// that no rule has excluded yet. Techniques read a Grid and return Steps;
// Apply carries a Step out.
//
// A Grid is not safe for concurrent use; Clone it to share.
type Grid struct {
	geo   *geometry
	value []int       // 0 for an empty cell
	cand  []digitMask // candidates of each empty cell (0 once placed)
	pos   []cellSet   // pos[d-1]: empty cells that still have d as a candidate
	empty cellSet
	// unique says the puzzle is known to have exactly one solution, which
	// is what uniqueness techniques (unique rectangles, BUG) rely on.
	unique bool

	version uint64       // bumped by every change; keys the cache
	cache   *stateCache  // what several techniques share for one state
	digits  []digitCache // what depends on one digit's cells, across states
	// Memory reused from state to state (never shared with a clone):
	// implication graphs and ALS lists of past states, the scratch that
	// builds the graphs.
	spareImpl []*implGraph
	spareALS  [][]als
	implBuf   *implScratch
	// ate is a state in which aligned triple exclusion found nothing (nil
	// until one is seen); see findAlignedTriple.
	ate []digitMask
	// ctx, when set, lets the long searches give up early (they then find
	// nothing, and the caller reports ctx's error).
	ctx context.Context
}

// stopped reports whether the grid's context is done.
func (g *Grid) stopped() bool { return g.ctx != nil && g.ctx.Err() != nil }

// NewGrid returns the candidate grid of puzzle p: its givens placed and, in
// every empty cell, the digits that no given in the same row, column or box
// excludes. Errors: *SizeError for grids outside 4×4..16×16, a wrapped
// sudoku.ErrInvalidGrid for a malformed grid and *sudoku.ConflictError for
// givens that break the rules.
func NewGrid(p sudoku.Grid) (*Grid, error) {
	geo, err := geometryFor(p.Shape)
	if err != nil {
		return nil, err
	}
	if len(p.Cells) != geo.size {
		return nil, fmt.Errorf("%w: %d cells for a %dx%d grid", sudoku.ErrInvalidGrid, len(p.Cells), geo.n, geo.n)
	}
	for i, v := range p.Cells {
		if v < 0 || v > geo.n {
			return nil, fmt.Errorf("%w: value %d at %s out of range 0..%d", sudoku.ErrInvalidGrid, v, geo.cellName(i), geo.n)
		}
	}
	if cs := sudoku.Validate(p); len(cs) > 0 {
		return nil, &sudoku.ConflictError{Conflicts: cs}
	}
	return newGrid(geo, p.Cells), nil
}

// newGrid builds the grid of values (already validated) on geo.
func newGrid(geo *geometry, values []int) *Grid {
	n := geo.n
	g := &Grid{
		geo:   geo,
		value: make([]int, geo.size),
		cand:  make([]digitMask, geo.size),
		pos:   make([]cellSet, n),
	}
	full := digitMask(1)<<uint(n) - 1
	for i := range g.cand {
		g.cand[i] = full
	}
	for d := 0; d < n; d++ {
		g.pos[d] = geo.all
	}
	g.empty = geo.all
	for i, v := range values {
		if v != 0 && g.value[i] == 0 && g.cand[i].has(v) {
			g.place(i, v)
		}
	}
	return g
}

// N returns the side of the grid (also the number of digits).
func (g *Grid) N() int { return g.geo.n }

// Shape returns the box shape.
func (g *Grid) Shape() sudoku.Shape { return g.geo.shape }

// Value returns the digit placed in cell (row-major index), 0 if empty.
func (g *Grid) Value(cell int) int { return g.value[cell] }

// Candidates returns the candidates of cell in increasing order (none for a
// filled cell).
func (g *Grid) Candidates(cell int) []int { return g.cand[cell].digits() }

// HasCandidate reports whether digit d is still a candidate of cell.
func (g *Grid) HasCandidate(cell, d int) bool {
	return d >= 1 && d <= g.geo.n && g.cand[cell].has(d)
}

// Solved reports whether every cell holds a digit.
func (g *Grid) Solved() bool { return g.empty.empty() }

// Values returns the digits placed so far as a sudoku.Grid.
func (g *Grid) Values() sudoku.Grid {
	out := sudoku.NewGrid(g.geo.shape)
	copy(out.Cells, g.value)
	return out
}

// Clone returns an independent copy of g.
func (g *Grid) Clone() *Grid {
	c := &Grid{
		geo:    g.geo,
		value:  append([]int(nil), g.value...),
		cand:   append([]digitMask(nil), g.cand...),
		pos:    append([]cellSet(nil), g.pos...),
		empty:  g.empty,
		unique: g.unique,
	}
	return c
}

// copyFrom makes g the same state as src (same geometry), reusing g's
// slices: the chaining search uses it to restore a grid cheaply.
func (g *Grid) copyFrom(src *Grid) {
	copy(g.value, src.value)
	copy(g.cand, src.cand)
	copy(g.pos, src.pos)
	g.empty = src.empty
	g.unique = src.unique
	g.version++
}

// Apply carries out a step: its placements, then its eliminations. It
// refuses (changing nothing) a step that places a digit that is not a
// candidate, or that names a cell or digit out of range.
func (g *Grid) Apply(s Step) error {
	for _, c := range append(append([]Candidate(nil), s.Placements...), s.Eliminations...) {
		if c.Cell < 0 || c.Cell >= g.geo.size || c.Digit < 1 || c.Digit > g.geo.n {
			return fmt.Errorf("logic: %s: candidate %d at cell %d out of range", s.Technique, c.Digit, c.Cell)
		}
	}
	for _, c := range s.Placements {
		if g.value[c.Cell] != c.Digit && !g.cand[c.Cell].has(c.Digit) {
			return fmt.Errorf("logic: %s: %d is not a candidate of %s", s.Technique, c.Digit, g.geo.cellName(c.Cell))
		}
	}
	for _, c := range s.Placements {
		if g.value[c.Cell] == 0 && g.cand[c.Cell].has(c.Digit) {
			g.place(c.Cell, c.Digit)
		}
	}
	for _, c := range s.Eliminations {
		g.eliminate(c.Cell, c.Digit)
	}
	return nil
}

// place puts d in cell and removes d from the candidates of its peers.
func (g *Grid) place(cell, d int) {
	for m := g.cand[cell]; m != 0; m &= m - 1 {
		g.pos[digitMask(m).first()-1].remove(cell)
	}
	g.cand[cell] = 0
	g.value[cell] = d
	g.empty.remove(cell)
	peers := g.geo.peers[cell].and(g.pos[d-1])
	for p := peers.first(); p >= 0; p = peers.next(p) {
		g.cand[p] &^= bit(d)
	}
	g.pos[d-1] = g.pos[d-1].andNot(peers)
	g.version++
}

// eliminate removes candidate d from cell; it reports whether it was there.
func (g *Grid) eliminate(cell, d int) bool {
	if !g.cand[cell].has(d) {
		return false
	}
	g.cand[cell] &^= bit(d)
	g.pos[d-1].remove(cell)
	g.version++
	return true
}

// missingAll returns, per digit (index d-1), how many times it is still to
// be placed.
func (g *Grid) missingAll() []int {
	m := make([]int, g.geo.n)
	for i := range m {
		m[i] = g.geo.n
	}
	for _, v := range g.value {
		if v != 0 {
			m[v-1]--
		}
	}
	return m
}

// housePos returns the cells of house h where d is a candidate.
func (g *Grid) housePos(h, d int) cellSet { return g.pos[d-1].and(g.geo.houseSet[h]) }

// houseEmpty returns the empty cells of house h.
func (g *Grid) houseEmpty(h int) cellSet { return g.empty.and(g.geo.houseSet[h]) }

// String returns the grid in the one-line format with the placed digits.
func (g *Grid) String() string { return g.Values().String() }
