//go:build matprofile

package overlay

import (
	"bytes"
	"image/color"
	"testing"

	"gocv.io/x/gocv"
)

// TestNoMatLeak draws many times and checks every Mat made was closed.
// Run with -tags matprofile.
func TestNoMatLeak(t *testing.T) {
	frame, g := gridFrame(t, 640, 480, 100, 40, 400)
	defer frame.Close()
	p, s := puzzlePair()
	before := gocv.MatProfile.Count()
	empty := gocv.NewMat()
	for i := 0; i < 50; i++ {
		Solution(&frame, g, p, s, DefaultStyle())
		Highlight(&frame, g, []int{3, 4}, color.RGBA{R: 255})
		Outline(&frame, g, color.RGBA{G: 255})
		HUD(&frame, []string{"status", "fps"})
		Circles(&frame, g, []int{3, 40}, color.RGBA{R: 255})
		Banner(&frame, "Solved", color.RGBA{G: 255})
		Solution(&empty, g, p, s, DefaultStyle())
	}
	empty.Close()
	if after := gocv.MatProfile.Count(); after != before {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("Mat count %d before, %d after:\n%s", before, after, b.String())
	}
}
