package vision

import (
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// finder is the grid search: the candidate quadrilaterals of a grey
// image (cands, in Candidates order), which of them was taken, and the
// images and outline that one is read from. Its Mats are scratch, kept
// between searches.
type finder struct {
	opts             Options
	small, blur, bin gocv.Mat
	look             gocv.Mat // a candidate's flat view (choice.go)
	inner            gocv.Mat // the binary image inside the largest outline (choice.go)
	prof, hmat       gocv.Mat
	kernel3          gocv.Mat
	contours         gocv.PointsVector // of the last grid search

	// The last grid search's quadrilateral (find pixels), the scale from
	// find pixels to frame pixels and where the search image's origin
	// lies in the frame (not 0 after a zoomed search), for Analyze's
	// second look.
	findQ       [4]pt
	findContour []pt
	findScale   float64
	findOrigin  pt
	// The candidates of the last grid search, in Candidates order, and
	// which of them was taken.
	cands  []candidate
	chosen int
}

// newFinder returns a finder for opts; close frees its Mats.
func newFinder(opts Options) finder {
	f := finder{opts: opts, chosen: -1}
	for _, m := range f.mats() {
		*m = gocv.NewMat()
	}
	f.hmat = gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	f.kernel3 = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	f.contours = gocv.NewPointsVector() // gocv cannot close a zero one
	return f
}

func (f *finder) mats() []*gocv.Mat {
	return []*gocv.Mat{&f.small, &f.blur, &f.bin, &f.look, &f.inner, &f.prof}
}

func (f *finder) close() {
	for _, m := range f.mats() {
		m.Close()
	}
	f.hmat.Close()
	f.kernel3.Close()
	f.contours.Close()
}

// locate also returns the scale from working-grey pixels to frame pixels.
func (d *Detector) locate(frame gocv.Mat, p Pick) (Grid, float64, error) {
	gs, err := d.search(frame)
	if err != nil {
		return Grid{}, 0, err
	}
	d.find.chosen = pick(d.find.cands, p, d.find.frameToFind)
	d.last = &d.find
	return d.find.take(frame, gs, d.find.chosen)
}

// search looks for the candidate grids of frame (d.find.cands, in Candidates
// order) and returns the scale from working-grey pixels to frame pixels.
func (d *Detector) search(frame gocv.Mat) (float64, error) {
	d.find.cands, d.find.chosen = d.find.cands[:0], -1
	if err := checkFrame(frame); err != nil {
		return 0, err
	}
	gs := d.toGray(frame)
	d.find.findIn(d.gray, image.Rect(0, 0, d.gray.Cols(), d.gray.Rows()), gs, false, false, d.opts.FindSide)
	return gs, nil
}

// findIn finds the candidate grids in region r of the working grey image
// (gs: its scale to frame pixels) at most side pixels long, so the cost does
// not depend on the camera, and maps find pixels to frame pixels. enlarge
// scales a small region up (up to maxEnlarge) so thin lines survive the blur
// and threshold; quick (a told-where search) shrinks by less than areaFrom
// by linear sampling, as area averaging there costs as much as the search.
func (f *finder) findIn(gray gocv.Mat, r image.Rectangle, gs float64, enlarge, quick bool, side int) {
	src := gray
	if r != image.Rect(0, 0, gray.Cols(), gray.Rows()) {
		src = gray.Region(r)
		defer src.Close()
	}
	find := src
	fs := 1.0
	long := max(r.Dx(), r.Dy())
	interp := gocv.InterpolationArea
	switch {
	case long > side:
		fs = float64(long) / float64(side)
		if quick && fs < areaFrom {
			interp = gocv.InterpolationLinear
		}
	case enlarge && long < side:
		fs = math.Max(1/maxEnlarge, float64(long)/float64(side))
		interp = gocv.InterpolationLinear
	}
	if fs != 1 {
		sz := image.Pt(max(1, int(math.Round(float64(r.Dx())/fs))), max(1, int(math.Round(float64(r.Dy())/fs))))
		gocv.Resize(src, &f.small, sz, 0, 0, interp)
		find = f.small
		fs = float64(r.Dx()) / float64(sz.X)
	}
	f.findScale = fs * gs
	f.findOrigin = pt{float64(r.Min.X) * gs, float64(r.Min.Y) * gs}
	f.cands = f.scoreCandidates(f.bin, f.findCandidates(find))
}

// findToFrame maps a point of the search image (find pixels) to frame
// pixels; pixel centres stay centres.
func (f *finder) findToFrame(p pt) pt {
	return pt{(p.X+0.5)*f.findScale - 0.5 + f.findOrigin.X, (p.Y+0.5)*f.findScale - 0.5 + f.findOrigin.Y}
}

// frameToFind maps a frame point to find pixels (findToFrame's inverse).
func (f *finder) frameToFind(p pt) pt {
	return pt{(p.X-f.findOrigin.X+0.5)/f.findScale - 0.5, (p.Y-f.findOrigin.Y+0.5)/f.findScale - 0.5}
}

// findCandidates returns the quadrilaterals in img (grey) that may be the
// grid, largest first: the largest external contours of the
// adaptive-threshold image (left in f.bin) that reduce to convex
// quadrilaterals.
func (f *finder) findCandidates(img gocv.Mat) []candidate {
	long := max(img.Cols(), img.Rows())
	gocv.GaussianBlur(img, &f.blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	block := max(3, long/40) | 1
	gocv.AdaptiveThreshold(f.blur, &f.bin, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, 5)
	// Close one-pixel gaps in thin printed lines so the grid stays one contour.
	gocv.Dilate(f.bin, &f.bin, f.kernel3)

	// The contours stay with the Detector until the next search: the
	// chosen candidate's points are read from them (contourPoints).
	f.contours.Close()
	f.contours = gocv.FindContours(f.bin, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	contours := f.contours
	type cand struct {
		i int
		a float64
	}
	minArea := 0.004 * float64(img.Cols()*img.Rows()) // smaller grids are still reported, as TooSmall
	var cands []cand
	for i := 0; i < contours.Size(); i++ {
		c := contours.At(i)
		if c.Size() < 4 {
			continue
		}
		if a := gocv.ContourArea(c); a >= minArea {
			cands = append(cands, cand{i, a})
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].a > cands[j].a })
	var out []candidate
	for k, c := range cands {
		if k == maxContours || len(out) == maxCandidates {
			break
		}
		if k == 0 {
			// The largest: all of its points and every way of reducing
			// it to four corners.
			p := f.contourPoints(c.i)
			if q, ok := quadFromContour(p); ok {
				out = append(out, candidate{q: q, contour: p, area: c.a, index: c.i})
			}
			continue
		}
		// The others are only candidates when they are plainly
		// quadrilaterals, found without copying their points out of
		// OpenCV one by one (a page of text has many long contours).
		if q, ok := plainQuad(contours.At(c.i), c.a); ok {
			out = append(out, candidate{q: q, area: c.a, index: c.i})
		}
	}
	if len(out) > 0 {
		out = append(out, f.innerCandidates(out[0], minArea)...)
	}
	return out
}

// contourPoints copies contour i of the last search out of OpenCV.
func (f *finder) contourPoints(i int) []pt {
	return pointsOf(f.contours.At(i))
}

// pointsOf copies a contour's points out of OpenCV (asking its size once:
// gocv's ToPoints asks it twice a point, each a cgo call, which on the
// holes of a page of text cost as much as finding them).
func pointsOf(pv gocv.PointVector) []pt {
	n := pv.Size()
	p := make([]pt, n)
	for k := 0; k < n; k++ {
		v := pv.At(k)
		p[k] = pt{float64(v.X), float64(v.Y)}
	}
	return p
}

// plainQuad reduces a contour of area a to a convex quadrilateral by
// Douglas-Peucker at 0.015, 0.03 or 0.05 of its perimeter (a curled grid's
// bowed sides need the coarser ones), or false.
func plainQuad(pv gocv.PointVector, a float64) ([4]pt, bool) {
	peri := gocv.ArcLength(pv, true)
	for _, f := range []float64{0.015, 0.03, 0.05} {
		approx := gocv.ApproxPolyDP(pv, f*peri, true)
		n := approx.Size()
		if n < 4 {
			approx.Close()
			break
		}
		if n == 4 {
			var q [4]pt
			for k := 0; k < 4; k++ {
				v := approx.At(k)
				q[k] = pt{float64(v.X), float64(v.Y)}
			}
			approx.Close()
			if isConvexQuad(q) && polyArea(q[:]) > 0.6*a && polyArea(q[:]) < 1.4*a {
				return q, true
			}
			return [4]pt{}, false
		}
		approx.Close()
	}
	return [4]pt{}, false
}

// quadFromContour reduces a contour to four corners: Douglas-Peucker at
// 0.015 of the perimeter when that gives a convex quadrilateral, otherwise
// the crossing of the four longest sides of that polygon (a finger over a
// corner or text touching a side only adds short sides), and as a last
// resort the largest quadrilateral inscribed in the convex hull.
func quadFromContour(p []pt) ([4]pt, bool) {
	var peri float64
	for i := range p {
		peri += p[i].dist(p[(i+1)%len(p)])
	}
	area := polyArea(p)
	a := simplify(p, 0.015*peri)
	if len(a) == 4 {
		q := [4]pt{a[0], a[1], a[2], a[3]}
		if isConvexQuad(q) && polyArea(q[:]) > 0.5*area {
			return q, true
		}
	}
	if q, ok := quadFromLongestSides(a); ok {
		if qa := polyArea(q[:]); qa > 0.6*area && qa < 1.3*area {
			return q, true
		}
	}
	h := convexHull(p)
	if len(h) < 4 {
		return [4]pt{}, false
	}
	for eps := 0.005 * peri; len(h) > 40; eps *= 1.5 {
		h = simplify(h, eps)
	}
	if len(h) < 4 {
		return [4]pt{}, false
	}
	q := maxAreaQuad(h)
	if !isConvexQuad(q) {
		return [4]pt{}, false
	}
	// A contour much smaller than its quad is not a filled grid outline.
	if qa := polyArea(q[:]); area < 0.45*qa {
		return [4]pt{}, false
	}
	return q, true
}

// take turns candidate i of the last search into a Grid: its corners
// refined on the outline's straight runs, checked for size. The outline
// it was taken from is kept (findQ, findContour) for the reading's mends.
func (f *finder) take(frame gocv.Mat, gs float64, i int) (Grid, float64, error) {
	if i < 0 || i >= len(f.cands) {
		return Grid{}, 0, qualityErr(NoGrid, "no quadrilateral contour")
	}
	c := &f.cands[i]
	if c.contour == nil {
		c.contour = f.contourPoints(c.index)
	}
	q := refineQuadRobust(c.q, c.contour)
	f.findQ, f.findContour = q, c.contour
	g, ok := f.gridFromFind(q)
	if !ok {
		return Grid{}, 0, qualityErr(NoGrid, "degenerate quadrilateral")
	}
	fq := ptsOf(g.Corners)
	shortest := math.Inf(1)
	for i := 0; i < 4; i++ {
		shortest = math.Min(shortest, fq[i].dist(fq[(i+1)%4]))
	}
	limit := math.Min(f.opts.MinSideFrac*float64(min(frame.Cols(), frame.Rows())), f.opts.MinSidePx*gs)
	if shortest < limit {
		return g, gs, qualityErr(TooSmall, "grid side %.0f px, need %.0f px", shortest, limit)
	}
	return g, gs, nil
}

// gridFromFind turns a quadrilateral in find pixels into a Grid in frame
// pixels (corners ordered, Side 9*CellPx, homographies set).
func (f *finder) gridFromFind(q [4]pt) (Grid, bool) {
	var fq [4]pt
	for i, p := range q {
		fq[i] = f.findToFrame(p)
	}
	fq = orderCorners(fq)
	g := Grid{Side: 9 * f.opts.CellPx}
	for i, p := range fq {
		g.Corners[i] = gocv.Point2f{X: float32(p.X), Y: float32(p.Y)}
	}
	return g, setHomography(&g)
}

// looksLikeGrid reports whether candidate i looked like a Sudoku lattice
// to the search (a grid of 16×16 or on a curled page whose lines score
// under clearLineScore does; a page around a small grid does not).
func (f *finder) looksLikeGrid(i int) bool {
	if i < 0 || i >= len(f.cands) {
		return false
	}
	c := f.cands[i]
	if len(f.cands) == 1 { // not scored
		return f.latticeLikeness(f.bin, c.q) >= goodLattice
	}
	return c.score >= goodLattice
}
