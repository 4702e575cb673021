package vision

import (
	"errors"
	"image"
	"image/color"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Grid is a Sudoku grid found in a frame.
type Grid struct {
	// Corners are the grid's outer corners in frame pixels: top-left,
	// top-right, bottom-right, bottom-left. The order is stable for in-plane
	// rotations up to ±45°.
	Corners [4]gocv.Point2f
	// Shape is the inferred box shape (zero after Locate, which does not infer it).
	Shape sudoku.Shape
	// ShapeConfidence is how sure the box inference is, 0..1.
	ShapeConfidence float64
	// Side is the side in pixels of the square rectified canvas that H maps to.
	Side int
	// H maps frame pixels to canvas pixels and HInv maps back; both are
	// row-major 3×3 homographies (h[8] = 1). Use Apply to map points.
	H, HInv [9]float64
	// Sharpness is the variance of the Laplacian of the canvas (Analyze only).
	Sharpness float64
	// Brightness is the mean grey level (0..255) of the canvas (Analyze only).
	Brightness float64
	// Bend is how a curled page departs from H (Analyze only; nil on a
	// flat page). ToFrame and CellH follow it.
	Bend *Bend
	// Via names the steps of Analyze that made this reading, in order
	// (the search step that gave it, then the mends of its canvas); for
	// tracing which steps win.
	Via []string
}

// Options tunes a Detector. The zero value selects every default.
type Options struct {
	// MaxSide bounds the working resolution: larger frames are downscaled
	// (area interpolation) before anything else. Default 1600.
	MaxSide int
	// FindSide bounds the resolution of the grid search. Default 640.
	FindSide int
	// CellPx is the canvas size of one cell; the canvas side is
	// clamp(N*CellPx, 9*CellPx, 12*CellPx), and 16*CellPx for 16×16
	// grids. Default 32.
	CellPx int
	// Sizes restricts the grid sides N that Analyze considers
	// (default 4, 6, 8, 9, 10, 12, 16). Give {9} to read only classic Sudoku.
	Sizes []int
	// MinSideFrac is the shortest grid side, as a fraction of the frame's
	// shorter side, below which Locate reports TooSmall. Default 0.2.
	MinSideFrac float64
	// MinSidePx caps that limit in working pixels (the frame scaled down
	// to MaxSide, which the cells are cut from): a grid this many pixels
	// across is never too small, whatever the frame's size. Default 144
	// (16 pixels a cell of a 9×9 grid; 0.2 of a 720-pixel frame), so a
	// 1920×1080 or a portrait 1080×1920 frame takes the grids a 1280×720
	// one does instead of asking for 216 pixels.
	MinSidePx float64
	// MinSharpness is the variance of the Laplacian of the canvas below which
	// Analyze reports TooBlurry. Default 8 (the real test photos measure 17 and up).
	MinSharpness float64
	// MinBrightness is the mean canvas grey level below which Analyze
	// reports TooDark. Default 45 (real photos measure 95 and up).
	MinBrightness float64
	// MinInkFrac is the ink (fraction of the cell area) below which a cell is
	// empty. Default 0.03.
	MinInkFrac float64
	// LookPx is the side of a cell in the frame, in pixels, below which
	// Analyze cuts each digit of a grid up to 9×9 several ways
	// (Cell.Looks). Default SmallLookPx; negative: never.
	LookPx float64
}

// WorkSide is the long side a frame is scaled down to before anything
// else: MaxSide, or its default. A front end that decodes images itself
// need not decode more pixels than this.
func (o Options) WorkSide() int { return o.withDefaults().MaxSide }

// WorkScale is how many frame pixels make one working pixel for a w×h
// frame: 1, or more when its long side exceeds MaxSide and it is scaled
// down before anything else. Cells are read from working pixels.
func (o Options) WorkScale(w, h int) float64 {
	if long, side := max(w, h), o.WorkSide(); long > side {
		return float64(long) / float64(side)
	}
	return 1
}

func (o Options) withDefaults() Options {
	if o.MaxSide <= 0 {
		o.MaxSide = 1600
	}
	if o.FindSide <= 0 {
		o.FindSide = 640
	}
	if o.CellPx <= 0 {
		o.CellPx = 32
	}
	if len(o.Sizes) == 0 {
		o.Sizes = defaultSizes
	}
	if o.MinSideFrac <= 0 {
		o.MinSideFrac = 0.2
	}
	if o.MinSidePx <= 0 {
		o.MinSidePx = 144
	}
	if o.MinSharpness <= 0 {
		o.MinSharpness = 8
	}
	if o.MinBrightness <= 0 {
		o.MinBrightness = 45
	}
	if o.MinInkFrac <= 0 {
		o.MinInkFrac = 0.03
	}
	if o.LookPx == 0 {
		o.LookPx = SmallLookPx
	}
	return o
}

// minFrameSide is the smallest frame side accepted: below it no grid can be read.
const minFrameSide = 32

// Detector finds grids in frames. It keeps scratch Mats between calls, so
// reuse one per video stream. It is not safe for concurrent use; Close
// frees its Mats.
type Detector struct {
	opts Options

	work, gray, small, blur, bin gocv.Mat
	canvas, cblur, cbin          gocv.Mat
	hlines, vlines, lines, clean gocv.Mat
	labels, stats, centroids     gocv.Mat
	prof, lap, hmat              gocv.Mat
	kernel3                      gocv.Mat
	hk, vk                       gocv.Mat // line kernels for kLen
	kLen                         int
	// canvasGen counts the canvases warp has made; binGen and binBlock
	// say which canvas d.cbin was thresholded from and with what block,
	// so binarise can keep it when only the line kernels change.
	canvasGen, binGen uint64
	binBlock          int
	// grayGen counts the frames toGray made d.gray from; kept are the
	// last two canvases rectify made (see keptCanvas), the older first.
	grayGen    uint64
	kept       [2]keptCanvas
	unbent     keptCanvas        // the canvas refineBend may put back (bend.go)
	look       gocv.Mat          // a candidate's flat view (choice.go)
	inner      gocv.Mat          // the binary image inside the largest outline (choice.go)
	ext        gocv.Mat          // the view one cell beyond a grid's sides (whole.go)
	contours   gocv.PointsVector // of the last grid search
	mapX, mapY gocv.Mat          // a bent canvas's resampling maps (bend.go)

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
	// The band sums of the current line images (lattice.go), until
	// binarise makes new ones.
	sums struct {
		col, row [latticeBands][]float64
		side     int
		valid    bool
	}
}

// NewDetector returns a Detector with opts (zero fields take defaults).
// Call Close when done.
func NewDetector(opts Options) *Detector {
	d := &Detector{opts: opts.withDefaults()}
	for _, m := range d.mats() {
		*m = gocv.NewMat()
	}
	d.hmat = gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	d.kernel3 = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	d.contours = gocv.NewPointsVector() // gocv cannot close a zero one
	return d
}

func (d *Detector) mats() []*gocv.Mat {
	return []*gocv.Mat{&d.work, &d.gray, &d.small, &d.blur, &d.bin, &d.canvas, &d.cblur, &d.cbin,
		&d.hlines, &d.vlines, &d.lines, &d.clean, &d.labels, &d.stats, &d.centroids, &d.prof, &d.lap,
		&d.hk, &d.vk, &d.look, &d.inner, &d.ext, &d.mapX, &d.mapY,
		&d.kept[0].canvas, &d.kept[0].cbin, &d.kept[0].hlines, &d.kept[0].vlines,
		&d.kept[1].canvas, &d.kept[1].cbin, &d.kept[1].hlines, &d.kept[1].vlines,
		&d.unbent.canvas, &d.unbent.cbin, &d.unbent.hlines, &d.unbent.vlines}
}

// keptCanvas is a canvas rectify made, with its binarisation and line
// images, and for which grey image, grid and side.
type keptCanvas struct {
	canvas, cbin, hlines, vlines gocv.Mat
	valid                        bool
	gray                         uint64
	gs                           float64
	side, block, kLen            int
	g                            Grid
}

// holds reports whether k is the canvas of grid g on grey image gray
// (scale gs) at side with the given threshold block and kernel length.
func (k *keptCanvas) holds(gray uint64, g Grid, gs float64, side, block, kLen int) bool {
	return k.valid && k.gray == gray && k.gs == gs && k.side == side && k.g.Corners == g.Corners && k.g.H == g.H &&
		k.g.Side == g.Side && k.g.Bend == g.Bend && k.block == block && k.kLen == kLen
}

// Close frees the Detector's Mats. The Detector must not be used afterwards.
func (d *Detector) Close() error {
	for _, m := range d.mats() {
		m.Close()
	}
	d.hmat.Close()
	d.kernel3.Close()
	d.contours.Close()
	return nil
}

// checkFrame rejects frames OpenCV cannot process safely.
func checkFrame(frame gocv.Mat) error {
	if frame.Ptr() == nil || frame.Empty() {
		return qualityErr(BadInput, "empty frame")
	}
	if frame.Cols() < minFrameSide || frame.Rows() < minFrameSide {
		return qualityErr(BadInput, "frame %dx%d is smaller than %dx%d", frame.Cols(), frame.Rows(), minFrameSide, minFrameSide)
	}
	switch frame.Type() {
	case gocv.MatTypeCV8UC1, gocv.MatTypeCV8UC3, gocv.MatTypeCV8UC4:
	default:
		return qualityErr(BadInput, "unsupported pixel type %v (want 8-bit grey, BGR or BGRA)", frame.Type())
	}
	return nil
}

// toGray fills d.gray with the frame in grey at the working resolution and
// returns the scale from gray pixels to frame pixels.
func (d *Detector) toGray(frame gocv.Mat) float64 {
	d.grayGen++
	src := frame
	scale := d.opts.WorkScale(frame.Cols(), frame.Rows())
	if scale > 1 {
		sz := image.Pt(max(1, int(math.Round(float64(frame.Cols())/scale))), max(1, int(math.Round(float64(frame.Rows())/scale))))
		gocv.Resize(frame, &d.work, sz, 0, 0, gocv.InterpolationArea)
		src = d.work
	}
	switch src.Channels() {
	case 1:
		src.CopyTo(&d.gray)
	case 3:
		gocv.CvtColor(src, &d.gray, gocv.ColorBGRToGray)
	case 4:
		gocv.CvtColor(src, &d.gray, gocv.ColorBGRAToGray)
	}
	return scale
}

// Locate finds the grid's corners and homographies without reading its
// contents; it is the cheap per-frame tracker. The returned Grid has Side
// set to 9*CellPx and no Shape. Errors are *QualityError (BadInput, NoGrid,
// TooSmall); with TooSmall the Grid is still filled in.
func (d *Detector) Locate(frame gocv.Mat) (Grid, error) {
	return d.LocatePick(frame, Pick{})
}

// LocatePick is Locate taking the grid p picks when the frame holds
// several (Candidates lists them).
func (d *Detector) LocatePick(frame gocv.Mat, p Pick) (Grid, error) {
	g, _, err := d.locate(frame, p)
	return g, err
}

// Candidates returns the quadrilaterals the last Locate or Analyze took
// for possible grids, the most Sudoku-like first (those that do not look
// like a lattice come last, largest first), with the one taken marked.
// A frame with one candidate gives it alone, not scored (Score 0, Grid
// true).
func (d *Detector) Candidates() []Candidate {
	out := make([]Candidate, len(d.cands))
	for i, c := range d.cands {
		out[i].Score = c.score
		out[i].Grid = gridLike(d.cands, i)
		out[i].Chosen = i == d.chosen
		for k, p := range orderCorners(c.q) {
			f := d.findToFrame(p)
			out[i].Corners[k] = gocv.Point2f{X: float32(f.X), Y: float32(f.Y)}
		}
	}
	return out
}

// locate also returns the scale from working-grey pixels to frame pixels.
func (d *Detector) locate(frame gocv.Mat, p Pick) (Grid, float64, error) {
	gs, err := d.search(frame)
	if err != nil {
		return Grid{}, 0, err
	}
	d.chosen = pick(d.cands, p, d.frameToFind)
	return d.take(frame, gs)
}

// findToFrame maps a point of the search image (find pixels) to frame
// pixels; pixel centres stay centres.
func (d *Detector) findToFrame(p pt) pt {
	return pt{(p.X+0.5)*d.findScale - 0.5 + d.findOrigin.X, (p.Y+0.5)*d.findScale - 0.5 + d.findOrigin.Y}
}

// frameToFind maps a frame point to find pixels (findToFrame's inverse).
func (d *Detector) frameToFind(p pt) pt {
	return pt{(p.X-d.findOrigin.X+0.5)/d.findScale - 0.5, (p.Y-d.findOrigin.Y+0.5)/d.findScale - 0.5}
}

// search looks for the candidate grids of frame (d.cands, in Candidates
// order) and returns the scale from working-grey pixels to frame pixels.
func (d *Detector) search(frame gocv.Mat) (float64, error) {
	d.cands, d.chosen = d.cands[:0], -1
	if err := checkFrame(frame); err != nil {
		return 0, err
	}
	gs := d.toGray(frame)
	d.findIn(image.Rect(0, 0, d.gray.Cols(), d.gray.Rows()), gs, false, false, d.opts.FindSide)
	return gs, nil
}

// findIn finds the candidate grids in region r of the working grey image
// (gs: its scale to frame pixels) at most side pixels long, so the cost does
// not depend on the camera, and maps find pixels to frame pixels. enlarge
// scales a small region up (up to maxEnlarge) so thin lines survive the blur
// and threshold; quick (a told-where search) shrinks by less than areaFrom
// by linear sampling, as area averaging there costs as much as the search.
func (d *Detector) findIn(r image.Rectangle, gs float64, enlarge, quick bool, side int) {
	src := d.gray
	if r != image.Rect(0, 0, d.gray.Cols(), d.gray.Rows()) {
		src = d.gray.Region(r)
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
		gocv.Resize(src, &d.small, sz, 0, 0, interp)
		find = d.small
		fs = float64(r.Dx()) / float64(sz.X)
	}
	d.findScale = fs * gs
	d.findOrigin = pt{float64(r.Min.X) * gs, float64(r.Min.Y) * gs}
	d.cands = d.scoreCandidates(d.bin, d.findCandidates(find))
}

// take turns candidate d.chosen of the last search into a Grid: its
// corners refined on the outline's straight runs, checked for size.
func (d *Detector) take(frame gocv.Mat, gs float64) (Grid, float64, error) {
	if d.chosen < 0 || d.chosen >= len(d.cands) {
		return Grid{}, 0, qualityErr(NoGrid, "no quadrilateral contour")
	}
	c := &d.cands[d.chosen]
	if c.contour == nil {
		c.contour = d.contourPoints(c.index)
	}
	q := refineQuadRobust(c.q, c.contour)
	d.findQ, d.findContour = q, c.contour
	g, ok := d.gridFromFind(q)
	if !ok {
		return Grid{}, 0, qualityErr(NoGrid, "degenerate quadrilateral")
	}
	fq := ptsOf(g.Corners)
	shortest := math.Inf(1)
	for i := 0; i < 4; i++ {
		shortest = math.Min(shortest, fq[i].dist(fq[(i+1)%4]))
	}
	limit := math.Min(d.opts.MinSideFrac*float64(min(frame.Cols(), frame.Rows())), d.opts.MinSidePx*gs)
	if shortest < limit {
		return g, gs, qualityErr(TooSmall, "grid side %.0f px, need %.0f px", shortest, limit)
	}
	return g, gs, nil
}

// gridFromFind turns a quadrilateral in find pixels into a Grid in frame
// pixels (corners ordered, Side 9*CellPx, homographies set).
func (d *Detector) gridFromFind(q [4]pt) (Grid, bool) {
	var fq [4]pt
	for i, p := range q {
		fq[i] = d.findToFrame(p)
	}
	fq = orderCorners(fq)
	g := Grid{Side: 9 * d.opts.CellPx}
	for i, p := range fq {
		g.Corners[i] = gocv.Point2f{X: float32(p.X), Y: float32(p.Y)}
	}
	return g, setHomography(&g)
}

// setHomography fills H and HInv for g.Corners and g.Side.
func setHomography(g *Grid) bool {
	src := ptsOf(g.Corners)
	s := float64(g.Side)
	h, ok := homography(src, [4]pt{{0, 0}, {s, 0}, {s, s}, {0, s}})
	if !ok {
		return false
	}
	hi, ok := invert3(h)
	if !ok {
		return false
	}
	g.H, g.HInv = h, hi
	return true
}

// findCandidates returns the quadrilaterals in img (grey) that may be the
// grid, largest first: the largest external contours of the
// adaptive-threshold image (left in d.bin) that reduce to convex
// quadrilaterals.
func (d *Detector) findCandidates(img gocv.Mat) []candidate {
	long := max(img.Cols(), img.Rows())
	gocv.GaussianBlur(img, &d.blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	block := max(3, long/40) | 1
	gocv.AdaptiveThreshold(d.blur, &d.bin, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, 5)
	// Close one-pixel gaps in thin printed lines so the grid stays one contour.
	gocv.Dilate(d.bin, &d.bin, d.kernel3)

	// The contours stay with the Detector until the next search: the
	// chosen candidate's points are read from them (contourPoints).
	d.contours.Close()
	d.contours = gocv.FindContours(d.bin, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	contours := d.contours
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
			p := d.contourPoints(c.i)
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
		out = append(out, d.innerCandidates(out[0], minArea)...)
	}
	return out
}

// contourPoints copies contour i of the last search out of OpenCV.
func (d *Detector) contourPoints(i int) []pt {
	return pointsOf(d.contours.At(i))
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

// warp fills d.canvas with the grey working image rectified to side×side,
// for grid g whose frame->canvas homography is for g.Side; gs is the scale
// from working-grey pixels to frame pixels.
func (d *Detector) warp(g Grid, gs float64, side int) {
	d.canvasGen++
	if g.Bend != nil {
		d.warpBent(g, gs, side)
		return
	}
	// gray -> frame -> canvas(g.Side) -> canvas(side)
	k := float64(side) / float64(g.Side)
	h := mul3([9]float64{k, 0, 0, 0, k, 0, 0, 0, 1}, mul3(g.H, [9]float64{gs, 0, 0, 0, gs, 0, 0, 0, 1}))
	for i := 0; i < 9; i++ {
		d.hmat.SetDoubleAt(i/3, i%3, h[i])
	}
	gocv.WarpPerspectiveWithParams(d.gray, &d.canvas, d.hmat, image.Pt(side, side),
		gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
}

// binarise fills d.cbin (ink = 255) from d.canvas and d.hlines/d.vlines with
// the long horizontal and vertical strokes of it (grid lines), using line
// kernels of length kLen. The threshold is kept when the canvas and the
// block are those d.cbin was made from (nothing writes d.cbin but this):
// Analyze's final pass over a 9×9 canvas changes only the kernels.
func (d *Detector) binarise(cellPx float64, kLen int) {
	block := max(3, int(cellPx*0.75)) | 1
	if d.binGen != d.canvasGen || d.binBlock != block || d.cbin.Empty() {
		gocv.GaussianBlur(d.canvas, &d.cblur, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
		gocv.AdaptiveThreshold(d.cblur, &d.cbin, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, 7)
		d.binGen, d.binBlock = d.canvasGen, block
	}
	if kLen != d.kLen {
		d.hk.Close()
		d.vk.Close()
		d.hk = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(kLen, 1))
		d.vk = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(1, kLen))
		d.kLen = kLen
	}
	gocv.MorphologyEx(d.cbin, &d.hlines, gocv.MorphOpen, d.hk)
	gocv.MorphologyEx(d.cbin, &d.vlines, gocv.MorphOpen, d.vk)
	d.sums.valid = false
}

// profile returns the sums of m along rows (dim 1: one value per row) or
// columns (dim 0).
func (d *Detector) profile(m gocv.Mat, dim int) []float32 {
	gocv.Reduce(m, &d.prof, dim, gocv.ReduceSum, gocv.MatTypeCV32F)
	v, err := d.prof.DataPtrFloat32()
	if err != nil {
		return nil
	}
	return append([]float32(nil), v...)
}

// rectify warps g onto the canvas of the given side and binarises it
// there, for a 9×9 reading (the first look at any grid).
// The last two rectified canvases are kept (d.kept): the steps of an
// analysis try another outline or a bend on the canvas and, when that
// reads no better, put the grid they started from back, which then costs
// copies instead of a warp and a binarisation (two, as the canvas tried
// is kept too: the first reading's flat canvas then survives the bend
// tried after it).
func (d *Detector) rectify(g Grid, gs float64, side int) {
	block := max(3, int(float64(side)/9*0.75)) | 1
	kLen := max(3, side/32)
	for i := range d.kept {
		k := &d.kept[i]
		if !k.holds(d.grayGen, g, gs, side, block, kLen) {
			continue
		}
		d.putBack(k, block)
		if i == 0 { // the most recently used last
			d.kept[0], d.kept[1] = d.kept[1], d.kept[0]
		}
		return
	}
	d.warp(g, gs, side)
	d.binarise(float64(side)/9, kLen)
	// The older slot takes the new canvas and becomes the newer.
	d.kept[0], d.kept[1] = d.kept[1], d.kept[0]
	k := &d.kept[1]
	d.keepCanvas(k)
	k.valid, k.gray, k.gs, k.side, k.g, k.block, k.kLen = true, d.grayGen, gs, side, g, block, kLen
}

// keepCanvas copies the canvas, its binarisation and its line images
// into k.
func (d *Detector) keepCanvas(k *keptCanvas) {
	d.canvas.CopyTo(&k.canvas)
	d.cbin.CopyTo(&k.cbin)
	d.hlines.CopyTo(&k.hlines)
	d.vlines.CopyTo(&k.vlines)
}

// putBack makes k's canvas the current one, binarised with threshold
// block block.
func (d *Detector) putBack(k *keptCanvas, block int) {
	k.canvas.CopyTo(&d.canvas)
	k.cbin.CopyTo(&d.cbin)
	k.hlines.CopyTo(&d.hlines)
	k.vlines.CopyTo(&d.vlines)
	d.canvasGen++
	d.binGen, d.binBlock = d.canvasGen, block
	d.sums.valid = false
}

// readShape rectifies g and reads its box shape from the line profiles.
func (d *Detector) readShape(g Grid, gs float64, side int) shapeGuess {
	d.rectify(g, gs, side)
	return inferShape(d.profile(d.hlines, 1), d.profile(d.vlines, 0), d.profile(d.cbin, 1), d.profile(d.cbin, 0), d.opts.Sizes)
}

// preferClearer reads the alternative outline g2 and takes it when its
// lines are clearer than a's and clear enough on their own (an outline
// found another way must itself look like a grid); otherwise it puts a's
// canvas back.
func (d *Detector) preferClearer(a *analysis, g2 Grid) bool {
	alt := reading{g: g2, guess: d.readShape(g2, a.gs, a.side0)}
	if better(alt, reading{guess: a.guess}, 0) && acceptable(alt, bar{}) {
		a.g, a.guess = g2, alt.guess
		return true
	}
	d.rectify(a.g, a.gs, a.side0)
	return false
}

// Analyze finds the grid, rectifies it, infers its box shape and cuts it
// into N*N cells (row-major). Errors are *QualityError. With TooSmall the
// Grid holds the corners found and there are no cells; with TooBlurry or
// TooDark both Grid and cells are filled in (best effort) so a caller may
// still try them.
func (d *Detector) Analyze(frame gocv.Mat) (Grid, []Cell, error) {
	return d.AnalyzePick(frame, Pick{})
}

// AnalyzePick is Analyze reading the grid p picks when the frame holds
// several (Candidates lists them).
func (d *Detector) AnalyzePick(frame gocv.Mat, p Pick) (Grid, []Cell, error) {
	l := look{frame: frame, p: p}
	for _, s := range searchSteps {
		if s.applies != nil && !s.applies(d, &l) {
			continue
		}
		r, done := s.try(d, &l)
		if r != nil {
			l.r = *r
			l.r.via = append([]string{s.name}, r.via...)
		}
		if done {
			break
		}
	}
	g := l.r.g
	g.Via = l.r.via
	return g, l.r.cells, l.r.err
}

// look is the state of one AnalyzePick between its steps: the frame and
// the pick, the grid taken off the last search of the whole frame (gs:
// the scale from working-grey to frame pixels), the early closer look,
// kept for the late one, and the reading so far.
type look struct {
	frame gocv.Mat
	p     Pick
	g     Grid
	gs    float64
	early *zoomLook
	r     reading
}

// searchStep is a named step of AnalyzePick: try, run when applies (nil:
// always) says so, returns the reading it made, if any, which becomes
// the reading so far, and whether that is the answer.
type searchStep struct {
	name    string
	applies func(*Detector, *look) bool
	try     func(*Detector, *look) (*reading, bool)
}

// searchSteps are AnalyzePick's steps, in the order they run on a frame.
var searchSteps = []searchStep{
	{"within", toldWhere, (*Detector).readWithin},
	{"search", nil, (*Detector).searchFrame},
	{"early-closer", nil, (*Detector).earlyCloser},
	{"read", nil, (*Detector).readSearched},
	{"closer", nil, (*Detector).lateCloser},
}

// toldWhere reports whether the pick says where the grid is.
func toldWhere(_ *Detector, l *look) bool { return l.p.Within != nil }

// readWithin reads the grid where the pick says it is; when that reads
// none there, the whole frame is searched.
func (d *Detector) readWithin(l *look) (*reading, bool) {
	if r, ok := d.analyzeWithin(l.frame, *l.p.Within); ok {
		return &r, true
	}
	l.p.Within = nil
	return nil, false
}

// searchFrame searches the whole frame and takes the grid picked.
func (d *Detector) searchFrame(l *look) (*reading, bool) {
	var err error
	if l.g, l.gs, err = d.locate(l.frame, l.p); err != nil {
		return &reading{g: l.g, err: err}, true
	}
	return nil, false
}

// earlyCloser looks closer first when the candidate taken does not look
// like a lattice: that is mostly a page held up, its grid's lines blurred
// at the search's resolution. It takes that reading when it is a 9×9 grid
// with clear lines (9×9 only: a 12×12 read this way lost a given);
// otherwise it searches again and keeps this look for the late one.
func (d *Detector) earlyCloser(l *look) (*reading, bool) {
	if d.takenLooksLikeGrid() {
		return nil, false
	}
	roi, ok := d.zoomRegion(l.gs)
	if !ok {
		return nil, false
	}
	z := d.lookCloser(l.frame, roi, l.gs, l.p)
	if acceptable(z.reading, bar{sure: true, n: 9}) {
		return &z.reading, true
	}
	l.early = &z
	var err error
	if l.g, l.gs, err = d.locate(l.frame, l.p); err != nil {
		return &reading{g: l.g, err: err}, true
	}
	return nil, false
}

// readSearched reads the grid the search took, the answer when its lines
// are clear.
func (d *Detector) readSearched(l *look) (*reading, bool) {
	r := d.readPicked(l.frame, l.g, l.gs, l.p)
	return &r, acceptable(r, bar{sure: true})
}

// lateCloser handles no grid, or one whose lines do not stand out as a
// grid's do (a page read as a lattice of its text, or of the columns a
// grid inside it makes when the search saw no lattice in it): a grid a
// few pixels a cell wide at the search resolution may have lost its
// lines there, or merged with the page's edge or a frame beside it. It
// looks again at the page it lies on, at the resolution the search can
// afford for that part of the frame, and takes what that finds when its
// lines are clear.
func (d *Detector) lateCloser(l *look) (*reading, bool) {
	roi, ok := d.zoomRegion(l.gs)
	if !ok {
		return nil, true
	}
	saved := d.searchState()
	var z zoomLook
	if l.early != nil && l.early.roi == roi {
		z = *l.early
		d.restoreSearch(z.state)
	} else {
		z = d.lookCloser(l.frame, roi, l.gs, l.p)
	}
	switch {
	case acceptable(z.reading, bar{}) && better(z.reading, l.r, 0):
		return &z.reading, true
	case isKind(z.taken, TooSmall) && isKind(l.r.err, NoGrid) && z.smallLattice >= goodLattice:
		// The page holds a grid too small to read: say so ("move
		// closer") rather than that there is none.
		return &reading{g: z.g, err: z.taken}, true
	}
	d.restoreSearch(saved)
	return nil, true
}

// zoomLook is what a closer look at a region of the frame found: the
// reading of the grid it took, the lattice score of a grid too small to
// read, and the search's state, to put back when a later search
// replaced it.
type zoomLook struct {
	roi image.Rectangle
	reading
	smallLattice float64
	state        searchState
}

// lookCloser searches region roi of the working grey image (gs: its
// scale to frame pixels) enlarged up to the search's resolution, takes
// the grid p picks there and reads it.
func (d *Detector) lookCloser(frame gocv.Mat, roi image.Rectangle, gs float64, p Pick) zoomLook {
	z := zoomLook{roi: roi}
	d.findIn(roi, gs, true, false, d.opts.FindSide)
	d.chosen = pick(d.cands, p, d.frameToFind)
	g, gs2, err := d.take(frame, gs)
	switch {
	case err == nil:
		z.reading = d.readPicked(frame, g, gs2, p)
		// Asked now: the search that follows replaces this one's image.
		looks := d.takenLooksLikeGrid()
		z.lattice = func() bool { return looks }
	case isKind(err, TooSmall):
		z.g, z.taken = g, err
		z.smallLattice = d.latticeLikeness(d.bin, d.cands[d.chosen].q)
	default:
		z.g, z.taken = g, err
	}
	z.state = d.searchState()
	return z
}

// analyzeWithin reads the grid whose outline holds the centre of q (frame
// pixels), searching only q's bounding box and a margin around it, at up
// to maxEnlarge times the working resolution: the look a far page's grid
// gets from the second search, without first reading the whole frame and
// the page around the grid. ok is false, and the caller searches the
// whole frame, when that finds no quadrilateral there, reads no grid in
// it, reads one whose lines are not clear, or reads one that is not at q
// (q may be stale: the page moved on or changed).
func (d *Detector) analyzeWithin(frame gocv.Mat, q [4]gocv.Point2f) (reading, bool) {
	d.cands, d.chosen = d.cands[:0], -1
	if checkFrame(frame) != nil {
		return reading{}, false
	}
	gs := d.toGray(frame)
	r, ok := d.hintRegion(q, gs)
	if !ok {
		return reading{}, false
	}
	d.findIn(r, gs, true, true, min(hintFindSide, d.opts.FindSide))
	c := centroid(ptsOf(q))
	p := Pick{Near: gocv.Point2f{X: float32(c.X), Y: float32(c.Y)}, ByPoint: true}
	d.chosen = pick(d.cands, p, d.frameToFind)
	g, gs, err := d.take(frame, gs)
	if err != nil {
		return reading{}, false
	}
	rd := d.readPicked(frame, g, gs, p)
	if !acceptable(rd, bar{sure: true}) || !sameQuad(rd.g.Corners, q, hintAgree) {
		return reading{}, false
	}
	return rd, true
}

// sameQuad reports whether each corner of a lies within tol of b's mean
// side from a corner of b (in any order: a grid read turned lists its
// corners from another one).
func sameQuad(a, b [4]gocv.Point2f, tol float64) bool {
	side := MeanSide(b)
	for _, p := range a {
		near := math.Inf(1)
		for _, c := range b {
			near = math.Min(near, math.Hypot(float64(p.X-c.X), float64(p.Y-c.Y)))
		}
		if !(near <= tol*side) {
			return false
		}
	}
	return true
}

// hintRegion is the part of the working grey image (gs: its scale to
// frame pixels) analyzeWithin searches for a grid last seen at q: q's
// bounding box and hintMargin of its long side beyond each side, within
// the image; false when that is too small to search or q is not finite.
func (d *Detector) hintRegion(q [4]gocv.Point2f, gs float64) (image.Rectangle, bool) {
	lo, hi := pt{math.Inf(1), math.Inf(1)}, pt{math.Inf(-1), math.Inf(-1)}
	for _, c := range q {
		x, y := float64(c.X), float64(c.Y)
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return image.Rectangle{}, false
		}
		lo = pt{math.Min(lo.X, x), math.Min(lo.Y, y)}
		hi = pt{math.Max(hi.X, x), math.Max(hi.Y, y)}
	}
	m := hintMargin * math.Max(hi.X-lo.X, hi.Y-lo.Y)
	w, h := float64(d.gray.Cols()), float64(d.gray.Rows())
	x0, y0 := math.Max(0, (lo.X-m)/gs), math.Max(0, (lo.Y-m)/gs)
	x1, y1 := math.Min(w, (hi.X+m)/gs), math.Min(h, (hi.Y+m)/gs)
	if x1-x0 < minFrameSide || y1-y0 < minFrameSide {
		return image.Rectangle{}, false
	}
	return image.Rect(int(x0), int(y0), int(math.Ceil(x1)), int(math.Ceil(y1))), true
}

// hintFindSide is the long side, in find pixels, of the region
// analyzeWithin searches (enlarged up to maxEnlarge times, or shrunk, to
// it): the region is mostly the grid, whose outline and lines stand out
// at this size (a grid 130 px across in the frame is looked at twice as
// large, as the second look does), where the whole frame's search needs
// FindSide for a page and its surroundings (the Tuning table of
// docs/performance.md has what set it).
const hintFindSide = 480

// hintMargin is how far beyond the bounding box of the grid last seen
// (a share of its long side) analyzeWithin searches: the grid's own
// outline then stands clear of the region's edge, and the page around it
// is mostly left out.
const hintMargin = 0.1

// hintAgree is how far (a share of its side) a corner of the grid read
// where the caller said may lie from the place it said: farther, the
// grid read there is another (a part of the grid, a box, a frame around
// it) and the whole frame is searched instead.
const hintAgree = 0.15

// ptsOf converts frame corners to pt.
func ptsOf(q [4]gocv.Point2f) [4]pt {
	var out [4]pt
	for i, c := range q {
		out[i] = pt{float64(c.X), float64(c.Y)}
	}
	return out
}

// takenLooksLikeGrid reports whether the candidate taken looked like a
// Sudoku lattice to the search (a grid of 16×16 or on a curled page whose
// lines score under clearLineScore does; a page around a small grid does
// not).
func (d *Detector) takenLooksLikeGrid() bool {
	if d.chosen < 0 || d.chosen >= len(d.cands) {
		return false
	}
	c := d.cands[d.chosen]
	if len(d.cands) == 1 { // not scored
		return d.latticeLikeness(d.bin, c.q) >= goodLattice
	}
	return c.score >= goodLattice
}

// readPicked reads grid g, the candidate the search took for pick p (gs:
// the scale from working-grey pixels to frame pixels). The default pick
// reads the next candidates when the first holds no lattice: the most
// Sudoku-like by the search's coarse look, or the largest, may be a page
// or a frame whose grid is another candidate. Another is taken only when
// its lines are clear (a frame around the grid and a column of text reads
// as a lattice of weak lines).
func (d *Detector) readPicked(frame gocv.Mat, g Grid, gs float64, p Pick) reading {
	r := d.readTaken(g, gs)
	if p != (Pick{}) || !isKind(r.err, NoGrid) {
		return r
	}
	first := d.chosen
	for k := 1; k < min(len(d.cands), maxRetries+1); k++ {
		d.chosen = k
		g2, gs2, err := d.take(frame, gs)
		if err != nil {
			continue
		}
		if r2 := d.readTaken(g2, gs2); acceptable(r2, bar{}) {
			r2.via = append([]string{"next-candidate"}, r2.via...)
			return r2
		}
	}
	d.chosen = first
	return r
}

// readTaken reads grid g, just taken off the search (gs: the scale from
// working-grey pixels to frame pixels), grown to the whole grid when it
// reads as a part of one, and says how to ask whether the candidate
// looked like a lattice.
func (d *Detector) readTaken(g Grid, gs float64) reading {
	r := d.analyzeTaken(g, gs)
	if len(r.cells) > 0 {
		r = d.wholeGrid(r, gs)
	}
	r.lattice = d.takenLooksLikeGrid
	return r
}

// zoomRegion returns the part of the working grey image (gs: its scale to
// frame pixels) a second search looks at when the first found no grid:
// the bounding box of the largest outline holding the candidate taken (the
// page the grid is printed on), with a margin, when the search can see it
// at least zoomGain times finer than the whole frame.
func (d *Detector) zoomRegion(gs float64) (image.Rectangle, bool) {
	if d.chosen < 0 || d.chosen >= len(d.cands) {
		return image.Rectangle{}, false
	}
	at := centroid(d.cands[d.chosen].q)
	outer := d.chosen
	for i, c := range d.cands {
		if c.area > d.cands[outer].area && isConvexQuad(c.q) && insideConvex(c.q, at) {
			outer = i
		}
	}
	lo, hi := pt{math.Inf(1), math.Inf(1)}, pt{math.Inf(-1), math.Inf(-1)}
	for _, p := range d.cands[outer].q {
		f := d.findToFrame(p)
		lo = pt{math.Min(lo.X, f.X), math.Min(lo.Y, f.Y)}
		hi = pt{math.Max(hi.X, f.X), math.Max(hi.Y, f.Y)}
	}
	// Frame pixels to grey pixels, a twentieth of the size beyond each side.
	m := 0.05 * math.Max(hi.X-lo.X, hi.Y-lo.Y)
	r := image.Rect(int((lo.X-m)/gs), int((lo.Y-m)/gs), int(math.Ceil((hi.X+m)/gs)), int(math.Ceil((hi.Y+m)/gs)))
	r = r.Intersect(image.Rect(0, 0, d.gray.Cols(), d.gray.Rows()))
	if r.Dx() < minFrameSide || r.Dy() < minFrameSide {
		return image.Rectangle{}, false
	}
	was := d.findScale / gs
	now := math.Max(1/maxEnlarge, float64(max(r.Dx(), r.Dy()))/float64(d.opts.FindSide))
	return r, was >= zoomGain*now
}

// zoomGain is how much finer than the first search a second one must see
// the page to be worth its cost; maxEnlarge is how much it may enlarge
// the frame's pixels.
const (
	zoomGain   = 1.3
	maxEnlarge = 2.0
	// areaFrom is the shrink from which a quick search image is made by
	// pixel-area averaging rather than linear sampling (shrunk by less
	// than half, a grid line keeps its ink under linear sampling).
	areaFrom = 2.0
)

// searchState is what Candidates and the pick read of the last search.
type searchState struct {
	cands  []candidate
	chosen int
	scale  float64
	origin pt
}

func (d *Detector) searchState() searchState {
	return searchState{append([]candidate(nil), d.cands...), d.chosen, d.findScale, d.findOrigin}
}

// restoreSearch puts back what Candidates reports of an earlier search
// (its images are gone: only Candidates may follow).
func (d *Detector) restoreSearch(s searchState) {
	d.cands, d.chosen, d.findScale, d.findOrigin = append(d.cands[:0], s.cands...), s.chosen, s.scale, s.origin
}

// maxRetries is how many more candidates the default pick reads when the
// first holds no lattice.
const maxRetries = 2

// isKind reports whether err is a *QualityError of kind k.
func isKind(err error, k QualityKind) bool {
	var qe *QualityError
	return errors.As(err, &qe) && qe.Kind == k
}

// analyzeTaken reads grid g (just located; gs is the scale from
// working-grey pixels to frame pixels): its box shape and its cells, and
// how clearly its lines stand out (the line score).
func (d *Detector) analyzeTaken(g Grid, gs float64) reading {
	a := analysis{g: g, gs: gs, side0: g.Side}
	if len(d.opts.Sizes) == 1 {
		a.side0 = canvasSide(d.opts.Sizes[0], d.opts.CellPx)
	}
	a.guess = d.readShape(a.g, gs, a.side0)
	for _, m := range mends {
		if (m.applies == nil || m.applies(d, &a)) && m.try(d, &a) {
			a.via = append(a.via, m.name)
		}
	}
	n := a.side()
	r := reading{g: a.g, guess: a.guess, via: a.via}
	if n == 0 || r.score() < 0.1 {
		r.err = qualityErr(NoGrid, "no grid lines inside the quadrilateral (line score %.2f)", r.score())
		return r
	}
	cs := d.finalCanvas(&a, n)
	r.g = a.g
	r.cells = d.cells(n, cs, d.manyLooks(r.g, n))
	switch {
	case r.g.Brightness < d.opts.MinBrightness:
		r.err = qualityErr(TooDark, "mean grey %.0f, need %.0f", r.g.Brightness, d.opts.MinBrightness)
	case r.g.Sharpness < d.opts.MinSharpness:
		r.err = qualityErr(TooBlurry, "sharpness %.0f, need %.0f", r.g.Sharpness, d.opts.MinSharpness)
	}
	return r
}

// analysis is the state of one Analyze between its steps: the grid as
// found so far, the scale from working-grey to frame pixels, the side of
// the canvas the current reading was made on, that reading, the grid
// side N read from the grey canvas (0: the reading's), whether the
// finest canvas was taken, and the mends taken.
type analysis struct {
	g     Grid
	gs    float64
	side0 int
	guess shapeGuess
	n     int
	finer bool
	via   []string
}

// side is the grid side N the analysis reads.
func (a *analysis) side() int {
	if a.n > 0 {
		return a.n
	}
	return a.guess.Shape.N()
}

// mend is a named step of analyzeTaken: try, run when applies (nil:
// always) says so, reports whether it changed the reading.
type mend struct {
	name    string
	applies func(*Detector, *analysis) bool
	try     func(*Detector, *analysis) bool
}

// mends are analyzeTaken's steps, in the order they run on the reading
// of a quadrilateral just taken.
var mends = []mend{
	{"outline-bend", nil, (*Detector).tryOutlineBend},
	{"even-boxes", weakLines, (*Detector).tryEvenBoxes},
	{"grid-from-cells", weakLines, (*Detector).tryGridFromCells},
	{"edge-lines", weakLines, (*Detector).tryEdgeLines},
	{"whole-lattice", (*Detector).wholeLatticeApplies, (*Detector).tryWholeLattice},
	{"finer", (*Detector).finerApplies, (*Detector).lookFiner},
	{"finer-from-grey", (*Detector).stillCoarse, (*Detector).finerFromGrey},
}

// weakLines reports whether the reading's lines are too weak to trust
// the quadrilateral.
func weakLines(_ *Detector, a *analysis) bool { return a.guess.LineScore < weakLineScore }

// tryOutlineBend resamples a curled page through the bend its outline
// shows, when that makes the grid lines stand out more.
func (d *Detector) tryOutlineBend(a *analysis) bool {
	b := d.outlineBend(a.g)
	if b == nil {
		return false
	}
	bent := a.g
	bent.Bend = b
	if bg := d.readShape(bent, a.gs, a.side0); better(reading{guess: bg}, reading{guess: a.guess}, bendGain) {
		a.g, a.guess = bent, bg
		return true
	}
	d.rectify(a.g, a.gs, a.side0)
	return false
}

// tryEvenBoxes handles weak lines on a page that may be curled: its boxes
// may be crowded where it turns away. It spaces the box lines evenly and
// looks again.
func (d *Detector) tryEvenBoxes(a *analysis) bool {
	even, cols, rows, ok := d.evenBoxes(a.g, a.side0)
	if !ok {
		return false
	}
	// Taken when the lines then stand out clearly, as a grid's do,
	// in as many boxes as the lines evened make (a crease or a
	// column of digits taken for a box line would read 10×10).
	eg := reading{g: even, guess: d.readShape(even, a.gs, a.side0)}
	n, sh := eg.guess.Shape.N(), eg.guess.Shape
	fits := n > 0 && (cols == 0 || sh.BoxCols*cols == n) && (rows == 0 || sh.BoxRows*rows == n)
	if fits && better(eg, reading{guess: a.guess}, bendGain) && acceptable(eg, bar{}) {
		a.g, a.guess = even, eg.guess
		return true
	}
	d.rectify(a.g, a.gs, a.side0)
	return false
}

// tryGridFromCells handles weak lines inside the quadrilateral, which
// mean it is not the grid's own outline (merged with a page frame or a
// crossword, or stretched by a caption): it finds the grid again from its
// cells.
func (d *Detector) tryGridFromCells(a *analysis) bool {
	if q, ok := gridFromCells(d.cellHoles(d.findQ), 4); ok {
		if g2, ok := d.gridFromFind(q); ok {
			return d.preferClearer(a, g2)
		}
	}
	return false
}

// tryEdgeLines handles lines still weak: a caption or text touching a
// side along its length pushes that side out by a text line. It moves
// each side in to the outermost long stroke near it.
func (d *Detector) tryEdgeLines(a *analysis) bool {
	// Found on the finest canvas with long kernels (a twelfth of the
	// side): words of the caption are shorter, grid lines span it.
	hiSide := 16 * d.opts.CellPx
	d.warp(a.g, a.gs, hiSide)
	d.binarise(float64(hiSide)/16, hiSide/12)
	if g2, ok := d.gridFromEdgeLines(a.g, hiSide); ok {
		return d.preferClearer(a, g2)
	}
	d.rectify(a.g, a.gs, a.side0)
	return false
}

// tryWholeLattice handles a quadrilateral holding a whole grid and more
// though its lines read clearly: a grid printed to a page's edge has its
// outline merged with that edge, so the lattice read across the warp is
// misplaced. When a whole 9×9 grid's lines stand out inside the canvas,
// short of its edges, the sides move to its outer lines if they are then
// clearer (fewer lines than 9 fit inside a larger grid too).
func (d *Detector) tryWholeLattice(a *analysis) bool {
	const n = 9
	colSum, rowSum, ok := d.bandSums(a.side0)
	if !ok {
		return false
	}
	ls, moved := wholeLatticeLines(colSum, rowSum, a.side0, n)
	if !moved {
		return false
	}
	if g2, ok := gridFromLines(a.g, ls, a.side0); ok {
		return d.preferClearer(a, g2)
	}
	return false
}

// wholeLatticeApplies reports whether tryWholeLattice looks at a: its
// lines read clearly as a grid of up to 9×9 and 9×9 is a size read. Weak
// lines: the quadrilateral is a page or a frame around the grid, which
// the steps before looked into (a comb fit to the text and a turned
// grid's lines there misplaces it). A larger grid read holds combs of
// 9×9 inside it.
func (d *Detector) wholeLatticeApplies(a *analysis) bool {
	return a.guess.LineScore >= weakLineScore && a.guess.Shape.N() <= 9 && slices.Contains(d.opts.Sizes, 9)
}

// coarse reports whether a grid side n read may be the box lines of a
// finer grid (16, 12) whose thin lines were lost at the resolution read.
func (d *Detector) coarse(n int) bool { return n > 0 && n <= 8 && hasMultiple(d.opts.Sizes, n) }

// finerApplies reports whether lookFiner looks at a: a coarse reading
// (4, 6, 8) or a weak one, not yet made on the finest canvas.
func (d *Detector) finerApplies(a *analysis) bool {
	return a.side0 < 16*d.opts.CellPx && (d.coarse(a.side()) || a.guess.LineScore < 0.25)
}

// lookFiner gives the reading a second look at the finest canvas and
// takes it when the first was coarse or the finer lines are clearer.
func (d *Detector) lookFiner(a *analysis) bool {
	coarse := d.coarse(a.side())
	hiSide := 16 * d.opts.CellPx
	d.warp(a.g, a.gs, hiSide)
	d.binarise(float64(hiSide)/16, max(3, hiSide/32))
	hi := inferShape(d.profile(d.hlines, 1), d.profile(d.vlines, 0), d.profile(d.cbin, 1), d.profile(d.cbin, 0), d.opts.Sizes)
	taken := coarse || better(reading{guess: hi}, reading{guess: a.guess}, 0)
	if taken {
		a.guess = hi
		a.side0, a.finer = hiSide, true
	} else {
		d.rectify(a.g, a.gs, a.side0) // back to the canvas the guess was made on
	}
	return taken
}

// stillCoarse reports whether the reading lookFiner took on the finest
// canvas is still coarse: the cell lines may be too light to survive the binarisation
// (a light, blurred 16×16 grid read as 4×4) but still darken their rows
// and columns of the grey canvas.
func (d *Detector) stillCoarse(a *analysis) bool {
	return a.finer && d.coarse(a.side())
}

// finerFromGrey reads the finer grid from the grey canvas's rows and
// columns.
func (d *Detector) finerFromGrey(a *analysis) bool {
	rows, cols := greyMedians(d.canvas)
	n := a.side()
	m, conf := finerFromGrey(rows, cols, d.profile(d.hlines, 1), d.profile(d.vlines, 0), n, d.opts.Sizes)
	if m <= 0 {
		return false
	}
	k := m / n
	a.guess.Shape = sudoku.Shape{BoxRows: k, BoxCols: k}
	a.guess.Confidence *= conf
	a.n = m
	return true
}

// finalCanvas warps and binarises the canvas the n×n grid's cells are cut
// from (its lattice snapped, its corners and bend refined, its sharpness
// and brightness taken), fills in a.g, and returns the cell side in
// canvas pixels.
func (d *Detector) finalCanvas(a *analysis, n int) float64 {
	g, gs, side0 := a.g, a.gs, a.side0
	side := canvasSide(n, d.opts.CellPx)
	cs := float64(side) / float64(n)
	// Small cells need the lattice exactly: snap the corners to the grid
	// lines of the canvas at hand, before the final warp.
	snapped := false
	if n >= 12 {
		if c, ok := d.latticeCorners(g, side0, n); ok {
			g.Corners = c
			snapped = setHomography(&g)
		}
	}
	// Re-warp and re-binarise only when N or the snap changed the canvas or
	// the kernels.
	if k := cutKernel(side, cs); side != side0 || k != d.kLen || snapped {
		if side != side0 || snapped {
			d.warp(g, gs, side)
		}
		d.binarise(cs, k)
	}
	g.Side = side
	setHomography(&g)
	if n < 12 {
		// On 9×9 and coarser grids the outline's corners are closer to the
		// printed outer edge than the lattice fit on real photos (paper
		// curvature bends the inner lines): a corner is only replaced when the
		// lattice puts it far from the outline's (a caption or a neighbouring
		// box fused with the outline at that corner).
		d.fixOutlierCorners(&g, gs, n, cs)
		// A curled page crowds the cells where it turns away: the lines
		// say where the cells are.
		d.refineBend(&g, gs, n, cs)
	}
	g.Shape = a.guess.Shape
	g.ShapeConfidence = a.guess.Confidence
	// Sharpness and brightness come from the final canvas: for a 16×16
	// grid the finest, where it is read.
	d.measure(&g)
	a.g = g
	return cs
}

// cutKernel is the length of the line kernels binarise uses on the canvas
// cells are cut from (side pixels, cells cs pixels wide).
func cutKernel(side int, cs float64) int { return max(side/12, int(cs*0.75)) }

// measure sets g's Brightness and Sharpness from the current canvas.
func (d *Detector) measure(g *Grid) {
	g.Brightness = d.canvas.Mean().Val1
	gocv.Laplacian(d.canvas, &d.lap, gocv.MatTypeCV16S, 1, 1, 0, gocv.BorderReplicate)
	g.Sharpness = variance16(d.lap)
}

// variance16 is the variance of a CV_16S Mat's values, summed exactly in
// integers (OpenCV's MeanStdDev took longer than the Laplacian itself).
func variance16(m gocv.Mat) float64 {
	v, err := m.DataPtrInt16()
	if err != nil || len(v) == 0 {
		return 0
	}
	var sum, sq int64
	for _, x := range v {
		sum += int64(x)
		sq += int64(x) * int64(x)
	}
	n := float64(len(v))
	mean := float64(sum) / n
	return max(0, float64(sq)/n-mean*mean)
}

// latticeCorners returns g's corners (frame pixels) corrected so the grid
// lines found on the current line images (canvas of side canvasSide,
// warped with g) fall on the ideal n×n lattice.
func (d *Detector) latticeCorners(g Grid, canvasSide, n int) ([4]gocv.Point2f, bool) {
	cs := float64(canvasSide) / float64(n)
	colSum, rowSum, ok := d.bandSums(canvasSide)
	if !ok {
		return g.Corners, false
	}
	c, ok := latticeCorrection(colSum, rowSum, canvasSide, n, cs, 0.5*cs)
	if !ok {
		return g.Corners, false
	}
	ci, ok := invert3(c)
	if !ok {
		return g.Corners, false
	}
	// Frame -> canvas(canvasSide) is K·H with K scaling g.Side to canvasSide.
	k := float64(canvasSide) / float64(g.Side)
	back := mul3(g.HInv, mul3([9]float64{1 / k, 0, 0, 0, 1 / k, 0, 0, 0, 1}, ci))
	s := float64(canvasSide)
	var out [4]gocv.Point2f
	for i, p := range [4]pt{{0, 0}, {s, 0}, {s, s}, {0, s}} {
		q := apply(back, p)
		out[i] = gocv.Point2f{X: float32(q.X), Y: float32(q.Y)}
	}
	return out, true
}

// gridFromEdgeLines returns g with its sides moved to the grid's outer
// lines found on the current line images (canvas of side canvasSide,
// warped with g), or false when none moved.
func (d *Detector) gridFromEdgeLines(g Grid, canvasSide int) (Grid, bool) {
	colSum, rowSum, ok := d.bandSums(canvasSide)
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

// fixOutlierCorners replaces the corners of g (whose canvas side is
// g.Side, just binarised) that the lattice puts more than latticeOverride
// of the grid side from the outline's, and re-warps and re-binarises the
// canvas when one moved.
func (d *Detector) fixOutlierCorners(g *Grid, gs float64, n int, cs float64) {
	lat, ok := d.latticeCorners(*g, g.Side, n)
	if !ok {
		return
	}
	side := MeanSide(g.Corners)
	next := *g
	moved := false
	for i := range lat {
		if math.Hypot(float64(lat[i].X-g.Corners[i].X), float64(lat[i].Y-g.Corners[i].Y)) > latticeOverride*side {
			next.Corners[i] = lat[i]
			moved = true
		}
	}
	if !moved || !setHomography(&next) {
		return
	}
	*g = next
	d.warp(*g, gs, g.Side)
	d.binarise(cs, d.kLen)
}

// latticeOverride is how far (fraction of the grid side) the lattice must
// put a corner from the outline's before it replaces it on 9×9 and coarser
// grids: the lattice sits a little inside the printed outer edge, while
// outline corners pulled by a caption are off by more than this.
const latticeOverride = 0.035

// bendGain is how much a bend must raise the line score to be taken: a
// caption fused along a side bows the outline of a flat page too, and
// bending to it gains a little, while the bend of a curled page gains
// clearly more.
const bendGain = 0.04

// weakLineScore is the line score below which the quadrilateral found is
// doubted (real photos of grids found right score 0.30 and up).
const weakLineScore = 0.25

// clearLineScore is the line score from which a reading is taken without
// looking again at the page it lies on: grids found right score from it
// up; a page read as a 4×4 lattice of the columns a small grid printed on
// it makes scores just under it.
const clearLineScore = 0.3

// manyLooks reports whether the digits of g, an n×n grid found in a
// frame, are cut several ways (Cell.Looks): cells under Options.LookPx
// in the frame. Grids above 9×9 are left to one look: their two-digit
// glyphs were not tried with the other cuts (a 16×16 read exactly was
// held back).
func (d *Detector) manyLooks(g Grid, n int) bool {
	return n <= 9 && MeanSide(g.Corners)/float64(n) < d.opts.LookPx
}

// SmallLookPx is the default Options.LookPx, the side of a cell in the
// frame, in pixels, below which Analyze cuts each digit several ways
// (Cell.Looks): a webcam's page whose
// cells are 14–20 px across blurs the gap of a 5 or the bowl of a 6, and
// one cut reads such cells wrongly or unsurely often enough to hold the
// page back.
const SmallLookPx = 24

// MeanSide is the mean side of the quadrilateral q (pixels).
func MeanSide(q [4]gocv.Point2f) float64 {
	side := 0.0
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		side += math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) / 4
	}
	return side
}

// canvasSide is the rectified canvas side for an n×n grid: n*cellPx, but
// at least the 9×9 canvas and at most the 12×12 one, except that a 16×16
// grid is cut from the finest canvas (16*cellPx, where it is read and its
// lattice found): a cell of three quarters of cellPx binarised the
// thin strokes of a blurred 3 or 13 in small cells into blobs, and the
// finest canvas costs a 16×16 only a little more CPU in Analyze.
func canvasSide(n, cellPx int) int {
	if n > 12 {
		return 16 * cellPx
	}
	return min(max(n*cellPx, 9*cellPx), 12*cellPx)
}

// hasMultiple reports whether sizes holds a multiple of n larger than n.
func hasMultiple(sizes []int, n int) bool {
	for _, s := range sizes {
		if s > n && s%n == 0 {
			return true
		}
	}
	return false
}
