package web

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// parseEntries reads the "entries" of a game carried over from paper: one
// character per cell of puzzle ('0' or '.' for none, then 1..9 and A.. as
// in a cell string), the digits the player wrote there. An entry on a
// given is refused (the page's printed digit and the player's ink cannot
// share a cell); entries that clash with a given or with each other are
// taken, as a player's paper may hold them: the board shows them as
// conflicts. Errors name the field, the cell and the reason.
func parseEntries(text string, puzzle sudoku.Grid) ([]int, error) {
	n := puzzle.Shape.N()
	if len(text) > maxPuzzleText {
		return nil, fmt.Errorf("entries: %d bytes, at most %d", len(text), maxPuzzleText)
	}
	if len(text) != n*n {
		return nil, fmt.Errorf("entries: %d characters, want %d (one per cell of the %dx%d grid, 0 = none)", len(text), n*n, n, n)
	}
	out := make([]int, n*n)
	for i := range len(text) {
		c, cell := text[i], sudoku.CellName(i, n)
		v := entryValue(c)
		if v < 0 {
			return nil, fmt.Errorf("entries: %s holds %s: want 0 (none) or a digit 1..%s", cell, strconv.QuoteRune(rune(c)), string(sudoku.CellSymbol(n)))
		}
		if v > n {
			return nil, fmt.Errorf("entries: %s holds %d, above %d", cell, v, n)
		}
		if v != 0 && puzzle.Cells[i] != 0 {
			return nil, fmt.Errorf("entries: %s holds %d but is a given (%d): an entry goes in an empty cell", cell, v, puzzle.Cells[i])
		}
		out[i] = v
	}
	return out, nil
}

// entryValue is the value of an entries character, -1 when it is none.
func entryValue(c byte) int {
	switch {
	case c == '0' || c == '.':
		return 0
	case c >= '1' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return -1
}

// solvedBy reports whether entries fill every empty cell of puzzle with
// its solution's digit.
func solvedBy(puzzle, solution sudoku.Grid, entries []int) bool {
	full := slices.Clone(puzzle.Cells)
	for i, v := range entries {
		if v != 0 {
			full[i] = v
		}
	}
	return slices.Equal(full, solution.Cells)
}
