package vision

import (
	"math"

	"gocv.io/x/gocv"
)

// finalCanvas makes the canvas the n×n grid's cells are cut from (its
// lattice snapped, its corners and bend refined, its sharpness and
// brightness taken), fills in a.g and a.c, and returns the cell side in
// canvas pixels.
func (a *analysis) finalCanvas(n int) float64 {
	g, gs, side0, c := a.g, a.gs, a.side0, a.c
	side := canvasSide(n, a.opts.CellPx)
	cs := float64(side) / float64(n)
	// Small cells need the lattice exactly: snap the corners to the grid
	// lines of the canvas at hand, before the final warp.
	snapped := false
	if n >= 12 {
		if q, ok := a.rect.latticeCorners(c, g, side0, n); ok {
			g.Corners = q
			snapped = setHomography(&g)
		}
	}
	// Re-warp and re-binarise only when N or the snap changed the canvas or
	// the kernels.
	if k := cutKernel(side, cs); side != side0 || k != c.kLen || snapped {
		if side != side0 || snapped {
			c = a.rect.fresh(c)
			a.rect.warp(c, g, gs, side)
		}
		a.rect.binarise(c, cs, k)
	}
	g.Side = side
	setHomography(&g)
	if n < 12 {
		// On 9×9 and coarser grids the outline's corners are closer to the
		// printed outer edge than the lattice fit on real photos (paper
		// curvature bends the inner lines): a corner is only replaced when the
		// lattice puts it far from the outline's (a caption or a neighbouring
		// box fused with the outline at that corner).
		c = a.rect.fixOutlierCorners(c, &g, gs, n, cs)
		// A curled page crowds the cells where it turns away: the lines
		// say where the cells are.
		c, _ = a.rect.refineBend(c, &g, gs, n, cs)
	}
	g.Shape = a.guess.Shape
	g.ShapeConfidence = a.guess.Confidence
	// Sharpness and brightness come from the final canvas: for a 16×16
	// grid the finest, where it is read.
	a.rect.measure(c, &g, cs)
	a.g, a.c = g, c
	return cs
}

// cutKernel is the length of the line kernels binarise uses on the canvas
// cells are cut from (side pixels, cells cs pixels wide).
func cutKernel(side int, cs float64) int { return max(side/12, int(cs*0.75)) }

// latticeCorners returns g's corners (frame pixels) corrected so the grid
// lines found on the line images of c (of side canvasSide, warped with
// g) fall on the ideal n×n lattice.
func (r *rectifier) latticeCorners(c *canvas, g Grid, canvasSide, n int) ([4]gocv.Point2f, bool) {
	cs := float64(canvasSide) / float64(n)
	colSum, rowSum, ok := r.bandSums(c, canvasSide)
	if !ok {
		return g.Corners, false
	}
	corr, ok := latticeCorrection(colSum, rowSum, canvasSide, n, cs, 0.5*cs)
	if !ok {
		return g.Corners, false
	}
	ci, ok := invert3(corr)
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

// fixOutlierCorners replaces the corners of g (whose canvas c, of side
// g.Side, is just binarised) that the lattice puts more than
// latticeOverride of the grid side from the outline's, and returns g's
// canvas: a new one when a corner moved, else c.
func (r *rectifier) fixOutlierCorners(c *canvas, g *Grid, gs float64, n int, cs float64) *canvas {
	lat, ok := r.latticeCorners(c, *g, g.Side, n)
	if !ok {
		return c
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
		return c
	}
	*g = next
	nc := r.fresh(c)
	r.warp(nc, *g, gs, g.Side)
	r.binarise(nc, cs, c.kLen)
	return nc
}

// latticeOverride is how far (fraction of the grid side) the lattice must
// put a corner from the outline's before it replaces it on 9×9 and coarser
// grids: the lattice sits a little inside the printed outer edge, while
// outline corners pulled by a caption are off by more than this.
const latticeOverride = 0.035

// measure sets g's Lift, Brightness, Gap, Legibility and Sharpness from
// its canvas c, then flattens c when its paper is unevenly lit, not
// tinted box by box (re-binarising it for cells cs pixels wide). A dim
// canvas's Sharpness is taken once it is flattened, as the cells are cut
// from it.
func (r *rectifier) measure(c *canvas, g *Grid, cs float64) {
	g.Lift = r.lift
	g.Brightness = c.grey.Mean().Val1
	gap, noise := legibility(c.grey, &r.lap)
	g.Gap, g.Legibility = gap/r.lift, gap/noise
	// A lit page's sharpness is its own: flattening a shadow raises the
	// contrast, and with it the Laplacian, of a page no sharper. Its paper
	// may be uneven by design (boxes printed on a tint), a dim one's not.
	lit := r.lift <= 1
	var tinted func() bool
	if lit {
		g.Sharpness = Sharpness(c.grey, &r.lap)
		tinted = func() bool { return boxTinted(c.grey, g.Shape) }
	}
	if flatten(&c.grey, cs, lit, tinted, &r.bg, &r.lap) {
		c.binned = false
		r.binarise(c, cs, c.kLen)
	}
	if !lit {
		g.Sharpness = Sharpness(c.grey, &r.lap)
	}
}

// Sharpness is the variance of the Laplacian of grey (8-bit, one channel),
// the measure of Grid.Sharpness; lap is scratch for the Laplacian.
func Sharpness(grey gocv.Mat, lap *gocv.Mat) float64 {
	gocv.Laplacian(grey, lap, gocv.MatTypeCV16S, 1, 1, 0, gocv.BorderReplicate)
	return variance16(*lap)
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

// manyLooks reports whether the digits of g, an n×n grid found in a
// frame, are cut several ways (Cell.Looks): cells under Options.LookPx
// in the frame. Grids above 9×9 are left to one look: their two-digit
// glyphs were not tried with the other cuts (a 16×16 read exactly was
// held back).
func (o Options) manyLooks(g Grid, n int) bool {
	return n <= 9 && MeanSide(g.Corners)/float64(n) < o.LookPx
}

// SmallLookPx is the default Options.LookPx, the side of a cell in the
// frame, in pixels, below which Analyze cuts each digit several ways
// (Cell.Looks): a webcam's page whose
// cells are 14–20 px across blurs the gap of a 5 or the bowl of a 6, and
// one cut reads such cells wrongly or unsurely often enough to hold the
// page back.
const SmallLookPx = 24
