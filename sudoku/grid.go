// Package sudoku knows the rules of Sudoku: grids of any box shape r×c,
// the text formats they are read from and written to, validation, solving
// (a bit-parallel engine for 9×9, the exact-cover engine of package dlx
// for every shape) and puzzle generation.
//
// In: puzzle text (one-line, grid-file or photo-dataset .dat) or cell values.
// Out: Grid values, conflicts, solutions and uniqueness verdicts.
package sudoku

import (
	"fmt"
	"strings"
)

// Shape is the box shape of a grid: boxes of BoxRows rows by BoxCols columns.
// The grid side is N = BoxRows*BoxCols (a 9×9 grid has Shape{3, 3}).
type Shape struct {
	BoxRows, BoxCols int
}

// N returns the side of the grid, which is also the number of symbols.
func (s Shape) N() int { return s.BoxRows * s.BoxCols }

// String formats the shape as "RxC".
func (s Shape) String() string { return fmt.Sprintf("%dx%d", s.BoxRows, s.BoxCols) }

// Grid is a puzzle or a solution: N*N cell values in row-major order, 0 for
// an empty cell and 1..N for a digit.
type Grid struct {
	Shape Shape
	Cells []int
}

// NewGrid returns an empty grid of the given shape.
func NewGrid(s Shape) Grid {
	n := s.N()
	return Grid{Shape: s, Cells: make([]int, n*n)}
}

// N returns the side of the grid.
func (g Grid) N() int { return g.Shape.N() }

// At returns the value at row r, column c (0-based).
func (g Grid) At(r, c int) int { return g.Cells[r*g.N()+c] }

// Set stores v at row r, column c (0-based).
func (g Grid) Set(r, c, v int) { g.Cells[r*g.N()+c] = v }

// Clone returns a deep copy of g.
func (g Grid) Clone() Grid {
	return Grid{Shape: g.Shape, Cells: append([]int(nil), g.Cells...)}
}

// Givens returns the number of non-empty cells.
func (g Grid) Givens() int {
	n := 0
	for _, v := range g.Cells {
		if v != 0 {
			n++
		}
	}
	return n
}

// Equal reports whether g and h have the same shape and cells.
func (g Grid) Equal(h Grid) bool {
	if g.Shape != h.Shape || len(g.Cells) != len(h.Cells) {
		return false
	}
	for i, v := range g.Cells {
		if h.Cells[i] != v {
			return false
		}
	}
	return true
}

// String returns the one-line form of g: N*N symbols, '.' for an empty cell,
// '1'..'9' for 1..9 and 'A'..'Z' for 10..35 (see ParseLine). A cell value out
// of that range is written as '?'.
func (g Grid) String() string {
	var b strings.Builder
	b.Grow(len(g.Cells))
	for _, v := range g.Cells {
		b.WriteByte(symbol(v))
	}
	return b.String()
}

// Pretty returns g as N lines of space-separated symbols with a gap between
// boxes, for people to read.
func (g Grid) Pretty() string {
	var b strings.Builder
	n := g.N()
	if n == 0 || len(g.Cells) != n*n {
		return g.String()
	}
	for r := 0; r < n; r++ {
		if r > 0 && r%g.Shape.BoxRows == 0 {
			b.WriteByte('\n')
		}
		for c := 0; c < n; c++ {
			if c > 0 {
				b.WriteByte(' ')
				if c%g.Shape.BoxCols == 0 {
					b.WriteByte(' ')
				}
			}
			b.WriteByte(symbol(g.At(r, c)))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TurnIndex maps a row-major cell index of an n×n grid through k clockwise
// quarter turns: (r, c) goes to (c, n-1-r) per turn.
func TurnIndex(i, n, k int) int {
	k = ((k % 4) + 4) % 4
	r, c := i/n, i%n
	for t := 0; t < k; t++ {
		r, c = c, n-1-r
	}
	return r*n + c
}

// Turn returns g's cells turned k clockwise quarter turns (odd turns swap
// the box shape's rows and columns), as for a page photographed sideways.
func (g Grid) Turn(k int) Grid {
	k = ((k % 4) + 4) % 4
	n := g.N()
	if k == 0 || len(g.Cells) != n*n {
		return g
	}
	s := g.Shape
	if k%2 == 1 {
		s.BoxRows, s.BoxCols = s.BoxCols, s.BoxRows
	}
	return Grid{Shape: s, Cells: TurnCells(g.Cells, n, k)}
}

// TurnCells returns a copy of the per-cell values of an n×n grid (row
// major) moved through k clockwise quarter turns, as Turn moves the
// givens: what a reading says of each cell follows its cell.
func TurnCells[T any](cells []T, n, k int) []T {
	out := make([]T, len(cells))
	for i, v := range cells {
		out[TurnIndex(i, n, k)] = v
	}
	return out
}
