package vision

import (
	"image"
	"image/color"
	"math"
	"sort"
	"unsafe"

	"gocv.io/x/gocv"
)

// A page may hold several boxed things that reduce to quadrilaterals: two
// puzzles, a crossword, a framed article. The largest is not always the
// Sudoku. Each candidate's inside is warped flat (on the binary image of
// the grid search, which is already at hand, so this is cheap) and its
// line profiles are asked how much they look like a Sudoku lattice: every
// line of an N×N grid present at every 1/N, little ink between them, and
// thicker lines every few cells.

// Candidate is one quadrilateral of a frame that may be a Sudoku grid.
type Candidate struct {
	// Corners are the outline's corners in frame pixels (TL, TR, BR, BL),
	// before the refinement the chosen grid gets.
	Corners [4]gocv.Point2f
	// Score says how Sudoku-like the lattice inside looks: about 0.3 to
	// 1.5 for a grid's own outline, below goodLattice for text, a
	// crossword or a frame around something else.
	Score float64
	// Grid says the lattice looks like a Sudoku's (Score is at least
	// goodLattice), so a user may want this one read.
	Grid bool
	// Chosen marks the candidate Locate or Analyze took.
	Chosen bool
}

// Pick chooses among several grids in one frame. The zero Pick takes the
// most Sudoku-like one.
type Pick struct {
	// Rank takes the grid of this rank in Candidates order (0 = the most
	// Sudoku-like); beyond the last, the last.
	Rank int
	// With ByPoint set, Near (frame pixels) chooses instead: the grid
	// whose outline holds it, else the one whose centre is nearest. A
	// live view follows one puzzle of two this way as the page moves.
	Near    gocv.Point2f
	ByPoint bool
	// Within, when not nil, is where the grid lies in this frame as far
	// as the caller knows (frame pixels: a live view's grid read in an
	// earlier frame, carried along by its tracker). Analyze looks there
	// first, at the resolution that region affords, and takes the grid
	// whose outline holds its centre; only when that reads no grid does
	// it search the whole frame as without it. Locate ignores it.
	Within *[4]gocv.Point2f
}

// candidate is a quadrilateral of the grid search, in find pixels.
type candidate struct {
	q       [4]pt
	contour []pt    // its points; nil until read (contourPoints)
	index   int     // in the search's contours
	area    float64 // of the contour
	score   float64
}

// Search limits: the largest contours looked at, and the candidates kept.
const (
	maxContours   = 8
	maxCandidates = 5
)

// goodLattice is the score from which a candidate counts as a Sudoku
// grid when choosing; below it the largest quadrilateral is taken, as it
// may be a grid whose lines the search resolution blurs or an outline
// fused with a page frame (Analyze then finds the grid from its cells).
const goodLattice = 0.1

// gridLike reports whether candidate i of cs (as scoreCandidates leaves
// them) counts as a grid (Candidate.Grid): its score is at least
// goodLattice, or it is the only one (and was not scored).
func gridLike(cs []candidate, i int) bool {
	return len(cs) == 1 || cs[i].score >= goodLattice
}

// latticeSide is the side of the small flat view a candidate is scored on
// (12 pixels a cell for 9×9, 6 for 16×16).
const latticeSide = 108

// scoreCandidates fills in the score of each candidate (on the binary
// image bin of the grid search) when there is more than one, and returns
// them in the order Candidates reports: good lattices first, most
// Sudoku-like first, then the others largest first.
func (f *finder) scoreCandidates(bin gocv.Mat, cs []candidate) []candidate {
	if len(cs) < 2 {
		return cs
	}
	for i := range cs {
		cs[i].score = f.latticeLikeness(bin, cs[i].q)
	}
	sort.SliceStable(cs, func(i, j int) bool {
		gi, gj := cs[i].score >= goodLattice, cs[j].score >= goodLattice
		if gi != gj {
			return gi
		}
		if gi {
			return cs[i].score > cs[j].score
		}
		return cs[i].area > cs[j].area
	})
	return cs
}

// latticeLikeness warps the inside of q (find pixels of bin, ink 255) to
// a latticeSide square and scores its line profiles: for the grid side N
// that fits best, how far the weaker grid lines stand above the ink
// between them (lineSignificance, rows and columns alike), plus a bonus
// when every r-th and c-th line is thicker than the others (box lines).
func (f *finder) latticeLikeness(bin gocv.Mat, q [4]pt) float64 {
	s := float64(latticeSide)
	h, ok := homography(q, [4]pt{{0, 0}, {s, 0}, {s, s}, {0, s}})
	if !ok {
		return math.Inf(-1)
	}
	for i := 0; i < 9; i++ {
		f.hmat.SetDoubleAt(i/3, i%3, h[i])
	}
	// Nearest neighbour: the image is binary, and this is the bulk of the
	// cost of a candidate.
	gocv.WarpPerspectiveWithParams(bin, &f.look, f.hmat, image.Pt(latticeSide, latticeSide),
		gocv.InterpolationNearestNeighbor, gocv.BorderConstant, color.RGBA{})
	rows, cols := profile(f.look, 1, &f.prof), profile(f.look, 0, &f.prof)
	if len(rows) != latticeSide || len(cols) != latticeSide {
		return math.Inf(-1)
	}
	return latticeScore(rows, cols, f.opts.Sizes)
}

