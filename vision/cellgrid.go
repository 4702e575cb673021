package vision

import (
	"math"
	"sort"
	"unsafe"

	"gocv.io/x/gocv"
)

// The outline of a grid printed next to other boxed material (a page frame,
// a crossword) can merge with it into one contour whose quadrilateral holds
// more than the grid; a caption touching a side pulls that side outwards.
// The grid's cells survive such merges: they are the holes of the outline's
// component, many nearly equal convex quadrilaterals side by side. The
// functions here find the grid again from them.

// cellHoles returns the holes of the find-resolution binary image d.bin
// whose centre lies inside q and that reduce to convex quadrilaterals of a
// plausible cell size, as polygons in find pixels.
func (f *finder) cellHoles(q [4]pt) [][4]pt {
	hier := gocv.NewMat()
	defer hier.Close()
	contours := gocv.FindContoursWithParams(f.bin, &hier, gocv.RetrievalCComp, gocv.ChainApproxSimple)
	defer contours.Close()
	hb, err := hier.DataPtrUint8()
	if err != nil || len(hb) < contours.Size()*16 || contours.Size() == 0 {
		return nil
	}
	h := unsafe.Slice((*int32)(unsafe.Pointer(&hb[0])), contours.Size()*4)
	qa := polyArea(q[:])
	var out [][4]pt
	for i := 0; i < contours.Size(); i++ {
		if h[i*4+3] < 0 { // an outer boundary, not a hole
			continue
		}
		c := contours.At(i)
		if c.Size() < 4 {
			continue
		}
		if cq, ok := cellHole(c, gocv.ContourArea(c), 12, qa/9); ok && insideConvex(q, centroid(cq)) {
			out = append(out, cq)
		}
	}
	return out
}

// cellHole reduces hole c (of area a) to a cell's quadrilateral when its
// area lies between lo and hi.
func cellHole(c gocv.PointVector, a, lo, hi float64) ([4]pt, bool) {
	// Cells of a 16×16 grid at the smallest readable size are ~4 px wide
	// (lo 12).
	if a < lo || a > hi {
		return [4]pt{}, false
	}
	return holeQuad(pointsOf(c), a)
}

// holeQuad reduces a hole outline of area a to a convex quadrilateral with
// sides of comparable length (a cell seen in perspective), or false.
func holeQuad(p []pt, a float64) ([4]pt, bool) {
	var peri float64
	for i := range p {
		peri += p[i].dist(p[(i+1)%len(p)])
	}
	s := simplify(p, 0.08*peri)
	if len(s) != 4 {
		return [4]pt{}, false
	}
	q := [4]pt{s[0], s[1], s[2], s[3]}
	if !isConvexQuad(q) {
		return [4]pt{}, false
	}
	if qa := polyArea(q[:]); qa < 0.8*a || qa > 1.25*a {
		return [4]pt{}, false
	}
	lo, hi := math.Inf(1), 0.0
	for i := 0; i < 4; i++ {
		l := q[i].dist(q[(i+1)%4])
		lo, hi = math.Min(lo, l), math.Max(hi, l)
	}
	return q, lo >= 0.4*hi
}

// hole is a cell candidate: its quadrilateral, area and centre.
type hole struct {
	q    [4]pt
	a    float64
	c    pt
	used bool
}

// gridFromCells picks, among the hole quadrilaterals, the largest set of
// cells of similar size that touch one another (by covered area), and returns the grid
// quadrilateral around them: the largest quadrilateral of their hull,
// widened by one cell-line width. It needs at least minCells cells.
func gridFromCells(holes [][4]pt, minCells int) ([4]pt, bool) {
	if len(holes) < minCells {
		return [4]pt{}, false
	}
	hs := make([]hole, len(holes))
	for i, q := range holes {
		hs[i] = hole{q: q, a: polyArea(q[:]), c: centroid(q)}
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].a < hs[j].a })
	// Cells of one grid differ in area by perspective and line jitter; a
	// window of 2× in area holds them all. Within each window, cells are
	// grouped by neighbour distance (other boxes, such as a crossword
	// beside the grid, sit a gap away), and the group covering the most
	// area wins: a grid is tiled by its cells, or by its boxes when thin
	// cell lines broke up at the search resolution.
	var best []hole
	var bestA float64
	lastA := 0.0
	for i := range hs {
		if hs[i].a < 1.15*lastA {
			continue
		}
		lastA = hs[i].a
		var win []hole
		for j := i; j < len(hs) && hs[j].a <= 2*hs[i].a; j++ {
			win = append(win, hs[j])
		}
		if len(win) < minCells {
			continue
		}
		pitch := math.Sqrt(win[len(win)/2].a)
		for s := range win {
			if win[s].used {
				continue
			}
			group := []int{s}
			win[s].used = true
			for k := 0; k < len(group); k++ {
				for o := range win {
					if !win[o].used && win[o].c.dist(win[group[k]].c) < 2.3*pitch {
						win[o].used = true
						group = append(group, o)
					}
				}
			}
			var a float64
			for _, g := range group {
				a += win[g].a
			}
			if len(group) >= minCells && a > bestA {
				bestA = a
				best = best[:0]
				for _, g := range group {
					best = append(best, win[g])
				}
			}
		}
	}
	if len(best) == 0 {
		return [4]pt{}, false
	}
	pitch := math.Sqrt(best[len(best)/2].a)
	var pts []pt
	var nn []float64
	for i, h := range best {
		pts = append(pts, h.q[:]...)
		d := math.Inf(1)
		for j, o := range best {
			if j != i {
				d = math.Min(d, h.c.dist(o.c))
			}
		}
		nn = append(nn, d)
	}
	h := convexHull(pts)
	if len(h) < 4 {
		return [4]pt{}, false
	}
	// simplify may reuse its argument's storage.
	q, ok := quadFromCellEdges(simplify(append([]pt(nil), h...), 0.1*pitch), best)
	if !ok {
		q = maxAreaQuad(h)
	}
	if !isConvexQuad(q) {
		return [4]pt{}, false
	}
	// Cell pitch minus hole side is the width of a cell line; the outer
	// line is at least that wide.
	gap := math.Min(0.25*pitch, math.Max(1, quantile(nn, 0.5)-pitch))
	return widenQuad(q, gap), true
}

