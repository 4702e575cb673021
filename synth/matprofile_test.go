//go:build matprofile

package synth

import (
	"testing"

	"gocv.io/x/gocv"
)

// TestNoMatLeaks renders photos (with and without JPEG, with motion blur
// somewhere among the seeds) and a small video, and checks every Mat made
// along the way was closed. Run with: go test -tags matprofile ./synth/
func TestNoMatLeaks(t *testing.T) {
	start := gocv.MatProfile.Count()
	for seed := int64(0); seed < 24; seed++ {
		opts := DefaultOptions(320, 240, seed)
		if seed%2 == 1 {
			opts.JPEGMin, opts.JPEGMax = 0, 0
		}
		if seed%3 == 0 {
			opts.Fingers = 1
		}
		ph, err := Render(puzzle(t, []int{4, 6, 8, 9, 12, 16}[seed%6], seed), opts)
		if err != nil {
			t.Fatal(err)
		}
		ph.Image.Close()
	}
	bad := DefaultOptions(0, 240, 1)
	if _, err := Render(puzzle(t, 9, 1), bad); err == nil {
		t.Fatal("zero width accepted")
	}
	o := DefaultVideoOptions(1, puzzle(t, 9, 1), puzzle(t, 9, 2))
	o.Width, o.Height, o.FPS = 160, 120, 4
	if err := RenderVideo(o, func(gocv.Mat, VideoFrame) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if n := gocv.MatProfile.Count(); n != start {
		t.Fatalf("open Mats went from %d to %d: a Mat was not closed", start, n)
	}
}
