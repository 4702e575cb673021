package sudoku

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The grid file format, for puzzles in progress:
//
//	2 2
//	4 0 1. 0
//	0 1. 0 0
//	...
//
// The header gives the box shape, m rows by n columns (so the grid side is
// m*n); a header "N N" with N*N values after it is also accepted and boxed
// as ShapeForN(N). Then come the N*N values in row-major order, 0 for an
// empty cell; a '.' right after a value marks it fixed (a given of the
// puzzle), other values are entries. Any whitespace separates values, so
// the line breaks are for people; lines starting with '#' are comments.

// token is one whitespace-separated field with its position.
type token struct {
	text      string
	line, col int
}

// tokenize splits r into fields, skipping '#' comment lines.
func tokenize(r io.Reader) ([]token, error) {
	var out []token
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(text), "#") {
			continue
		}
		for i, f := range strings.Fields(text) {
			out = append(out, token{f, line, i + 1})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read grid: %w", err)
	}
	return out, nil
}

// ReadGrid reads the grid file format. It returns the grid with every value
// in it, and which cells are fixed (fixed[i] for cell i). Use
// Puzzle(g, fixed) for the givens alone. Format errors are *ParseError.
func ReadGrid(r io.Reader) (Grid, []bool, error) {
	toks, err := tokenize(r)
	if err != nil {
		return Grid{}, nil, err
	}
	fail := func(t token, cell int, format string, args ...any) (Grid, []bool, error) {
		return Grid{}, nil, &ParseError{Format: "grid", Line: t.line, Col: t.col, Cell: cell, Reason: fmt.Sprintf(format, args...)}
	}
	if len(toks) < 2 {
		line := 1
		if len(toks) == 1 {
			line = toks[0].line
		}
		return fail(token{line: line}, -1, "missing header \"m n\" (box rows and columns)")
	}
	var dims [2]int
	for k := 0; k < 2; k++ {
		v, err := strconv.Atoi(toks[k].text)
		if err != nil || v < 1 || v > MaxN {
			return fail(toks[k], -1, "header value %q is not a number 1..%d", toks[k].text, MaxN)
		}
		dims[k] = v
	}
	values := toks[2:]
	shape := Shape{dims[0], dims[1]}
	n := shape.N()
	if n > MaxN || len(values) != n*n {
		// Perhaps the header gave the side twice ("9 9").
		if dims[0] == dims[1] && len(values) == dims[0]*dims[0] {
			if s, err := ShapeForN(dims[0]); err == nil {
				shape, n = s, dims[0]
			}
		}
	}
	if n > MaxN {
		return fail(toks[0], -1, "box shape %dx%d gives a side of %d, more than %d", dims[0], dims[1], n, MaxN)
	}
	if len(values) != n*n {
		at := token{line: toks[1].line}
		if len(values) > n*n {
			at = values[n*n]
			return fail(at, n*n, "more than %d values for a %dx%d grid (%v boxes)", n*n, n, n, shape)
		}
		if len(values) > 0 {
			at = values[len(values)-1]
		}
		return fail(at, len(values), "%d values, want %d for a %dx%d grid (%v boxes)", len(values), n*n, n, n, shape)
	}
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
			return fail(t, i, "cell r%dc%d: %q is not a value 0..%d (optionally followed by '.')", i/n+1, i%n+1, t.text, n)
		}
		if fixed[i] && v == 0 {
			return fail(t, i, "cell r%dc%d: an empty cell (0) cannot be fixed", i/n+1, i%n+1)
		}
		g.Cells[i] = v
	}
	return g, fixed, nil
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

// WriteGrid writes g in the grid file format, marking the cells in fixed
// (nil: every non-empty cell) with a '.'. Columns are aligned.
func WriteGrid(w io.Writer, g Grid, fixed []bool) error {
	if err := check(g); err != nil {
		return err
	}
	n := g.N()
	width := len(strconv.Itoa(n)) + 1
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d %d\n", g.Shape.BoxRows, g.Shape.BoxCols)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			i := r*n + c
			cell := strconv.Itoa(g.Cells[i])
			if g.Cells[i] != 0 && (fixed == nil || (i < len(fixed) && fixed[i])) {
				cell += "."
			}
			if c < n-1 {
				cell = fmt.Sprintf("%-*s", width, cell)
			}
			bw.WriteString(cell)
			if c < n-1 {
				bw.WriteByte(' ')
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
