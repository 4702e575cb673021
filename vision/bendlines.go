package vision

import (
	"math"
)

// refineBend finds where the n+1 lines of each direction run on c, g's
// (bent, binarised) canvas of side g.Side, and, when they depart from the
// ideal lattice, gives g a bend through the crossings found: between them
// every cell is mapped bilinearly. It returns the canvas of g then, a
// new one when it bent g; false means it left g and c alone.
func (r *rectifier) refineBend(c *canvas, g *Grid, gs float64, n int, cs float64) (*canvas, bool) {
	side := g.Side
	colSum, rowSum, ok := r.bandSums(c, side)
	if !ok || n < 2 {
		return c, false
	}
	band := float64(side) / latticeBands
	vx, seenV, okV := lineCurves(colSum, n, cs, band)
	hy, seenH, okH := lineCurves(rowSum, n, cs, band)
	if !okV || !okH {
		return c, false
	}
	s := float64(side)
	w := n + 1
	next := &Bend{K: n, DX: make([]float64, w*w), DY: make([]float64, w*w)}
	moved := 0.0
	for j := 0; j <= n; j++ {
		for k := 0; k <= n; k++ {
			// The crossing of vertical line k, x = vx[k](y), and
			// horizontal line j, y = hy[j](x).
			x, y := float64(k)*cs, float64(j)*cs
			for it := 0; it < 4; it++ {
				x = vx[k].at(y)
				y = hy[j].at(x)
			}
			// The outer lines run along the border's middle, a little
			// inside the outline on any page: only the inner crossings
			// tell a curl.
			if k > 0 && k < n && j > 0 && j < n {
				moved = math.Max(moved, math.Hypot(x-float64(k)*cs, y-float64(j)*cs))
			}
			u, v := x/s, y/s
			du, dv := g.Bend.At(u, v)
			next.DX[j*w+k] = u + du - float64(k)/float64(n)
			next.DY[j*w+k] = v + dv - float64(j)/float64(n)
		}
	}
	// Less than a fifth of a cell off inside: the lattice is right as it
	// is (a flat page's inner lines are within a tenth of a cell). Two
	// cells or more: the measurement is not to be trusted.
	if moved < 0.2*cs || moved > 2*cs {
		return c, false
	}
	// Kept only when the lines stand out more on the new canvas.
	before := r.latticeContrast(c, n)
	bent := *g
	bent.Bend = next
	nc := r.fresh(c)
	r.warp(nc, bent, gs, side)
	r.binarise(nc, cs, c.kLen)
	after := r.latticeContrast(nc, n)
	// Lines found all the way across are trusted with any gain; lines partly
	// filled in from their neighbours only with a clear one.
	if gain := after - before; gain > refineGain || gain > 0 && math.Min(seenV, seenH) >= 0.95 {
		*g = bent
		return nc, true
	}
	return c, false
}

// refineGain is how much the lines must stand out more for a refined
// bend to be taken when some of them were filled in rather than found: on
// a flat page whose light cell lines break up, the lines found can follow
// a crease instead and gain a little (0.04 on a real photo), while
// crowded cells evened out gain 0.05 to 0.25.
const refineGain = 0.05

// latticeContrast is how much the ink of the binarised canvas gathers on
// the lines of an even n×n lattice rather than between them (the mean of
// lineContrast over rows and columns).
func (r *rectifier) latticeContrast(c *canvas, n int) float64 {
	rows, cols := normalise01(profile(c.bin, 1, &r.prof)), normalise01(profile(c.bin, 0, &r.prof))
	if len(rows) < 3*n || len(cols) < 3*n {
		return math.Inf(-1)
	}
	return (lineContrast(rows, n) + lineContrast(cols, n)) / 2
}

// lineFit2 is a grid line found in bands across the canvas: position =
// a + b·t + c·t² at t along the line.
type lineFit2 struct{ a, b, c float64 }

func (l lineFit2) at(t float64) float64 { return l.a + t*(l.b+t*l.c) }

