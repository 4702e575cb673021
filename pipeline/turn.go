package pipeline

import (
	"gocv.io/x/gocv"

	"sudokuar/sudoku"
	"sudokuar/vision"
)

// A photo may hold the puzzle on its side or upside down: a page
// photographed sideways, or a phone's orientation tag that does not match
// its pixels (7 of the 160 real photos in wicht-v2-train). ocr.Read notices
// (Reading.Turns) and reads the digits turned, but keeps the photo's
// layout; the pipeline turns the layout and the grid's geometry to match,
// so the givens come out as printed and the overlay draws its digits
// upright.

// turnCell maps a row-major cell index of an n×n grid through k clockwise
// quarter turns: (r, c) goes to (c, n-1-r) per turn.
func turnCell(i, n, k int) int {
	r, c := i/n, i%n
	for t := 0; t < k; t++ {
		r, c = c, n-1-r
	}
	return r*n + c
}

// turnLayout returns g's cells turned k clockwise quarter turns (odd turns
// swap the box shape's rows and columns).
func turnLayout(g sudoku.Grid, k int) sudoku.Grid {
	k = ((k % 4) + 4) % 4
	n := g.N()
	if k == 0 || len(g.Cells) != n*n {
		return g
	}
	s := g.Shape
	if k%2 == 1 {
		s.BoxRows, s.BoxCols = s.BoxCols, s.BoxRows
	}
	out := sudoku.Grid{Shape: s, Cells: make([]int, len(g.Cells))}
	for i, v := range g.Cells {
		out.Cells[turnCell(i, n, k)] = v
	}
	return out
}

// TurnGrid is g with its canvas turned k quarter turns clockwise: the
// corners start from the new top-left, the homographies map to and from
// the turned canvas, and odd turns swap the box shape's rows and columns.
// Live mode applies a Result's Turns to the grid it follows frame by frame.
func TurnGrid(g vision.Grid, k int) vision.Grid {
	k = ((k % 4) + 4) % 4
	s := float64(g.Side)
	// R turns canvas points clockwise: (x, y) -> (S - y, x).
	r := [9]float64{0, -1, s, 1, 0, 0, 0, 0, 1}
	ri := [9]float64{0, 1, 0, -1, 0, s, 0, 0, 1}
	for t := 0; t < k; t++ {
		g.H = mul3(r, g.H)
		g.HInv = mul3(g.HInv, ri)
		c := g.Corners
		g.Corners = [4]gocv.Point2f{c[3], c[0], c[1], c[2]}
		g.Shape.BoxRows, g.Shape.BoxCols = g.Shape.BoxCols, g.Shape.BoxRows
	}
	// Keep h[8] = 1, as vision.Grid documents.
	if d := g.HInv[8]; d != 0 {
		for i := range g.HInv {
			g.HInv[i] /= d
		}
	}
	return g
}

// mul3 multiplies row-major 3×3 matrices.
func mul3(a, b [9]float64) [9]float64 {
	var m [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				m[3*i+j] += a[3*i+k] * b[3*k+j]
			}
		}
	}
	return m
}
