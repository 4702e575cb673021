package vision

import (
	"image"
	"image/color"

	"gocv.io/x/gocv"
)

// rectify warps g onto the canvas of the given side and binarises it
// there, for a 9×9 reading (the first look at any grid).
// The last two rectified canvases are kept (d.kept): the steps of an
// analysis try another outline or a bend on the canvas and, when that
// reads no better, put the grid they started from back, which then costs
// copies instead of a warp and a binarisation (two, as the canvas tried
// is kept too: the first reading's flat canvas then survives the bend
// tried after it).
func (d *Detector) rectify(g Grid, gs float64, side int) {
	block := max(3, int(float64(side)/9*0.75)) | 1
	kLen := max(3, side/32)
	for i := range d.kept {
		k := &d.kept[i]
		if !k.holds(d.grayGen, g, gs, side, block, kLen) {
			continue
		}
		d.putBack(k, block)
		if i == 0 { // the most recently used last
			d.kept[0], d.kept[1] = d.kept[1], d.kept[0]
		}
		return
	}
	d.warp(g, gs, side)
	d.binarise(float64(side)/9, kLen)
	// The older slot takes the new canvas and becomes the newer.
	d.kept[0], d.kept[1] = d.kept[1], d.kept[0]
	k := &d.kept[1]
	d.keepCanvas(k)
	k.valid, k.gray, k.gs, k.side, k.g, k.block, k.kLen = true, d.grayGen, gs, side, g, block, kLen
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
func (d *Detector) keepCanvas(k *keptCanvas) {
	d.canvas.CopyTo(&k.canvas)
	d.cbin.CopyTo(&k.cbin)
	d.hlines.CopyTo(&k.hlines)
	d.vlines.CopyTo(&k.vlines)
}

// putBack makes k's canvas the current one, binarised with threshold
// block block.
func (d *Detector) putBack(k *keptCanvas, block int) {
	k.canvas.CopyTo(&d.canvas)
	k.cbin.CopyTo(&d.cbin)
	k.hlines.CopyTo(&d.hlines)
	k.vlines.CopyTo(&d.vlines)
	d.canvasGen++
	d.binGen, d.binBlock = d.canvasGen, block
	d.sums.valid = false
}

// warp fills d.canvas with the grey working image rectified to side×side,
// for grid g whose frame->canvas homography is for g.Side; gs is the scale
// from working-grey pixels to frame pixels.
func (d *Detector) warp(g Grid, gs float64, side int) {
	d.canvasGen++
	if g.Bend != nil {
		d.warpBent(g, gs, side)
		return
	}
	// gray -> frame -> canvas(g.Side) -> canvas(side)
	k := float64(side) / float64(g.Side)
	h := mul3([9]float64{k, 0, 0, 0, k, 0, 0, 0, 1}, mul3(g.H, [9]float64{gs, 0, 0, 0, gs, 0, 0, 0, 1}))
	for i := 0; i < 9; i++ {
		d.hmat.SetDoubleAt(i/3, i%3, h[i])
	}
	gocv.WarpPerspectiveWithParams(d.gray, &d.canvas, d.hmat, image.Pt(side, side),
		gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
}

// binarise fills d.cbin (ink = 255) from d.canvas and d.hlines/d.vlines with
// the long horizontal and vertical strokes of it (grid lines), using line
// kernels of length kLen. The threshold is kept when the canvas and the
// block are those d.cbin was made from (nothing writes d.cbin but this):
// Analyze's final pass over a 9×9 canvas changes only the kernels.
func (d *Detector) binarise(cellPx float64, kLen int) {
	block := max(3, int(cellPx*0.75)) | 1
	if d.binGen != d.canvasGen || d.binBlock != block || d.cbin.Empty() {
		gocv.GaussianBlur(d.canvas, &d.cblur, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
		gocv.AdaptiveThreshold(d.cblur, &d.cbin, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, 7)
		d.binGen, d.binBlock = d.canvasGen, block
	}
	if kLen != d.kLen {
		d.hk.Close()
		d.vk.Close()
		d.hk = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(kLen, 1))
		d.vk = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(1, kLen))
		d.kLen = kLen
	}
	gocv.MorphologyEx(d.cbin, &d.hlines, gocv.MorphOpen, d.hk)
	gocv.MorphologyEx(d.cbin, &d.vlines, gocv.MorphOpen, d.vk)
	d.sums.valid = false
}

// profile returns the sums of m along rows (dim 1: one value per row) or
// columns (dim 0).
func (d *Detector) profile(m gocv.Mat, dim int) []float32 {
	gocv.Reduce(m, &d.prof, dim, gocv.ReduceSum, gocv.MatTypeCV32F)
	v, err := d.prof.DataPtrFloat32()
	if err != nil {
		return nil
	}
	return append([]float32(nil), v...)
}

// readShape rectifies g and reads its box shape from the line profiles.
func (d *Detector) readShape(g Grid, gs float64, side int) shapeGuess {
	d.rectify(g, gs, side)
	return inferShape(d.profile(d.hlines, 1), d.profile(d.vlines, 0), d.profile(d.cbin, 1), d.profile(d.cbin, 0), d.opts.Sizes)
}
