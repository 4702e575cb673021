// Package game is a Sudoku board being played, so the rules of play live
// once for the console game, the web game and multiplayer rooms.
//
// In: a puzzle (a console-format file, a sudoku.Grid, a saved Snapshot, or
// a Layout for other puzzles such as a Kakuro) and moves: values, marks,
// candidates, autofill, generate, undo, redo, reset. Out: the board, each
// move as cell changes, typed errors for refused moves, and a Snapshot to
// store as JSON. No I/O of its own; one goroutine owns a Game.
package game

import (
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Game is a board being played and the list of moves made on it.
type Game struct {
	shape      sudoku.Shape // the zero Shape for a board of a Layout
	rows, cols int
	n          int // the largest value (a Sudoku's side)
	values     []int
	fixed      []bool
	marks      []Marks
	wall       []bool  // cells in no house (nil on a Sudoku)
	walls      int     // how many
	domain     []Marks // values each cell may take at all (nil: 1..n)
	// units[i] lists the houses of cell i; count[u*(n+1)+v] is how many
	// cells of house u hold value v. A Sudoku's houses are its rows
	// (0..n-1), then its columns, then its boxes.
	units [][]int32
	count []int32
	// clashes is the number of (unit, value) pairs held by more than one
	// cell: the board is erroneous when it is not 0.
	clashes int
	filled  int
	moves   []Move
	pos     int // moves[:pos] are done, moves[pos:] undone (the redo part)
}

// New returns an empty board of the given box shape (BoxRows rows and
// BoxCols columns of cells per box).
func New(s sudoku.Shape) (*Game, error) {
	if !s.Valid() {
		return nil, &ShapeError{Shape: s}
	}
	n := s.N()
	units := make([][]int32, n*n)
	for i := range units {
		r, c := i/n, i%n
		b := (r/s.BoxRows)*(n/s.BoxCols) + c/s.BoxCols
		units[i] = []int32{int32(r), int32(n + c), int32(2*n + b)}
	}
	return &Game{
		shape:  s,
		rows:   n,
		cols:   n,
		n:      n,
		values: make([]int, n*n),
		fixed:  make([]bool, n*n),
		marks:  make([]Marks, n*n),
		units:  units,
		count:  make([]int32, 3*n*(n+1)),
	}, nil
}

// FromGrid returns a board holding g's values, with the cells where fixed
// is true fixed (fixed may be nil: no cell fixed). An empty cell cannot be
// fixed. The move list starts empty.
func FromGrid(g sudoku.Grid, fixed []bool) (*Game, error) {
	gm, err := New(g.Shape)
	if err != nil {
		return nil, err
	}
	n := gm.n
	if len(g.Cells) != n*n {
		return nil, fmt.Errorf("game: %d cells for a %dx%d board: %w", len(g.Cells), n, n, sudoku.ErrInvalidGrid)
	}
	if fixed != nil && len(fixed) != n*n {
		return nil, fmt.Errorf("game: %d fixed flags for %d cells: %w", len(fixed), n*n, sudoku.ErrInvalidGrid)
	}
	for i, v := range g.Cells {
		if v < 0 || v > n {
			return nil, &RangeError{What: "value", Value: v, Min: 0, Max: n}
		}
		if fixed != nil && fixed[i] {
			if v == 0 {
				return nil, fmt.Errorf("game: r%dc%d is fixed but empty: %w", i/n+1, i%n+1, sudoku.ErrInvalidGrid)
			}
			gm.fixed[i] = true
		}
		gm.put(i, v)
	}
	return gm, nil
}

// Shape returns the box shape (the zero Shape for a board of a Layout).
func (g *Game) Shape() sudoku.Shape { return g.shape }

// N returns the largest value: on a Sudoku also the number of rows and
// columns.
func (g *Game) N() int { return g.n }

// Rows and Cols return the board's size.
func (g *Game) Rows() int { return g.rows }
func (g *Game) Cols() int { return g.cols }

// sudoku reports whether the board is a Sudoku's (not a Layout's).
func (g *Game) sudoku() bool { return g.shape.Valid() }

// index checks row and col (0-based) and returns the cell's index.
func (g *Game) index(row, col int) (int, error) {
	if row < 0 || row >= g.rows {
		return 0, &RangeError{What: "row", Value: row, Min: 0, Max: g.rows - 1}
	}
	if col < 0 || col >= g.cols {
		return 0, &RangeError{What: "column", Value: col, Min: 0, Max: g.cols - 1}
	}
	return row*g.cols + col, nil
}

// Value returns the value at row, col (0-based; 0 for an empty cell). It
// panics on a cell off the board, like a slice index.
func (g *Game) Value(row, col int) int { return g.values[g.mustIndex(row, col)] }

// Fixed reports whether the cell is part of the puzzle.
func (g *Game) Fixed(row, col int) bool { return g.fixed[g.mustIndex(row, col)] }

// Marks returns the cell's pencil marks.
func (g *Game) Marks(row, col int) Marks { return g.marks[g.mustIndex(row, col)] }

func (g *Game) mustIndex(row, col int) int {
	i, err := g.index(row, col)
	if err != nil {
		panic(err)
	}
	return i
}

// put writes v into cell i, keeping the counts up to date.
func (g *Game) put(i, v int) {
	old := g.values[i]
	if old == v {
		return
	}
	for _, u := range g.units[i] {
		base := int(u) * (g.n + 1)
		if old != 0 {
			g.count[base+old]--
			if g.count[base+old] == 1 {
				g.clashes--
			}
		}
		if v != 0 {
			g.count[base+v]++
			if g.count[base+v] == 2 {
				g.clashes++
			}
		}
	}
	switch {
	case old == 0:
		g.filled++
	case v == 0:
		g.filled--
	}
	g.values[i] = v
}

// Conflict reports whether the cell shares its value with a neighbour and
// is not fixed: the cells a front end marks as erroneous. A fixed cell is
// never in conflict, even when a neighbour repeats its value.
func (g *Game) Conflict(row, col int) bool {
	i := g.mustIndex(row, col)
	v := g.values[i]
	if v == 0 || g.fixed[i] {
		return false
	}
	for _, u := range g.units[i] {
		if g.count[int(u)*(g.n+1)+v] > 1 {
			return true
		}
	}
	return false
}

// Erroneous reports whether some value appears twice in a row, column or
// box (fixed cells included).
func (g *Game) Erroneous() bool { return g.clashes > 0 }

// Full reports whether every cell (walls apart) holds a value.
func (g *Game) Full() bool { return g.filled == len(g.values)-g.walls }

// Empty reports whether no cell holds a value.
func (g *Game) Empty() bool { return g.filled == 0 }

// EmptyCells returns the number of cells (walls apart) without a value.
func (g *Game) EmptyCells() int { return len(g.values) - g.walls - g.filled }

// Solved reports whether the board is full and breaks no rule.
func (g *Game) Solved() bool { return g.Full() && !g.Erroneous() }

// Legal returns the values the cell could hold without clashing with a
// neighbour: those that no other cell of its row, column or box (its
// houses) holds, and, on a Layout's board, that its domain allows. A
// wall has none.
func (g *Game) Legal(row, col int) Marks { return g.legal(g.mustIndex(row, col)) }

func (g *Game) legal(i int) Marks {
	if g.isWall(i) {
		return 0
	}
	own := g.values[i]
	us := g.units[i]
	var m Marks
	for v := 1; v <= g.n; v++ {
		if g.domain != nil && !g.domain[i].Has(v) {
			continue
		}
		taken := false
		for _, u := range us {
			k := g.count[int(u)*(g.n+1)+v]
			if v == own {
				k--
			}
			if k > 0 {
				taken = true
				break
			}
		}
		if !taken {
			m |= 1 << v
		}
	}
	return m
}

// isWall reports whether cell i is a wall.
func (g *Game) isWall(i int) bool { return g.wall != nil && g.wall[i] }

// Wall reports whether the cell is a wall of a Layout's board.
func (g *Game) Wall(row, col int) bool { return g.isWall(g.mustIndex(row, col)) }

// Values returns a copy of the board's values, one per cell in row-major
// order.
func (g *Game) Values() []int { return append([]int(nil), g.values...) }

// Grid returns a copy of the board's values (on a Layout's board its
// Shape is the zero Shape).
func (g *Game) Grid() sudoku.Grid {
	return sudoku.Grid{Shape: g.shape, Cells: append([]int(nil), g.values...)}
}

// Puzzle returns the fixed cells alone.
func (g *Game) Puzzle() sudoku.Grid { return sudoku.Puzzle(g.Grid(), g.fixed) }

// FixedCells returns a copy of the fixed flags, one per cell in row-major
// order.
func (g *Game) FixedCells() []bool { return append([]bool(nil), g.fixed...) }
