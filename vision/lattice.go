package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// The corners found from the outline are a few percent off at worst; on a
// 16×16 grid that is a quarter of a cell, enough to push line remnants into
// cell middles and digits out of them. Once N is known, the grid lines
// themselves say where the lattice is: each line's position is found in
// a few bands across the canvas, straight lines are fitted through them,
// and a homography from their crossings to the ideal lattice corrects the
// rectification.

// latticeBands is how many bands across the canvas each line is found in.
const latticeBands = 4

// bandSums returns, for each of latticeBands horizontal bands of the
// side×side line images, the column sums of vertical strokes vl, and for
// each vertical band the row sums of horizontal strokes hl (255 = ink,
// counted as 1). It is the plain-Go reference of Detector.bandSums.
func bandSums(vl, hl []uint8, side int) (colSum, rowSum [latticeBands][]float64) {
	for b := range colSum {
		colSum[b] = make([]float64, side)
		rowSum[b] = make([]float64, side)
	}
	// Band b covers [b*side/latticeBands, (b+1)*side/latticeBands).
	band := make([]int, side)
	for b := 0; b < latticeBands; b++ {
		for i := b * side / latticeBands; i < (b+1)*side/latticeBands; i++ {
			band[i] = b
		}
	}
	for y := 0; y < side; y++ {
		by := band[y]
		for x := 0; x < side; x++ {
			bx := band[x]
			if vl[y*side+x] != 0 {
				colSum[by][x]++
			}
			if hl[y*side+x] != 0 {
				rowSum[bx][y]++
			}
		}
	}
	return colSum, rowSum
}

// bandSums is bandSums on c.vlines and c.hlines (side×side), summed by
// OpenCV on band regions. ok is false when the images do not match side.
// The sums are kept with c until its line images change, as several
// steps read them from one canvas.
func (r *rectifier) bandSums(c *canvas, side int) (colSum, rowSum [latticeBands][]float64, ok bool) {
	if c.sums.valid && c.sums.side == side {
		return c.sums.col, c.sums.row, true
	}
	if c.vlines.Cols() != side || c.vlines.Rows() != side || c.hlines.Cols() != side || c.hlines.Rows() != side {
		return colSum, rowSum, false
	}
	sum := func(m gocv.Mat, rect image.Rectangle, dim int) []float64 {
		roi := m.Region(rect)
		defer roi.Close()
		gocv.Reduce(roi, &r.prof, dim, gocv.ReduceSum, gocv.MatTypeCV32F)
		v, err := r.prof.DataPtrFloat32()
		if err != nil || len(v) != side {
			return nil
		}
		out := make([]float64, side)
		for i, x := range v {
			out[i] = float64(x) / 255
		}
		return out
	}
	for b := 0; b < latticeBands; b++ {
		lo, hi := b*side/latticeBands, (b+1)*side/latticeBands
		colSum[b] = sum(c.vlines, image.Rect(0, lo, side, hi), 0)
		rowSum[b] = sum(c.hlines, image.Rect(lo, 0, hi, side), 1)
		if colSum[b] == nil || rowSum[b] == nil {
			return colSum, rowSum, false
		}
	}
	c.sums.col, c.sums.row, c.sums.side, c.sums.valid = colSum, rowSum, side, true
	return colSum, rowSum, true
}

// latticeCorrection takes the grid-line band sums of a side×side canvas
// (see bandSums) and returns the homography from canvas pixels to where
// they should be for an ideal n×n lattice of cs-pixel cells. It is false
// when too few lines are found or the correction would move a canvas
// corner by more than maxMove pixels.
func latticeCorrection(colSum, rowSum [latticeBands][]float64, side, n int, cs, maxMove float64) ([9]float64, bool) {
	for b := 0; b < latticeBands; b++ {
		if len(colSum[b]) != side || len(rowSum[b]) != side || n < 2 {
			return [9]float64{}, false
		}
	}
	band := float64(side) / latticeBands
	// A line counts in a band when it covers at least 0.4 of it.
	minCover := 0.4 * band
	fit := func(sums [latticeBands][]float64) []lineFit {
		out := make([]lineFit, n+1)
		for k := 0; k <= n; k++ {
			var ts, ps []float64
			for b := 0; b < latticeBands; b++ {
				if p, ok := peakNear(sums[b], float64(k)*cs, 0.3*cs, minCover); ok {
					ts = append(ts, (float64(b)+0.5)*band)
					ps = append(ps, p)
				}
			}
			out[k] = fitPositions(ts, ps)
		}
		return out
	}
	vFits, hFits := fit(colSum), fit(rowSum)
	var src, dst []pt
	for k, v := range vFits {
		if !v.ok {
			continue
		}
		for j, h := range hFits {
			if !h.ok {
				continue
			}
			// x = v.a + v.b*y, y = h.a + h.b*x
			den := 1 - v.b*h.b
			if math.Abs(den) < 1e-6 {
				continue
			}
			x := (v.a + v.b*h.a) / den
			y := h.a + h.b*x
			src = append(src, pt{x, y})
			dst = append(dst, pt{float64(k) * cs, float64(j) * cs})
		}
	}
	// Crossings of at least three lines each way, else the fit is too loose.
	if len(src) < 9 {
		return [9]float64{}, false
	}
	h, ok := fitHomography(src, dst, float64(side))
	if !ok {
		return [9]float64{}, false
	}
	s := float64(side)
	for _, c := range []pt{{0, 0}, {s, 0}, {s, s}, {0, s}} {
		if apply(h, c).dist(c) > maxMove {
			return [9]float64{}, false
		}
	}
	return h, true
}

