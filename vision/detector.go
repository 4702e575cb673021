package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// Detector finds grids in frames. It keeps scratch Mats between calls, so
// reuse one per video stream. It is not safe for concurrent use; Close
// frees its Mats.
type Detector struct {
	opts Options

	work, gray, small, blur, bin gocv.Mat
	canvas, cblur, cbin          gocv.Mat
	hlines, vlines, lines, clean gocv.Mat
	labels, stats, centroids     gocv.Mat
	prof, lap, hmat              gocv.Mat
	kernel3                      gocv.Mat
	hk, vk                       gocv.Mat // line kernels for kLen
	kLen                         int
	// canvasGen counts the canvases warp has made; binGen and binBlock
	// say which canvas d.cbin was thresholded from and with what block,
	// so binarise can keep it when only the line kernels change.
	canvasGen, binGen uint64
	binBlock          int
	// grayGen counts the frames toGray made d.gray from; kept are the
	// last two canvases rectify made (see keptCanvas), the older first.
	grayGen    uint64
	kept       [2]keptCanvas
	unbent     keptCanvas        // the canvas refineBend may put back (bend.go)
	look       gocv.Mat          // a candidate's flat view (choice.go)
	inner      gocv.Mat          // the binary image inside the largest outline (choice.go)
	ext        gocv.Mat          // the view one cell beyond a grid's sides (whole.go)
	contours   gocv.PointsVector // of the last grid search
	mapX, mapY gocv.Mat          // a bent canvas's resampling maps (bend.go)

	// The last grid search's quadrilateral (find pixels), the scale from
	// find pixels to frame pixels and where the search image's origin
	// lies in the frame (not 0 after a zoomed search), for Analyze's
	// second look.
	findQ       [4]pt
	findContour []pt
	findScale   float64
	findOrigin  pt
	// The candidates of the last grid search, in Candidates order, and
	// which of them was taken.
	cands  []candidate
	chosen int
	// The band sums of the current line images (lattice.go), until
	// binarise makes new ones.
	sums struct {
		col, row [latticeBands][]float64
		side     int
		valid    bool
	}
}

// NewDetector returns a Detector with opts (zero fields take defaults).
// Call Close when done.
func NewDetector(opts Options) *Detector {
	d := &Detector{opts: opts.withDefaults()}
	for _, m := range d.mats() {
		*m = gocv.NewMat()
	}
	d.hmat = gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	d.kernel3 = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	d.contours = gocv.NewPointsVector() // gocv cannot close a zero one
	return d
}

func (d *Detector) mats() []*gocv.Mat {
	return []*gocv.Mat{&d.work, &d.gray, &d.small, &d.blur, &d.bin, &d.canvas, &d.cblur, &d.cbin,
		&d.hlines, &d.vlines, &d.lines, &d.clean, &d.labels, &d.stats, &d.centroids, &d.prof, &d.lap,
		&d.hk, &d.vk, &d.look, &d.inner, &d.ext, &d.mapX, &d.mapY,
		&d.kept[0].canvas, &d.kept[0].cbin, &d.kept[0].hlines, &d.kept[0].vlines,
		&d.kept[1].canvas, &d.kept[1].cbin, &d.kept[1].hlines, &d.kept[1].vlines,
		&d.unbent.canvas, &d.unbent.cbin, &d.unbent.hlines, &d.unbent.vlines}
}

// Close frees the Detector's Mats. The Detector must not be used afterwards.
func (d *Detector) Close() error {
	for _, m := range d.mats() {
		m.Close()
	}
	d.hmat.Close()
	d.kernel3.Close()
	d.contours.Close()
	return nil
}

// checkFrame rejects frames OpenCV cannot process safely.
func checkFrame(frame gocv.Mat) error {
	if frame.Ptr() == nil || frame.Empty() {
		return qualityErr(BadInput, "empty frame")
	}
	if frame.Cols() < minFrameSide || frame.Rows() < minFrameSide {
		return qualityErr(BadInput, "frame %dx%d is smaller than %dx%d", frame.Cols(), frame.Rows(), minFrameSide, minFrameSide)
	}
	switch frame.Type() {
	case gocv.MatTypeCV8UC1, gocv.MatTypeCV8UC3, gocv.MatTypeCV8UC4:
	default:
		return qualityErr(BadInput, "unsupported pixel type %v (want 8-bit grey, BGR or BGRA)", frame.Type())
	}
	return nil
}

// toGray fills d.gray with the frame in grey at the working resolution and
// returns the scale from gray pixels to frame pixels.
func (d *Detector) toGray(frame gocv.Mat) float64 {
	d.grayGen++
	src := frame
	scale := d.opts.WorkScale(frame.Cols(), frame.Rows())
	if scale > 1 {
		sz := image.Pt(max(1, int(math.Round(float64(frame.Cols())/scale))), max(1, int(math.Round(float64(frame.Rows())/scale))))
		gocv.Resize(frame, &d.work, sz, 0, 0, gocv.InterpolationArea)
		src = d.work
	}
	switch src.Channels() {
	case 1:
		src.CopyTo(&d.gray)
	case 3:
		gocv.CvtColor(src, &d.gray, gocv.ColorBGRToGray)
	case 4:
		gocv.CvtColor(src, &d.gray, gocv.ColorBGRAToGray)
	}
	return scale
}

// Locate finds the grid's corners and homographies without reading its
// contents; it is the cheap per-frame tracker. The returned Grid has Side
// set to 9*CellPx and no Shape. Errors are *QualityError (BadInput, NoGrid,
// TooSmall); with TooSmall the Grid is still filled in.
func (d *Detector) Locate(frame gocv.Mat) (Grid, error) {
	return d.LocatePick(frame, Pick{})
}

// LocatePick is Locate taking the grid p picks when the frame holds
// several (Candidates lists them).
func (d *Detector) LocatePick(frame gocv.Mat, p Pick) (Grid, error) {
	g, _, err := d.locate(frame, p)
	return g, err
}

// Candidates returns the quadrilaterals the last Locate or Analyze took
// for possible grids, the most Sudoku-like first (those that do not look
// like a lattice come last, largest first), with the one taken marked.
// A frame with one candidate gives it alone, not scored (Score 0, Grid
// true).
func (d *Detector) Candidates() []Candidate {
	out := make([]Candidate, len(d.cands))
	for i, c := range d.cands {
		out[i].Score = c.score
		out[i].Grid = gridLike(d.cands, i)
		out[i].Chosen = i == d.chosen
		for k, p := range orderCorners(c.q) {
			f := d.findToFrame(p)
			out[i].Corners[k] = gocv.Point2f{X: float32(f.X), Y: float32(f.Y)}
		}
	}
	return out
}
