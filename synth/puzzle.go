package synth

import (
	"fmt"
	"math/rand/v2"

	"sudokuar/sudoku"
)

// ShapeFor returns the box shape Render prints for a grid of side n
// (4: 2x2, 6: 2x3, 8: 2x4, 9: 3x3, 12: 3x4, 16: 4x4; boxes are wider than
// tall, as in print). Other sides give an *OptionError.
func ShapeFor(n int) (sudoku.Shape, error) {
	var s sudoku.Shape
	switch n {
	case 4, 9, 16:
		s = sudoku.Shape{BoxRows: isqrt(n), BoxCols: isqrt(n)}
	case 6, 8:
		s = sudoku.Shape{BoxRows: 2, BoxCols: n / 2}
	case 12:
		s = sudoku.Shape{BoxRows: 3, BoxCols: 4}
	default:
		return sudoku.Shape{}, &OptionError{Field: "size", Reason: fmt.Sprintf("%d is not one of 4, 6, 8, 9, 12, 16", n)}
	}
	return s, nil
}

// RandomPuzzle returns a puzzle of the given shape with about clues givens
// (a share of the cells that suits the size when clues <= 0).
//
// It is a stop-gap until package sudoku's generator lands: the solution is
// a valid Latin-square-with-boxes grid scrambled by the symmetries of
// Sudoku, and the clues are chosen at random, so the puzzle is valid but
// not guaranteed to have a unique solution.
func RandomPuzzle(s sudoku.Shape, seed int64, clues int) (sudoku.Grid, error) {
	if want, err := ShapeFor(s.N()); err != nil || want != s {
		return sudoku.Grid{}, &OptionError{Field: "shape", Reason: fmt.Sprintf("%v is not a supported box shape", s)}
	}
	n := s.N()
	if clues <= 0 {
		clues = n * n * 38 / 100
	}
	if clues > n*n {
		clues = n * n
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x7075_7a7a_6c65))
	// Base pattern: row r starts BoxCols further along per row inside a
	// band and one further per band, which satisfies rows, columns, boxes.
	base := func(r, c int) int {
		return (s.BoxCols*(r%s.BoxRows) + r/s.BoxRows + c) % n
	}
	rows := permuteBands(rng, s.BoxRows, n/s.BoxRows)
	cols := permuteBands(rng, s.BoxCols, n/s.BoxCols)
	sym := rng.Perm(n)
	g := sudoku.NewGrid(s)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			g.Set(r, c, sym[base(rows[r], cols[c])]+1)
		}
	}
	keep := rng.Perm(n * n)[:clues]
	out := sudoku.NewGrid(s)
	for _, i := range keep {
		out.Cells[i] = g.Cells[i]
	}
	return out, nil
}

// permuteBands returns an order of n = size*bands lines that only swaps
// whole bands and lines inside a band, which keeps a grid valid.
func permuteBands(rng *rand.Rand, size, bands int) []int {
	order := make([]int, 0, size*bands)
	for _, b := range rng.Perm(bands) {
		for _, i := range rng.Perm(size) {
			order = append(order, b*size+i)
		}
	}
	return order
}

func isqrt(n int) int {
	r := 0
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}
