package web

import "fmt"

// board is the grid being played: values (givens included), which cells
// are givens, pencil marks, and the undo/redo lists. It is the web's
// stand-in until package game (the console issue's game model) is in main;
// then board's methods become calls into game and this file goes.
type board struct {
	N     int      `json:"n"`
	Cells []int    `json:"cells"`
	Fixed []bool   `json:"fixed"`
	Marks []uint64 `json:"marks"` // bit v set: v is pencilled in
	Undo  []move   `json:"undo"`
	Redo  []move   `json:"redo"`
}

// move is one player action, as the cells it changed before and after.
type move struct {
	Changes []change `json:"c"`
}

type change struct {
	Cell     int    `json:"i"`
	Old      int    `json:"o"`
	New      int    `json:"n"`
	OldMarks uint64 `json:"om"`
	NewMarks uint64 `json:"nm"`
}

func newBoard(n int, givens []int) *board {
	b := &board{N: n, Cells: append([]int(nil), givens...), Fixed: make([]bool, n*n), Marks: make([]uint64, n*n)}
	for i, v := range givens {
		b.Fixed[i] = v != 0
	}
	return b
}

// errBoard is a move the rules of play refuse: bad says the request itself
// was malformed (a cell or value out of range) rather than refused by the
// state of the game (a given, nothing to undo).
type errBoard struct {
	msg string
	bad bool
}

func (e errBoard) Error() string { return e.msg }

func (b *board) cellName(i int) string { return fmt.Sprintf("r%dc%d", i/b.N+1, i%b.N+1) }

func (b *board) check(cell int) error {
	if cell < 0 || cell >= len(b.Cells) {
		return errBoard{fmt.Sprintf("cell %d is off the board (0..%d)", cell, len(b.Cells)-1), true}
	}
	if b.Fixed[cell] {
		return errBoard{msg: b.cellName(cell) + " is a given and cannot change"}
	}
	return nil
}

// set writes v (0 clears) into cell, clearing its pencil marks. It
// reports whether anything changed (writing the digit already there is no
// move).
func (b *board) set(cell, v int) (bool, error) {
	if err := b.check(cell); err != nil {
		return false, err
	}
	if v < 0 || v > b.N {
		return false, errBoard{fmt.Sprintf("value %d is not 0..%d", v, b.N), true}
	}
	if b.Cells[cell] == v && (v != 0 || b.Marks[cell] == 0) {
		return false, nil
	}
	b.apply(move{Changes: []change{{Cell: cell, Old: b.Cells[cell], New: v, OldMarks: b.Marks[cell], NewMarks: 0}}})
	return true, nil
}

// toggleMark adds or removes the pencil mark v in an empty cell.
func (b *board) toggleMark(cell, v int) error {
	if err := b.check(cell); err != nil {
		return err
	}
	if v < 1 || v > b.N {
		return errBoard{fmt.Sprintf("pencil mark %d is not 1..%d", v, b.N), true}
	}
	if b.Cells[cell] != 0 {
		return errBoard{msg: b.cellName(cell) + " holds a digit: erase it before pencilling"}
	}
	m := b.Marks[cell] ^ (1 << uint(v))
	b.apply(move{Changes: []change{{Cell: cell, Old: 0, New: 0, OldMarks: b.Marks[cell], NewMarks: m}}})
	return nil
}

func (b *board) apply(m move) {
	for _, c := range m.Changes {
		b.Cells[c.Cell], b.Marks[c.Cell] = c.New, c.NewMarks
	}
	b.Undo = append(b.Undo, m)
	b.Redo = b.Redo[:0]
}

func (b *board) undo() error {
	if len(b.Undo) == 0 {
		return errBoard{msg: "nothing to undo"}
	}
	m := b.Undo[len(b.Undo)-1]
	b.Undo = b.Undo[:len(b.Undo)-1]
	for k := len(m.Changes) - 1; k >= 0; k-- {
		c := m.Changes[k]
		b.Cells[c.Cell], b.Marks[c.Cell] = c.Old, c.OldMarks
	}
	b.Redo = append(b.Redo, m)
	return nil
}

func (b *board) redo() error {
	if len(b.Redo) == 0 {
		return errBoard{msg: "nothing to redo"}
	}
	m := b.Redo[len(b.Redo)-1]
	b.Redo = b.Redo[:len(b.Redo)-1]
	for _, c := range m.Changes {
		b.Cells[c.Cell], b.Marks[c.Cell] = c.New, c.NewMarks
	}
	b.Undo = append(b.Undo, m)
	return nil
}

// valid reports whether the decoded board is consistent, so a corrupt
// saved state is refused rather than played.
func (b *board) valid() bool {
	n := b.N
	if n < 1 || len(b.Cells) != n*n || len(b.Fixed) != n*n || len(b.Marks) != n*n {
		return false
	}
	for _, v := range b.Cells {
		if v < 0 || v > n {
			return false
		}
	}
	for _, list := range [][]move{b.Undo, b.Redo} {
		for _, m := range list {
			for _, c := range m.Changes {
				if c.Cell < 0 || c.Cell >= n*n || c.Old < 0 || c.Old > n || c.New < 0 || c.New > n {
					return false
				}
			}
		}
	}
	return true
}
