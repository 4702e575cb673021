package vision

import (
	"image/color"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// A page curled towards a book's gutter is no plane: one homography leaves
// its lines bowed and the cells turning away crowded. Two measurements undo
// that, kept as one Bend (a mesh of displacements from the ideal canvas to
// the homography's, used to resample and to map cells back):
//  1. the outline's sides fitted as curves, blended across the grid (a
//     Coons patch), straighten the lines;
//  2. the grid lines then found say how the spacing drifts: a monotone
//     respacing evens it.

// Bend is how the grid of a curled page departs from the homography of its
// corners. The canvas point (x, y) of the ideal, flat grid (side S) lies at
// canvas point (x + S·dx, y + S·dy) of Grid.H, where (dx, dy) is the mesh
// interpolated bilinearly at (x/S, y/S).
type Bend struct {
	// K is the number of mesh intervals along each side.
	K int
	// DX and DY are the displacements, in fractions of the canvas side, at
	// the (K+1)×(K+1) mesh points (i/K, j/K), row-major (index j*(K+1)+i).
	DX, DY []float64
}

// valid reports whether b is a mesh of K ≥ 1 intervals with its
// (K+1)×(K+1) points.
func (b *Bend) valid() bool {
	return b != nil && b.K > 0 && len(b.DX) == (b.K+1)*(b.K+1) && len(b.DY) == len(b.DX)
}

// At returns the displacement at (u, v) (fractions of the side; clamped
// to the canvas).
func (b *Bend) At(u, v float64) (float64, float64) {
	if !b.valid() {
		return 0, 0
	}
	k := float64(b.K)
	fu, fv := math.Max(0, math.Min(1, u))*k, math.Max(0, math.Min(1, v))*k
	i, j := min(int(fu), b.K-1), min(int(fv), b.K-1)
	tu, tv := fu-float64(i), fv-float64(j)
	w := b.K + 1
	at := func(m []float64) float64 {
		a, c := m[j*w+i], m[j*w+i+1]
		d, e := m[(j+1)*w+i], m[(j+1)*w+i+1]
		return (a*(1-tu)+c*tu)*(1-tv) + (d*(1-tu)+e*tu)*tv
	}
	return at(b.DX), at(b.DY)
}

// turn returns the bend of a canvas turned a quarter turn clockwise:
// (x, y) -> (1 - y, x), displacements turned alike.
func (b *Bend) turn() *Bend {
	if b == nil {
		return nil
	}
	w := b.K + 1
	out := &Bend{K: b.K, DX: make([]float64, len(b.DX)), DY: make([]float64, len(b.DY))}
	for j := 0; j < w; j++ {
		for i := 0; i < w; i++ {
			// Mesh point (i, j) goes to (K - j, i); a displacement
			// (dx, dy) turns to (-dy, dx).
			o := i*w + (b.K - j)
			out.DX[o] = -b.DY[j*w+i]
			out.DY[o] = b.DX[j*w+i]
		}
	}
	return out
}

// ToFrame maps the canvas point (x, y) (canvas of side Side, as cells are
// cut from) to frame pixels, following the grid's bend when it has one.
func (g Grid) ToFrame(x, y float64) (float64, float64) {
	if g.Bend != nil && g.Side > 0 {
		s := float64(g.Side)
		dx, dy := g.Bend.At(x/s, y/s)
		x, y = x+s*dx, y+s*dy
	}
	return Apply(g.HInv, x, y)
}

// CellH returns, for the cell at row r, column c of an n×n grid, the
// homography from frame pixels to canvas pixels (canvas of side Side)
// that holds within that cell: g.H on a flat page, and on a curled one
// the map from the cell's four corners as the frame shows them.
func (g Grid) CellH(r, c, n int) ([9]float64, bool) {
	if g.Bend == nil {
		return g.H, true
	}
	cs := float64(g.Side) / float64(n)
	var src, dst [4]pt
	for k, d := range [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
		x, y := (float64(c)+d[0])*cs, (float64(r)+d[1])*cs
		fx, fy := g.ToFrame(x, y)
		src[k], dst[k] = pt{fx, fy}, pt{x, y}
	}
	return homography(src, dst)
}

// edgeCurve is how one side of the outline bows away from the straight
// canvas edge: d(t) = t(1-t)(a + b·t + c·t²) at t (0..1) along it, in
// fractions of the side, towards +y for the top and bottom sides and +x
// for the left and right ones.
type edgeCurve [3]float64

func (e edgeCurve) at(t float64) float64 {
	return t * (1 - t) * (e[0] + t*(e[1]+t*e[2]))
}

// bendBand is how far (fraction of the side) outline points may lie from
// a canvas edge and still count as that edge's.
const bendBand = 0.15

// minBend is the largest bow (fraction of the side) of a side below which
// the page counts as flat: flat pages bow a little too (lens, a slight wave
// of the paper), and bending them gains too little to be kept (see
// bendGain), so it is not tried.
const minBend = 0.02

// edgeBends fits the four sides' curves (top, right, bottom, left) to
// outline points in canvas units (0..1 across the canvas of the corners'
// homography). A side with too few points stays straight.
func edgeBends(pts []pt) [4]edgeCurve {
	var samples [4][]pt // (t, d) per side
	for _, p := range pts {
		if p.X > 0.02 && p.X < 0.98 {
			if math.Abs(p.Y) < bendBand {
				samples[0] = append(samples[0], pt{p.X, p.Y})
			}
			if math.Abs(p.Y-1) < bendBand {
				samples[2] = append(samples[2], pt{p.X, p.Y - 1})
			}
		}
		if p.Y > 0.02 && p.Y < 0.98 {
			if math.Abs(p.X-1) < bendBand {
				samples[1] = append(samples[1], pt{p.Y, p.X - 1})
			}
			if math.Abs(p.X) < bendBand {
				samples[3] = append(samples[3], pt{p.Y, p.X})
			}
		}
	}
	var out [4]edgeCurve
	for s := range samples {
		out[s], _ = fitEdgeCurve(samples[s])
	}
	return out
}

// fitEdgeCurve fits an edgeCurve to (t, d) samples: the median d in each
// of 24 bins of t, a least-squares fit, and a refit without the bins far
// from it (text or a thumb on the side).
func fitEdgeCurve(s []pt) (edgeCurve, bool) {
	const bins = 24
	var meds []pt
	buckets := make([][]float64, bins)
	for _, p := range s {
		b := min(bins-1, max(0, int(p.X*bins)))
		buckets[b] = append(buckets[b], p.Y)
	}
	for b, v := range buckets {
		if len(v) < 2 {
			continue
		}
		sort.Float64s(v)
		meds = append(meds, pt{(float64(b) + 0.5) / bins, v[len(v)/2]})
	}
	if len(meds) < bins/2 {
		return edgeCurve{}, false
	}
	fit := func(ps []pt) (edgeCurve, bool) {
		var a [3][3]float64
		var r [3]float64
		for _, p := range ps {
			t := p.X
			phi := [3]float64{t * (1 - t), t * t * (1 - t), t * t * t * (1 - t)}
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					a[i][j] += phi[i] * phi[j]
				}
				r[i] += phi[i] * p.Y
			}
		}
		x, ok := solve3(a, r)
		return edgeCurve(x), ok
	}
	e, ok := fit(meds)
	if !ok {
		return edgeCurve{}, false
	}
	res := make([]float64, len(meds))
	for i, p := range meds {
		res[i] = math.Abs(p.Y - e.at(p.X))
	}
	sorted := append([]float64(nil), res...)
	sort.Float64s(sorted)
	tol := math.Max(0.004, 3*sorted[len(sorted)/2])
	var keep []pt
	for i, p := range meds {
		if res[i] <= tol {
			keep = append(keep, p)
		}
	}
	if len(keep) < bins/2 {
		return edgeCurve{}, false
	}
	return fit(keep)
}

