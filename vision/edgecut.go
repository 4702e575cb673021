package vision

import (
	"math"

	"gocv.io/x/gocv"
)

// A photo can cut a grid: the page reaches beyond the frame's edge, and the
// outline found is the part in view, along the edge or up to the last
// line before it. Read as it is, that part is stretched over a whole
// lattice or taken for a smaller puzzle, its digits land in the wrong
// cells, and it can even have one (wrong) solution. cutByFrame looks at
// the lines near such a side, where they are rather than where the
// lattice read puts them; a grid it finds cut is answered CutOff ("move
// back") instead of being read.

// edgeSide is how near (in cells) to the frame's edge both ends of a side
// must lie for the side to run along the edge.
const edgeSide = 0.3

// cutByFrame reports which side of g (0 top, 1 right, 2 bottom, 3 left)
// the frame's edge cuts, and whether it does: a side runs along the
// frame's edge and the lines crossing the sides beside it are not where
// the lattice read puts them (the part in view was stretched over the
// whole lattice); or the frame's edge is near a side and the lines
// crossing it run on beyond it, or the grid is read smaller than 9×9 on
// an outline much longer one way than the other (a 9×9's columns in view
// taken for a smaller puzzle). A whole grid whose outer line is faint or
// half cut by the frame is read: its lines are where its lattice is.
func cutByFrame(frame gocv.Mat, g Grid) (int, bool) {
	n := g.Shape.N()
	if n == 0 {
		n = 9
	}
	if g.Side <= 0 || frame.Empty() || !frame.IsContinuous() {
		return 0, false
	}
	px, err := frame.DataPtrUint8()
	if err != nil || len(px) != frame.Cols()*frame.Rows()*frame.Channels() {
		return 0, false
	}
	e := &edgeLook{px: px, w: frame.Cols(), h: frame.Rows(), ch: frame.Channels(), g: g, darkBelow: darkBelow(g)}
	w, h := float64(frame.Cols()), float64(frame.Rows())
	cell := MeanSide(g.Corners) / float64(n)
	m := math.Max(4, edgeSide*cell)
	for sd := range 4 {
		a, b := g.Corners[sd], g.Corners[(sd+1)%4]
		if alongEdge(a, b, w, h, m) {
			for _, beside := range []int{(sd + 1) % 4, (sd + 3) % 4} {
				if off, on := e.offLattice(beside, n); off >= latticeOff && off > 2*on {
					return sd, true
				}
			}
			continue
		}
		on, near := e.linesRunOn(sd, n)
		if near && (on >= runOnLines || (n < 9 && elongation(g.Corners) > partLong)) {
			return sd, true
		}
	}
	return 0, false
}

// partLong is how much longer one way than the other (mean of opposite
// sides) a grid smaller than 9×9 near the frame's edge may be before it
// is taken for the part in view of a larger grid: a square seen at a
// slant is rarely so long, a 9×9 cut to six columns is 1.5.
const partLong = 1.3

// elongation is the ratio of q's longer pair of opposite sides to its
// shorter pair (mean lengths).
func elongation(q [4]gocv.Point2f) float64 {
	p := ptsOf(q)
	a := (p[0].dist(p[1]) + p[3].dist(p[2])) / 2
	b := (p[1].dist(p[2]) + p[0].dist(p[3])) / 2
	if a <= 0 || b <= 0 {
		return 1
	}
	return math.Max(a/b, b/a)
}

// latticeOff is how many lines must cross a side beside one along the
// frame's edge between the lattice's places (and more than twice as many
// as at them) for the lattice read to be stretched over part of a grid.
const latticeOff = 4

// runOnLines is the share of the lines crossing a side just inside it
// that must run on beyond it, at the same places, for the grid to go on
// beyond the frame.
const runOnLines = 0.7

// nearEdge is how many cells beyond a side the frame's edge must lie
// within for linesRunOn to ask whether the grid goes on beyond it.
const nearEdge = 3.0

// linesRunOn reports, for side sd of the n×n grid g, whether the frame's
// edge lies within nearEdge cells beyond the side (near), and then the
// share of the lines crossing the side just inside it that also cross
// the strip just beyond it, at the same places: a grid the frame cut,
// whose part in view was taken for the whole (or for a smaller puzzle),
// where a real puzzle has paper beyond its outer line. The lines are
// found where they are, not where the lattice read puts them: a part of
// a grid read as a whole has its lattice in the wrong places.
func (e *edgeLook) linesRunOn(sd, n int) (float64, bool) {
	s := float64(e.g.Side)
	cs := s / float64(n)
	near := false
	for _, t := range []float64{0, s / 2, s} {
		x, y := onSide(sd, t, -nearEdge*cs, s)
		if _, ok := e.greyAt(x, y); !ok {
			near = true
		}
	}
	if !near {
		return 0, false
	}
	in := e.inside(sd, n)
	if len(in) < 3 {
		return 0, true
	}
	matched, looked := len(in), false
	for _, d := range []float64{0.15, 0.3} {
		out := e.crossings(sd, -d*cs, cs)
		if out == nil {
			break // beyond the frame here
		}
		matched, looked = min(matched, alike(in, out, 0.1*cs)), true
	}
	if !looked {
		return 0, false // the frame ends at the side: the lattice's to tell
	}
	return float64(matched) / float64(len(in)), true
}

