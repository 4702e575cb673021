package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// Light as people have it: a dim room gives a frame whose paper is a
// dark grey, yet a person reads the page because the ink still stands
// out of the paper by more than the noise. The search and the canvases
// threshold with fixed grey-level margins, so a dim frame is lifted
// (its grey scaled up) before anything else, its canvases are flattened
// (divided by their paper) before the cells are cut, and a grid is
// called too dark on how far its ink stands from its paper against the
// noise, not on its mean grey.

// lift scales gray up in place when the frame is dim (its bright level,
// the grey below which liftShare of its pixels lie, is under dimLevel)
// so that level comes to liftTo, by at most maxLift, and returns the
// factor (1: left as it was). A black frame (bright level under
// darkLevel) is left as it is: there is nothing to lift.
func lift(gray *gocv.Mat) float64 {
	v, err := gray.DataPtrUint8()
	if err != nil || len(v) == 0 {
		return 1
	}
	var hist [256]int
	// Every fourth pixel is enough for a level and keeps this cheap on
	// a camera's every frame.
	for i := 0; i < len(v); i += 4 {
		hist[v[i]]++
	}
	bright := histLevel(&hist, liftShare)
	if bright >= dimLevel || bright < darkLevel {
		return 1
	}
	k := math.Min(maxLift, liftTo/float64(bright))
	gray.ConvertToWithParams(gray, gocv.MatTypeCV8U, float32(k), 0)
	if k >= smoothFrom {
		gocv.MedianBlur(*gray, gray, 3)
	}
	return k
}

// dimLevel is the bright level (see lift) below which a frame is lifted:
// below that of every photo of the training sets, so a page that reads
// today reads as before. darkLevel is the one below which a frame is
// black. liftTo is the level a dim frame's is lifted to, a plainly lit
// page's; maxLift bounds the factor (beyond it the noise is all there
// is). liftShare is the share of a frame's pixels darker than its bright
// level. The "Light" paragraph of docs/performance.md has the levels
// measured.
const (
	dimLevel   = 110
	darkLevel  = 6
	liftTo     = 180
	maxLift    = 8.0
	liftShare  = 0.99
	smoothFrom = 2.0
)

// histLevel is the grey level below which share of hist's pixels lie.
func histLevel(hist *[256]int, share float64) int {
	total := 0
	for _, c := range hist {
		total += c
	}
	want, seen := share*float64(total), 0
	for g, c := range hist {
		if seen += c; float64(seen) >= want {
			return g
		}
	}
	return 255
}

// legibility measures how far the ink of canvas grey stands from its
// paper: gap is the paper's grey (the median, most of a grid is paper)
// less the ink's (the inkShare darkest pixels: grid lines and digits),
// and noise the spread of the pixels about their 3×3 neighbourhood (a
// robust deviation, so the edges of the ink count little), at least one
// grey level. scratch is a Mat to work in.
func legibility(grey gocv.Mat, scratch *gocv.Mat) (gap, noise float64) {
	v, err := grey.DataPtrUint8()
	if err != nil || len(v) == 0 || grey.Type() != gocv.MatTypeCV8U {
		return 0, 1
	}
	var hist [256]int
	for _, x := range v {
		hist[x]++
	}
	gap = float64(histLevel(&hist, 0.5) - histLevel(&hist, inkShare))
	gocv.BoxFilter(grey, scratch, -1, image.Pt(3, 3))
	b, err := scratch.DataPtrUint8()
	if err != nil || len(b) != len(v) {
		return gap, 1
	}
	var dev [256]int
	for i, x := range v {
		d := int(x) - int(b[i])
		if d < 0 {
			d = -d
		}
		dev[min(d, 255)]++
	}
	// The median absolute deviation of a pixel from its 3×3 mean, as the
	// standard deviation of Gaussian noise (1.4826 for a median, and the
	// mean's own share of the pixel: sqrt(8/9)).
	noise = math.Max(1, 1.4826*float64(histLevel(&dev, 0.5))/math.Sqrt(8.0/9))
	return gap, noise
}

// inkShare is the share of a grid's canvas taken for ink when its
// legibility is measured: less than its grid lines alone cover.
const inkShare = 0.03

// flatten divides canvas grey by its paper (the grey with the ink closed
// over, about half a cell wide: cs pixels a cell), so paper comes out at
// flatPaper everywhere and the ink by its own share of it: a page lit
// from one side, lifted from a dim frame, or with a shadow across it,
// gives cells that look like a plainly lit page's. A dim canvas (lifted)
// takes its paper blurred over a cell, smooth as its light falls off; a
// lit one (sharp) over a quarter of a cell and never above the closed
// grey, so a shadow's edge stays where it is instead of leaving a dark
// band along it. It reports whether it changed grey: an evenly lit canvas
// is left as it is, and so is one whose unevenness tinted (asked only
// then: nil for none) says is printed. scratch and bg are Mats to work in.
func flatten(grey *gocv.Mat, cs float64, sharp bool, tinted func() bool, bg, scratch *gocv.Mat) bool {
	if grey.Empty() || grey.Type() != gocv.MatTypeCV8U || cs < 2 {
		return false
	}
	k := max(3, int(cs*0.5)|1)
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(k, k))
	defer kernel.Close()
	gocv.MorphologyEx(*grey, scratch, gocv.MorphClose, kernel)
	blur, even := cs, evenPaper
	if sharp {
		blur, even = cs/4, litPaper
	}
	b := max(3, int(blur)|1)
	gocv.GaussianBlur(*scratch, bg, image.Pt(b, b), 0, 0, gocv.BorderReplicate)
	if sharp {
		gocv.Min(*bg, *scratch, bg)
	}
	v, err1 := grey.DataPtrUint8()
	w, err2 := bg.DataPtrUint8()
	if err1 != nil || err2 != nil || len(v) != len(w) {
		return false
	}
	var hist [256]int
	for _, x := range w {
		hist[x]++
	}
	if lo, hi := histLevel(&hist, 0.05), histLevel(&hist, 0.95); float64(lo) >= even*float64(hi) {
		return false
	}
	if tinted != nil && tinted() {
		return false
	}
	for i, x := range v {
		v[i] = uint8(min(255, int(x)*flatPaper/max(1, int(w[i]))))
	}
	return true
}

// flatPaper is the grey flatten gives paper. evenPaper is how dark (a
// share of the brightest) the darkest of a canvas's paper may be for it
// to be left as it is: an evenly lit page, which flattening reads less
// surely, as the "Light" paragraph of docs/performance.md measures.
// litPaper is evenPaper for a lit canvas: darker paper than a photo's
// vignetting or a lamp's fall-off leaves, a shadow across the page, so
// that pages read well as they are stay as they are.
const (
	flatPaper = 200
	evenPaper = 0.7
	litPaper  = 0.5
)
