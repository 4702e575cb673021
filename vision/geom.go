package vision

import (
	"math"
	"sort"
)

// pt is a point in floating-point pixel coordinates. Geometry is done in
// plain Go so it can be tested without OpenCV and cannot throw.
type pt struct{ X, Y float64 }

func (a pt) sub(b pt) pt       { return pt{a.X - b.X, a.Y - b.Y} }
func (a pt) dist(b pt) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }
func cross(o, a, b pt) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }

// polyArea returns the absolute area of a simple polygon.
func polyArea(p []pt) float64 {
	var s float64
	for i := range p {
		j := (i + 1) % len(p)
		s += p[i].X*p[j].Y - p[j].X*p[i].Y
	}
	return math.Abs(s) / 2
}

// isConvexQuad reports whether q is a strictly convex quadrilateral.
func isConvexQuad(q [4]pt) bool {
	var pos, neg int
	for i := 0; i < 4; i++ {
		c := cross(q[i], q[(i+1)%4], q[(i+2)%4])
		switch {
		case c > 1e-9:
			pos++
		case c < -1e-9:
			neg++
		}
	}
	return pos == 4 || neg == 4
}

// orderCorners returns the corners as top-left, top-right, bottom-right,
// bottom-left. They are sorted by angle around their centroid (clockwise on
// screen, y pointing down) and the one nearest to the up-left direction
// starts, which keeps the order stable for in-plane rotations up to ±45°.
func orderCorners(q [4]pt) [4]pt {
	var c pt
	for _, p := range q {
		c.X += p.X / 4
		c.Y += p.Y / 4
	}
	type ap struct {
		a float64
		p pt
	}
	s := make([]ap, 4)
	for i, p := range q {
		s[i] = ap{math.Atan2(p.Y-c.Y, p.X-c.X), p}
	}
	sort.Slice(s, func(i, j int) bool { return s[i].a < s[j].a })
	const upLeft = -3 * math.Pi / 4
	best, bestD := 0, math.Inf(1)
	for i, e := range s {
		d := math.Abs(math.Remainder(e.a-upLeft, 2*math.Pi))
		if d < bestD {
			best, bestD = i, d
		}
	}
	var out [4]pt
	for i := 0; i < 4; i++ {
		out[i] = s[(best+i)%4].p
	}
	return out
}

