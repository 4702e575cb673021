package live

import (
	"image"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/vision"
)

// TestTrackerFollows finds a grid in one frame, moves the picture by a
// few pixels (and turns it a little), and checks that optical flow alone
// puts the grid's corners where the detector finds them in the moved
// frame; on a frame with no grid it must give up rather than guess.
func TestTrackerFollows(t *testing.T) {
	for _, tc := range []struct {
		name        string
		dx, dy, deg float64
		w, h        int
	}{
		{"small shift 640x480", 6, -4, 0, 640, 480},
		{"shift and turn 640x480", -9, 7, 2, 640, 480},
		{"shift 1280x720 (halved for flow)", 14, 10, 1, 1280, 720},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := pageSized(t, 7011, 10, tc.w, tc.h)
			defer a.Close()
			rot := gocv.GetRotationMatrix2D(image.Pt(tc.w/2, tc.h/2), tc.deg, 1)
			defer rot.Close()
			rot.SetDoubleAt(0, 2, rot.GetDoubleAt(0, 2)+tc.dx)
			rot.SetDoubleAt(1, 2, rot.GetDoubleAt(1, 2)+tc.dy)
			b := gocv.NewMat()
			defer b.Close()
			gocv.WarpAffineWithParams(a, &b, rot, image.Pt(tc.w, tc.h), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
			det := vision.NewDetector(vision.Options{})
			defer det.Close()
			ga, err := det.Locate(a)
			if err != nil {
				t.Fatal(err)
			}
			gb, err := det.Locate(b)
			if err != nil {
				t.Fatal(err)
			}
			tr := newTracker()
			defer tr.Close()
			tr.found(a, ga, false)
			got, ok := tr.follow(b)
			if !ok {
				t.Fatal("flow lost the grid")
			}
			for k := range got.Corners {
				d := math.Hypot(float64(got.Corners[k].X-gb.Corners[k].X), float64(got.Corners[k].Y-gb.Corners[k].Y))
				if d > 2.5 {
					t.Errorf("corner %d: flow puts it at %v, the detector at %v (%.1f px apart)", k, got.Corners[k], gb.Corners[k], d)
				}
			}
			// The canvas mapping moves with the corners.
			x, y := vision.Apply(got.H, float64(got.Corners[2].X), float64(got.Corners[2].Y))
			if math.Abs(x-float64(got.Side)) > 0.5 || math.Abs(y-float64(got.Side)) > 0.5 {
				t.Errorf("H maps the bottom-right corner to (%.1f, %.1f), want (%d, %d)", x, y, got.Side, got.Side)
			}
			blank := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(128, 128, 128, 0), tc.h, tc.w, gocv.MatTypeCV8UC3)
			defer blank.Close()
			tr.found(a, ga, false)
			if g, ok := tr.follow(blank); ok {
				t.Errorf("flow followed the grid into a blank frame, to %v", g.Corners)
			}
		})
	}
	// At most maxTracked frames by flow alone.
	a, _ := pageSized(t, 7011, 10, 640, 480)
	defer a.Close()
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	g, err := det.Locate(a)
	if err != nil {
		t.Fatal(err)
	}
	tr := newTracker()
	defer tr.Close()
	tr.found(a, g, false)
	n := 0
	for ; n < 3*maxTracked; n++ {
		next, ok := tr.follow(a)
		if !ok {
			break
		}
		tr.found(a, next, true)
	}
	if n != maxTracked {
		t.Errorf("followed %d frames by flow alone, want %d", n, maxTracked)
	}
}
