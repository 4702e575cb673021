package vision

import (
	"math"
	"slices"

	"github.com/sudokuar/sudokuar/sudoku"
	"gocv.io/x/gocv"
)

// weakLines reports whether the reading's lines are too weak to trust
// the quadrilateral.
func (a *analysis) weakLines() bool { return a.guess.LineScore < weakLineScore }

// tryOutlineBend resamples a curled page through the bend its outline
// shows, when that makes the grid lines stand out more.
func (a *analysis) tryOutlineBend() bool {
	b := a.find.outlineBend(a.g)
	if b == nil {
		return false
	}
	bent := a.g
	bent.Bend = b
	if bg, c := a.rect.readShape(bent, a.gs, a.side0, a.c); better(reading{guess: bg}, reading{guess: a.guess}, bendGain) {
		a.g, a.guess, a.c = bent, bg, c
		return true
	}
	return false
}

// bendGain is how much a bend must raise the line score to be taken: a
// caption fused along a side bows the outline of a flat page too, and
// bending to it gains a little, while the bend of a curled page gains
// clearly more.
const bendGain = 0.04

// tryEvenBoxes handles weak lines on a page that may be curled: its boxes
// may be crowded where it turns away. It spaces the box lines evenly and
// looks again.
func (a *analysis) tryEvenBoxes() bool {
	even, cols, rows, ok := a.rect.evenBoxes(a.c, a.g, a.side0)
	if !ok {
		return false
	}
	// Taken when the lines then stand out clearly, as a grid's do,
	// in as many boxes as the lines evened make (a crease or a
	// column of digits taken for a box line would read 10×10).
	eg := reading{g: even}
	var c *canvas
	eg.guess, c = a.rect.readShape(even, a.gs, a.side0, a.c)
	n, sh := eg.guess.Shape.N(), eg.guess.Shape
	fits := n > 0 && (cols == 0 || sh.BoxCols*cols == n) && (rows == 0 || sh.BoxRows*rows == n)
	if fits && better(eg, reading{guess: a.guess}, bendGain) && acceptable(eg, bar{}) {
		a.g, a.guess, a.c = even, eg.guess, c
		return true
	}
	return false
}

// evenBoxes returns g with a bend that spaces its box lines evenly, read
// from the long-stroke images of c, its canvas (side×side): a curled page crowds the boxes where it turns away, and a grid
// whose boxes are uneven reads as the wrong size. It also returns how many
// boxes across (cols) and down (rows) the lines it evened make, 0 for an
// axis left alone; it is false when the box lines are even already or
// not found.
func (r *rectifier) evenBoxes(c *canvas, g Grid, side int) (Grid, int, int, bool) {
	const k = bendMeshK
	vl, hl := strongLines(profile(c.vlines, 0, &r.prof)), strongLines(profile(c.hlines, 1, &r.prof))
	mx, my := evenMap(vl, side, k), evenMap(hl, side, k)
	if mx == nil && my == nil {
		return g, 0, 0, false
	}
	cols, rows := 0, 0
	if mx != nil {
		cols = len(vl) - 1
	}
	if my != nil {
		rows = len(hl) - 1
	}
	w := k + 1
	next := &Bend{K: k, DX: make([]float64, w*w), DY: make([]float64, w*w)}
	for j := 0; j < w; j++ {
		for i := 0; i < w; i++ {
			u, v := float64(i)/k, float64(j)/k
			if mx != nil {
				u = mx[i]
			}
			if my != nil {
				v = my[j]
			}
			du, dv := g.Bend.At(u, v)
			next.DX[j*w+i] = u + du - float64(i)/k
			next.DY[j*w+i] = v + dv - float64(j)/k
		}
	}
	g.Bend = next
	return g, cols, rows, true
}

// strongLines returns the positions of the strongest lines of a line
// profile (the sums of long strokes along one axis of the canvas): its
// peaks of at least half the highest, closer ones merged. On a grid these
// are the border and the thick box lines.
func strongLines(p []float32) []float64 {
	var mx float32
	for _, v := range p {
		mx = max(mx, v)
	}
	if mx <= 0 {
		return nil
	}
	merge := len(p) / 20
	var out []float64
	for i := 0; i < len(p); {
		if p[i] < mx/2 {
			i++
			continue
		}
		// A run above half height: its centre of mass is the line.
		var s, w float64
		j := i
		for ; j < len(p) && p[j] >= mx/2; j++ {
			s += float64(j) * float64(p[j])
			w += float64(p[j])
		}
		c := s/w + 0.5
		if n := len(out); n > 0 && c-out[n-1] < float64(merge) {
			out[n-1] = (out[n-1] + c) / 2
		} else {
			out = append(out, c)
		}
		i = j
	}
	return out
}

