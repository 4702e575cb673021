package sudoku

import (
	"strconv"
)

// The cell-string format is the one-line format (see ParseLine) with '0'
// for an empty cell, no spaces and no comment: N*N symbols, '1'..'9', then
// 'A' = 10 .. 'Z' = 35 (upper case only). It is how the web API, the
// rooms' messages, the store and scan's JSON write a grid; reading also
// takes '.' for an empty cell.

// Symbol returns the one-line format's symbol for value v: '.' for 0,
// '1'..'9', then 'A' = 10 .. 'Z' = 35, and '?' for a value outside that.
func Symbol(v int) byte { return symbol(v) }

// CellSymbol returns the cell-string symbol of value v: Symbol's, but '0'
// for an empty cell.
func CellSymbol(v int) byte {
	if v == 0 {
		return '0'
	}
	return symbol(v)
}

// CellString writes cells in the cell-string format.
func CellString(cells []int) string {
	b := make([]byte, len(cells))
	for i, v := range cells {
		b[i] = CellSymbol(v)
	}
	return string(b)
}

// ParseCells reads a cell string of a grid of side n. Errors are
// *CellsError, naming the cell.
func ParseCells(text string, n int) ([]int, error) {
	if len(text) != n*n {
		return nil, &CellsError{Text: text, Cell: -1, Reason: strconv.Itoa(len(text)) + " characters, want " + strconv.Itoa(n*n) + " for a " + strconv.Itoa(n) + "x" + strconv.Itoa(n) + " grid"}
	}
	out := make([]int, n*n)
	for i := 0; i < len(text); i++ {
		c := text[i]
		v := symbolValue(c)
		if v < 0 || (c >= 'a' && c <= 'z') {
			return nil, &CellsError{Text: text, Cell: i, Reason: "bad character " + strconv.QuoteRune(rune(c)) + " at cell " + strconv.Itoa(i)}
		}
		if v > n {
			return nil, &CellsError{Text: text, Cell: i, Reason: "value " + strconv.Itoa(v) + " above " + strconv.Itoa(n) + " at cell " + strconv.Itoa(i)}
		}
		out[i] = v
	}
	return out, nil
}

// ParseCellGrid reads a cell string as a grid of shape s.
func ParseCellGrid(s Shape, text string) (Grid, error) {
	cells, err := ParseCells(text, s.N())
	if err != nil {
		return Grid{}, err
	}
	return Grid{Shape: s, Cells: cells}, nil
}

// CellsError reports a cell string that does not fit its grid.
type CellsError struct {
	Text   string // the text read
	Cell   int    // 0-based cell of the fault; -1 for a wrong length
	Reason string
}

// maxQuoted is how much of a faulty cell string an error message repeats.
const maxQuoted = 100

func (e *CellsError) Error() string {
	text := e.Text
	if len(text) > maxQuoted {
		text = text[:maxQuoted] + "..."
	}
	return "grid string " + strconv.Quote(text) + ": " + e.Reason
}
