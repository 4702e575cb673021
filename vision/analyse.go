package vision

import (
	"errors"
	"image"
	"math"

	"gocv.io/x/gocv"
)

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
	l := look{d: d, frame: frame, p: p}
	for _, s := range searchSteps {
		if s.applies != nil && !s.applies(&l) {
			continue
		}
		r, done := s.try(&l)
		if r != nil {
			l.r = *r
			l.r.via = append([]string{s.name}, r.via...)
		}
		if done {
			break
		}
	}
	if l.r.from != nil {
		d.last = l.r.from
	}
	g := l.r.g
	g.Via = l.r.via
	if l.r.cells != nil {
		if sd, cut := cutByFrame(frame, g); cut {
			return g, nil, qualityErr(CutOff, "the %s side of the grid runs off the frame", sideNames[sd])
		}
		setTints(frame, g, l.r.cells)
	}
	return g, l.r.cells, l.r.err
}

// sideNames name a grid's sides in the order of its corners.
var sideNames = [4]string{"top", "right", "bottom", "left"}

// look is the state of one AnalyzePick between its steps: the detector
// it runs on, the frame and the pick, the grid taken off the search of
// the whole frame (gs: the scale from working-grey to frame pixels), the
// early closer look, kept for the late one, and the reading so far.
type look struct {
	d     *Detector
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
	applies func(*look) bool
	try     func(*look) (*reading, bool)
}

// searchSteps are AnalyzePick's steps, in the order they run on a frame.
var searchSteps = []searchStep{
	{"within", (*look).toldWhere, (*look).readWithin},
	{"search", nil, (*look).searchFrame},
	{"early-closer", nil, (*look).earlyCloser},
	{"read", nil, (*look).readSearched},
	{"closer", nil, (*look).lateCloser},
}

// toldWhere reports whether the pick says where the grid is.
func (l *look) toldWhere() bool { return l.p.Within != nil }

// readWithin reads the grid where the pick says it is; when that reads
// none there, the whole frame is searched.
func (l *look) readWithin() (*reading, bool) {
	if r, ok := l.d.analyzeWithin(l.frame, *l.p.Within); ok {
		return &r, true
	}
	l.p.Within = nil
	return nil, false
}

// searchFrame searches the whole frame and takes the grid picked.
func (l *look) searchFrame() (*reading, bool) {
	var err error
	if l.g, l.gs, err = l.d.locate(l.frame, l.p); err != nil {
		return &reading{g: l.g, err: err, from: &l.d.find}, true
	}
	return nil, false
}

