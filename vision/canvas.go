package vision

import "gocv.io/x/gocv"

// The two halves of Analyze's last step, for a caller that combines the
// views of one grid before reading it (the live camera averages the
// canvases of several frames of one page, aligned by each frame's own
// Grid): Canvas gives a frame's rectified view of a grid found in it, and
// CellsOf cuts the cells from such a view as Analyze cuts them from its
// own.

// maxCanvasSide bounds the canvas a caller may ask for: four times the
// finest canvas Analyze makes (a 16×16 grid at 32 px a cell).
const maxCanvasSide = 4 * 16 * 32

// checkCanvasGrid rejects grids whose canvas OpenCV cannot be asked for.
func checkCanvasGrid(g Grid) error {
	if g.Side <= 0 || g.Side > maxCanvasSide {
		return qualityErr(BadInput, "canvas side %d outside 1..%d", g.Side, maxCanvasSide)
	}
	if n := g.Shape.N(); n < 1 || g.Side < n {
		return qualityErr(BadInput, "grid shape %v does not fit a canvas of side %d", g.Shape, g.Side)
	}
	return nil
}

// Canvas puts into dst (8-bit grey, g.Side square) the view of frame
// through g, a grid Analyze found in it: the frame at the working
// resolution rectified through g's homography and bend, the canvas
// Analyze cut g's cells from. Errors are *QualityError (BadInput).
func (d *Detector) Canvas(frame gocv.Mat, g Grid, dst *gocv.Mat) error {
	if err := checkFrame(frame); err != nil {
		return err
	}
	if err := checkCanvasGrid(g); err != nil {
		return err
	}
	if g.Bend != nil && !g.Bend.valid() {
		return qualityErr(BadInput, "bend mesh of %d intervals has %d×%d points", g.Bend.K, len(g.Bend.DX), len(g.Bend.DY))
	}
	gs := d.toGray(frame)
	c := d.rect.fresh(nil)
	d.rect.warp(c, g, gs, g.Side)
	c.grey.CopyTo(dst)
	return nil
}

// CellsOf cuts the cells of g's grid (its Shape and Side) from canvas, an
// 8-bit grey g.Side square such as Canvas gives (or the mean of several),
// binarised and cut exactly as Analyze cuts its final canvas (small cells
// several ways, as the corners of g in the frame say). The Grid
// returned is g with the canvas's Sharpness and Brightness. Errors are
// *QualityError (BadInput).
func (d *Detector) CellsOf(canvas gocv.Mat, g Grid) (Grid, []Cell, error) {
	if err := checkCanvasGrid(g); err != nil {
		return g, nil, err
	}
	if canvas.Empty() || canvas.Type() != gocv.MatTypeCV8UC1 || canvas.Rows() != g.Side || canvas.Cols() != g.Side {
		return g, nil, qualityErr(BadInput, "canvas %dx%d of type %v, want %dx%d 8-bit grey",
			canvas.Cols(), canvas.Rows(), canvas.Type(), g.Side, g.Side)
	}
	c := d.rect.fresh(nil)
	canvas.CopyTo(&c.grey)
	n := g.Shape.N()
	cs := float64(g.Side) / float64(n)
	d.rect.binarise(c, cs, cutKernel(g.Side, cs))
	d.rect.measure(c, &g, cs)
	cells := d.rect.cells(c, n, cs, d.opts.manyLooks(g, n))
	return g, cells, nil
}
