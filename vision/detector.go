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
	// work is the frame scaled down to MaxSide; gray is it in grey, the
	// working image the search and the canvases read.
	work, gray gocv.Mat
	// find searches the frame (search.go) and zoom a part of it, for a
	// closer look (closer.go); last is the one of them that Candidates
	// reports, the search that made the last reading.
	find, zoom finder
	last       *finder
	rect       rectifier // the canvases grids are read on (rectify.go)
}

// NewDetector returns a Detector with opts (zero fields take defaults).
// Call Close when done.
func NewDetector(opts Options) *Detector {
	d := &Detector{opts: opts.withDefaults(), work: gocv.NewMat(), gray: gocv.NewMat()}
	d.find, d.zoom = newFinder(d.opts), newFinder(d.opts)
	d.last = &d.find
	d.rect = newRectifier(d.opts, &d.gray)
	return d
}

// Close frees the Detector's Mats. The Detector must not be used afterwards.
func (d *Detector) Close() error {
	d.work.Close()
	d.gray.Close()
	d.find.close()
	d.zoom.close()
	d.rect.close()
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

// toGray fills d.gray with the frame in grey at the working resolution,
// lifted when dim (see lift; the rectifier keeps the factor), and returns the scale from gray pixels to frame pixels.
func (d *Detector) toGray(frame gocv.Mat) float64 {
	d.rect.grayGen++
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
	d.rect.lift = lift(&d.gray)
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
	f := d.last
	out := make([]Candidate, len(f.cands))
	for i, c := range f.cands {
		out[i].Score = c.score
		out[i].Grid = gridLike(f.cands, i)
		out[i].Chosen = i == f.chosen
		for k, p := range orderCorners(c.q) {
			f := f.findToFrame(p)
			out[i].Corners[k] = gocv.Point2f{X: float32(f.X), Y: float32(f.Y)}
		}
	}
	return out
}
