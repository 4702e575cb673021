package vision

import (
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// rectifier makes the canvases grids are read on: the working grey
// frame warped flat through a grid, binarised, and its grid lines. Each
// attempt at a reading gets a canvas of its own from a small pool, so a
// canvas tried and refused leaves the reading's as it was: nothing is
// put back. A canvas rectify made is found again while unchanged, for a
// later reading of the same grid. The pool's Mats and the scratch Mats
// are kept between frames.
type rectifier struct {
	opts Options
	gray *gocv.Mat // the working grey frame (the Detector's), read only
	// grayGen counts the frames the Detector made gray from.
	grayGen uint64
	// lift is the factor gray was lifted by (1: not dim; see lift).
	lift float64

	pool  [canvasPool]canvas
	stamp uint64  // counts the canvases handed out, for the pool's order
	last  *canvas // the canvas cells were last cut from (for debugging)

	cblur, lines, clean      gocv.Mat
	labels, stats, centroids gocv.Mat
	prof, lap, hmat, bg      gocv.Mat
	kernel3                  gocv.Mat
	hk, vk                   gocv.Mat // line kernels of length kLen
	kLen                     int
	ext                      gocv.Mat // the view one cell beyond a grid's sides (whole.go)
	mapX, mapY               gocv.Mat // a bent canvas's resampling maps (bend.go)
}

// canvasPool is how many canvases the rectifier keeps: the reading's,
// the one an attempt is made on, and two more rectify may find again.
const canvasPool = 4

// canvas is one flat view of a grid: the working grey frame warped
// through it (grey), that binarised (bin, ink = 255) and the long
// horizontal and vertical strokes of bin (hlines, vlines: the grid
// lines), with what they were made with.
type canvas struct {
	grey, bin, hlines, vlines gocv.Mat
	// binned: bin is grey thresholded with block; kLen is the length of
	// the line kernels hlines and vlines were opened with.
	binned bool
	block  int
	kLen   int
	// made is what rectify made the canvas from, while keyed (until
	// anything else changes it).
	made  canvasKey
	keyed bool
	used  uint64 // when it was last handed out
	// The band sums of the line images (lattice.go), until they change.
	sums struct {
		col, row [latticeBands][]float64
		side     int
		valid    bool
	}
}

// canvasKey is what a canvas rectify made depends on: the grey frame
// (its count), its scale, the canvas side, the threshold block, the line
// kernels and the grid warped through.
type canvasKey struct {
	gray              uint64
	gs                float64
	side, block, kLen int
	corners           [4]gocv.Point2f
	h                 [9]float64
	gside             int
	bend              *Bend
}

// newRectifier returns a rectifier for opts reading gray; close frees
// its Mats.
func newRectifier(opts Options, gray *gocv.Mat) rectifier {
	r := rectifier{opts: opts, gray: gray, lift: 1}
	for _, m := range r.mats() {
		*m = gocv.NewMat()
	}
	r.hmat = gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	r.kernel3 = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	return r
}

func (r *rectifier) mats() []*gocv.Mat {
	ms := []*gocv.Mat{&r.cblur, &r.lines, &r.clean, &r.labels, &r.stats, &r.centroids, &r.prof, &r.lap, &r.bg,
		&r.hk, &r.vk, &r.ext, &r.mapX, &r.mapY}
	for i := range r.pool {
		c := &r.pool[i]
		ms = append(ms, &c.grey, &c.bin, &c.hlines, &c.vlines)
	}
	return ms
}

func (r *rectifier) close() {
	for _, m := range r.mats() {
		m.Close()
	}
	r.hmat.Close()
	r.kernel3.Close()
}

// fresh hands out the canvas of the pool used longest ago, other than
// keep (the reading's, still needed), for a new view; it holds nothing
// until warped or copied into.
func (r *rectifier) fresh(keep *canvas) *canvas {
	var c *canvas
	for i := range r.pool {
		if p := &r.pool[i]; p != keep && (c == nil || p.used < c.used) {
			c = p
		}
	}
	r.stamp++
	c.used = r.stamp
	c.changed()
	c.binned = false
	return c
}

// changed notes that c's images changed: it no longer holds what rectify
// made, nor its band sums.
func (c *canvas) changed() {
	c.keyed = false
	c.sums.valid = false
}

// rectify returns the canvas of g at the given side (gs: the scale from
// working-grey pixels to frame pixels), warped and binarised for a 9×9
// reading (the first look at any grid), without touching keep. A canvas
// rectify made for the same grid on the same frame is handed out again
// while unchanged: an analysis may read the same outline twice.
func (r *rectifier) rectify(g Grid, gs float64, side int, keep *canvas) *canvas {
	block := max(3, int(float64(side)/9*0.75)) | 1
	kLen := max(3, side/32)
	key := canvasKey{gray: r.grayGen, gs: gs, side: side, block: block, kLen: kLen,
		corners: g.Corners, h: g.H, gside: g.Side, bend: g.Bend}
	for i := range r.pool {
		if c := &r.pool[i]; c.keyed && c.made == key {
			r.stamp++
			c.used = r.stamp
			return c
		}
	}
	c := r.fresh(keep)
	r.warp(c, g, gs, side)
	r.binarise(c, float64(side)/9, kLen)
	c.made, c.keyed = key, true
	return c
}

// warp fills c.grey with the grey working image rectified to side×side,
// for grid g whose frame->canvas homography is for g.Side; gs is the scale
// from working-grey pixels to frame pixels.
func (r *rectifier) warp(c *canvas, g Grid, gs float64, side int) {
	c.changed()
	c.binned = false
	if g.Bend != nil {
		r.warpBent(c, g, gs, side)
		return
	}
	// gray -> frame -> canvas(g.Side) -> canvas(side)
	k := float64(side) / float64(g.Side)
	h := mul3([9]float64{k, 0, 0, 0, k, 0, 0, 0, 1}, mul3(g.H, [9]float64{gs, 0, 0, 0, gs, 0, 0, 0, 1}))
	for i := 0; i < 9; i++ {
		r.hmat.SetDoubleAt(i/3, i%3, h[i])
	}
	gocv.WarpPerspectiveWithParams(*r.gray, &c.grey, r.hmat, image.Pt(side, side),
		gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
}

// binarise fills c.bin (ink = 255) from c.grey and c.hlines/c.vlines
// with the long horizontal and vertical strokes of it (grid lines), using
// line kernels of length kLen. The threshold is kept when it was made
// with the same block from the same grey image: Analyze's final pass over
// a 9×9 canvas changes only the kernels.
func (r *rectifier) binarise(c *canvas, cellPx float64, kLen int) {
	block := max(3, int(cellPx*0.75)) | 1
	if !c.binned || c.block != block || c.bin.Empty() {
		gocv.GaussianBlur(c.grey, &r.cblur, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
		gocv.AdaptiveThreshold(r.cblur, &c.bin, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, 7)
		c.binned, c.block = true, block
	}
	if kLen != r.kLen {
		r.hk.Close()
		r.vk.Close()
		r.hk = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(kLen, 1))
		r.vk = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(1, kLen))
		r.kLen = kLen
	}
	gocv.MorphologyEx(c.bin, &c.hlines, gocv.MorphOpen, r.hk)
	gocv.MorphologyEx(c.bin, &c.vlines, gocv.MorphOpen, r.vk)
	c.kLen = kLen
	c.changed()
}

// profile returns the sums of m along rows (dim 1: one value per row) or
// columns (dim 0).
func profile(m gocv.Mat, dim int, scratch *gocv.Mat) []float32 {
	gocv.Reduce(m, scratch, dim, gocv.ReduceSum, gocv.MatTypeCV32F)
	v, err := scratch.DataPtrFloat32()
	if err != nil {
		return nil
	}
	return append([]float32(nil), v...)
}

// readShape returns the canvas rectify makes of g (keeping keep) and
// the box shape read from its line profiles.
func (r *rectifier) readShape(g Grid, gs float64, side int, keep *canvas) (shapeGuess, *canvas) {
	c := r.rectify(g, gs, side, keep)
	return r.shapeOf(c), c
}

// shapeOf reads c's size and box shape from its line profiles, and the
// box shape from its tint when alternate boxes are shaded clearly enough
// to name one (shading.go): lines of one width say nothing of it.
func (r *rectifier) shapeOf(c *canvas) shapeGuess {
	g := inferShape(profile(c.hlines, 1, &r.prof), profile(c.vlines, 0, &r.prof), profile(c.bin, 1, &r.prof), profile(c.bin, 0, &r.prof), r.opts.Sizes)
	if sh, conf, ok := shadedShape(c.grey, g.Shape.N()); ok {
		if sh != g.Shape {
			g.Shape, g.Confidence = sh, 0
		}
		g.Confidence = math.Max(g.Confidence, conf)
	}
	return g
}
