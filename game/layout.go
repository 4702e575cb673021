package game

import "fmt"

// Layout is the geometry of a board that is not a Sudoku's: Rows×Cols
// cells in row-major order, values 1..Max, Houses (lists of cells that may
// not repeat a value, such as a Kakuro's runs) and, optionally, Domain:
// the values each cell may take at all (for a Kakuro, the digits of the
// sums its runs can make), which Legal and Candidates respect. A cell in
// no house is a wall. Domain nil means 1..Max everywhere.
type Layout struct {
	Rows, Cols, Max int
	Houses          [][]int
	Domain          []Marks
}

// MaxLayoutCells bounds a Layout's board (a 41×41 Kakuro is 1681 cells).
const MaxLayoutCells = 4096

// NewLayout returns an empty board of layout l: no value, no mark, no
// fixed cell. Errors: *LayoutError.
func NewLayout(l Layout) (*Game, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	nn := l.Rows * l.Cols
	g := &Game{
		rows: l.Rows, cols: l.Cols, n: l.Max,
		values: make([]int, nn), fixed: make([]bool, nn), marks: make([]Marks, nn),
		wall: make([]bool, nn), units: make([][]int32, nn),
		count: make([]int32, len(l.Houses)*(l.Max+1)),
	}
	for h, cells := range l.Houses {
		for _, c := range cells {
			g.units[c] = append(g.units[c], int32(h))
		}
	}
	for i := range g.wall {
		if len(g.units[i]) == 0 {
			g.wall[i] = true
			g.walls++
		}
	}
	if l.Domain != nil {
		g.domain = append([]Marks(nil), l.Domain...)
	}
	return g, nil
}

// check says what is wrong with l, if anything.
func (l Layout) check() error {
	nn := l.Rows * l.Cols
	switch {
	case l.Rows < 1 || l.Cols < 1 || nn > MaxLayoutCells:
		return &LayoutError{fmt.Sprintf("%d×%d cells: want 1 to %d", l.Rows, l.Cols, MaxLayoutCells)}
	case l.Max < 1 || l.Max > 63:
		return &LayoutError{fmt.Sprintf("largest value %d: want 1..63", l.Max)}
	case l.Domain != nil && len(l.Domain) != nn:
		return &LayoutError{fmt.Sprintf("%d domains for %d cells", len(l.Domain), nn)}
	}
	all := Marks((uint64(1)<<l.Max - 1) << 1)
	for i, d := range l.Domain {
		if d&^all != 0 {
			return &LayoutError{fmt.Sprintf("cell %d may take values outside 1..%d", i, l.Max)}
		}
	}
	for h, cells := range l.Houses {
		seen := map[int]bool{}
		for _, c := range cells {
			if c < 0 || c >= nn {
				return &LayoutError{fmt.Sprintf("house %d holds cell %d, off the board", h, c)}
			}
			if seen[c] {
				return &LayoutError{fmt.Sprintf("house %d holds cell %d twice", h, c)}
			}
			seen[c] = true
		}
	}
	return nil
}

// RestoreLayout returns the game snapshot s describes on a board of layout
// l. It trusts nothing in s (see Restore); the houses are l's. Errors:
// *LayoutError, *SnapshotError.
func RestoreLayout(l Layout, s Snapshot) (*Game, error) {
	g, err := NewLayout(l)
	if err != nil {
		return nil, err
	}
	if s.BoxRows != 0 || s.BoxCols != 0 || s.Rows != l.Rows || s.Cols != l.Cols {
		return nil, snapshotErr("a %d×%d board with boxes %d×%d, want %d×%d without boxes", s.Rows, s.Cols, s.BoxRows, s.BoxCols, l.Rows, l.Cols)
	}
	return g.restore(s)
}

// Start writes values on a Layout's board as the game's start (not a
// move): the cells where fixed is true become fixed (fixed may be nil).
// Errors: *RangeError, ErrWall for a value on a wall, *LayoutError for a
// list of the wrong length.
func (g *Game) Start(values []int, fixed []bool) error {
	if len(values) != len(g.values) || fixed != nil && len(fixed) != len(g.values) {
		return &LayoutError{fmt.Sprintf("%d values for %d cells", len(values), len(g.values))}
	}
	for i, v := range values {
		if v < 0 || v > g.n {
			return &RangeError{What: "value", Value: v, Min: 0, Max: g.n}
		}
		if v != 0 && g.isWall(i) {
			return ErrWall
		}
	}
	for i, v := range values {
		g.put(i, v)
		g.fixed[i] = fixed != nil && fixed[i] && v != 0
	}
	return nil
}

// LayoutError reports a Layout that does not describe a board.
type LayoutError struct {
	Reason string
}

func (e *LayoutError) Error() string { return "game: bad layout: " + e.Reason }