// readSearched reads the grid the search took, the answer when its lines
// are clear.
func (l *look) readSearched() (*reading, bool) {
	r := l.d.readPicked(&l.d.find, l.frame, l.g, l.gs, l.p)
	return &r, acceptable(r, bar{sure: true})
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
	d.find.cands, d.find.chosen = d.find.cands[:0], -1
	if checkFrame(frame) != nil {
		return reading{}, false
	}
	gs := d.toGray(frame)
	r, ok := hintRegion(image.Pt(d.gray.Cols(), d.gray.Rows()), q, gs)
	if !ok {
		return reading{}, false
	}
	d.find.findIn(d.gray, r, gs, true, true, min(hintFindSide, d.opts.FindSide))
	c := centroid(ptsOf(q))
	p := Pick{Near: gocv.Point2f{X: float32(c.X), Y: float32(c.Y)}, ByPoint: true}
	d.find.chosen = pick(d.find.cands, p, d.find.frameToFind)
	g, gs, err := d.find.take(frame, gs, d.find.chosen)
	if err != nil {
		return reading{}, false
	}
	rd := d.readPicked(&d.find, frame, g, gs, p)
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

// hintRegion is the part of the working grey image (size pixels; gs: its
// scale to frame pixels) analyzeWithin searches for a grid last seen at
// q: q's bounding box and hintMargin of its long side beyond each side,
// within the image; false when that is too small to search or q is not
// finite.
func hintRegion(size image.Point, q [4]gocv.Point2f, gs float64) (image.Rectangle, bool) {
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
	w, h := float64(size.X), float64(size.Y)
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

// readPicked reads grid g, the candidate search f took for pick p (gs:
// the scale from working-grey pixels to frame pixels). The default pick
// reads the next candidates when the first holds no lattice: the most
// Sudoku-like by the search's coarse look, or the largest, may be a page
// or a frame whose grid is another candidate. Another is taken only when
// its lines are clear (a frame around the grid and a column of text reads
// as a lattice of weak lines); it is then the one f took.
func (d *Detector) readPicked(f *finder, frame gocv.Mat, g Grid, gs float64, p Pick) reading {
	r := d.readTaken(f, f.chosen, g, gs)
	if p != (Pick{}) || !isKind(r.err, NoGrid) {
		return r
	}
	for k := 1; k < min(len(f.cands), maxRetries+1); k++ {
		g2, gs2, err := f.take(frame, gs, k)
		if err != nil {
			continue
		}
		if r2 := d.readTaken(f, k, g2, gs2); acceptable(r2, bar{}) {
			r2.via = append([]string{"next-candidate"}, r2.via...)
			f.chosen = k
			return r2
		}
	}
	return r
}

// maxRetries is how many more candidates the default pick reads when the
// first holds no lattice.
const maxRetries = 2

// readTaken reads grid g, just taken off candidate i of search f (gs:
// the scale from working-grey pixels to frame pixels), grown to the whole
// grid when it reads as a part of one, and says how to ask whether the
// candidate looked like a lattice.
func (d *Detector) readTaken(f *finder, i int, g Grid, gs float64) reading {
	r := d.analyzeTaken(f, g, gs)
	if len(r.cells) > 0 {
		r = d.wholeGrid(f, r, gs)
	}
	r.lattice = func() bool { return f.looksLikeGrid(i) }
	r.from = f
	return r
}

// analyzeTaken reads grid g (just taken off search f; gs is the scale from
// working-grey pixels to frame pixels): its box shape and its cells, and
// how clearly its lines stand out (the line score).
func (d *Detector) analyzeTaken(f *finder, g Grid, gs float64) reading {
	a := analysis{rect: &d.rect, find: f, opts: d.opts, g: g, gs: gs, side0: g.Side}
	if len(d.opts.Sizes) == 1 {
		a.side0 = canvasSide(d.opts.Sizes[0], d.opts.CellPx)
	}
	a.guess, a.c = d.rect.readShape(a.g, gs, a.side0, nil)
	for _, m := range mends {
		if (m.applies == nil || m.applies(&a)) && m.try(&a) {
			a.via = append(a.via, m.name)
		}
	}
	n := a.side()
	r := reading{g: a.g, guess: a.guess, via: a.via}
	if n == 0 || r.score() < 0.1 {
		r.err = qualityErr(NoGrid, "no grid lines inside the quadrilateral (line score %.2f)", r.score())
		return r
	}
	cs := a.finalCanvas(n)
	r.g = a.g
	r.cells = d.rect.cells(a.c, n, cs, d.opts.manyLooks(r.g, n))
	switch {
	case r.g.Gap < d.opts.MinGap:
		r.err = qualityErr(TooDark, "ink %.0f grey levels from paper, need %.0f", r.g.Gap, d.opts.MinGap)
	case r.g.Legibility < d.opts.MinLegibility:
		r.err = qualityErr(TooDark, "ink %.1f times the noise from paper, need %.1f", r.g.Legibility, d.opts.MinLegibility)
	case r.g.Sharpness < d.opts.MinSharpness:
		r.err = qualityErr(TooBlurry, "sharpness %.0f, need %.0f", r.g.Sharpness, d.opts.MinSharpness)
	}
	return r
}

// analysis is the state of one Analyze between its steps: where its
// canvases come from and the search it was taken off, the grid as found
// so far, the scale from working-grey to frame pixels, the canvas the
// reading so far was made on and its side, that reading, the grid side N
// read from the grey canvas (0: the reading's), whether the finest
// canvas was taken, and the mends taken. A mend tries its change on a
// canvas of its own and keeps it in c only when it takes the change.
type analysis struct {
	rect  *rectifier
	find  *finder
	opts  Options
	c     *canvas
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
	applies func(*analysis) bool
	try     func(*analysis) bool
}

// mends are analyzeTaken's steps, in the order they run on the reading
// of a quadrilateral just taken.
var mends = []mend{
	{"outline-bend", nil, (*analysis).tryOutlineBend},
	{"even-boxes", (*analysis).weakLines, (*analysis).tryEvenBoxes},
	{"grid-from-cells", (*analysis).weakLines, (*analysis).tryGridFromCells},
	{"edge-lines", (*analysis).weakLines, (*analysis).tryEdgeLines},
	{"whole-lattice", (*analysis).wholeLatticeApplies, (*analysis).tryWholeLattice},
	{"finer", (*analysis).finerApplies, (*analysis).lookFiner},
	{"finer-from-grey", (*analysis).stillCoarse, (*analysis).finerFromGrey},
}

// isKind reports whether err is a *QualityError of kind k.
func isKind(err error, k QualityKind) bool {
	var qe *QualityError
	return errors.As(err, &qe) && qe.Kind == k
}
