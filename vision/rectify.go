package vision

import (
	"image"
	"image/color"

	"gocv.io/x/gocv"
)

// rectifier makes the canvases grids are read on: the working grey
// frame warped flat through a grid, binarised, and its grid lines. Its
// Mats are scratch, kept between frames.
type rectifier struct {
	opts Options
	gray *gocv.Mat // the working grey frame (the Detector's), read only

	canvas, cblur, cbin          gocv.Mat
	hlines, vlines, lines, clean gocv.Mat
	labels, stats, centroids     gocv.Mat
	prof, lap, hmat              gocv.Mat
	kernel3                      gocv.Mat
	hk, vk                       gocv.Mat // line kernels for kLen
	kLen                         int
	// canvasGen counts the canvases warp has made; binGen and binBlock
	// say which canvas cbin was thresholded from and with what block,
	// so binarise can keep it when only the line kernels change.
	canvasGen, binGen uint64
	binBlock          int
	// grayGen counts the frames the Detector made gray from; kept are the
	// last two canvases rectify made (see keptCanvas), the older first.
	grayGen    uint64
	kept       [2]keptCanvas
	unbent     keptCanvas // the canvas refineBend may put back (bend.go)
	ext        gocv.Mat   // the view one cell beyond a grid's sides (whole.go)
	mapX, mapY gocv.Mat   // a bent canvas's resampling maps (bend.go)
	// The band sums of the current line images (lattice.go), until
	// binarise makes new ones.
	sums struct {
		col, row [latticeBands][]float64
		side     int
		valid    bool
	}
}

// newRectifier returns a rectifier for opts reading gray; close frees
// its Mats.
func newRectifier(opts Options, gray *gocv.Mat) rectifier {
	r := rectifier{opts: opts, gray: gray}
	for _, m := range r.mats() {
		*m = gocv.NewMat()
	}
	r.hmat = gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	r.kernel3 = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	return r
}

func (r *rectifier) mats() []*gocv.Mat {
	return []*gocv.Mat{&r.canvas, &r.cblur, &r.cbin,
		&r.hlines, &r.vlines, &r.lines, &r.clean, &r.labels, &r.stats, &r.centroids, &r.prof, &r.lap,
		&r.hk, &r.vk, &r.ext, &r.mapX, &r.mapY,
		&r.kept[0].canvas, &r.kept[0].cbin, &r.kept[0].hlines, &r.kept[0].vlines,
		&r.kept[1].canvas, &r.kept[1].cbin, &r.kept[1].hlines, &r.kept[1].vlines,
		&r.unbent.canvas, &r.unbent.cbin, &r.unbent.hlines, &r.unbent.vlines}
}

func (r *rectifier) close() {
	for _, m := range r.mats() {
		m.Close()
	}
	r.hmat.Close()
	r.kernel3.Close()
}

// rectify warps g onto the canvas of the given side and binarises it
// there, for a 9×9 reading (the first look at any grid).
// The last two rectified canvases are kept (d.kept): the steps of an
// analysis try another outline or a bend on the canvas and, when that
// reads no better, put the grid they started from back, which then costs
// copies instead of a warp and a binarisation (two, as the canvas tried
// is kept too: the first reading's flat canvas then survives the bend
// tried after it).
func (r *rectifier) rectify(g Grid, gs float64, side int) {
	block := max(3, int(float64(side)/9*0.75)) | 1
	kLen := max(3, side/32)
	for i := range r.kept {
		k := &r.kept[i]
		if !k.holds(r.grayGen, g, gs, side, block, kLen) {
			continue
		}
		r.putBack(k, block)
		if i == 0 { // the most recently used last
			r.kept[0], r.kept[1] = r.kept[1], r.kept[0]
		}
		return
	}
	r.warp(g, gs, side)
	r.binarise(float64(side)/9, kLen)
	// The older slot takes the new canvas and becomes the newer.
	r.kept[0], r.kept[1] = r.kept[1], r.kept[0]
	k := &r.kept[1]
	r.keepCanvas(k)
	k.valid, k.gray, k.gs, k.side, k.g, k.block, k.kLen = true, r.grayGen, gs, side, g, block, kLen
}

