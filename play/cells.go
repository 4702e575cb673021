package play

import "fmt"

// Cells is how a kind numbers the cells a player writes in: Sudoku's
// every square row by row, Kakuro's white cells. Refusals speak in these
// numbers.
type Cells struct {
	N    int    // cells 0..N-1
	Max  int    // the largest digit
	Noun string // how a refusal names a cell beside its range ("" for a square, "white cell")
	// Square is where cell is on the board.
	Square func(cell int) (row, col int)
	// Fixed reports whether cell is a given (nil: a kind without givens).
	Fixed func(cell int) bool
}

// Squares are the cells of an n×n Sudoku board, row by row; fixed says
// which are givens.
func Squares(n int, fixed func(cell int) bool) Cells {
	return Cells{N: n * n, Max: n, Square: func(k int) (int, int) { return k / n, k % n }, Fixed: fixed}
}

// Check reads an action's cell and value: a cell 0..N-1 that is not a
// given, a value lo..Max (0 clears; marks start at 1).
func (cs Cells) Check(action string, cell, value *int, lo int) (c, v int, err error) {
	span := fmt.Sprintf("0..%d", cs.N-1)
	if cs.Noun != "" {
		span = cs.Noun + " " + span
	}
	if cell == nil || value == nil {
		return 0, 0, Refuse(Bad, "%s needs \"cell\" (%s) and \"value\" (%d..%d)", action, span, lo, cs.Max)
	}
	c, v = *cell, *value
	if c < 0 || c >= cs.N {
		return 0, 0, Refuse(Bad, "cell %d is off the board (%s)", c, span)
	}
	if v < lo || v > cs.Max {
		return 0, 0, Refuse(Bad, "value %d is not %d..%d", v, lo, cs.Max)
	}
	if cs.Fixed != nil && cs.Fixed(c) {
		r, col := cs.Square(c)
		return 0, 0, Refuse(Conflict, "r%dc%d is a given and cannot change", r+1, col+1)
	}
	return c, v, nil
}

// At is the cell on square (row, col), -1 if no cell is there.
func (cs Cells) At(row, col int) int {
	for k := range cs.N {
		if r, c := cs.Square(k); r == row && c == col {
			return k
		}
	}
	return -1
}