// lineCurves finds the n+1 lines of one direction in the band sums, each
// near where its neighbours put it in every band (the spacing may drift),
// the ones not found filled from a cubic, then each fitted across bands.
// It returns the share found, and false when a band has under four lines,
// a border far from the edge or a cell under 0.4 of its width.
func lineCurves(sums [latticeBands][]float64, n int, cs, band float64) ([]lineFit2, float64, bool) {
	pos := make([][]float64, latticeBands) // pos[b][k]
	seen := 0
	for b := 0; b < latticeBands; b++ {
		p := sums[b]
		side := len(p)
		found := make([]float64, n+1)
		var ks, xs []float64
		prev, step := 0.0, cs
		for k := 0; k <= n; k++ {
			want := float64(k) * cs
			if k > 0 {
				want = prev + step
			}
			found[k] = math.NaN()
			if x, ok := peakNear(p, want, 0.35*cs, 0.4*band); ok {
				found[k] = x
				if k > 0 && !math.IsNaN(found[k-1]) {
					step = 0.5*step + 0.5*(x-found[k-1])
				}
				prev = x
				ks, xs = append(ks, float64(k)), append(xs, x)
			} else {
				prev = want
			}
		}
		if len(ks) < 4 {
			return nil, 0, false
		}
		seen += len(ks)
		poly, ok := fitCubic(ks, xs)
		if !ok {
			return nil, 0, false
		}
		for k := range found {
			fk := poly(float64(k))
			if math.IsNaN(found[k]) || math.Abs(found[k]-fk) > 0.25*cs {
				found[k] = fk
			}
			found[k] = math.Max(0, math.Min(float64(side), found[k]))
		}
		// The outline put the border at the canvas edges: a border line
		// found far from them, or cells squeezed to a sliver, mean the
		// lines were not followed (the page turning out of sight).
		if found[0] > 0.3*cs || found[n] < float64(side)-0.3*cs {
			return nil, 0, false
		}
		for k := 1; k <= n; k++ {
			if found[k]-found[k-1] < 0.4*cs {
				return nil, 0, false
			}
		}
		pos[b] = found
	}
	out := make([]lineFit2, n+1)
	for k := 0; k <= n; k++ {
		var ts, ps []float64
		for b := 0; b < latticeBands; b++ {
			ts = append(ts, (float64(b)+0.5)*band)
			ps = append(ps, pos[b][k])
		}
		out[k] = fitQuadratic(ts, ps)
	}
	return out, float64(seen) / float64(latticeBands*(n+1)), true
}

// fitCubic fits y = c0 + c1·x + c2·x² + c3·x³ (a lower degree when there
// are few points) by least squares and returns it as a function.
func fitCubic(xs, ys []float64) (func(float64) float64, bool) {
	deg := min(3, len(xs)-1)
	m := deg + 1
	// Normal equations on x scaled to 0..1 for conditioning.
	var scale float64
	for _, x := range xs {
		scale = math.Max(scale, math.Abs(x))
	}
	if scale == 0 {
		scale = 1
	}
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, m+1)
	}
	for i, x := range xs {
		t := x / scale
		pw := make([]float64, m)
		pw[0] = 1
		for d := 1; d < m; d++ {
			pw[d] = pw[d-1] * t
		}
		for r := 0; r < m; r++ {
			for c := 0; c < m; c++ {
				a[r][c] += pw[r] * pw[c]
			}
			a[r][m] += pw[r] * ys[i]
		}
	}
	// Gaussian elimination with partial pivoting.
	for c := 0; c < m; c++ {
		p := c
		for r := c + 1; r < m; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return nil, false
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < m; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k <= m; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	coef := make([]float64, m)
	for r := m - 1; r >= 0; r-- {
		s := a[r][m]
		for k := r + 1; k < m; k++ {
			s -= a[r][k] * coef[k]
		}
		coef[r] = s / a[r][r]
	}
	return func(x float64) float64 {
		t := x / scale
		v, pw := 0.0, 1.0
		for _, c := range coef {
			v += c * pw
			pw *= t
		}
		return v
	}, true
}

// fitQuadratic fits p = a + b·t + c·t² to the points (linear with three or
// fewer).
func fitQuadratic(ts, ps []float64) lineFit2 {
	if len(ts) <= 3 {
		l := fitPositions(ts, ps)
		return lineFit2{a: l.a, b: l.b}
	}
	f, ok := fitCubicDeg(ts, ps, 2)
	if !ok {
		l := fitPositions(ts, ps)
		return lineFit2{a: l.a, b: l.b}
	}
	return f
}

// fitCubicDeg fits a quadratic (deg 2) exactly as lineFit2.
func fitCubicDeg(ts, ps []float64, deg int) (lineFit2, bool) {
	var a [3][3]float64
	var r [3]float64
	for i, t := range ts {
		phi := [3]float64{1, t, t * t}
		for p := 0; p < 3; p++ {
			for q := 0; q < 3; q++ {
				a[p][q] += phi[p] * phi[q]
			}
			r[p] += phi[p] * ps[i]
		}
	}
	x, ok := solve3(a, r)
	return lineFit2{x[0], x[1], x[2]}, ok
}
