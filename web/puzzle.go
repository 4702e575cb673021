package web

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sudokuar/sudokuar/sudoku"
)

// maxPuzzleText bounds the puzzle text a client may send: a 25×25 grid
// file with spaces and comments fits easily.
const maxPuzzleText = 8 << 10

// parsePuzzle reads a puzzle a person typed or pasted: the one-line format
// (81 characters for 9×9, '.' or '0' for empty, letters above 9), the same
// spread over lines with spaces and box separators (| + -) between the
// digits, or the grid file format with its "m n" header. box, if not empty,
// picks the box shape ("2x3") for a side that can be boxed more than one
// way. Errors are *sudoku.ParseError (or say what is wrong) and name the
// character, line or cell.
func parsePuzzle(text, box string) (sudoku.Grid, error) {
	if len(text) > maxPuzzleText {
		return sudoku.Grid{}, fmt.Errorf("puzzle text is %d bytes, at most %d", len(text), maxPuzzleText)
	}
	var shape *sudoku.Shape
	if strings.TrimSpace(box) != "" {
		s, err := sudoku.ParseShape(box)
		if err != nil {
			return sudoku.Grid{}, err
		}
		shape = &s
	}
	if looksLikeGridFile(text) {
		g, fixed, err := sudoku.ReadGrid(strings.NewReader(text))
		if err != nil {
			return sudoku.Grid{}, err
		}
		g = sudoku.Puzzle(g, fixed)
		if hasFixed(fixed) {
			return g, nil
		}
		// A grid file without fixed marks: take every value as a given.
		g, _, err = sudoku.ReadGrid(strings.NewReader(text))
		return g, err
	}
	// Everything else is the one-line format, perhaps spread over lines
	// and with separators drawn between boxes: drop those, keep symbols.
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		if isRule(line) {
			continue
		}
		for _, r := range line {
			switch r {
			case ' ', '\t', '\r', '|', '+':
				continue
			}
			b.WriteRune(r)
		}
	}
	flat := b.String()
	if flat == "" {
		return sudoku.Grid{}, errors.New("no puzzle: type or paste 81 characters (or N×N for other sizes), '.' or '0' for an empty cell")
	}
	return sudoku.ParseLine(flat, shape)
}

// looksLikeGridFile reports whether the first line that is not blank or a
// comment is a grid file header: two numbers.
func looksLikeGridFile(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return false
		}
		for _, x := range f {
			if len(x) > 2 || strings.Trim(x, "0123456789") != "" {
				return false
			}
		}
		return true
	}
	return false
}

// isRule reports a separator line such as "------+-------+------".
func isRule(line string) bool {
	return line != "" && strings.Trim(line, "-+=| ") == ""
}

func hasFixed(fixed []bool) bool {
	for _, f := range fixed {
		if f {
			return true
		}
	}
	return false
}

// sizeName is how stores and pages name a grid's size: "9x9".
func sizeName(s sudoku.Shape) string {
	n := s.N()
	return fmt.Sprintf("%dx%d", n, n)
}
