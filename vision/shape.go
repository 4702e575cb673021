package vision

import (
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// DefaultSizes are the grid sides Analyze considers when Options.Sizes is empty.
var defaultSizes = []int{4, 6, 8, 9, 10, 12, 16}

// shapeGuess is the result of reading the line profiles of a canvas.
type shapeGuess struct {
	Shape      sudoku.Shape
	Confidence float64 // 0..1
	LineScore  float64 // contrast of the grid lines at the chosen N, 0..1
}

// inferShape reads N and the box shape from profiles of a square canvas.
// rows[y] counts horizontal-line ink (long strokes) in canvas row y and
// cols[x] vertical-line ink in column x; rawRows and rawCols count all ink. N is the candidate whose evenly spaced line
// positions carry much more ink than the midpoints between them (the
// midpoint penalty rules out harmonics such as 8 vs 16). The box shape r×c is
// the factorisation whose every r-th horizontal and every c-th vertical line
// is thicker than the others.
func inferShape(rows, cols, rawRows, rawCols []float32, sizes []int) shapeGuess {
	if len(sizes) == 0 {
		sizes = defaultSizes
	}
	norm := func(p []float32) []float64 {
		var mx float32
		for _, v := range p {
			if v > mx {
				mx = v
			}
		}
		out := make([]float64, len(p))
		if mx > 0 {
			for i, v := range p {
				out[i] = float64(v) / float64(mx)
			}
		}
		return out
	}
	rp, cp := norm(rows), norm(cols)
	// N is read from the raw ink profile: dotted or dashed cell lines do not
	// survive the line opening but still cover more of their row than digits.
	rrp, rcp := norm(rawRows), norm(rawCols)

	// Take the finest grid whose every line is clearly present: the
	// weaker lines (25th percentile) must stand above the stronger
	// midpoints (75th percentile). A coarser harmonic (4 for 16) fails
	// because its midpoints hold the finer grid's lines; a finer one (16
	// for 8) because half its lines are missing.
	const sigMin = 0.12
	bestN, bestSig := 0, math.Inf(-1)
	chosen, chosenSig := 0, 0.0
	for _, n := range sizes {
		if n < 2 || n*3 > len(rp) {
			continue
		}
		sig := math.Min(lineSignificance(rrp, n), lineSignificance(rcp, n))
		if sig > bestSig {
			bestN, bestSig = n, sig
		}
		if sig >= sigMin && n > chosen {
			chosen, chosenSig = n, sig
		}
	}
	if chosen == 0 {
		chosen, chosenSig = bestN, bestSig
	}
	if chosen == 0 {
		return shapeGuess{}
	}
	bestN = chosen
	best := (lineContrast(rrp, bestN) + lineContrast(rcp, bestN)) / 2
	nConf := 1.0
	if len(sizes) > 1 {
		nConf = clamp01(chosenSig / 0.4)
	}

	// Box shape from line thickness.
	rs, cs := lineStrengths(rp, bestN), lineStrengths(cp, bestN)
	shapes := factorisations(bestN)
	bestS, bs, ss := shapes[0], math.Inf(-1), math.Inf(-1)
	for _, sh := range shapes {
		v := periodContrast(rs, sh.BoxRows) + periodContrast(cs, sh.BoxCols)
		if v > bs {
			ss = bs
			bs, bestS = v, sh
		} else if v > ss {
			ss = v
		}
	}
	sConf := 1.0
	if len(shapes) > 1 {
		sConf = clamp01((bs - ss) / 0.3)
	}
	return shapeGuess{Shape: bestS, Confidence: nConf * sConf, LineScore: best}
}

// lineSignificance is the 25th percentile of the profile peaks at the n-1
// interior line positions of an n-cell grid minus the 75th percentile of the
// peaks at the n cell midpoints.
func lineSignificance(p []float64, n int) float64 {
	cs := float64(len(p)) / float64(n)
	tol := math.Max(2, cs*0.12)
	on := make([]float64, 0, n-1)
	for k := 1; k < n; k++ {
		on = append(on, windowMax(p, float64(k)*cs, tol))
	}
	off := make([]float64, 0, n)
	for k := 0; k < n; k++ {
		off = append(off, windowMax(p, (float64(k)+0.5)*cs, tol))
	}
	return quantile(on, 0.25) - quantile(off, 0.75)
}

// quantile returns the q-quantile of v (nearest rank); v is reordered.
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[min(len(v)-1, int(q*float64(len(v))))]
}