// quadFromCellEdges takes, among the edges of the cells' hull h, those
// parallel to a side of the cell nearest to them (the grid's outer sides;
// a corner cut off by missing cells is not), and intersects the four
// longest of them (after merging neighbours in one direction) in hull order.
func quadFromCellEdges(h []pt, cells []hole) ([4]pt, bool) {
	n := len(h)
	if n < 4 {
		return [4]pt{}, false
	}
	cosTol := math.Cos(12 * math.Pi / 180)
	var keep []int
	for k := 0; k < n; k++ {
		a, b := h[k], h[(k+1)%n]
		mid := pt{(a.X + b.X) / 2, (a.Y + b.Y) / 2}
		near, nd := -1, math.Inf(1)
		for i, c := range cells {
			if d := c.c.dist(mid); d < nd {
				near, nd = i, d
			}
		}
		dir := unit(b.sub(a))
		q := cells[near].q
		for i := 0; i < 4; i++ {
			sd := unit(q[(i+1)%4].sub(q[i]))
			if math.Abs(dir.X*sd.X+dir.Y*sd.Y) >= cosTol {
				keep = append(keep, k)
				break
			}
		}
	}
	// Neighbouring kept edges in nearly the same direction are one side
	// of the grid (the hull bends a little where cells are uneven).
	type side struct {
		a, b   pt      // the longest edge of the side
		length float64 // all its edges
		last   int
	}
	var sides []side
	sameDir := func(a, b pt) bool {
		return math.Abs(a.X*b.X+a.Y*b.Y) >= math.Cos(20*math.Pi/180)
	}
	merge := func(s *side, o side) {
		if o.a.dist(o.b) > s.a.dist(s.b) {
			s.a, s.b = o.a, o.b
		}
		s.length += o.length
	}
	for _, k := range keep {
		a, b := h[k], h[(k+1)%n]
		e := side{a, b, a.dist(b), k}
		if m := len(sides); m > 0 && sides[m-1].last == k-1 && sameDir(unit(b.sub(a)), unit(sides[m-1].b.sub(sides[m-1].a))) {
			merge(&sides[m-1], e)
			sides[m-1].last = k
			continue
		}
		sides = append(sides, e)
	}
	if m := len(sides); m > 1 && sides[m-1].last == n-1 && keep[0] == 0 &&
		sameDir(unit(sides[0].b.sub(sides[0].a)), unit(sides[m-1].b.sub(sides[m-1].a))) {
		merge(&sides[0], sides[m-1])
		sides = sides[:m-1]
	}
	if len(sides) < 4 {
		return [4]pt{}, false
	}
	idx := make([]int, len(sides))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return sides[idx[i]].length > sides[idx[j]].length })
	top := append([]int(nil), idx[:4]...)
	sort.Ints(top)
	var edges [4]line
	for k, i := range top {
		edges[k] = line{sides[i].a, unit(sides[i].b.sub(sides[i].a))}
	}
	q, ok := cornersOfEdges(edges)
	return q, ok && isConvexQuad(q)
}

// widenQuad moves every side of the convex quadrilateral q outwards by d.
func widenQuad(q [4]pt, d float64) [4]pt {
	var ls [4]line
	c := centroid(q)
	for i := 0; i < 4; i++ {
		a, b := q[i], q[(i+1)%4]
		dir := unit(b.sub(a))
		n := pt{-dir.Y, dir.X}
		if (a.X-c.X)*n.X+(a.Y-c.Y)*n.Y < 0 {
			n = pt{-n.X, -n.Y}
		}
		ls[i] = line{pt{a.X + d*n.X, a.Y + d*n.Y}, dir}
	}
	out := q
	for i := 0; i < 4; i++ {
		if p, ok := intersect(ls[(i+3)%4], ls[i]); ok {
			out[i] = p
		}
	}
	return out
}

func centroid(q [4]pt) pt {
	return pt{(q[0].X + q[1].X + q[2].X + q[3].X) / 4, (q[0].Y + q[1].Y + q[2].Y + q[3].Y) / 4}
}

// insideConvex reports whether p lies inside the convex quadrilateral q.
func insideConvex(q [4]pt, p pt) bool {
	var pos, neg int
	for i := 0; i < 4; i++ {
		if c := cross(q[i], q[(i+1)%4], p); c > 0 {
			pos++
		} else if c < 0 {
			neg++
		}
	}
	return pos == 0 || neg == 0
}