// convexHull returns the convex hull of pts in counter-clockwise order
// (Andrew's monotone chain), without collinear points.
func convexHull(pts []pt) []pt {
	p := append([]pt(nil), pts...)
	sort.Slice(p, func(i, j int) bool {
		if p[i].X != p[j].X {
			return p[i].X < p[j].X
		}
		return p[i].Y < p[j].Y
	})
	if len(p) < 3 {
		return p
	}
	h := make([]pt, 0, 2*len(p))
	for _, q := range p {
		for len(h) >= 2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	lower := len(h) + 1
	for i := len(p) - 2; i >= 0; i-- {
		q := p[i]
		for len(h) >= lower && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	return h[:len(h)-1]
}

// maxAreaQuad returns the quadrilateral of largest area whose corners are
// vertices of the convex polygon h (at least 4 vertices). For each diagonal
// (i, k) the best apex on either side is found independently, which is
// exact for convex polygons.
func maxAreaQuad(h []pt) [4]pt {
	n := len(h)
	var best [4]pt
	bestA := -1.0
	for i := 0; i < n; i++ {
		for k := i + 2; k < n; k++ {
			if i == 0 && k == n-1 {
				continue
			}
			var a1, a2 float64
			j1, j2 := -1, -1
			for j := i + 1; j < k; j++ {
				if a := math.Abs(cross(h[i], h[k], h[j])); a > a1 {
					a1, j1 = a, j
				}
			}
			for j := k + 1; j < n+i; j++ {
				jj := j % n
				if a := math.Abs(cross(h[i], h[k], h[jj])); a > a2 {
					a2, j2 = a, jj
				}
			}
			if j1 < 0 || j2 < 0 {
				continue
			}
			if a1+a2 > bestA {
				bestA = a1 + a2
				best = [4]pt{h[i], h[j1], h[k], h[j2]}
			}
		}
	}
	return best
}

// simplify reduces a closed polygon with the Douglas-Peucker rule at eps
// pixels; it is used to shrink large hulls before the quadratic quad search.
func simplify(p []pt, eps float64) []pt {
	if len(p) < 4 {
		return p
	}
	// Split the ring at the vertex farthest from p[0] so both halves are open chains.
	far, fd := 0, -1.0
	for i, q := range p {
		if d := q.dist(p[0]); d > fd {
			far, fd = i, d
		}
	}
	a := dp(p[:far+1], eps)
	b := dp(append(append([]pt(nil), p[far:]...), p[0]), eps)
	out := append(a[:len(a)-1], b[:len(b)-1]...)
	return out
}

func dp(p []pt, eps float64) []pt {
	if len(p) < 3 {
		return p
	}
	a, b := p[0], p[len(p)-1]
	l := a.dist(b)
	idx, md := 0, -1.0
	for i := 1; i < len(p)-1; i++ {
		var d float64
		if l < 1e-9 {
			d = p[i].dist(a)
		} else {
			d = math.Abs(cross(a, b, p[i])) / l
		}
		if d > md {
			idx, md = i, d
		}
	}
	if md <= eps {
		return []pt{a, b}
	}
	left := dp(p[:idx+1], eps)
	right := dp(p[idx:], eps)
	return append(left[:len(left)-1], right...)
}

// homography returns the row-major 3×3 matrix mapping src[i] to dst[i]
// (h33 = 1), and false when the points are degenerate.
func homography(src, dst [4]pt) ([9]float64, bool) {
	var a [8][9]float64
	for i := 0; i < 4; i++ {
		x, y, u, v := src[i].X, src[i].Y, dst[i].X, dst[i].Y
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	for c := 0; c < 8; c++ {
		piv := c
		for r := c + 1; r < 8; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		if math.Abs(a[piv][c]) < 1e-12 {
			return [9]float64{}, false
		}
		a[c], a[piv] = a[piv], a[c]
		for r := 0; r < 8; r++ {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k < 9; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	var h [9]float64
	for i := 0; i < 8; i++ {
		h[i] = a[i][8] / a[i][i]
	}
	h[8] = 1
	return h, true
}

// invert3 returns the inverse of a row-major 3×3 matrix scaled so that
// element [8] is 1 when possible, and false when it is singular.
func invert3(m [9]float64) ([9]float64, bool) {
	a, b, c, d, e, f, g, h, i := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	A, B, C := e*i-f*h, -(d*i - f*g), d*h-e*g
	det := a*A + b*B + c*C
	if math.Abs(det) < 1e-15 {
		return [9]float64{}, false
	}
	r := [9]float64{
		A / det, -(b*i - c*h) / det, (b*f - c*e) / det,
		B / det, (a*i - c*g) / det, -(a*f - c*d) / det,
		C / det, -(a*h - b*g) / det, (a*e - b*d) / det,
	}
	if math.Abs(r[8]) > 1e-12 {
		s := r[8]
		for k := range r {
			r[k] /= s
		}
	}
	return r, true
}

// mul3 returns the matrix product a·b of row-major 3×3 matrices.
func mul3(a, b [9]float64) [9]float64 {
	var r [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[3*i+j] += a[3*i+k] * b[3*k+j]
			}
		}
	}
	return r
}

// apply maps p through the homography h.
func apply(h [9]float64, p pt) pt {
	w := h[6]*p.X + h[7]*p.Y + h[8]
	if w == 0 {
		w = 1e-12
	}
	return pt{(h[0]*p.X + h[1]*p.Y + h[2]) / w, (h[3]*p.X + h[4]*p.Y + h[5]) / w}
}

// Apply maps the point (x, y) through a row-major homography such as
// Grid.H (frame to canvas) or Grid.HInv (canvas to frame).
func Apply(h [9]float64, x, y float64) (float64, float64) {
	p := apply(h, pt{x, y})
	return p.X, p.Y
}

// line is a 2-D line through P with unit direction D.
type line struct{ P, D pt }

// fitLine fits a line to pts by total least squares (principal axis).
func fitLine(pts []pt) (line, bool) {
	if len(pts) < 2 {
		return line{}, false
	}
	var m pt
	for _, p := range pts {
		m.X += p.X
		m.Y += p.Y
	}
	m.X /= float64(len(pts))
	m.Y /= float64(len(pts))
	var sxx, sxy, syy float64
	for _, p := range pts {
		dx, dy := p.X-m.X, p.Y-m.Y
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	th := 0.5 * math.Atan2(2*sxy, sxx-syy)
	return line{m, pt{math.Cos(th), math.Sin(th)}}, true
}

// intersect returns where lines a and b cross, and false when they are
// (nearly) parallel.
func intersect(a, b line) (pt, bool) {
	den := a.D.X*b.D.Y - a.D.Y*b.D.X
	if math.Abs(den) < 1e-6 {
		return pt{}, false
	}
	w := b.P.sub(a.P)
	t := (w.X*b.D.Y - w.Y*b.D.X) / den
	return pt{a.P.X + t*a.D.X, a.P.Y + t*a.D.Y}, true
}

// densify returns the closed polygon p resampled so consecutive points are
// at most step apart (contours from CHAIN_APPROX_SIMPLE keep only the ends
// of straight runs, which would under-weight long sides in a fit).
func densify(p []pt, step float64) []pt {
	var out []pt
	for i := range p {
		a, b := p[i], p[(i+1)%len(p)]
		n := int(math.Ceil(a.dist(b) / step))
		for k := 0; k < max(n, 1); k++ {
			t := float64(k) / float64(max(n, 1))
			out = append(out, pt{a.X + t*(b.X-a.X), a.Y + t*(b.Y-a.Y)})
		}
	}
	return out
}

// fitSideRobust fits the straight edge from a to b among pts: the line
// through two contour points that has the most points within a pixel or two
// of it (a deterministic RANSAC over the points near the segment), refined
// by least squares over those inliers. Text or a finger attached to a side
// bends the contour away from the edge; the edge itself stays the longest
// straight run, so it wins the vote.
func fitSideRobust(a, b pt, pts []pt, t0, t1 float64) (line, bool) {
	l := a.dist(b)
	if l < 8 {
		return line{}, false
	}
	d := pt{(b.X - a.X) / l, (b.Y - a.Y) / l}
	band := math.Max(3, 0.1*l)
	// A side holds about a quarter of the outline: room for it and more
	// without growing the slice point by point.
	near := make([]pt, 0, len(pts)/3+8)
	for _, p := range pts {
		w := p.sub(a)
		t := (w.X*d.X + w.Y*d.Y) / l
		if t < t0 || t > t1 {
			continue
		}
		if math.Abs(w.X*d.Y-w.Y*d.X) <= band {
			near = append(near, p)
		}
	}
	if len(near) < 8 {
		return line{}, false
	}
	tol := math.Max(1.5, 0.005*l)
	// inliers counts near's points within tol of ln, giving up (with a
	// count of at most beat) once the points left cannot lift it above
	// beat: only a line with more inliers than the best so far matters.
	inliers := func(ln line, beat int) int {
		n := 0
		for k, p := range near {
			if n+len(near)-k <= beat {
				break
			}
			v := p.sub(ln.P)
			if math.Abs(v.X*ln.D.Y-v.Y*ln.D.X) <= tol {
				n++
			}
		}
		return n
	}
	var best line
	bestN := -1
	seed := uint32(2463534242)
	next := func() int { // xorshift: deterministic, no shared state
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		return int(seed % uint32(len(near)))
	}
	for trial := 0; trial < 80; trial++ {
		p, q := near[next()], near[next()]
		dl := p.dist(q)
		if dl < 0.15*l {
			continue
		}
		ln := line{p, pt{(q.X - p.X) / dl, (q.Y - p.Y) / dl}}
		if n := inliers(ln, bestN); n > bestN {
			best, bestN = ln, n
		}
	}
	if bestN < 8 {
		return line{}, false
	}
	sel := make([]pt, 0, len(near))
	for _, p := range near {
		v := p.sub(best.P)
		if math.Abs(v.X*best.D.Y-v.Y*best.D.X) <= tol {
			sel = append(sel, p)
		}
	}
	return fitLine(sel)
}

// refineQuadRobust replaces each corner of q by the crossing of the robust
// edge lines of its two sides, each fitted on the half of the side next to
// that corner, so the corner follows the local tangent when the paper is
// curved. Where a half-side fit fails the whole side is used; corners that
// would move implausibly far are kept.
func refineQuadRobust(q [4]pt, contour []pt) [4]pt {
	var peri float64
	for i := 0; i < 4; i++ {
		peri += q[i].dist(q[(i+1)%4])
	}
	dense := densify(contour, math.Max(1, peri/1000))
	var whole [4]line
	var wholeOK [4]bool
	for i := 0; i < 4; i++ {
		whole[i], wholeOK[i] = fitSideRobust(q[i], q[(i+1)%4], dense, 0.02, 0.98)
	}
	out := q
	for i := 0; i < 4; i++ {
		j := (i + 3) % 4 // side j runs from q[j] to q[i]; side i from q[i] on
		var cands []pt
		if wholeOK[j] && wholeOK[i] {
			if c, ok := intersect(whole[j], whole[i]); ok {
				cands = append(cands, c)
			}
		}
		lj, okj := fitSideRobust(q[j], q[i], dense, 0.5, 0.98)
		li, oki := fitSideRobust(q[i], q[(i+1)%4], dense, 0.02, 0.5)
		if okj && oki {
			if c, ok := intersect(lj, li); ok {
				cands = append(cands, c)
			}
		}
		// On curved paper the whole-side lines cross beyond the real corner,
		// off the outline or away from the outline's own corner; the
		// half-side lines cross near both. Score each crossing by its
		// distance to the outline plus half its distance to the polygon's
		// corner (the whole-side crossing wins ties).
		best, bestD := q[i], math.Inf(1)
		for _, c := range cands {
			if c.dist(q[i]) > 0.15*peri/4 {
				continue
			}
			if d := distToPoints(c, dense) + 0.25*c.dist(q[i]); d < bestD-1 {
				best, bestD = c, d
			}
		}
		out[i] = best
	}
	if !isConvexQuad(out) {
		return q
	}
	return out
}

// quadFromLongestSides treats the four longest sides of polygon a (in
// contour order) as the grid's edges and intersects neighbouring ones. A
// finger over a corner or text touching a side adds short sides, so the
// grid's own edges stay the longest.
func quadFromLongestSides(a []pt) ([4]pt, bool) {
	n := len(a)
	if n < 4 {
		return [4]pt{}, false
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool {
		return a[idx[i]].dist(a[(idx[i]+1)%n]) > a[idx[j]].dist(a[(idx[j]+1)%n])
	})
	top := append([]int(nil), idx[:4]...)
	sort.Ints(top)
	var edges [4]line
	for k, i := range top {
		edges[k] = line{a[i], unit(a[(i+1)%n].sub(a[i]))}
	}
	q, ok := cornersOfEdges(edges)
	if !ok {
		return q, false
	}
	// A grid seen in perspective still has sides of comparable length.
	var lo, hi float64 = math.Inf(1), 0
	for k := 0; k < 4; k++ {
		l := q[k].dist(q[(k+1)%4])
		lo, hi = math.Min(lo, l), math.Max(hi, l)
	}
	return q, isConvexQuad(q) && lo >= 0.5*hi
}

// cornersOfEdges intersects each of four edge lines, given in order round
// the quadrilateral, with the next one: corner k+1 lies between edges k
// and k+1. Neighbouring edges of a grid meet at a clear angle (30° or
// more); anything flatter is not a grid's corner.
func cornersOfEdges(edges [4]line) ([4]pt, bool) {
	var q [4]pt
	for k := 0; k < 4; k++ {
		li, lj := edges[k], edges[(k+1)%4]
		if math.Abs(li.D.X*lj.D.Y-li.D.Y*lj.D.X) < math.Sin(30*math.Pi/180) {
			return [4]pt{}, false
		}
		c, ok := intersect(li, lj)
		if !ok {
			return [4]pt{}, false
		}
		q[(k+1)%4] = c
	}
	return q, true
}

func unit(p pt) pt {
	l := math.Hypot(p.X, p.Y)
	if l == 0 {
		return pt{1, 0}
	}
	return pt{p.X / l, p.Y / l}
}

// distToPoints returns the distance from p to the nearest of pts.
func distToPoints(p pt, pts []pt) float64 {
	d := math.Inf(1)
	for _, q := range pts {
		dx, dy := p.X-q.X, p.Y-q.Y
		d = math.Min(d, dx*dx+dy*dy)
	}
	return math.Sqrt(d)
}
