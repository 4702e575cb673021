package sudoku

import "fmt"

// Unit names the three kinds of group in which a value may appear once.
type Unit int

// The units of a grid.
const (
	Row Unit = iota
	Column
	Box
)

func (u Unit) String() string {
	switch u {
	case Row:
		return "row"
	case Column:
		return "column"
	case Box:
		return "box"
	}
	return fmt.Sprintf("Unit(%d)", int(u))
}

// Conflict is a pair of cells that hold the same value in one unit.
type Conflict struct {
	A, B  int  // row-major indexes of the two cells, A < B
	Unit  Unit // the kind of unit they share
	Index int  // which row, column or box (0-based; boxes row-major)
	Value int  // the value they both hold
	Side  int  // the grid side N, to name the cells
}

// CellName is cell i (row-major) of a grid of side n as pages and
// messages write it, 1-based: r3c4.
func CellName(i, n int) string { return fmt.Sprintf("r%dc%d", i/n+1, i%n+1) }

// String names the cells 1-based, e.g. "5 twice in row 1 (r1c2, r1c7)".
func (c Conflict) String() string {
	name := func(i int) string {
		if c.Side <= 0 {
			return fmt.Sprintf("cell %d", i)
		}
		return CellName(i, c.Side)
	}
	return fmt.Sprintf("%d twice in %v %d (%s, %s)", c.Value, c.Unit, c.Index+1, name(c.A), name(c.B))
}

// check reports why g cannot be used as a grid value, or nil.
func check(g Grid) error {
	if !g.Shape.Valid() {
		return fmt.Errorf("%w: box shape %v", ErrInvalidGrid, g.Shape)
	}
	n := g.N()
	if len(g.Cells) != n*n {
		return fmt.Errorf("%w: %d cells for a %dx%d grid", ErrInvalidGrid, len(g.Cells), n, n)
	}
	for i, v := range g.Cells {
		if v < 0 || v > n {
			return fmt.Errorf("%w: value %d at r%dc%d out of range 0..%d", ErrInvalidGrid, v, i/n+1, i%n+1, n)
		}
	}
	return nil
}

// boxOf returns the box index (row-major) of the cell at row r, column c.
func (s Shape) boxOf(r, c int) int {
	return (r/s.BoxRows)*(s.N()/s.BoxCols) + c/s.BoxCols
}

// Validate returns every pair of givens that share a value in a row, column
// or box, ordered by unit kind, then unit, then cells. A pair that shares
// two units is listed once per unit. It returns nil for a grid that breaks
// no rule, and also for a malformed grid (wrong cell count or shape); values
// out of range are ignored.
func Validate(g Grid) []Conflict {
	n := g.N()
	if !g.Shape.Valid() || len(g.Cells) != n*n {
		return nil
	}
	var out []Conflict
	cells := make([]int, 0, n)
	for u := Row; u <= Box; u++ {
		for k := 0; k < n; k++ {
			cells = cells[:0]
			for j := 0; j < n; j++ {
				var r, c int
				switch u {
				case Row:
					r, c = k, j
				case Column:
					r, c = j, k
				case Box:
					br, bc := k/(n/g.Shape.BoxCols), k%(n/g.Shape.BoxCols)
					r = br*g.Shape.BoxRows + j/g.Shape.BoxCols
					c = bc*g.Shape.BoxCols + j%g.Shape.BoxCols
				}
				cells = append(cells, r*n+c)
			}
			// cells is in row-major order for every unit, so A < B below.
			for x := 0; x < n; x++ {
				v := g.Cells[cells[x]]
				if v <= 0 || v > n {
					continue
				}
				for y := x + 1; y < n; y++ {
					if g.Cells[cells[y]] == v {
						out = append(out, Conflict{A: cells[x], B: cells[y], Unit: u, Index: k, Value: v, Side: n})
					}
				}
			}
		}
	}
	return out
}