// solve3 solves the 3×3 system a·x = r (Cramer's rule).
func solve3(a [3][3]float64, r [3]float64) ([3]float64, bool) {
	det := func(m [3][3]float64) float64 {
		return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	}
	d := det(a)
	if math.Abs(d) < 1e-18 {
		return [3]float64{}, false
	}
	var x [3]float64
	for c := 0; c < 3; c++ {
		m := a
		for i := 0; i < 3; i++ {
			m[i][c] = r[i]
		}
		x[c] = det(m) / d
	}
	return x, true
}

// bendMeshK is the mesh resolution of a bend from the outline alone.
const bendMeshK = 16

// coonsBend blends the four side curves across the canvas: a point's
// vertical displacement goes from the top side's to the bottom side's, its
// horizontal one from the left side's to the right side's. It returns nil
// when no side bows by minBend.
func coonsBend(e [4]edgeCurve) *Bend {
	most := 0.0
	for _, c := range e {
		for t := 0.05; t < 1; t += 0.05 {
			most = math.Max(most, math.Abs(c.at(t)))
		}
	}
	if most < minBend {
		return nil
	}
	k := bendMeshK
	w := k + 1
	b := &Bend{K: k, DX: make([]float64, w*w), DY: make([]float64, w*w)}
	for j := 0; j < w; j++ {
		v := float64(j) / float64(k)
		for i := 0; i < w; i++ {
			u := float64(i) / float64(k)
			b.DY[j*w+i] = (1-v)*e[0].at(u) + v*e[2].at(u)
			b.DX[j*w+i] = (1-u)*e[3].at(v) + u*e[1].at(v)
		}
	}
	return b
}

