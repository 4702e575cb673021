package held

import (
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// TestFrame renders a plain photo into a frame of the size asked for and
// refuses, with an error rather than OpenCV's abort, what it cannot
// render.
func TestFrame(t *testing.T) {
	img := gocv.NewMatWithSize(90, 60, gocv.MatTypeCV8UC3)
	defer img.Close()
	img.SetTo(gocv.NewScalar(255, 255, 255, 0))
	frame, hm, err := Frame(img, 320, 240, 0.7, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	if frame.Cols() != 320 || frame.Rows() != 240 || frame.Type() != gocv.MatTypeCV8UC3 {
		t.Errorf("frame %dx%d type %v, want 320x240 colour", frame.Cols(), frame.Rows(), frame.Type())
	}
	// The photo's centre lands inside the frame, on the white photo.
	x, y, w := hm[0]*30+hm[1]*45+hm[2], hm[3]*30+hm[4]*45+hm[5], hm[6]*30+hm[7]*45+hm[8]
	cx, cy := int(x/w), int(y/w)
	if cx < 0 || cy < 0 || cx >= 320 || cy >= 240 || frame.GetVecbAt(cy, cx)[0] != 255 {
		t.Errorf("photo centre mapped to (%d, %d), not on the photo", cx, cy)
	}
	frame.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	for _, c := range []struct {
		name string
		img  gocv.Mat
		w, h int
		fill float64
	}{
		{"empty photo", empty, 320, 240, 0.7},
		{"no width", img, 0, 240, 0.7},
		{"negative height", img, 320, -1, 0.7},
		{"huge frame", img, 100000, 240, 0.7},
		{"no fill", img, 320, 240, 0},
		{"NaN fill", img, 320, 240, math.NaN()},
		{"infinite fill", img, 320, 240, math.Inf(1)},
	} {
		if m, _, err := Frame(c.img, c.w, c.h, c.fill, 1, 10); err == nil {
			m.Close()
			t.Errorf("%s: no error", c.name)
		}
	}
}
