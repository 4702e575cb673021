package vision

import (
	"testing"

	"gocv.io/x/gocv"
)

// TestWithinFindsTheGrid reads held-out photos held up to a camera in each
// framing the scored videos use (every third of the 52; see
// heldOutFrames) told where the grid is (Pick.Within, as live's tracker
// tells it), and told wrongly. Told rightly, it reads each grid the whole
// search reads, its corners as near the grid's as the whole search's or
// within 4% of its side (the region is searched at a finer resolution),
// and no grid as another size. Told a place the grid
// is not (a quadrilateral as large in the frame's other half, a small one
// in a corner: a stale hint, a page swapped), it still reads the grid the
// whole search does.
func TestWithinFindsTheGrid(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	for _, fr := range heldOutFramings {
		t.Run(fr.name, func(t *testing.T) {
			frames := heldOutFrames(t, fr.w, fr.h, fr.fill, 30)
			defer closeHeldOut(frames)
			read, hintedRead := 0, 0
			for k := 0; k < len(frames); k += 3 {
				f := frames[k]
				g0, _, err0 := d.Analyze(f.frame)
				full := err0 == nil && g0.Shape.N() == 9
				// The same quadrilateral moved half the frame sideways.
				dx := float32(fr.w) / 2
				if centroid(ptsOf(f.grid)).X > float64(dx) {
					dx = -dx
				}
				elsewhere := f.grid
				for i := range elsewhere {
					elsewhere[i].X += dx
				}
				corner := [4]gocv.Point2f{{X: 2, Y: 2}, {X: 60, Y: 2}, {X: 60, Y: 60}, {X: 2, Y: 60}}
				for _, hint := range []struct {
					name  string
					q     [4]gocv.Point2f
					right bool
				}{{"the grid", f.grid, true}, {"elsewhere", elsewhere, false}, {"a corner", corner, false}} {
					g, _, err := d.AnalyzePick(f.frame, Pick{Within: &hint.q})
					got := err == nil && g.Shape.N() == 9
					if hint.right && got {
						hintedRead++
					}
					truthErr := cornerError(g.Corners, ptsOf(f.grid))
					switch {
					case full && !got:
						t.Errorf("%s told %s: %v (N=%d), the whole search reads it", f.name, hint.name, err, g.Shape.N())
					case !full && err == nil && g.Shape.N() != 9:
						t.Errorf("%s told %s: read as %d×%d", f.name, hint.name, g.Shape.N(), g.Shape.N())
					case !full:
					case hint.right && truthErr > max(0.04, cornerError(g0.Corners, ptsOf(f.grid))):
						// Told where, the grid may be found better than by the
						// whole search (its corners seen at a finer
						// resolution), never worse.
						t.Errorf("%s told %s: corners %.1f%% off the grid's, the whole search's %.1f%%", f.name, hint.name,
							100*truthErr, 100*cornerError(g0.Corners, ptsOf(f.grid)))
					case !hint.right && cornerError(g.Corners, ptsOf(g0.Corners)) > 0.03:
						t.Errorf("%s told %s: corners %v, the whole search %v", f.name, hint.name, g.Corners, g0.Corners)
					}
				}
				if full {
					read++
				}
			}
			t.Logf("%s: the whole search reads %d, told where, %d", fr.name, read, hintedRead)
		})
	}
}
