package game

import (
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Snapshot is a game's whole state as plain data, for a front end to save a
// game in progress (as JSON) and restore it exactly: values, fixed cells,
// pencil marks and the move list with its position, so undo and redo work
// after a restore as before. Cells are in row-major order. A Sudoku's
// snapshot names its box shape; a Layout's board leaves it 0×0 and says
// its rows and columns (its houses are the Layout's, never the
// snapshot's: RestoreLayout).
type Snapshot struct {
	BoxRows  int     `json:"boxRows"`
	BoxCols  int     `json:"boxCols"`
	Rows     int     `json:"rows,omitempty"` // a Layout's board only
	Cols     int     `json:"cols,omitempty"`
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
	if !g.sudoku() {
		s.Rows, s.Cols = g.rows, g.cols
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
	return g.restore(s)
}

// restore puts snapshot s on g's empty board, checking every part of it.
func (g *Game) restore(s Snapshot) (*Game, error) {
	for _, check := range []func(Snapshot) error{g.restoreBoard, g.checkMoves, g.replayMoves} {
		if err := check(s); err != nil {
			return nil, err
		}
	}
	g.moves, g.pos = s.Moves, s.Position
	g.moves, _ = g.History() // own copies, not the caller's slices
	return g, nil
}

// snapshotErr is a *SnapshotError.
func snapshotErr(format string, args ...any) error {
	return &SnapshotError{Reason: fmt.Sprintf(format, args...)}
}

// restoreBoard puts the snapshot's values, fixed flags and marks on g's
// empty board, checking each.
func (g *Game) restoreBoard(s Snapshot) error {
	n, nn := g.n, g.rows*g.cols
	if len(s.Values) != nn || len(s.Fixed) != nn {
		return snapshotErr("%d values and %d fixed flags, want %d of each", len(s.Values), len(s.Fixed), nn)
	}
	if s.Marks != nil && len(s.Marks) != nn {
		return snapshotErr("%d marks, want %d", len(s.Marks), nn)
	}
	for i, v := range s.Values {
		if v < 0 || v > n {
			return snapshotErr("values[%d] = %d, want 0..%d", i, v, n)
		}
		if s.Fixed[i] && v == 0 {
			return snapshotErr("cell %d is fixed but empty", i)
		}
		if g.isWall(i) && (v != 0 || s.Fixed[i] || s.Marks != nil && s.Marks[i] != 0) {
			return snapshotErr("cell %d is a wall but holds something", i)
		}
		g.put(i, v)
		g.fixed[i] = s.Fixed[i]
		if s.Marks != nil {
			if s.Marks[i]&^g.allValues() != 0 {
				return snapshotErr("marks[%d] = %d holds values outside 1..%d", i, s.Marks[i], n)
			}
			g.marks[i] = s.Marks[i]
		}
	}
	return nil
}

// checkMoves checks the position and that every move is of a known kind
// and changes only cells on the board that are not fixed.
func (g *Game) checkMoves(s Snapshot) error {
	n := g.n
	if s.Position < 0 || s.Position > len(s.Moves) {
		return snapshotErr("position %d outside 0..%d", s.Position, len(s.Moves))
	}
	for k, m := range s.Moves {
		switch m.Kind {
		case KindSet, KindAutofill, KindGenerate, KindMarks, KindPlace, KindCandidates:
		default:
			return snapshotErr("moves[%d] has kind %q", k, m.Kind)
		}
		for j, c := range m.Changes {
			if c.Row < 0 || c.Row >= g.rows || c.Col < 0 || c.Col >= g.cols ||
				c.From < 0 || c.From > n || c.To < 0 || c.To > n ||
				(c.MarksFrom|c.MarksTo)&^g.allValues() != 0 {
				return snapshotErr("moves[%d].changes[%d] = %+v is off the board", k, j, c)
			}
			if err := g.open(c.Row*g.cols + c.Col); err != nil {
				return snapshotErr("moves[%d].changes[%d] changes r%dc%d, which takes no move (%v)", k, j, c.Row+1, c.Col+1, err)
			}
		}
	}
	return nil
}

// replayMoves walks the moves back to the started board, forward to the
// end and back to the position, checking that each change starts where
// the board is.
func (g *Game) replayMoves(s Snapshot) error {
	for k := s.Position - 1; k >= 0; k-- {
		if err := g.replayStep(s.Moves, k, false); err != nil {
			return err
		}
	}
	for k := range s.Moves {
		if err := g.replayStep(s.Moves, k, true); err != nil {
			return err
		}
	}
	for k := len(s.Moves) - 1; k >= s.Position; k-- {
		if err := g.replayStep(s.Moves, k, false); err != nil {
			return err
		}
	}
	return nil
}

// replayStep applies moves[k] forward or back once each change is seen
// to start where the board is.
func (g *Game) replayStep(moves []Move, k int, forward bool) error {
	m := moves[k]
	for j := range m.Changes {
		c, v, mk, _, _ := m.step(j, forward)
		i := c.Row*g.cols + c.Col
		if g.values[i] != v || g.marks[i] != mk {
			return snapshotErr("moves[%d] does not fit the board at r%dc%d", k, c.Row+1, c.Col+1)
		}
	}
	g.apply(m, forward)
	return nil
}