// lineFit is a grid line found across the canvas: position = a + b*t,
// where t runs along the line.
type lineFit struct {
	a, b float64
	ok   bool
}

// fitPositions fits p = a + b*t by least squares; with one measurement the
// line is taken as parallel to the canvas axis.
func fitPositions(ts, ps []float64) lineFit {
	switch len(ts) {
	case 0:
		return lineFit{}
	case 1:
		return lineFit{a: ps[0], ok: true}
	}
	var mt, mp float64
	for i := range ts {
		mt += ts[i]
		mp += ps[i]
	}
	mt /= float64(len(ts))
	mp /= float64(len(ts))
	var stt, stp float64
	for i := range ts {
		stt += (ts[i] - mt) * (ts[i] - mt)
		stp += (ts[i] - mt) * (ps[i] - mp)
	}
	if stt == 0 {
		return lineFit{a: mp, ok: true}
	}
	b := stp / stt
	return lineFit{a: mp - b*mt, b: b, ok: true}
}

// peakNear returns the centre of mass of the highest run of p within tol of
// c, when that peak reaches minVal.
func peakNear(p []float64, c, tol, minVal float64) (float64, bool) {
	lo, hi := max(0, int(math.Floor(c-tol))), min(len(p)-1, int(math.Ceil(c+tol)))
	if lo > hi {
		return 0, false
	}
	best := lo
	for i := lo; i <= hi; i++ {
		if p[i] > p[best] {
			best = i
		}
	}
	if p[best] < minVal {
		return 0, false
	}
	// The line is a few pixels wide: weigh its neighbours above half height.
	var s, w float64
	for i := max(lo, best-3); i <= min(hi, best+3); i++ {
		if p[i] >= p[best]/2 {
			s += float64(i) * p[i]
			w += p[i]
		}
	}
	// Profile index i covers pixel i, whose centre is i+0.5.
	return s/w + 0.5, true
}

// fitHomography returns the least-squares homography (h[8] = 1) mapping
// src to dst; scale normalises coordinates for conditioning.
func fitHomography(src, dst []pt, scale float64) ([9]float64, bool) {
	var ata [8][8]float64
	var atb [8]float64
	add := func(row [8]float64, r float64) {
		for i := 0; i < 8; i++ {
			for j := 0; j < 8; j++ {
				ata[i][j] += row[i] * row[j]
			}
			atb[i] += row[i] * r
		}
	}
	for i := range src {
		x, y := src[i].X/scale, src[i].Y/scale
		u, v := dst[i].X/scale, dst[i].Y/scale
		add([8]float64{x, y, 1, 0, 0, 0, -x * u, -y * u}, u)
		add([8]float64{0, 0, 0, x, y, 1, -x * v, -y * v}, v)
	}
	sol, ok := solve8(ata, atb)
	if !ok {
		return [9]float64{}, false
	}
	hn := [9]float64{sol[0], sol[1], sol[2], sol[3], sol[4], sol[5], sol[6], sol[7], 1}
	// Back to pixels: H = S⁻¹·Hn·S with S = diag(1/scale, 1/scale, 1).
	sm := [9]float64{1 / scale, 0, 0, 0, 1 / scale, 0, 0, 0, 1}
	si := [9]float64{scale, 0, 0, 0, scale, 0, 0, 0, 1}
	h := mul3(si, mul3(hn, sm))
	if h[8] == 0 {
		return [9]float64{}, false
	}
	for i := range h {
		h[i] /= h[8]
	}
	return h, true
}