// outlineBend returns the bend that the grid search's outline (find
// pixels) shows for g, or nil when its sides are straight.
func (f *finder) outlineBend(g Grid) *Bend {
	if len(f.findContour) < 8 || g.Side <= 0 {
		return nil
	}
	side := float64(g.Side)
	var peri float64
	for i := range f.findContour {
		peri += f.findContour[i].dist(f.findContour[(i+1)%len(f.findContour)])
	}
	dense := densify(f.findContour, math.Max(1, peri/1500))
	pts := make([]pt, 0, len(dense))
	// The search image's own edge is no side of the grid: a grid cut off
	// by the frame runs along it.
	w, h := float64(f.bin.Cols()), float64(f.bin.Rows())
	for _, p := range dense {
		if p.X < 2 || p.Y < 2 || p.X > w-3 || p.Y > h-3 {
			continue
		}
		q := apply(g.H, f.findToFrame(p))
		pts = append(pts, pt{q.X / side, q.Y / side})
	}
	return coonsBend(edgeBends(pts))
}

// warpBent fills c.grey with the grey working image resampled through
// g's homography and bend onto a side×side canvas; gs is the scale from
// working-grey pixels to frame pixels.
func (r *rectifier) warpBent(c *canvas, g Grid, gs float64, side int) {
	if r.mapX.Rows() != side || r.mapX.Cols() != side {
		r.mapX.Close()
		r.mapY.Close()
		r.mapX = gocv.NewMatWithSize(side, side, gocv.MatTypeCV32F)
		r.mapY = gocv.NewMatWithSize(side, side, gocv.MatTypeCV32F)
	}
	xs, err1 := r.mapX.DataPtrFloat32()
	ys, err2 := r.mapY.DataPtrFloat32()
	if err1 != nil || err2 != nil {
		return
	}
	// Ideal canvas (side) -> canvas of g (g.Side) -> frame -> grey.
	k := float64(g.Side) / float64(side)
	hs := g.HInv
	sd := float64(side)
	// The same pixel convention as warp's warpPerspective: canvas pixel
	// (x, y) is the canvas point (x, y), grey pixel (a, b) the frame point
	// (a·gs, b·gs). The mesh is interpolated along v once per row, then
	// along u per pixel.
	b := g.Bend
	mw := b.K + 1
	rowDX, rowDY := make([]float64, mw), make([]float64, mw)
	kf := float64(b.K)
	// Where each column falls in the mesh, the same for every row.
	colU, colT := make([]float64, side), make([]float64, side)
	colI := make([]int, side)
	for x := 0; x < side; x++ {
		u := float64(x) / sd
		fu := math.Min(1, u) * kf
		i := min(int(fu), b.K-1)
		colU[x], colI[x], colT[x] = u, i, fu-float64(i)
	}
	for y := 0; y < side; y++ {
		v := float64(y) / sd
		fv := math.Min(1, v) * kf
		j := min(int(fv), b.K-1)
		tv := fv - float64(j)
		for i := 0; i < mw; i++ {
			rowDX[i] = b.DX[j*mw+i]*(1-tv) + b.DX[(j+1)*mw+i]*tv
			rowDY[i] = b.DY[j*mw+i]*(1-tv) + b.DY[(j+1)*mw+i]*tv
		}
		for x := 0; x < side; x++ {
			u, i, tu := colU[x], colI[x], colT[x]
			dx := rowDX[i]*(1-tu) + rowDX[i+1]*tu
			dy := rowDY[i]*(1-tu) + rowDY[i+1]*tu
			cx, cy := (u+dx)*sd*k, (v+dy)*sd*k
			w := hs[6]*cx + hs[7]*cy + hs[8]
			o := y*side + x
			xs[o] = float32((hs[0]*cx + hs[1]*cy + hs[2]) / w / gs)
			ys[o] = float32((hs[3]*cx + hs[4]*cy + hs[5]) / w / gs)
		}
	}
	gocv.Remap(*r.gray, &c.grey, &r.mapX, &r.mapY, gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
}