// evenMap returns, for the strong lines of one axis of a canvas of side
// side, the piecewise-linear map from where they should be (evenly
// spaced, the outer ones at the canvas edges) to where they are, sampled
// at k+1 points, or nil when they do not look like a grid's box lines
// (three to five lines spanning the canvas: two to four boxes, as in the
// grids of 6 to 16 cells a side) or are even already.
func evenMap(lines []float64, side, k int) []float64 {
	m := len(lines)
	s := float64(side)
	if m < 3 || m > 5 || lines[0] > 0.1*s || lines[m-1] < 0.9*s {
		return nil
	}
	// The outer lines are the border: the canvas edges by construction.
	at := append([]float64{0}, lines[1:m-1]...)
	at = append(at, s)
	worst := 0.0
	for i, x := range at {
		worst = math.Max(worst, math.Abs(x-float64(i)*s/float64(m-1)))
	}
	if worst < 0.03*s {
		return nil
	}
	out := make([]float64, k+1)
	for i := range out {
		t := float64(i) / float64(k) * float64(m-1) // in boxes
		b := min(int(t), m-2)
		f := t - float64(b)
		out[i] = (at[b]*(1-f) + at[b+1]*f) / s
	}
	return out
}

// tryGridFromCells handles weak lines inside the quadrilateral, which
// mean it is not the grid's own outline (merged with a page frame or a
// crossword, or stretched by a caption): it finds the grid again from its
// cells.
func (a *analysis) tryGridFromCells() bool {
	if q, ok := gridFromCells(a.find.cellHoles(a.find.findQ), 4); ok {
		if g2, ok := a.find.gridFromFind(q); ok {
			return a.preferClearer(g2)
		}
	}
	return false
}

// preferClearer reads the alternative outline g2 and takes it when its
// lines are clearer than a's and clear enough on their own (an outline
// found another way must itself look like a grid).
func (a *analysis) preferClearer(g2 Grid) bool {
	alt := reading{g: g2}
	var c *canvas
	alt.guess, c = a.rect.readShape(g2, a.gs, a.side0, a.c)
	if better(alt, reading{guess: a.guess}, 0) && acceptable(alt, bar{}) {
		a.g, a.guess, a.c = g2, alt.guess, c
		return true
	}
	return false
}

// tryEdgeLines handles lines still weak: a caption or text touching a
// side along its length pushes that side out by a text line. It moves
// each side in to the outermost long stroke near it.
func (a *analysis) tryEdgeLines() bool {
	// Found on the finest canvas with long kernels (a twelfth of the
	// side): words of the caption are shorter, grid lines span it.
	hiSide := 16 * a.opts.CellPx
	hi := a.rect.fresh(a.c)
	a.rect.warp(hi, a.g, a.gs, hiSide)
	a.rect.binarise(hi, float64(hiSide)/16, hiSide/12)
	if g2, ok := a.rect.gridFromEdgeLines(hi, a.g, hiSide); ok {
		return a.preferClearer(g2)
	}
	return false
}

// gridFromEdgeLines returns g with its sides moved to the grid's outer
// lines found on the line images of c (of side canvasSide, warped with
// g), or false when none moved.
func (r *rectifier) gridFromEdgeLines(c *canvas, g Grid, canvasSide int) (Grid, bool) {
	colSum, rowSum, ok := r.bandSums(c, canvasSide)
	if !ok {
		return g, false
	}
	ls, moved := edgeLines(colSum, rowSum, canvasSide)
	if !moved {
		return g, false
	}
	return gridFromLines(g, ls, canvasSide)
}

