package sudoku

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The grid file format (the console game's save file): a header "m n", the
// box shape (side N = m*n), then the N*N values row by row, 0 empty, a '.'
// right after a value marking it fixed (a given), any whitespace between:
//
//	2 2   4 0 1. 0   0 1. 0 0   ...
//
// ReadGridStrict reads exactly that; ReadGrid also skips '#' lines and
// takes a header "N N" (boxes as ShapeForN(N)), for files written by hand.

// Limits that keep a hostile file from costing memory or time: no field of
// a valid file is longer than a few characters, and no valid file needs
// more than a few kilobytes, however generous its whitespace.
const (
	maxGridField = 64
	maxGridBytes = 16 << 20
)

// token is one whitespace-separated field with its position.
type token struct {
	text      string
	line, col int
}

// fieldReader splits a grid file into fields as it reads, so it never holds
// more than the fields asked for.
type fieldReader struct {
	br        *bufio.Reader
	comments  bool // skip lines whose first field starts with '#'
	line, col int  // current line (1-based) and fields seen on it
	read      int
	field     []byte
}

func newFieldReader(r io.Reader, comments bool) *fieldReader {
	return &fieldReader{br: bufio.NewReader(r), comments: comments, line: 1}
}

// isSpace reports whether b separates fields (C's isspace).
func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

// next returns the next field, io.EOF after the last, a *ParseError for a
// field or file over the limits, or the reader's error wrapped.
func (fr *fieldReader) next() (token, error) {
	fr.field = fr.field[:0]
	for {
		b, err := fr.br.ReadByte()
		if err != nil {
			if err != io.EOF {
				return token{}, fmt.Errorf("read grid: %w", err)
			}
			if len(fr.field) > 0 {
				return token{string(fr.field), fr.line, fr.col}, nil
			}
			return token{line: fr.line}, io.EOF
		}
		if isSpace(b) {
			if len(fr.field) > 0 {
				// End of the field: leave the separator for the next
				// call, so a newline counts after the field's line.
				_ = fr.br.UnreadByte()
				return token{string(fr.field), fr.line, fr.col}, nil
			}
			if err := fr.count(); err != nil {
				return token{}, err
			}
			if b == '\n' {
				fr.line++
				fr.col = 0
			}
			continue
		}
		if err := fr.count(); err != nil {
			return token{}, err
		}
		if len(fr.field) == 0 {
			if b == '#' && fr.comments && fr.col == 0 {
				if err := fr.skipLine(); err != nil {
					return token{}, err
				}
				continue
			}
			fr.col++
		}
		if len(fr.field) == maxGridField {
			return token{}, &ParseError{Format: "grid", Line: fr.line, Col: fr.col, Cell: -1,
				Reason: fmt.Sprintf("field longer than %d characters", maxGridField)}
		}
		fr.field = append(fr.field, b)
	}
}

// count counts one byte read and fails past maxGridBytes.
func (fr *fieldReader) count() error {
	fr.read++
	if fr.read > maxGridBytes {
		return &ParseError{Format: "grid", Line: fr.line, Cell: -1, Reason: fmt.Sprintf("file longer than %d bytes", maxGridBytes)}
	}
	return nil
}

// skipLine reads up to and including the next newline.
func (fr *fieldReader) skipLine() error {
	for {
		b, err := fr.br.ReadByte()
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("read grid: %w", err)
		}
		if err := fr.count(); err != nil {
			return err
		}
		if b == '\n' {
			fr.line++
			fr.col = 0
			return nil
		}
	}
}

