package live

import (
	"image"
	"math"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/vision"
)

// tracker follows a grid by optical flow (pyramidal Lucas-Kanade) when the
// detector misses it (blur, a finger, glare): the box lines' crossings are
// strong features, and a homography fitted to their flow (RANSAC, so a point
// behind a thumb does not count) gives the corners and canvas mapping, for
// at most maxTracked frames in a row. It owns its Mats (Close them).
type tracker struct {
	prev     gocv.Mat // grey frame the grid was last followed in (half size for large frames)
	scale    float64  // prev's pixels per frame pixel
	grid     vision.Grid
	have     bool
	tracked  int // frames followed by flow alone since the detector last found it
	cur      gocv.Mat
	pts, nxt gocv.Mat
	status   gocv.Mat
	errs     gocv.Mat
	// crit stops the flow's iterations (made once: gocv cannot free one).
	crit gocv.TermCriteria
}

const (
	// maxTracked is how many frames in a row flow alone may follow the grid:
	// half a second at 30 fps. Beyond that drift is not worth the risk.
	maxTracked = 15
	// trackLines is how many lines each way the points are taken on:
	// box lines of a 9×9 (0, 3, 6, 9), and the outline of any grid.
	trackLines = 4
	// trackMinInliers is how many of the trackLines² points must agree
	// with the fitted homography.
	trackMinInliers = 12
	// trackMaxSide is the longest side flow works at: larger frames are
	// halved, which keeps it well under a millisecond.
	trackMaxSide = 960
)

func newTracker() *tracker {
	return &tracker{prev: gocv.NewMat(), cur: gocv.NewMat(), pts: gocv.NewMat(), nxt: gocv.NewMat(), status: gocv.NewMat(), errs: gocv.NewMat(),
		crit: gocv.NewTermCriteria(gocv.Count+gocv.EPS, 20, 0.03)}
}

// Close releases the Mats.
func (t *tracker) Close() {
	t.prev.Close()
	t.cur.Close()
	t.pts.Close()
	t.nxt.Close()
	t.status.Close()
	t.errs.Close()
}

// grey puts frame, grey and at most trackMaxSide wide, into dst and
// returns the scale used.
func greyScaled(frame gocv.Mat, dst *gocv.Mat) float64 {
	k := 1.0
	if s := max(frame.Cols(), frame.Rows()); s > trackMaxSide {
		k = 0.5
	}
	src := frame
	var tmp gocv.Mat
	if frame.Channels() == 3 {
		tmp = gocv.NewMat()
		defer tmp.Close()
		gocv.CvtColor(frame, &tmp, gocv.ColorBGRToGray)
		src = tmp
	}
	if k == 1 {
		src.CopyTo(dst)
	} else {
		gocv.Resize(src, dst, image.Pt(frame.Cols()/2, frame.Rows()/2), 0, 0, gocv.InterpolationArea)
	}
	return k
}

// found records the grid followed in frame (by the detector or by flow).
func (t *tracker) found(frame gocv.Mat, g vision.Grid, byFlow bool) {
	if frame.Empty() || g.Side <= 0 {
		t.have = false
		return
	}
	t.scale = greyScaled(frame, &t.prev)
	t.grid, t.have = g, true
	if byFlow {
		t.tracked++
	} else {
		t.tracked = 0
	}
}

// forget drops the grid: it is gone, or the user chose another.
func (t *tracker) forget() { t.have = false }

// follow returns the grid of the last frame carried into frame by
// optical flow, or false when there is none to carry or the flow does
// not hold together.
func (t *tracker) follow(frame gocv.Mat) (vision.Grid, bool) {
	if !t.have || t.tracked >= maxTracked || frame.Empty() || (frame.Channels() != 1 && frame.Channels() != 3) {
		return vision.Grid{}, false
	}
	k := greyScaled(frame, &t.cur)
	if k != t.scale || t.cur.Cols() != t.prev.Cols() || t.cur.Rows() != t.prev.Rows() {
		return vision.Grid{}, false
	}
	g := t.grid
	n := trackLines * trackLines
	canvas := make([]gocv.Point2f, 0, n)
	t.pts.Close()
	t.pts = gocv.NewMatWithSize(n, 1, gocv.MatTypeCV32FC2)
	for i := 0; i < trackLines; i++ {
		for j := 0; j < trackLines; j++ {
			cx := float64(g.Side) * float64(j) / float64(trackLines-1)
			cy := float64(g.Side) * float64(i) / float64(trackLines-1)
			x, y := vision.Apply(g.HInv, cx, cy)
			idx := len(canvas)
			t.pts.SetFloatAt(idx, 0, float32(x*k))
			t.pts.SetFloatAt(idx, 1, float32(y*k))
			canvas = append(canvas, gocv.Point2f{X: float32(cx), Y: float32(cy)})
		}
	}
	gocv.CalcOpticalFlowPyrLKWithParams(t.prev, t.cur, t.pts, t.nxt, &t.status, &t.errs,
		image.Pt(21, 21), 3, t.crit, 0, 1e-4)
	if t.nxt.Rows() != n || t.status.Rows() != n {
		return vision.Grid{}, false
	}
	var src, dst []gocv.Point2f
	for i := 0; i < n; i++ {
		if t.status.GetUCharAt(i, 0) == 0 {
			continue
		}
		x, y := t.nxt.GetFloatAt(i, 0)/float32(k), t.nxt.GetFloatAt(i, 1)/float32(k)
		if math.IsNaN(float64(x)) || math.IsNaN(float64(y)) {
			continue
		}
		src = append(src, canvas[i])
		dst = append(dst, gocv.Point2f{X: x, Y: y})
	}
	hm, ok := fitHomography(src, dst, 3, trackMinInliers)
	if !ok {
		return vision.Grid{}, false
	}
	defer hm.Close()
	var inv [9]float64 // canvas -> frame
	for i := 0; i < 9; i++ {
		inv[i] = hm.GetDoubleAt(i/3, i%3)
	}
	var corners [4]gocv.Point2f
	s := float64(g.Side)
	for i, c := range [4][2]float64{{0, 0}, {s, 0}, {s, s}, {0, s}} {
		x, y := vision.Apply(inv, c[0], c[1])
		corners[i] = gocv.Point2f{X: float32(x), Y: float32(y)}
	}
	if !plausible(g.Corners, corners) {
		return vision.Grid{}, false
	}
	out, ok := gridOn(corners, g.Side)
	out.Shape, out.ShapeConfidence = g.Shape, g.ShapeConfidence
	return out, ok
}