// latticeScore scores the ink profiles of a flat square view (rows[y] is
// the ink in row y, cols[x] in column x) as a Sudoku lattice; see
// latticeLikeness.
func latticeScore(rows, cols []float32, sizes []int) float64 {
	rp, cp := normalise01(rows), normalise01(cols)
	best, bestN := math.Inf(-1), 0
	for _, n := range sizes {
		if n < 2 || 4*n > len(rp) {
			continue
		}
		sig := math.Min(lineSignificance(rp, n), lineSignificance(cp, n))
		// A finer lattice that fits as well is the real one (4 fits the
		// box lines of a 16×16 grid too).
		if sig > best+0.02 || sig > best-0.02 && n > bestN {
			best, bestN = sig, n
		}
	}
	if bestN == 0 {
		return math.Inf(-1)
	}
	// Box lines: the most contrasted factorisation, rows and columns.
	rs, csum := lineStrengths(rp, bestN), lineStrengths(cp, bestN)
	box := 0.0
	for _, sh := range factorisations(bestN) {
		if sh.BoxRows < 2 || sh.BoxCols < 2 {
			continue
		}
		v := math.Min(periodContrast(rs, sh.BoxRows), periodContrast(csum, sh.BoxCols))
		box = math.Max(box, v)
	}
	return best + 0.5*clamp01(box)
}

// normalise01 scales p so its largest value is 1.
func normalise01(p []float32) []float64 {
	var mx float32
	for _, v := range p {
		mx = max(mx, v)
	}
	out := make([]float64, len(p))
	if mx > 0 {
		for i, v := range p {
			out[i] = float64(v) / float64(mx)
		}
	}
	return out
}

// pick returns the index in cs (as scoreCandidates orders them) of the
// candidate p asks for; toFind maps frame pixels to find pixels. By point:
// the first outline holding it if that looks like a grid, else a grid within
// nearGridShare of its side (a live view aims at the page's centre, beside
// an off-centre grid), else the holding outline; with none, the nearest.
func pick(cs []candidate, p Pick, toFind func(pt) pt) int {
	if len(cs) == 0 {
		return -1
	}
	if !p.ByPoint {
		return min(max(p.Rank, 0), len(cs)-1)
	}
	at := toFind(pt{float64(p.Near.X), float64(p.Near.Y)})
	holding, best, bestD := -1, 0, math.Inf(1)
	for i, c := range cs {
		if holding < 0 && isConvexQuad(c.q) && insideConvex(c.q, at) {
			holding = i
		}
		if dd := centroid(c.q).dist(at); dd < bestD {
			best, bestD = i, dd
		}
	}
	if holding >= 0 && gridLike(cs, holding) {
		return holding
	}
	near, nearD := -1, nearGridShare
	for i, c := range cs {
		if c.score < goodLattice || !isConvexQuad(c.q) {
			continue
		}
		if side := math.Sqrt(polyArea(c.q[:])); side > 0 {
			if dd := distOutside(c.q, at) / side; dd <= nearD {
				near, nearD = i, dd
			}
		}
	}
	switch {
	case near >= 0:
		return near
	case holding >= 0:
		return holding
	}
	return best
}

// nearGridShare is how far from a point (a share of a grid's side) a pick
// by point takes a grid the point lies beside, when the outline holding
// it is no grid. Two puzzles printed side by side are half a side or more
// apart from each other's centre.
const nearGridShare = 0.25

// distOutside is the distance from p to the convex quadrilateral q: 0
// inside, else to its nearest side.
func distOutside(q [4]pt, p pt) float64 {
	if insideConvex(q, p) {
		return 0
	}
	d := math.Inf(1)
	for i := 0; i < 4; i++ {
		a, b := q[i], q[(i+1)%4]
		ab := b.sub(a)
		l2 := ab.X*ab.X + ab.Y*ab.Y
		t := 0.0
		if l2 > 0 {
			t = math.Max(0, math.Min(1, ((p.X-a.X)*ab.X+(p.Y-a.Y)*ab.Y)/l2))
		}
		d = math.Min(d, p.dist(pt{a.X + t*ab.X, a.Y + t*ab.Y}))
	}
	return d
}

