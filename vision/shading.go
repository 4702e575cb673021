package vision

import (
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Some papers print alternate boxes on a grey or coloured tint, and some
// of those print every line at one width: the tint alone shows the box
// shape, which line thickness cannot tell (a 6×6 of 2×3 boxes from one
// of 3×2). The paper under each cell (the light part of its middle,
// which digits hardly reach) then alternates box by box, and only the
// right shape puts every step between neighbouring cells on a box's
// edge, the same way round.

// shadeMinStep is the least step, in grey levels, between neighbouring
// cells across the boxes' edges for a tint to count: the light falling
// on a page varies smoothly, hardly from one cell to the next.
const shadeMinStep = 8

// shadeMinContrast is the least step across the boxes' edges, in
// standard deviations of the differences between neighbours within a
// box, for the tint to name the box shape (TestShadedBoxes).
const shadeMinContrast = 3

// shadedShape returns the box shape among n's factorisations whose boxes
// the canvas's tint alternates over, and how clearly (its contrast over
// the runner-up's, 0..1), or ok false when no tint names one: no tint,
// one factorisation only, or two shapes it fits alike.
func shadedShape(grey gocv.Mat, n int) (sudoku.Shape, float64, bool) {
	shapes := factorisations(n)
	if len(shapes) < 2 {
		return sudoku.Shape{}, 0, false
	}
	bg := cellPaper(grey, n)
	if bg == nil {
		return sudoku.Shape{}, 0, false
	}
	best, bestC, second := sudoku.Shape{}, 0.0, 0.0
	for _, sh := range shapes {
		c := boxAlternation(bg, n, sh)
		if c > bestC {
			best, bestC, second = sh, c, bestC
		} else if c > second {
			second = c
		}
	}
	if bestC < shadeMinContrast || second > bestC/2 {
		return sudoku.Shape{}, 0, false
	}
	return best, clamp01(1 - second/bestC), true
}

// boxTinted reports whether the canvas's alternate boxes of shape sh are
// printed on a tint: its paper is uneven by design, not by the light.
func boxTinted(grey gocv.Mat, sh sudoku.Shape) bool {
	bg := cellPaper(grey, sh.N())
	return bg != nil && boxAlternation(bg, sh.N(), sh) >= shadeMinContrast
}

// boxAlternation compares the paper levels bg of neighbouring cells of
// the n×n grid, boxes of shape sh: across a box's edge the even boxes (row
// and column of boxes adding up even) must differ from the odd ones by
// one step, the same way round everywhere, and within a box not at all.
// It returns that step in standard deviations of the differences within
// boxes, or 0 when the step is below shadeMinStep. Neighbours see nearly
// the same light, so uneven light hardly counts.
func boxAlternation(bg []float64, n int, sh sudoku.Shape) float64 {
	box := func(r, c int) (int, int) { return r / sh.BoxRows, c / sh.BoxCols }
	var across, within float64
	var na, nw int
	pair := func(r0, c0, r1, c1 int) {
		d := bg[r0*n+c0] - bg[r1*n+c1]
		br0, bc0 := box(r0, c0)
		br1, bc1 := box(r1, c1)
		if br0 == br1 && bc0 == bc1 {
			within += d * d
			nw++
			return
		}
		if (br0+bc0)%2 == 1 {
			d = -d
		}
		across += d
		na++
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if c+1 < n {
				pair(r, c, r, c+1)
			}
			if r+1 < n {
				pair(r, c, r+1, c)
			}
		}
	}
	if na == 0 || nw == 0 {
		return 0
	}
	step := math.Abs(across / float64(na))
	if step < shadeMinStep {
		return 0
	}
	return step / math.Sqrt(math.Max(within/float64(nw), 1))
}

// cellPaper returns the paper level under each of the n×n cells of the
// square 8-bit grey canvas grey: a high quantile of the middle half of
// the cell, which a digit's strokes leave mostly bare. nil when the
// canvas is not such an image or its cells are too small.
func cellPaper(grey gocv.Mat, n int) []float64 {
	side := grey.Cols()
	if n < 2 || grey.Empty() || grey.Type() != gocv.MatTypeCV8UC1 || grey.Rows() != side || side < 4*n {
		return nil
	}
	px, err := grey.DataPtrUint8()
	if err != nil || len(px) < side*side {
		return nil
	}
	cs := float64(side) / float64(n)
	out := make([]float64, n*n)
	var vals []int
	for r := 0; r < n; r++ {
		y0, y1 := int(float64(r)*cs+cs/4), int(float64(r+1)*cs-cs/4)
		for c := 0; c < n; c++ {
			x0, x1 := int(float64(c)*cs+cs/4), int(float64(c+1)*cs-cs/4)
			vals = vals[:0]
			for y := y0; y < y1; y++ {
				for _, v := range px[y*side+x0 : y*side+x1] {
					vals = append(vals, int(v))
				}
			}
			if len(vals) == 0 {
				return nil
			}
			sort.Ints(vals)
			out[r*n+c] = float64(vals[len(vals)*9/10])
		}
	}
	return out
}
