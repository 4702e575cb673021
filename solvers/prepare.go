package solvers

import (
	"fmt"
	"math/bits"

	"github.com/sudokuar/sudokuar/sudoku"
)

// checkGivens returns why g cannot be solved before any search: a
// malformed grid (wrapping sudoku.ErrInvalidGrid) or givens that break a
// rule (*sudoku.ConflictError). It returns nil otherwise.
func checkGivens(g sudoku.Grid) error {
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
	if cs := sudoku.Validate(g); len(cs) > 0 {
		return &sudoku.ConflictError{Conflicts: cs}
	}
	return nil
}

// layout is where each cell of a shape sits: its row, column and box, and
// the cells of every unit. The solvers share it to speak of units without
// recomputing index arithmetic in their inner loops.
type layout struct {
	shape sudoku.Shape
	n     int
	row   []int32 // row of each cell
	col   []int32
	box   []int32
	// units lists the cells of the n rows, then the n columns, then the
	// n boxes (each row-major), n cells each.
	units [][]int32
	// boxCells[b] is units[2n+b].
	boxCells [][]int32
}

func newLayout(s sudoku.Shape) *layout {
	n := s.N()
	l := &layout{shape: s, n: n, row: make([]int32, n*n), col: make([]int32, n*n), box: make([]int32, n*n), units: make([][]int32, 3*n)}
	boxesPerRow := n / s.BoxCols
	for i := range n * n {
		r, c := i/n, i%n
		b := (r/s.BoxRows)*boxesPerRow + c/s.BoxCols
		l.row[i], l.col[i], l.box[i] = int32(r), int32(c), int32(b)
		l.units[r] = append(l.units[r], int32(i))
		l.units[n+c] = append(l.units[n+c], int32(i))
		l.units[2*n+b] = append(l.units[2*n+b], int32(i))
	}
	l.boxCells = l.units[2*n:]
	return l
}

// prepared is a puzzle whose givens were checked and, optionally, whose
// forced cells were filled by singles.
type prepared struct {
	*layout
	cells  []int    // givens, plus the cells singles filled
	cand   []uint32 // candidates of each empty cell (bit v for value v); 0 when filled
	forced int      // cells filled by singles
}

// fullMask returns the mask of the values 1..n (bit v for value v).
func fullMask(n int) uint32 { return (uint32(1)<<(n+1) - 1) &^ 1 }

// prepare checks g and works out each empty cell's candidates (values no
// given in its row, column or box holds). With singles it also fills, until
// nothing changes, every cell that has one candidate left (naked single)
// and every value that fits one cell of a unit (hidden single): the
// "pre-processing" metaheuristic Sudoku solvers use, because it is cheap,
// never wrong, and shrinks the space they search. Errors: those of
// checkGivens, and sudoku.ErrNoSolution when a cell or a unit runs out of
// room.
func prepare(g sudoku.Grid, singles bool) (*prepared, error) {
	if err := checkGivens(g); err != nil {
		return nil, err
	}
	l := newLayout(g.Shape)
	n := l.n
	p := &prepared{layout: l, cells: append([]int(nil), g.Cells...), cand: make([]uint32, n*n)}
	used := make([]uint32, 3*n) // values placed in each unit
	place := func(i, v int) {
		p.cells[i] = v
		p.cand[i] = 0
		bit := uint32(1) << v
		used[l.row[i]] |= bit
		used[n+int(l.col[i])] |= bit
		used[2*n+int(l.box[i])] |= bit
	}
	for i, v := range p.cells {
		if v != 0 {
			place(i, v)
		}
	}
	all := fullMask(n)
	for changed := true; changed; {
		changed = false
		for i, v := range p.cells {
			if v != 0 {
				continue
			}
			c := all &^ (used[l.row[i]] | used[n+int(l.col[i])] | used[2*n+int(l.box[i])])
			p.cand[i] = c
			if c == 0 {
				return nil, fmt.Errorf("%w: r%dc%d has no value left", sudoku.ErrNoSolution, i/n+1, i%n+1)
			}
			if singles && c&(c-1) == 0 {
				place(i, bits.TrailingZeros32(c))
				p.forced++
				changed = true
			}
		}
		for u, cells := range l.units {
			missing := all &^ used[u]
			for missing != 0 {
				v := bits.TrailingZeros32(missing)
				missing &= missing - 1
				bit := uint32(1) << v
				where, count := -1, 0
				for _, i := range cells {
					if p.cells[i] == 0 && p.fresh(used, int(i))&bit != 0 {
						where = int(i)
						count++
					}
				}
				if count == 0 {
					return nil, fmt.Errorf("%w: %d has no place left in unit %d", sudoku.ErrNoSolution, v, u)
				}
				if singles && count == 1 && p.cells[where] == 0 {
					place(where, v)
					p.forced++
					changed = true
				}
			}
		}
		if !singles {
			break
		}
	}
	return p, nil
}

// fresh returns cell i's candidates given the values used in each unit
// now (p.cand may be stale while singles are being placed).
func (p *prepared) fresh(used []uint32, i int) uint32 {
	n := p.n
	return fullMask(n) &^ (used[p.row[i]] | used[n+int(p.col[i])] | used[2*n+int(p.box[i])])
}

// solved reports whether every cell is filled.
func (p *prepared) solved() bool {
	for _, v := range p.cells {
		if v == 0 {
			return false
		}
	}
	return true
}