// innerCandidates searches inside candidate outer when it does not look
// like a lattice: a page held up is found first, and its grid is a component
// inside, never an external contour. Outer's inside (inset by innerInset) is
// searched for component outlines under maxInnerShare of its area that reduce
// to quadrilaterals; they are returned largest first, with their points.
func (f *finder) innerCandidates(outer candidate, minArea float64) []candidate {
	if f.latticeLikeness(f.bin, outer.q) >= innerSearchBelow {
		return nil
	}
	c := centroid(outer.q)
	pv := gocv.NewPointVector()
	defer pv.Close()
	var inset [4]pt
	for i, p := range outer.q {
		inset[i] = pt{c.X + (p.X-c.X)*(1-innerInset), c.Y + (p.Y-c.Y)*(1-innerInset)}
		pv.Append(image.Pt(int(math.Round(inset[i].X)), int(math.Round(inset[i].Y))))
	}
	polys := gocv.NewPointsVector()
	defer polys.Close()
	polys.Append(pv)
	if f.inner.Rows() != f.bin.Rows() || f.inner.Cols() != f.bin.Cols() || f.inner.Type() != gocv.MatTypeCV8UC1 {
		f.inner.Close()
		f.inner = gocv.NewMatWithSize(f.bin.Rows(), f.bin.Cols(), gocv.MatTypeCV8UC1)
	}
	f.inner.SetTo(gocv.Scalar{})
	gocv.FillPoly(&f.inner, polys, color.RGBA{255, 255, 255, 0})
	gocv.BitwiseAnd(f.bin, f.inner, &f.inner)
	// Every component's outer boundary (the page edge's own ring is one,
	// holding nearly all of outer, and the grid another inside its hole).
	hier := gocv.NewMat()
	defer hier.Close()
	contours := gocv.FindContoursWithParams(f.inner, &hier, gocv.RetrievalCComp, gocv.ChainApproxSimple)
	defer contours.Close()
	hb, err := hier.DataPtrUint8()
	if err != nil || len(hb) < contours.Size()*16 || contours.Size() == 0 {
		return nil
	}
	h := unsafe.Slice((*int32)(unsafe.Pointer(&hb[0])), contours.Size()*4)
	type found struct {
		i int
		a float64
	}
	var fs []found
	var holes [][4]pt
	for i := 0; i < contours.Size(); i++ {
		ci := contours.At(i)
		if ci.Size() < 4 {
			continue
		}
		a := gocv.ContourArea(ci)
		if h[i*4+3] >= 0 { // a hole: maybe a cell
			if q, ok := cellHole(ci, a, math.Max(12, outer.area/minCellShare), outer.area/9); ok {
				holes = append(holes, q)
			}
			continue
		}
		if a >= minArea && a <= maxInnerShare*outer.area {
			fs = append(fs, found{i, a})
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].a > fs[j].a })
	var out []candidate
	for k, fc := range fs {
		if k == maxContours || len(out) == maxCandidates {
			break
		}
		ci := contours.At(fc.i)
		p := pointsOf(ci)
		q, ok := plainQuad(ci, fc.a)
		if !ok && k == 0 {
			q, ok = quadFromContour(p)
		}
		// A large component cut by the inset's edge is outer's own
		// content (the inner lines of a grid whose outer line the inset
		// cut off), not something printed inside it; a grid printed near
		// the page's edge may touch it, but holds much less of the page.
		if ok && (polyArea(q[:]) < touchShare*polyArea(outer.q[:]) || clearOf(q, inset, innerMargin*math.Sqrt(outer.area))) {
			out = append(out, candidate{q: q, contour: p, area: fc.a, index: -1})
		}
	}
	// The grid's cells, when its outline merged with the page's edge or
	// a frame beside it (so it is no component of its own): the largest
	// group of similar neighbouring holes.
	if q, ok := gridFromCells(holes, minInnerCells); ok && len(out) < maxCandidates+1 {
		out = append(out, candidate{q: q, contour: q[:], area: polyArea(q[:]), index: -1})
	}
	return out
}

// minInnerCells is how many cells the grid found from its cells inside an
// outline must have: enough that a few boxes of text or a table are not
// taken for it. A cell holds at least 1/minCellShare of the outline (a
// 9×9 grid filling a small part of the page; letters' holes are smaller).
const (
	minInnerCells = 12
	minCellShare  = 2500
)

// Inner search: the lattice score of the largest outline below which the
// search looks inside it, how far its sides are moved in first (a share
// of its size), the largest share of its area an inner candidate may
// hold (more is the outline's own inside, as a grid's interior lines),
// how far an inner candidate's corners must keep from the inset's edge
// (a share of the outline's side), and the share of the outline's area
// below which an inner candidate may touch that edge.
const (
	innerSearchBelow = 0.3
	innerInset       = 0.03
	maxInnerShare    = 0.8
	innerMargin      = 0.01
	touchShare       = 0.6
)

// clearOf reports whether every corner of q lies at least m inside the
// convex quadrilateral r.
func clearOf(q, r [4]pt, m float64) bool {
	for _, p := range q {
		for i := 0; i < 4; i++ {
			a, b := r[i], r[(i+1)%4]
			l := a.dist(b)
			if l == 0 || math.Abs(cross(a, b, p))/l < m {
				return false
			}
		}
	}
	return true
}