// lineContrast is the mean profile peak at the n-1 interior line positions of
// an n-cell grid minus the mean peak at the n cell midpoints.
func lineContrast(p []float64, n int) float64 {
	side := float64(len(p))
	cs := side / float64(n)
	tol := math.Max(2, cs*0.12)
	var on, off float64
	for k := 1; k < n; k++ {
		on += windowMax(p, float64(k)*cs, tol)
	}
	for k := 0; k < n; k++ {
		off += windowMax(p, (float64(k)+0.5)*cs, tol)
	}
	return on/float64(n-1) - off/float64(n)
}

// lineStrengths sums the profile around each interior line of an n-cell
// grid: thick box lines collect more ink than thin cell lines.
func lineStrengths(p []float64, n int) []float64 {
	cs := float64(len(p)) / float64(n)
	tol := math.Max(2, cs*0.25)
	out := make([]float64, n-1)
	for k := 1; k < n; k++ {
		c := float64(k) * cs
		lo, hi := int(math.Floor(c-tol)), int(math.Ceil(c+tol))
		for i := max(lo, 0); i <= min(hi, len(p)-1); i++ {
			out[k-1] += p[i]
		}
	}
	return out
}

// periodContrast compares the lines at multiples of period (box lines) with
// the others, relative to the mean strength.
func periodContrast(s []float64, period int) float64 {
	var on, off float64
	var non, noff int
	for i, v := range s {
		if (i+1)%period == 0 {
			on += v
			non++
		} else {
			off += v
			noff++
		}
	}
	if non == 0 || noff == 0 {
		return 0
	}
	on /= float64(non)
	off /= float64(noff)
	if on+off == 0 {
		return 0
	}
	return (on - off) / ((on + off) / 2)
}

func windowMax(p []float64, c, tol float64) float64 {
	lo, hi := int(math.Floor(c-tol)), int(math.Ceil(c+tol))
	var m float64
	for i := max(lo, 0); i <= min(hi, len(p)-1); i++ {
		if p[i] > m {
			m = p[i]
		}
	}
	return m
}