// crossings returns where (canvas units along side sd of g) narrow dark
// lines cross the line parallel to the side, in by d (out when d < 0),
// or nil when a fifth of that line lies beyond the frame. A sample is
// dark when it stands darkBelow below the lightest grey within a quarter
// cell of it; a crossing is a run of dark samples
// narrower than a quarter cell (a band of ink, such as a text's line or
// the page's edge, is no line).
func (e *edgeLook) crossings(sd int, d, cs float64) []float64 {
	s := float64(e.g.Side)
	const samples = 400
	step := s / samples
	v := make([]float64, samples)
	outside := 0
	for k := range v {
		t := (float64(k) + 0.5) * step
		x, y := onSide(sd, t, d, s)
		grey, ok := e.greyAt(x, y)
		if !ok {
			outside++
			grey = -1
		}
		v[k] = grey
	}
	if outside*5 > samples {
		return nil
	}
	win := int(0.25 * cs / step)
	out := []float64{}
	runStart := -1
	for k := range v {
		dark := false
		if v[k] >= 0 {
			light := 0.0
			for o := max(0, k-win); o <= min(samples-1, k+win); o++ {
				light = math.Max(light, v[o])
			}
			dark = light-v[k] >= e.darkBelow
		}
		switch {
		case dark && runStart < 0:
			runStart = k
		case !dark && runStart >= 0:
			if float64(k-runStart)*step < 0.25*cs {
				out = append(out, (float64(runStart+k)/2)*step)
			}
			runStart = -1
		}
	}
	return out
}

// darkBelow is how far below its paper a grid line's grey stands in the
// frame's 3×3 means: half the grid's ink gap, and far above the camera's
// noise (Gap over Legibility, a pixel's; a mean of nine has a third of it),
// so that neither a dim frame's noise nor its faint ink counts as a line
// that is not there.
func darkBelow(g Grid) float64 {
	gap := g.Gap
	if gap <= 0 {
		gap = 60
	}
	noise := 0.0
	if g.Legibility > 0 {
		noise = gap / g.Legibility
	}
	return math.Max(0.5*gap, 2.5*noise)
}

// alike counts the places of a that lie within tol of a place of b.
func alike(a, b []float64, tol float64) int {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if math.Abs(x-y) <= tol {
				n++
				break
			}
		}
	}
	return n
}

// alongEdge reports whether both a and b lie within m of the same edge of
// a w×h frame (or beyond it).
func alongEdge(a, b gocv.Point2f, w, h, m float64) bool {
	ax, ay, bx, by := float64(a.X), float64(a.Y), float64(b.X), float64(b.Y)
	return (ax < m && bx < m) || (ay < m && by < m) || (ax > w-1-m && bx > w-1-m) || (ay > h-1-m && by > h-1-m)
}

// onSide is the canvas point at t along side sd of an s×s canvas, in by d
// (towards the grid's middle).
func onSide(sd int, t, d, s float64) (float64, float64) {
	switch sd {
	case 0:
		return t, d
	case 1:
		return s - d, t
	case 2:
		return t, s - d
	}
	return d, t
}

// edgeLook is what cutByFrame reads: the frame's pixels (8-bit, ch
// channels a pixel, rows packed), the grid, and how dark a line must
// stand from its paper.
type edgeLook struct {
	px        []uint8
	w, h, ch  int
	g         Grid
	darkBelow float64
	// in holds each side's crossings just inside it once found (both
	// rules ask for them, a side's and its neighbours').
	in    [4][]float64
	found [4]bool
}

// inside returns the crossings of the strip just inside side sd of the
// n×n grid, finding them the first time they are asked for.
func (e *edgeLook) inside(sd, n int) []float64 {
	if !e.found[sd] {
		cs := float64(e.g.Side) / float64(n)
		e.in[sd], e.found[sd] = e.crossings(sd, 0.12*cs, cs), true
	}
	return e.in[sd]
}

// greyAt is the mean grey of the frame's 3×3 pixels around the canvas
// point (x, y) of the grid (the mean quiets a camera's noise), or false
// when that point lies outside the frame.
func (e *edgeLook) greyAt(x, y float64) (float64, bool) {
	fx, fy := e.g.ToFrame(x, y)
	c, r := int(math.Round(fx)), int(math.Round(fy))
	if c < 0 || r < 0 || c >= e.w || r >= e.h {
		return 0, false
	}
	sum, n := 0, 0
	for y := max(0, r-1); y <= min(e.h-1, r+1); y++ {
		for x := max(0, c-1); x <= min(e.w-1, c+1); x++ {
			at := (y*e.w + x) * e.ch
			for k := range min(e.ch, 3) {
				sum += int(e.px[at+k])
			}
			n += min(e.ch, 3)
		}
	}
	return float64(sum) / float64(n), true
}

// offLattice counts the lines crossing the strip just inside side sd of
// the n×n grid g that lie between the places its lattice puts lines (a
// fifth of a cell or more from each), and those that lie at one of them.
// A digit's stroke may cross the strip anywhere; a grid stretched over
// the part of a lattice in view shows most of its lines between.
func (e *edgeLook) offLattice(sd, n int) (off, on int) {
	s := float64(e.g.Side)
	cs := s / float64(n)
	for _, x := range e.inside(sd, n) {
		if x < 0.5*cs || x > s-0.5*cs {
			continue // the corners' own lines
		}
		d := math.Abs(x - math.Round(x/cs)*cs)
		switch {
		case d >= 0.2*cs:
			off++
		case d <= 0.12*cs:
			on++
		}
	}
	return off, on
}