// gridFromLines returns g with its sides on the lines ls (top, right,
// bottom, left, in pixels of a canvas of side canvasSide warped with g),
// or false when they do not make a convex quadrilateral.
func gridFromLines(g Grid, ls [4]line, canvasSide int) (Grid, bool) {
	k := float64(canvasSide) / float64(g.Side)
	back := mul3(g.HInv, [9]float64{1 / k, 0, 0, 0, 1 / k, 0, 0, 0, 1})
	next := g
	var q [4]pt
	for i := 0; i < 4; i++ {
		c, ok := intersect(ls[(i+3)%4], ls[i])
		if !ok {
			return g, false
		}
		q[i] = c
		p := apply(back, c)
		next.Corners[i] = gocv.Point2f{X: float32(p.X), Y: float32(p.Y)}
	}
	if !isConvexQuad(q) || !setHomography(&next) {
		return g, false
	}
	return next, true
}

// tryWholeLattice handles a quadrilateral holding a whole grid and more
// though its lines read clearly: a grid printed to a page's edge has its
// outline merged with that edge, so the lattice read across the warp is
// misplaced. When a whole 9×9 grid's lines stand out inside the canvas,
// short of its edges, the sides move to its outer lines if they are then
// clearer (fewer lines than 9 fit inside a larger grid too).
func (a *analysis) tryWholeLattice() bool {
	const n = 9
	colSum, rowSum, ok := a.rect.bandSums(a.c, a.side0)
	if !ok {
		return false
	}
	ls, moved := wholeLatticeLines(colSum, rowSum, a.side0, n)
	if !moved {
		return false
	}
	if g2, ok := gridFromLines(a.g, ls, a.side0); ok {
		return a.preferClearer(g2)
	}
	return false
}

// wholeLatticeApplies reports whether tryWholeLattice looks at a: its
// lines read clearly as a grid of up to 9×9 and 9×9 is a size read. Weak
// lines: the quadrilateral is a page or a frame around the grid, which
// the steps before looked into (a comb fit to the text and a turned
// grid's lines there misplaces it). A larger grid read holds combs of
// 9×9 inside it.
func (a *analysis) wholeLatticeApplies() bool {
	return a.guess.LineScore >= weakLineScore && a.guess.Shape.N() <= 9 && slices.Contains(a.opts.Sizes, 9)
}

// coarse reports whether a grid side n read may be the box lines of a
// finer grid (16, 12) whose thin lines were lost at the resolution read.
func (a *analysis) coarse(n int) bool { return n > 0 && n <= 8 && hasMultiple(a.opts.Sizes, n) }

// finerApplies reports whether lookFiner looks at a: a coarse reading
// (4, 6, 8) or a weak one, not yet made on the finest canvas.
func (a *analysis) finerApplies() bool {
	return a.side0 < 16*a.opts.CellPx && (a.coarse(a.side()) || a.guess.LineScore < 0.25)
}

// lookFiner gives the reading a second look at the finest canvas and
// takes it when the first was coarse or the finer lines are clearer.
func (a *analysis) lookFiner() bool {
	coarse := a.coarse(a.side())
	hiSide := 16 * a.opts.CellPx
	c := a.rect.fresh(a.c)
	a.rect.warp(c, a.g, a.gs, hiSide)
	a.rect.binarise(c, float64(hiSide)/16, max(3, hiSide/32))
	hi := a.rect.shapeOf(c)
	taken := coarse || better(reading{guess: hi}, reading{guess: a.guess}, 0)
	if taken {
		a.guess, a.c = hi, c
		a.side0, a.finer = hiSide, true
	}
	return taken
}

// stillCoarse reports whether the reading lookFiner took on the finest
// canvas is still coarse: the cell lines may be too light to survive the binarisation
// (a light, blurred 16×16 grid read as 4×4) but still darken their rows
// and columns of the grey canvas.
func (a *analysis) stillCoarse() bool {
	return a.finer && a.coarse(a.side())
}

// finerFromGrey reads the finer grid from the grey canvas's rows and
// columns.
func (a *analysis) finerFromGrey() bool {
	rows, cols := greyMedians(a.c.grey)
	n := a.side()
	m, conf := finerFromGrey(rows, cols, profile(a.c.hlines, 1, &a.rect.prof), profile(a.c.vlines, 0, &a.rect.prof), n, a.opts.Sizes)
	if m <= 0 {
		return false
	}
	k := m / n
	a.guess.Shape = sudoku.Shape{BoxRows: k, BoxCols: k}
	a.guess.Confidence *= conf
	a.n = m
	return true
}
