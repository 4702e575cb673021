package vision

import "testing"

// TestPageLookedAtCloser reads held-out photos held up far (1280×720 at
// 55%) and small (640×480 at 55%) whose first search takes the page they
// are printed on, not the grid: the lattice inside the page's outline is
// lost at the search's resolution. Read at the search's corners, those
// pages gave grids 9–11% of a side off the true one (a retry candidate, or
// lines merged with the page's edge); the page looked at closer first
// gives each within 5%.
func TestPageLookedAtCloser(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	for _, fr := range heldOutFramings {
		var names []string
		switch fr.name {
		case "far1280x720at55":
			names = []string{"es2812-40.jpg", "image90.jpg"}
		case "small640x480at55":
			names = []string{"es2812-40.jpg", "image201.jpg"}
		default:
			continue
		}
		t.Run(fr.name, func(t *testing.T) {
			frames := heldOutFrames(t, fr.w, fr.h, fr.fill, 30)
			defer closeHeldOut(frames)
			for _, name := range names {
				found := false
				for _, f := range frames {
					if f.name != name {
						continue
					}
					found = true
					g, _, err := d.Analyze(f.frame)
					if err != nil || g.Shape.N() != 9 {
						t.Errorf("%s: %v (N=%d), want a 9×9 grid", name, err, g.Shape.N())
						continue
					}
					if e := cornerError(g.Corners, ptsOf(f.grid)); e > 0.05 {
						t.Errorf("%s: corners %.1f%% of a side off the grid's, want within 5%%", name, 100*e)
					}
				}
				if !found {
					t.Errorf("%s is not among the held-out photos", name)
				}
			}
		})
	}
}