// keptCanvas is a canvas rectify made, with its binarisation and line
// images, and for which grey image, grid and side.
type keptCanvas struct {
	canvas, cbin, hlines, vlines gocv.Mat
	valid                        bool
	gray                         uint64
	gs                           float64
	side, block, kLen            int
	g                            Grid
}

// holds reports whether k is the canvas of grid g on grey image gray
// (scale gs) at side with the given threshold block and kernel length.
func (k *keptCanvas) holds(gray uint64, g Grid, gs float64, side, block, kLen int) bool {
	return k.valid && k.gray == gray && k.gs == gs && k.side == side && k.g.Corners == g.Corners && k.g.H == g.H &&
		k.g.Side == g.Side && k.g.Bend == g.Bend && k.block == block && k.kLen == kLen
}

// keepCanvas copies the canvas, its binarisation and its line images
// into k.
func (r *rectifier) keepCanvas(k *keptCanvas) {
	r.canvas.CopyTo(&k.canvas)
	r.cbin.CopyTo(&k.cbin)
	r.hlines.CopyTo(&k.hlines)
	r.vlines.CopyTo(&k.vlines)
}

// putBack makes k's canvas the current one, binarised with threshold
// block block.
func (r *rectifier) putBack(k *keptCanvas, block int) {
	k.canvas.CopyTo(&r.canvas)
	k.cbin.CopyTo(&r.cbin)
	k.hlines.CopyTo(&r.hlines)
	k.vlines.CopyTo(&r.vlines)
	r.canvasGen++
	r.binGen, r.binBlock = r.canvasGen, block
	r.sums.valid = false
}

// warp fills r.canvas with the grey working image rectified to side×side,
// for grid g whose frame->canvas homography is for g.Side; gs is the scale
// from working-grey pixels to frame pixels.
func (r *rectifier) warp(g Grid, gs float64, side int) {
	r.canvasGen++
	if g.Bend != nil {
		r.warpBent(g, gs, side)
		return
	}
	// gray -> frame -> canvas(g.Side) -> canvas(side)
	k := float64(side) / float64(g.Side)
	h := mul3([9]float64{k, 0, 0, 0, k, 0, 0, 0, 1}, mul3(g.H, [9]float64{gs, 0, 0, 0, gs, 0, 0, 0, 1}))
	for i := 0; i < 9; i++ {
		r.hmat.SetDoubleAt(i/3, i%3, h[i])
	}
	gocv.WarpPerspectiveWithParams(*r.gray, &r.canvas, r.hmat, image.Pt(side, side),
		gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
}

// binarise fills r.cbin (ink = 255) from r.canvas and r.hlines/r.vlines with
// the long horizontal and vertical strokes of it (grid lines), using line
// kernels of length kLen. The threshold is kept when the canvas and the
// block are those r.cbin was made from (nothing writes r.cbin but this):
// Analyze's final pass over a 9×9 canvas changes only the kernels.
func (r *rectifier) binarise(cellPx float64, kLen int) {
	block := max(3, int(cellPx*0.75)) | 1
	if r.binGen != r.canvasGen || r.binBlock != block || r.cbin.Empty() {
		gocv.GaussianBlur(r.canvas, &r.cblur, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
		gocv.AdaptiveThreshold(r.cblur, &r.cbin, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, 7)
		r.binGen, r.binBlock = r.canvasGen, block
	}
	if kLen != r.kLen {
		r.hk.Close()
		r.vk.Close()
		r.hk = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(kLen, 1))
		r.vk = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(1, kLen))
		r.kLen = kLen
	}
	gocv.MorphologyEx(r.cbin, &r.hlines, gocv.MorphOpen, r.hk)
	gocv.MorphologyEx(r.cbin, &r.vlines, gocv.MorphOpen, r.vk)
	r.sums.valid = false
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

// readShape rectifies g and reads its box shape from the line profiles.
func (r *rectifier) readShape(g Grid, gs float64, side int) shapeGuess {
	r.rectify(g, gs, side)
	return inferShape(profile(r.hlines, 1, &r.prof), profile(r.vlines, 0, &r.prof), profile(r.cbin, 1, &r.prof), profile(r.cbin, 0, &r.prof), r.opts.Sizes)
}
