package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// earlyCloser looks closer first when the candidate taken does not look
// like a lattice: that is mostly a page held up, its grid's lines blurred
// at the search's resolution. It takes that reading when it is a 9×9 grid
// with clear lines (9×9 only: a 12×12 read this way lost a given);
// otherwise it keeps this look for the late one.
func (l *look) earlyCloser() (*reading, bool) {
	if l.d.find.looksLikeGrid(l.d.find.chosen) {
		return nil, false
	}
	roi, ok := l.d.find.zoomRegion(image.Pt(l.d.gray.Cols(), l.d.gray.Rows()), l.gs)
	if !ok {
		return nil, false
	}
	z := l.d.lookCloser(l.frame, roi, l.gs, l.p)
	if acceptable(z.reading, bar{sure: true, n: 9}) {
		return &z.reading, true
	}
	l.early = &z
	return nil, false
}

// lateCloser handles no grid, or one whose lines do not stand out as a
// grid's do (a page read as a lattice of its text, or of the columns a
// grid inside it makes when the search saw no lattice in it): a grid a
// few pixels a cell wide at the search resolution may have lost its
// lines there, or merged with the page's edge or a frame beside it. It
// looks again at the page it lies on, at the resolution the search can
// afford for that part of the frame, and takes what that finds when its
// lines are clear.
func (l *look) lateCloser() (*reading, bool) {
	roi, ok := l.d.find.zoomRegion(image.Pt(l.d.gray.Cols(), l.d.gray.Rows()), l.gs)
	if !ok {
		return nil, true
	}
	var z zoomLook
	if l.early != nil && l.early.roi == roi {
		z = *l.early
	} else {
		z = l.d.lookCloser(l.frame, roi, l.gs, l.p)
	}
	switch {
	case acceptable(z.reading, bar{}) && better(z.reading, l.r, 0):
		return &z.reading, true
	case isKind(z.taken, TooSmall) && isKind(l.r.err, NoGrid) && z.smallLattice >= goodLattice:
		// The page holds a grid too small to read: say so ("move
		// closer") rather than that there is none.
		return &reading{g: z.g, err: z.taken, from: z.from}, true
	}
	return nil, true
}

// zoomLook is what a closer look at a region of the frame found: the
// reading of the grid it took (off the Detector's zoom search) and the
// lattice score of a grid too small to read.
type zoomLook struct {
	roi image.Rectangle
	reading
	smallLattice float64
}

// lookCloser searches region roi of the working grey image (gs: its
// scale to frame pixels) enlarged up to the search's resolution, with
// the zoom search (the whole frame's stays as it is), takes the grid p
// picks there and reads it.
func (d *Detector) lookCloser(frame gocv.Mat, roi image.Rectangle, gs float64, p Pick) zoomLook {
	f := &d.zoom
	z := zoomLook{roi: roi}
	z.from = f
	f.findIn(d.gray, roi, gs, true, false, d.opts.FindSide)
	f.chosen = pick(f.cands, p, f.frameToFind)
	g, gs2, err := f.take(frame, gs, f.chosen)
	switch {
	case err == nil:
		z.reading = d.readPicked(f, frame, g, gs2, p)
		// Asked now: a later closer look replaces this one's image.
		looks := f.looksLikeGrid(f.chosen)
		z.lattice = func() bool { return looks }
	case isKind(err, TooSmall):
		z.g, z.taken = g, err
		z.smallLattice = f.latticeLikeness(f.bin, f.cands[f.chosen].q)
	default:
		z.g, z.taken = g, err
	}
	return z
}

// zoomRegion returns the part of the working grey image (gs: its scale to
// frame pixels) a second search looks at when the first found no grid:
// the bounding box of the largest outline holding the candidate taken (the
// page the grid is printed on), with a margin, when the search can see it
// at least zoomGain times finer than the whole frame.
func (f *finder) zoomRegion(size image.Point, gs float64) (image.Rectangle, bool) {
	if f.chosen < 0 || f.chosen >= len(f.cands) {
		return image.Rectangle{}, false
	}
	at := centroid(f.cands[f.chosen].q)
	outer := f.chosen
	for i, c := range f.cands {
		if c.area > f.cands[outer].area && isConvexQuad(c.q) && insideConvex(c.q, at) {
			outer = i
		}
	}
	lo, hi := pt{math.Inf(1), math.Inf(1)}, pt{math.Inf(-1), math.Inf(-1)}
	for _, p := range f.cands[outer].q {
		fp := f.findToFrame(p)
		lo = pt{math.Min(lo.X, fp.X), math.Min(lo.Y, fp.Y)}
		hi = pt{math.Max(hi.X, fp.X), math.Max(hi.Y, fp.Y)}
	}
	// Frame pixels to grey pixels, a twentieth of the size beyond each side.
	m := 0.05 * math.Max(hi.X-lo.X, hi.Y-lo.Y)
	r := image.Rect(int((lo.X-m)/gs), int((lo.Y-m)/gs), int(math.Ceil((hi.X+m)/gs)), int(math.Ceil((hi.Y+m)/gs)))
	r = r.Intersect(image.Rect(0, 0, size.X, size.Y))
	if r.Dx() < minFrameSide || r.Dy() < minFrameSide {
		return image.Rectangle{}, false
	}
	was := f.findScale / gs
	now := math.Max(1/maxEnlarge, float64(max(r.Dx(), r.Dy()))/float64(f.opts.FindSide))
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
