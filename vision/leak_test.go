//go:build matprofile

package vision

import (
	"bytes"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// TestNoMatLeak runs Locate and Analyze (also told where to look) many times, on good and bad frames,
// and checks every Mat they made was closed. Run with -tags matprofile.
func TestNoMatLeak(t *testing.T) {
	before := gocv.MatProfile.Count()
	func() {
		good := drawGrid(t, 640, 480, 2, 3, [4]pt{{100, 40}, {540, 50}, {530, 460}, {110, 450}})
		defer good.Close()
		blank := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC1)
		defer blank.Close()
		frames := []gocv.Mat{good, blank, {}}
		// Synthetic photos that take the costlier paths: a 16×16 grid (second
		// look, lattice snap) and a grid fused with its caption (weak lines,
		// search for the grid's cells).
		// A page with two puzzles (candidates scored, a pick by point) and
		// curled pages (bends: resampling maps, evened boxes, refined
		// crossings).
		for _, name := range []string{"synth/image6.jpg", "synth/image24.jpg", "synth-beside/image1.jpg",
			"synth-curl/image1.jpg", "synth-curl/image2.jpg", "synth-curl/image17.jpg"} {
			m, err := readImage(filepath.Join(testenv.RepoRoot(), "testdata", name))
			defer m.Close()
			if err == nil {
				frames = append(frames, m)
			}
		}
		d := NewDetector(Options{})
		defer d.Close()
		for i := 0; i < 50; i++ {
			for _, f := range frames {
				d.Analyze(f)
				d.Locate(f)
				d.AnalyzePick(f, Pick{Rank: 1})
				d.LocatePick(f, Pick{Near: gocv.Point2f{X: 100, Y: 100}, ByPoint: true})
				// Told where the grid is, rightly and wrongly (Within).
				for _, q := range [][4]gocv.Point2f{{{X: 100, Y: 40}, {X: 540, Y: 50}, {X: 530, Y: 460}, {X: 110, Y: 450}}, {{X: 5, Y: 5}, {X: 80, Y: 5}, {X: 80, Y: 80}, {X: 5, Y: 80}}} {
					d.AnalyzePick(f, Pick{Within: &q})
				}
			}
		}
		m, _ := readImage("no/such/file.png")
		m.Close()
	}()
	if after := gocv.MatProfile.Count(); after != before {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("Mat count %d before, %d after:\n%s", before, after, b.String())
	}
}
