package sudoku

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The one-line format writes a grid as N*N symbols in row-major order:
// '.' or '0' for an empty cell, '1'..'9' for 1..9, and letters for larger
// values, 'A' = 10, 'B' = 11, ... 'P' = 25 (lower case is read too). So a
// 16×16 grid uses 1..9 and A..G, a 25×25 grid 1..9 and A..P. The side comes
// from the length (16, 36, 64, 81, 100, 144, 256, 625 symbols); the box
// shape is ShapeForN's unless the caller gives one, since 6, 8, 10 and 12
// can be boxed more than one way.

// symbol returns the one-line symbol for value v.
func symbol(v int) byte {
	switch {
	case v == 0:
		return '.'
	case v >= 1 && v <= 9:
		return byte('0' + v)
	case v >= 10 && v <= 35:
		return byte('A' + v - 10)
	}
	return '?'
}

// symbolValue returns the value of a one-line symbol, or -1 for a byte that
// is not one.
func symbolValue(b byte) int {
	switch {
	case b == '.' || b == '0':
		return 0
	case b >= '1' && b <= '9':
		return int(b - '0')
	case b >= 'A' && b <= 'Z':
		return int(b-'A') + 10
	case b >= 'a' && b <= 'z':
		return int(b-'a') + 10
	}
	return -1
}

// ParseLine reads a puzzle in the one-line format. Spaces around it are
// ignored, and so is a comment after it that starts with '#'. With s nil the
// side is inferred from the length and the box shape is ShapeForN's;
// otherwise the length must be s.N()². Errors are *ParseError with Col set to
// the offending character (Line is left 0 for the caller to fill in).
func ParseLine(line string, s *Shape) (Grid, error) {
	fail := func(col, cell int, format string, args ...any) (Grid, error) {
		return Grid{}, &ParseError{Format: "line", Col: col, Cell: cell, Reason: fmt.Sprintf(format, args...)}
	}
	lead := len(line) - len(strings.TrimLeft(line, " \t"))
	text := strings.TrimRight(line[lead:], " \t\r\n")
	if i := strings.IndexAny(text, " \t"); i >= 0 {
		rest := strings.TrimLeft(text[i:], " \t")
		if !strings.HasPrefix(rest, "#") {
			return fail(lead+i+1, -1, "unexpected space inside the puzzle (a trailing comment must start with '#')")
		}
		text = text[:i]
	}
	var shape Shape
	if s != nil {
		if !s.Valid() {
			return fail(0, -1, "box shape %v not supported (need R, C >= 1 and R*C <= %d)", *s, MaxN)
		}
		shape = *s
		if n := shape.N(); len(text) != n*n {
			return fail(0, -1, "%d characters, want %d for a %dx%d grid with %v boxes", len(text), n*n, n, n, shape)
		}
	} else {
		n := 0
		for n*n < len(text) {
			n++
		}
		if n*n != len(text) || len(text) == 0 {
			return fail(0, -1, "%d characters is not the size of any grid (want 81 for 9x9, or N*N)", len(text))
		}
		var err error
		if shape, err = ShapeForN(n); err != nil {
			return fail(0, -1, "%d characters: %v", len(text), err)
		}
	}
	n := shape.N()
	g := NewGrid(shape)
	for i := 0; i < len(text); i++ {
		v := symbolValue(text[i])
		if v < 0 {
			r, _ := utf8.DecodeRuneInString(text[i:])
			return fail(lead+i+1, i, "bad character %q at cell %d (use '.' or '0' for empty, 1-9, A-%c)", r, i, symbol(max(n, 10)))
		}
		if v > n {
			return fail(lead+i+1, i, "value %c (%d) at cell %d is larger than the grid side %d", text[i], v, i, n)
		}
		g.Cells[i] = v
	}
	return g, nil
}
