package game

import (
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Snapshot is a game's whole state as plain data, for a front end to save a
// game in progress (as JSON) and restore it exactly: values, fixed cells,
// pencil marks and the move list with its position, so undo and redo work
// after a restore as before. Cells are in row-major order.
type Snapshot struct {
	BoxRows  int     `json:"boxRows"`
	BoxCols  int     `json:"boxCols"`
	Values   []int   `json:"values"`
	Fixed    []bool  `json:"fixed"`
	Marks    []Marks `json:"marks,omitempty"` // nil when no cell has marks
	Moves    []Move  `json:"moves,omitempty"`
	Position int     `json:"position"` // Moves[:Position] are done
}

// Snapshot returns a copy of the game's state.
func (g *Game) Snapshot() Snapshot {
	moves, pos := g.History()
	s := Snapshot{
		BoxRows:  g.shape.BoxRows,
		BoxCols:  g.shape.BoxCols,
		Values:   append([]int(nil), g.values...),
		Fixed:    append([]bool(nil), g.fixed...),
		Moves:    moves,
		Position: pos,
	}
	for _, m := range g.marks {
		if m != 0 {
			s.Marks = append([]Marks(nil), g.marks...)
			break
		}
	}
	return s
}

// Restore returns the game a Snapshot describes. It trusts nothing in it
// (a snapshot may come back from a browser): every value, mark and move is
// checked, and the moves must lead from the started board to the saved one
// without touching a fixed cell. Errors: *SnapshotError, *ShapeError.
func Restore(s Snapshot) (*Game, error) {
	g, err := New(sudoku.Shape{BoxRows: s.BoxRows, BoxCols: s.BoxCols})
	if err != nil {
		return nil, err
	}
	n, nn := g.n, g.n*g.n
	bad := func(format string, args ...any) (*Game, error) {
		return nil, &SnapshotError{Reason: fmt.Sprintf(format, args...)}
	}
	if len(s.Values) != nn || len(s.Fixed) != nn {
		return bad("%d values and %d fixed flags, want %d of each", len(s.Values), len(s.Fixed), nn)
	}
	if s.Marks != nil && len(s.Marks) != nn {
		return bad("%d marks, want %d", len(s.Marks), nn)
	}
	for i, v := range s.Values {
		if v < 0 || v > n {
			return bad("values[%d] = %d, want 0..%d", i, v, n)
		}
		if s.Fixed[i] && v == 0 {
			return bad("cell %d is fixed but empty", i)
		}
		g.put(i, v)
		g.fixed[i] = s.Fixed[i]
		if s.Marks != nil {
			if s.Marks[i]&^g.allValues() != 0 {
				return bad("marks[%d] = %d holds values outside 1..%d", i, s.Marks[i], n)
			}
			g.marks[i] = s.Marks[i]
		}
	}
	if s.Position < 0 || s.Position > len(s.Moves) {
		return bad("position %d outside 0..%d", s.Position, len(s.Moves))
	}
	for k, m := range s.Moves {
		switch m.Kind {
		case KindSet, KindAutofill, KindGenerate, KindMarks, KindPlace:
		default:
			return bad("moves[%d] has kind %q", k, m.Kind)
		}
		for j, c := range m.Changes {
			if c.Row < 0 || c.Row >= n || c.Col < 0 || c.Col >= n ||
				c.From < 0 || c.From > n || c.To < 0 || c.To > n ||
				(c.MarksFrom|c.MarksTo)&^g.allValues() != 0 {
				return bad("moves[%d].changes[%d] = %+v is off the board", k, j, c)
			}
			if g.fixed[c.Row*n+c.Col] {
				return bad("moves[%d].changes[%d] changes fixed cell r%dc%d", k, j, c.Row+1, c.Col+1)
			}
		}
	}
	// Walk the moves back to the started board, forward to the end and
	// back to the position, checking that each change starts where the
	// board is.
	step := func(k int, forward bool) error {
		m := s.Moves[k]
		for j := range m.Changes {
			c, v, mk, _, _ := m.step(j, forward)
			i := c.Row*n + c.Col
			if g.values[i] != v || g.marks[i] != mk {
				return &SnapshotError{Reason: fmt.Sprintf("moves[%d] does not fit the board at r%dc%d", k, c.Row+1, c.Col+1)}
			}
		}
		g.apply(m, forward)
		return nil
	}
	for k := s.Position - 1; k >= 0; k-- {
		if err := step(k, false); err != nil {
			return nil, err
		}
	}
	for k := range s.Moves {
		if err := step(k, true); err != nil {
			return nil, err
		}
	}
	for k := len(s.Moves) - 1; k >= s.Position; k-- {
		if err := step(k, false); err != nil {
			return nil, err
		}
	}
	g.moves, g.pos = s.Moves, s.Position
	g.moves, _ = g.History() // own copies, not the caller's slices
	return g, nil
}
