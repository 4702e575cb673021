package live

import (
	"image"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/vision"
)

// sharpest keeps, of the frames offered since the recogniser last took
// one, the sharpest, with the job the display loop made of it and the ink
// print it took there: until a page is read, the recogniser reads that
// frame rather than whichever frame is current when it is free (a hand-held
// camera blurs most frames; one clear frame is enough). A frame is at most
// one recognition old when read, and the keeper is emptied whenever the
// page in view may have changed (reset), so it never holds another page.
type sharpest struct {
	frame gocv.Mat // the frame kept (empty: none)
	job   job      // its job, frame not set
	print inkPrint // its ink print (nil: none taken)
	area  float64  // the area of the quadrilateral print was taken on
	score float64  // its sharpness (see sharpness)
	have  bool
	// Scratch for sharpness.
	h, warped, grey, lap gocv.Mat
}

func newSharpest() *sharpest {
	return &sharpest{frame: gocv.NewMat(), h: gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F),
		warped: gocv.NewMat(), grey: gocv.NewMat(), lap: gocv.NewMat()}
}

// Close releases the frame kept and the scratch Mats.
func (k *sharpest) Close() {
	for _, m := range []*gocv.Mat{&k.frame, &k.h, &k.warped, &k.grey, &k.lap} {
		m.Close()
	}
}

// offer keeps frame (copied) with its job, print and the area print was
// taken on, when its score is at least that of the frame kept: of equally
// sharp frames, the newest.
func (k *sharpest) offer(frame gocv.Mat, j job, print inkPrint, area, score float64) {
	if k.have && score < k.score {
		return
	}
	frame.CopyTo(&k.frame)
	k.job, k.print, k.area, k.score, k.have = j, print, area, score, true
}

// take hands over the frame kept in its job (the caller, the recogniser,
// closes job.frame) with its print and area, and empties the keeper; ok is
// false when nothing was offered since it was last emptied.
func (k *sharpest) take() (j job, print inkPrint, area float64, ok bool) {
	if !k.have {
		return job{}, nil, 0, false
	}
	j = k.job
	j.frame, k.frame = k.frame, gocv.NewMat()
	print, area = k.print, k.area
	k.reset()
	return j, print, area, true
}

// reset forgets the frame kept (its Mat is reused by the next offer).
func (k *sharpest) reset() {
	k.job, k.print, k.area, k.score, k.have = job{}, nil, 0, 0, false
}

// unsharp is the score of a frame the grid was not followed in: any frame
// it was followed in is sharper.
const unsharp = -1

// sharpSide is the side of the canvas sharpness is measured on: large
// enough that a blur of a tenth of a 9×9 cell shows, small enough to cost
// a fraction of a millisecond.
const sharpSide = 256

// sharpness scores how sharp the grid g is in frame (BGR or grey): the
// variance of the Laplacian of the grid rectified onto a canvas of
// sharpSide pixels, as vision measures a canvas (Grid.Sharpness). The
// canvas's size does not depend on the grid's in the frame, so frames of
// one page compare however near it is held. It is unsharp when g is not
// placed or the frame cannot be rectified.
func (k *sharpest) sharpness(frame gocv.Mat, g vision.Grid) float64 {
	if g.Side <= 0 || frame.Empty() || (frame.Channels() != 3 && frame.Channels() != 1) {
		return unsharp
	}
	// g.H maps the frame onto a canvas of g.Side pixels; scale it to ours.
	s := float64(sharpSide) / float64(g.Side)
	for i := 0; i < 9; i++ {
		v := g.H[i]
		if i < 6 {
			v *= s
		}
		k.h.SetDoubleAt(i/3, i%3, v)
	}
	size := image.Pt(sharpSide, sharpSide)
	if frame.Channels() == 1 {
		gocv.WarpPerspective(frame, &k.grey, k.h, size)
	} else {
		gocv.WarpPerspective(frame, &k.warped, k.h, size)
		gocv.CvtColor(k.warped, &k.grey, gocv.ColorBGRToGray)
	}
	if k.grey.Empty() {
		return unsharp
	}
	return vision.Sharpness(k.grey, &k.lap)
}
