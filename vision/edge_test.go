package vision

import (
	"image"
	"math"
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestGridToThePhotosEdge reads photos cropped to their grid, held up to
// a camera (issue 18: screenshots, scans and cropped phone photos whose
// grid's outer lines are the photo's edge): cropped on every side, or
// at the top and bottom only, a margin of 0–3 px left. The page's edge
// against the background then merges with the grid's outline beside it,
// and on main the 9×9 was read across the grid and a margin of the page
// (corners 28–44% of a side away: "no solution" or a wrong reading), or
// read as a 6×6 made of part of it.
func TestGridToThePhotosEdge(t *testing.T) {
	dir := testenv.Shared(t, "datasets/others-train")
	outlines, err := readOutlines(filepath.Join(dir, "outlines.csv"))
	if err != nil {
		t.Fatal(err)
	}
	det := NewDetector(Options{})
	defer det.Close()
	for _, c := range []struct {
		name, photo string
		heightOnly  bool
		margin      float64
		w, h        int
		fill        float64
		pi, f       int
	}{
		{"top and bottom cut, near", "es2812-42.jpg", true, 3, 1280, 720, 0.85, 43, 20},
		{"top and bottom cut, near, turned", "es2812-22.jpg", true, 3, 1280, 720, 0.85, 27, 20},
		{"top and bottom cut, near, other photo", "es2812-51.jpg", true, 3, 1280, 720, 0.85, 51, 20},
		{"top and bottom cut, webcam", "es2812-44.jpg", true, 1, 640, 480, 0.70, 45, 20},
		{"cut on every side, far (read as 6×6)", "andreibrihac-2.jpg", false, 3, 1280, 720, 0.55, 7, 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			img, err := readImage(filepath.Join(dir, c.photo))
			if err != nil {
				t.Fatal(err)
			}
			defer img.Close()
			q, ok := outlines[c.photo]
			if !ok {
				t.Fatalf("%s has no outline", c.photo)
			}
			lo, hi := pt{math.Inf(1), math.Inf(1)}, pt{math.Inf(-1), math.Inf(-1)}
			for _, p := range q {
				lo, hi = pt{math.Min(lo.X, p.X), math.Min(lo.Y, p.Y)}, pt{math.Max(hi.X, p.X), math.Max(hi.Y, p.Y)}
			}
			r := image.Rect(int(math.Floor(lo.X-c.margin)), int(math.Floor(lo.Y-c.margin)), int(math.Ceil(hi.X+c.margin)), int(math.Ceil(hi.Y+c.margin)))
			if c.heightOnly {
				w := hi.X - lo.X
				r.Min.X, r.Max.X = int(lo.X-0.25*w), int(hi.X+0.25*w)
			}
			r = r.Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
			roi := img.Region(r)
			crop := roi.Clone()
			roi.Close()
			defer crop.Close()
			frame, at := heldFrame(t, crop, c.w, c.h, c.fill, c.pi, c.f)
			defer frame.Close()
			g, cells, err := det.Analyze(frame)
			if err != nil {
				t.Fatalf("%s: %v", c.photo, err)
			}
			if want := (sudoku.Shape{BoxRows: 3, BoxCols: 3}); g.Shape != want || len(cells) != 81 {
				t.Fatalf("%s: shape %v with %d cells, want %v", c.photo, g.Shape, len(cells), want)
			}
			var want [4]pt
			for i, p := range q {
				want[i] = at(pt{p.X - float64(r.Min.X), p.Y - float64(r.Min.Y)})
			}
			if e := cornerError(g.Corners, want); e > 0.04 {
				t.Errorf("%s: corner error %.1f%%: found %v, want %v", c.photo, 100*e, g.Corners, want)
			}
		})
	}
}