// solve8 solves the 8×8 system a·x = b by Gaussian elimination with partial
// pivoting; false when it is singular.
func solve8(a [8][8]float64, b [8]float64) ([8]float64, bool) {
	for c := 0; c < 8; c++ {
		p := c
		for r := c + 1; r < 8; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return [8]float64{}, false
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < 8; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < 8; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [8]float64
	for r := 7; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < 8; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}

// edgeLines finds the grid's outer lines on the current line images of a
// canvas of side canvasSide: for each side, in each half of it, the
// outermost long stroke within 0.12 canvasSide of the edge that covers
// most of that half (a caption or a text column fused with the outline
// lies outside it, and text is no long stroke). It returns the four lines
// (top, right, bottom, left, canvas pixels) and whether any moved by more
// than a pixel from the canvas edge.
func edgeLines(colSum, rowSum [latticeBands][]float64, side int) ([4]line, bool) {
	reach := int(0.12 * float64(side))
	strong := 0.6 * float64(side) / 2
	// outermost returns the position of the outermost strong line from the
	// low (true) or high end of p.
	outermost := func(p []float64, fromLow bool) float64 {
		for k := 0; k <= reach; k++ {
			i := k
			if !fromLow {
				i = side - 1 - k
			}
			if p[i] >= strong {
				// Centre of the run of strong rows that starts here.
				j := i
				for step := 1; ; step++ {
					n := i + step
					if !fromLow {
						n = i - step
					}
					if n < 0 || n >= side || p[n] < strong {
						break
					}
					j = n
				}
				return float64(i+j)/2 + 0.5
			}
		}
		if fromLow {
			return 0
		}
		return float64(side)
	}
	s := float64(side)
	rowsLeft, rowsRight := halfSums(rowSum, side, true), halfSums(rowSum, side, false)
	colsTop, colsBottom := halfSums(colSum, side, true), halfSums(colSum, side, false)
	lines := edgeBox(s, outermost(colsTop, true), outermost(colsTop, false), outermost(colsBottom, true), outermost(colsBottom, false),
		outermost(rowsLeft, true), outermost(rowsLeft, false), outermost(rowsRight, true), outermost(rowsRight, false))
	top, right, bottom, left := lines[0], lines[1], lines[2], lines[3]
	moved := false
	for _, p := range []struct {
		l    line
		edge float64
		horz bool
	}{{top, 0, true}, {bottom, s, true}, {left, 0, false}, {right, s, false}} {
		for _, t := range []float64{s / 4, 3 * s / 4} {
			var v float64
			if p.horz {
				v = p.l.P.Y + (t-p.l.P.X)*p.l.D.Y/p.l.D.X
			} else {
				v = p.l.P.X + (t-p.l.P.Y)*p.l.D.X/p.l.D.Y
			}
			moved = moved || math.Abs(v-p.edge) > 1.5
		}
	}
	return lines, moved
}

// combFit finds in line profile p (p[i]: long-stroke ink at i) the n+1
// evenly spaced lines of an n×n grid that stand out best, over spacings and
// offsets: teeth (strongest ink within combReach) less ink halfway between.
// A comb is whole when each tooth holds a line (combTooth) and the ink
// between and a spacing beyond either end is under combOuter of the teeth.
// It returns the comb's end lines and score, and the score of the comb
// spanning the canvas and whether that one is whole.
func combFit(p []float64, n int) (lo, hi, score, full float64, spans bool) {
	side := len(p)
	top := 0.0
	for _, v := range p {
		top = math.Max(top, v)
	}
	if n < 2 || side < 4*n || top <= 0 {
		return 0, float64(side), 0, 0, false
	}
	// near[i]: the strongest ink within combReach of i, as a share of top.
	near := make([]float64, side)
	for i := range p {
		for j := max(0, i-combReach); j <= min(side-1, i+combReach); j++ {
			near[i] = math.Max(near[i], p[j]/top)
		}
	}
	at := func(x float64) float64 {
		// A line at the canvas's very edge counts (reach beyond it).
		i := int(math.Floor(x + 0.5))
		if i < -combReach || i > side-1+combReach {
			return 0
		}
		return near[min(max(i, 0), side-1)]
	}
	comb := func(off, per float64) (float64, bool) {
		sum, weakest, gaps := 0.0, 1.0, 0.0
		for k := 0; k <= n; k++ {
			v := at(off + float64(k)*per)
			sum += v
			weakest = math.Min(weakest, v)
			if k < n {
				gaps += at(off + (float64(k)+0.5)*per)
			}
		}
		mean, gap := sum/float64(n+1), gaps/float64(n)
		whole := weakest >= combTooth && gap < combOuter*mean &&
			at(off-per) < combOuter*mean && at(off+float64(n+1)*per) < combOuter*mean
		return mean - gap, whole
	}
	s := float64(side - 1)
	full, spans = comb(0, s/float64(n))
	lo, hi = 0, s
	if spans {
		// Every line of the grid spanning the canvas is there: the
		// quadrilateral is the grid's own (the usual case).
		return lo, hi, full, full, true
	}
	for per := 0.5 * s / float64(n); per < s/float64(n); per += 0.5 {
	offsets:
		for off := 0.0; off+float64(n)*per <= s; off++ {
			// Most combs miss a line at once: left before scoring.
			for k := 0; k <= n; k++ {
				if at(off+float64(k)*per) < combTooth {
					continue offsets
				}
			}
			if v, whole := comb(off, per); whole && v > score {
				lo, hi, score = off, off+float64(n)*per, v
			}
		}
	}
	return lo, hi, score, full, false
}

// Comb fit: how far from a tooth its line may lie (canvas pixels), the
// least ink each tooth's line must have (a share of the profile's
// largest), and how much weaker than the teeth the ink between them and
// a line a spacing beyond the comb's ends must be.
const (
	combReach = 2
	combTooth = 0.3
	combOuter = 0.5
)

// wholeLatticeLines finds the outer lines of an n×n grid inside a canvas
// warped from more than the grid (its outline merged with the page's edge).
// In each half of each direction the best whole comb (combFit), clearly above
// the one spanning the canvas, gives the edge; the grid must be found both
// ways and share a side with the canvas (a grid inside the page's margins is
// the inner search's). It returns the lines (top, right, bottom, left, canvas
// pixels) and whether the sides moved.
func wholeLatticeLines(colSum, rowSum [latticeBands][]float64, side, n int) ([4]line, bool) {
	half := func(s [latticeBands][]float64, lo bool) []float64 { return halfSums(s, side, lo) }
	s := float64(side)
	cell := s / float64(n)
	// axis fits both halves of one direction: the comb's ends in each,
	// whether it is shorter than the canvas in both halves, whether the
	// whole grid's lines span the canvas in both instead, and whether a
	// shorter comb reaches the canvas's edge.
	axis := func(sums [latticeBands][]float64) (lo1, hi1, lo2, hi2 float64, shorter, spans, edge bool) {
		lo1, hi1, score1, full1, spans1 := combFit(half(sums, true), n)
		lo2, hi2, score2, full2, spans2 := combFit(half(sums, false), n)
		short := func(lo, hi, score, full float64) bool {
			return score >= full+combGain && hi-lo <= s-cell/2
		}
		// A whole comb within half a cell of the canvas's edges spans it.
		long := func(lo, hi, score float64, spans bool) bool {
			return spans || score > 0 && hi-lo > s-cell/2
		}
		if long(lo1, hi1, score1, spans1) && long(lo2, hi2, score2, spans2) {
			// Its ends where the comb found them (a line's width or a
			// few pixels inside the canvas's edge).
			return lo1 + 0.5, hi1 + 0.5, lo2 + 0.5, hi2 + 0.5, false, true, false
		}
		if !short(lo1, hi1, score1, full1) || !short(lo2, hi2, score2, full2) {
			return 0, s, 0, s, false, false, false
		}
		edge = math.Min(lo1, lo2) <= cell/2 || math.Max(hi1, hi2) >= s-1-cell/2
		return lo1 + 0.5, hi1 + 0.5, lo2 + 0.5, hi2 + 0.5, true, false, edge
	}
	l1, r1, l2, r2, cShort, cSpans, cEdge := axis(colSum)
	t1, b1, t2, b2, rShort, rSpans, rEdge := axis(rowSum)
	// Each way the grid is found (shorter or spanning), shorter one way
	// at least, and sharing a side with the canvas.
	if !(cShort || cSpans) || !(rShort || rSpans) || !(cShort || rShort) || !(cSpans || rSpans || cEdge || rEdge) {
		return [4]line{}, false
	}
	return edgeBox(s, l1, r1, l2, r2, t1, b1, t2, b2), true
}

// edgeBox is the four lines (top, right, bottom, left) through a grid's
// outer lines in a canvas of side s: its left and right lines at l1, r1
// a quarter of the way down and l2, r2 three quarters, its top and bottom
// at t1, b1 a quarter of the way across and t2, b2 three quarters.
func edgeBox(s, l1, r1, l2, r2, t1, b1, t2, b2 float64) [4]line {
	through := func(a, b pt) line { return line{a, unit(b.sub(a))} }
	top := through(pt{s / 4, t1}, pt{3 * s / 4, t2})
	bottom := through(pt{s / 4, b1}, pt{3 * s / 4, b2})
	left := through(pt{l1, s / 4}, pt{l2, 3 * s / 4})
	right := through(pt{r1, s / 4}, pt{r2, 3 * s / 4})
	return [4]line{top, right, bottom, left}
}

// combGain is how much better than the comb spanning the canvas a shorter
// comb's teeth must stand out for it to be taken as the grid.
const combGain = 0.15

// halfSums adds up the bands of one half of the canvas (the low half
// with lo: the top bands of a column profile, the left of a row profile),
// side values long.
func halfSums(sums [latticeBands][]float64, side int, lo bool) []float64 {
	out := make([]float64, side)
	for b := 0; b < latticeBands; b++ {
		if (b < latticeBands/2) == lo {
			for i, v := range sums[b] {
				out[i] += v
			}
		}
	}
	return out
}