// fields reads up to max fields; fewer means the input ended.
func (fr *fieldReader) fields(max int) ([]token, error) {
	var out []token
	for len(out) < max {
		t, err := fr.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// ReadGrid reads the grid file format, forgiving comment lines and an "N N"
// header (see the format above). It returns the grid with every value in
// it, and which cells are fixed (fixed[i] for cell i). Use Puzzle(g, fixed)
// for the givens alone. Format errors are *ParseError.
func ReadGrid(r io.Reader) (Grid, []bool, error) { return readGrid(r, false) }

// ReadGridStrict reads the grid file format exactly as the console game's
// specification defines it: the header is always the box shape "m n" (m
// rows and n columns of cells per box), followed by exactly (m*n)² values;
// '#' is not a comment. Format errors are *ParseError; it stops reading at
// the first value too many.
func ReadGridStrict(r io.Reader) (Grid, []bool, error) { return readGrid(r, true) }

func readGrid(r io.Reader, strict bool) (Grid, []bool, error) {
	fr := newFieldReader(r, !strict)
	fail := func(t token, cell int, format string, args ...any) (Grid, []bool, error) {
		return Grid{}, nil, &ParseError{Format: "grid", Line: t.line, Col: t.col, Cell: cell, Reason: fmt.Sprintf(format, args...)}
	}
	head, err := fr.fields(2)
	if err != nil {
		return Grid{}, nil, err
	}
	if len(head) < 2 {
		at := token{line: 1}
		if len(head) == 1 {
			at = head[0]
		}
		return fail(at, -1, "missing header \"m n\" (box rows and columns)")
	}
	var dims [2]int
	for k, t := range head {
		v, err := strconv.Atoi(t.text)
		if err != nil || v < 1 || v > MaxN {
			return fail(t, -1, "header value %q is not a number 1..%d", t.text, MaxN)
		}
		dims[k] = v
	}
	shape := Shape{dims[0], dims[1]}
	n := shape.N()
	if strict && n > MaxN {
		return fail(head[0], -1, "box shape %dx%d gives a side of %d, more than %d", dims[0], dims[1], n, MaxN)
	}
	want := n * n
	if !strict && dims[0] == dims[1] {
		want = max(want, dims[0]*dims[0])
	}
	values, err := fr.fields(want + 1)
	if err != nil {
		return Grid{}, nil, err
	}
	if !strict && (n > MaxN || len(values) != n*n) {
		// Perhaps the header gave the side twice ("9 9").
		if dims[0] == dims[1] && len(values) == dims[0]*dims[0] {
			if s, err := ShapeForN(dims[0]); err == nil {
				shape, n = s, dims[0]
			}
		}
	}
	if n > MaxN {
		return fail(head[0], -1, "box shape %dx%d gives a side of %d, more than %d", dims[0], dims[1], n, MaxN)
	}
	if len(values) != n*n {
		if len(values) > n*n {
			return fail(values[n*n], n*n, "more than %d values for a %dx%d grid (%v boxes)", n*n, n, n, shape)
		}
		at := token{line: head[1].line}
		if len(values) > 0 {
			at = values[len(values)-1]
		}
		return fail(at, len(values), "%d values, want %d for a %dx%d grid (%v boxes)", len(values), n*n, n, n, shape)
	}
	return gridValues(shape, values)
}

// gridValues reads the n*n value fields of a grid of shape s: 0..n, a
// trailing '.' marking a fixed cell.
func gridValues(shape Shape, values []token) (Grid, []bool, error) {
	n := shape.N()
	g := NewGrid(shape)
	fixed := make([]bool, n*n)
	for i, t := range values {
		text := t.text
		if strings.HasSuffix(text, ".") {
			fixed[i] = true
			text = text[:len(text)-1]
		}
		v, err := strconv.Atoi(text)
		if err != nil || v < 0 || v > n || strings.HasPrefix(text, "+") || strings.HasPrefix(text, "-") {
			return Grid{}, nil, gridErr(t, i, "cell r%dc%d: %q is not a value 0..%d (optionally followed by '.')", i/n+1, i%n+1, t.text, n)
		}
		if fixed[i] && v == 0 {
			return Grid{}, nil, gridErr(t, i, "cell r%dc%d: an empty cell (0) cannot be fixed", i/n+1, i%n+1)
		}
		g.Cells[i] = v
	}
	return g, fixed, nil
}

// gridErr is a *ParseError of the grid format at token t.
func gridErr(t token, cell int, format string, args ...any) error {
	return &ParseError{Format: "grid", Line: t.line, Col: t.col, Cell: cell, Reason: fmt.Sprintf(format, args...)}
}

// ReadGridFile reads a grid file from disk; see ReadGrid.
func ReadGridFile(path string) (Grid, []bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return Grid{}, nil, fmt.Errorf("read grid %s: %w", path, err)
	}
	defer f.Close()
	g, fixed, err := ReadGrid(f)
	if err != nil {
		return Grid{}, nil, fmt.Errorf("read grid %s: %w", path, err)
	}
	return g, fixed, nil
}

// Puzzle returns the fixed cells of g alone: the puzzle behind a grid in
// progress. A nil fixed counts every value as fixed.
func Puzzle(g Grid, fixed []bool) Grid {
	p := g.Clone()
	if fixed == nil {
		return p
	}
	for i := range p.Cells {
		if i >= len(fixed) || !fixed[i] {
			p.Cells[i] = 0
		}
	}
	return p
}

// WriteGrid writes g in the grid file format exactly as the console game's
// specification asks: the header "m n", then one line per row, values
// separated by single spaces, each cell in fixed (nil: every non-empty
// cell) followed by a '.'.
func WriteGrid(w io.Writer, g Grid, fixed []bool) error {
	if err := check(g); err != nil {
		return err
	}
	n := g.N()
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d %d\n", g.Shape.BoxRows, g.Shape.BoxCols)
	var buf []byte
	for r := 0; r < n; r++ {
		buf = buf[:0]
		for c := 0; c < n; c++ {
			i := r*n + c
			if c > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, int64(g.Cells[i]), 10)
			if g.Cells[i] != 0 && (fixed == nil || (i < len(fixed) && fixed[i])) {
				buf = append(buf, '.')
			}
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}
