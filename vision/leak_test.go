//go:build matprofile

package vision

import (
	"bytes"
	"testing"

	"gocv.io/x/gocv"
)

// TestNoMatLeak runs Locate and Analyze many times, on good and bad frames,
// and checks every Mat they made was closed. Run with -tags matprofile.
func TestNoMatLeak(t *testing.T) {
	before := gocv.MatProfile.Count()
	func() {
		good := drawGrid(t, 640, 480, 2, 3, [4]pt{{100, 40}, {540, 50}, {530, 460}, {110, 450}})
		defer good.Close()
		blank := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC1)
		defer blank.Close()
		d := NewDetector(Options{})
		defer d.Close()
		for i := 0; i < 50; i++ {
			for _, f := range []gocv.Mat{good, blank, {}} {
				d.Analyze(f)
				d.Locate(f)
			}
		}
		m, _ := ReadImage("no/such/file.png")
		m.Close()
	}()
	if after := gocv.MatProfile.Count(); after != before {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("Mat count %d before, %d after:\n%s", before, after, b.String())
	}
}
