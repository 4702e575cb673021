// Package sudoku knows the rules of Sudoku: grids of any box shape r×c,
// the text formats they are read from and written to, validation, solving
// (through the exact-cover engine in package dlx) and puzzle generation.
//
// In: puzzle text (one-line, grid-file or photo-dataset .dat) or cell values.
// Out: Grid values, conflicts, solutions and uniqueness verdicts.
package sudoku

import "fmt"

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
