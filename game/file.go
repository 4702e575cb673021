package game

import (
	"io"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Read starts a game from a file in the console game's format (see
// sudoku.ReadGridStrict: a header "m n" giving m rows and n columns of
// cells per box, then the values, any whitespace between them, a '.' after
// a fixed value). With keepFixed false the dots are ignored and no cell is
// fixed, as when a puzzle is opened for editing. The move list starts
// empty. Errors: *sudoku.ParseError for a malformed file, or the reader's
// error.
func Read(r io.Reader, keepFixed bool) (*Game, error) {
	g, fixed, err := sudoku.ReadGridStrict(r)
	if err != nil {
		return nil, err
	}
	if !keepFixed {
		fixed = nil
	}
	return FromGrid(g, fixed)
}

// Write writes the board in the console game's format: the header "m n",
// one line per row, values separated by single spaces, a '.' after each
// fixed value. With fixAll every non-empty cell is written as fixed, as
// when a puzzle is saved from the editor. The game itself is unchanged.
func (g *Game) Write(w io.Writer, fixAll bool) error {
	if !g.sudoku() {
		return ErrNotSudoku
	}
	fixed := g.fixed
	if fixAll {
		fixed = nil
	}
	return sudoku.WriteGrid(w, sudoku.Grid{Shape: g.shape, Cells: g.values}, fixed)
}