// gridOn is the grid with these corners (TL, TR, BR, BL in frame pixels)
// on a canvas of side pixels: its homographies to and from the canvas.
// ok is false when the corners make no convex quadrilateral.
func gridOn(corners [4]gocv.Point2f, side int) (g vision.Grid, ok bool) {
	if side <= 0 || !convex(corners) {
		return vision.Grid{}, false // OpenCV would be asked to invert a degenerate mapping
	}
	s := float32(side)
	square := []gocv.Point2f{{X: 0, Y: 0}, {X: s, Y: 0}, {X: s, Y: s}, {X: 0, Y: s}}
	src := gocv.NewPoint2fVectorFromPoints(corners[:])
	defer src.Close()
	dst := gocv.NewPoint2fVectorFromPoints(square)
	defer dst.Close()
	fwd := gocv.GetPerspectiveTransform2f(src, dst)
	defer fwd.Close()
	back := gocv.GetPerspectiveTransform2f(dst, src)
	defer back.Close()
	if fwd.Rows() != 3 || fwd.Cols() != 3 || back.Rows() != 3 || back.Cols() != 3 {
		return vision.Grid{}, false
	}
	g = vision.Grid{Corners: corners, Side: side}
	for i := 0; i < 9; i++ {
		g.H[i], g.HInv[i] = fwd.GetDoubleAt(i/3, i%3), back.GetDoubleAt(i/3, i%3)
	}
	if g.H[8] == 0 || g.HInv[8] == 0 {
		return vision.Grid{}, false
	}
	g.H, g.HInv = norm3(g.H), norm3(g.HInv)
	return g, true
}

// fitHomography fits, with RANSAC (reprojection error reproj pixels), the
// homography taking the points from to the points to, as a 3×3 Mat the
// caller closes. ok is false, and nothing is to be closed, when fewer than
// minInliers point pairs are given or agree with the fit.
func fitHomography(from, to []gocv.Point2f, reproj float64, minInliers int) (h gocv.Mat, ok bool) {
	if len(from) < minInliers || len(from) != len(to) {
		return gocv.Mat{}, false
	}
	fm, tm := pointsMat(from), pointsMat(to)
	defer fm.Close()
	defer tm.Close()
	mask := gocv.NewMat()
	defer mask.Close()
	h = gocv.FindHomography(fm, &tm, gocv.HomograpyMethodRANSAC, reproj, &mask, 200, 0.995)
	if h.Empty() || h.Rows() != 3 || h.Cols() != 3 || gocv.CountNonZero(mask) < minInliers {
		h.Close()
		return gocv.Mat{}, false
	}
	return h, true
}

// pointsMat is pts as an N×1 two-channel float Mat.
func pointsMat(pts []gocv.Point2f) gocv.Mat {
	m := gocv.NewMatWithSize(len(pts), 1, gocv.MatTypeCV32FC2)
	for i, p := range pts {
		m.SetFloatAt(i, 0, p.X)
		m.SetFloatAt(i, 1, p.Y)
	}
	return m
}

// plausible reports whether the quadrilateral b can be a moved a: convex,
// and its area within a factor 1.5 of a's.
func plausible(a, b [4]gocv.Point2f) bool {
	return alikeArea(quadArea(a), quadArea(b)) && convex(b)
}

// alikeArea reports whether areas a and b (of one grid's outline in two
// frames) are within a factor 1.5 of each other: one outline moved, not a
// page and the grid printed on it.
func alikeArea(a, b float64) bool {
	return a != 0 && b/a >= 1/1.5 && b/a <= 1.5
}

// quadArea is the signed area of the quadrilateral q.
func quadArea(q [4]gocv.Point2f) float64 {
	s := 0.0
	for i := range q {
		j := (i + 1) % 4
		s += float64(q[i].X*q[j].Y - q[j].X*q[i].Y)
	}
	return s / 2
}

// convex reports whether the quadrilateral q is strictly convex.
func convex(q [4]gocv.Point2f) bool {
	sign := 0.0
	for i := range q {
		p, r, t := q[i], q[(i+1)%4], q[(i+2)%4]
		cross := float64((r.X-p.X)*(t.Y-r.Y) - (r.Y-p.Y)*(t.X-r.X))
		if cross == 0 || math.IsNaN(cross) || sign != 0 && math.Signbit(cross) != math.Signbit(sign) {
			return false
		}
		sign = cross
	}
	return true
}

// norm3 scales a homography so that h[8] = 1.
func norm3(h [9]float64) [9]float64 {
	if h[8] != 0 {
		for i := range h {
			h[i] /= h[8]
		}
	}
	return h
}