// factorisations lists the box shapes r×c with r*c = n and r, c >= 2 (or
// 1×n when n is prime), most square first.
func factorisations(n int) []sudoku.Shape {
	var out []sudoku.Shape
	r0 := int(math.Sqrt(float64(n)))
	for d := 0; d <= n; d++ {
		for _, r := range []int{r0 - d, r0 + d} {
			if r < 2 || r > n/2 || n%r != 0 {
				continue
			}
			sh := sudoku.Shape{BoxRows: r, BoxCols: n / r}
			dup := false
			for _, o := range out {
				dup = dup || o == sh
			}
			if !dup {
				out = append(out, sh)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, sudoku.Shape{BoxRows: 1, BoxCols: n})
	}
	return out
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// finerFromGrey looks for cell lines too light to binarise in a grid read
// as n×n from its thick lines (a light 16×16 read as 4×4): in each box, the
// cell lines must dip clearly in the median grey rows and cols (digits hardly
// move a median), below their surroundings and the midpoints between them.
// It returns the finest such size in sizes and how clearly its lines stand
// out (0..1), or 0; lineRows and lineCols are the n×n lattice's profiles.
func finerFromGrey(rows, cols, lineRows, lineCols []float32, n int, sizes []int) (int, float64) {
	// Grey levels: a cell line must dip at least minDip below its
	// surroundings, and ratio times more than the cell midpoints do (the
	// 25th percentile of lines against the 75th of midpoints).
	const minDip, ratio = 2.0, 2.5
	side := len(rows)
	if side == 0 || len(cols) != side || len(lineRows) != side || len(lineCols) != side {
		return 0, 0
	}
	best, bestConf := 0, 0.0
	for _, m := range sizes {
		k := m / max(1, n)
		if m <= n || m%n != 0 || k*k != m || 3*m > side {
			continue
		}
		win := max(3, side/m)
		onR, offR := boxLineDips(dips(rows, win), lineRows, n, k)
		onC, offC := boxLineDips(dips(cols, win), lineCols, n, k)
		on, off := math.Min(onR, onC), math.Max(offR, offC)
		if onR < minDip || onC < minDip || onR < ratio*offR || onC < ratio*offC || m <= best {
			continue
		}
		best, bestConf = m, clamp01(on/math.Max(1, 2*ratio*off))
	}
	return best, bestConf
}

// boxLineDips splits p into n boxes at the peaks of lines near every 1/n
// of its length and returns the 25th percentile of p at the k−1 evenly
// spaced positions inside each box and the 75th percentile at the
// midpoints between them.
func boxLineDips(p []float64, lines []float32, n, k int) (float64, float64) {
	side := len(p)
	box := float64(side) / float64(n)
	edges := make([]float64, n+1)
	for b := 0; b <= n; b++ {
		c := float64(b) * box
		lo, hi := max(0, int(c-0.25*box)), min(side-1, int(c+0.25*box))
		at := int(math.Round(c))
		at = min(max(at, 0), side-1)
		for i := lo; i <= hi; i++ {
			if lines[i] > lines[at] {
				at = i
			}
		}
		edges[b] = float64(at)
	}
	var on, off []float64
	for b := 0; b < n; b++ {
		a, e := edges[b], edges[b+1]
		cs := (e - a) / float64(k)
		if cs < 3 {
			return 0, 0
		}
		tol := math.Max(1, 0.12*cs)
		for j := 1; j < k; j++ {
			on = append(on, windowMax(p, a+float64(j)*cs, tol))
		}
		for j := 0; j < k; j++ {
			off = append(off, windowMax(p, a+(float64(j)+0.5)*cs, tol))
		}
	}
	return quantile(on, 0.25), quantile(off, 0.75)
}

// dips returns, for each sample of p, how much darker it is than the mean
// of the win samples around it (0 when lighter).
func dips(p []float32, win int) []float64 {
	n := len(p)
	pre := make([]float64, n+1)
	for i, v := range p {
		pre[i+1] = pre[i] + float64(v)
	}
	out := make([]float64, n)
	for i := range p {
		lo, hi := max(0, i-win/2), min(n, i+win/2+1)
		if d := (pre[hi]-pre[lo])/float64(hi-lo) - float64(p[i]); d > 0 {
			out[i] = d
		}
	}
	return out
}

// greyMedians returns the median grey level of each row and of each column
// of the 8-bit single-channel square image m: a faint line covering a row
// moves its median, digits and specks do not.
func greyMedians(m gocv.Mat) (rows, cols []float32) {
	b, err := m.DataPtrUint8()
	w, h := m.Cols(), m.Rows()
	if err != nil || m.Type() != gocv.MatTypeCV8UC1 || len(b) < w*h {
		return nil, nil
	}
	median := func(hist *[256]int, n int) float32 {
		c := 0
		for v, k := range hist {
			c += k
			if 2*c >= n {
				return float32(v)
			}
		}
		return 255
	}
	rows = make([]float32, h)
	for y := 0; y < h; y++ {
		var hist [256]int
		for _, v := range b[y*w : (y+1)*w] {
			hist[v]++
		}
		rows[y] = median(&hist, w)
	}
	colHist := make([][256]int, w)
	for y := 0; y < h; y++ {
		for x, v := range b[y*w : (y+1)*w] {
			colHist[x][v]++
		}
	}
	cols = make([]float32, w)
	for x := range cols {
		cols[x] = median(&colHist[x], h)
	}
	return rows, cols
}
