package pipeline

import (
	"image"
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestCutByThePhoto: a photo whose edge cuts the grid says "move back",
// never a solution; the same grid cropped tight, whole, is read and
// solved as the full photo is. Four of the cut crops were shown solved
// with a wrong solution before the edge rule (read as 9×9 stretched over
// the part in view, or as a 6×6 made of its boxes). The crops are of
// tune-side photos (not in testdata/live/*-holdout.list); a crop's
// rectangle is clipped to its photo.
func TestCutByThePhoto(t *testing.T) {
	const far = 1 << 20
	cases := []struct {
		name, photo string
		crop        image.Rectangle
		cut         bool
	}{
		{"one column cut", "wicht-v2-train/image1000.jpg", image.Rect(0, 0, 845, far), true},
		{"two rows cut", "wicht-v2-train/image1000.jpg", image.Rect(0, 0, far, 898), true},
		{"read as its 6×6 boxes (was a wrong solution)", "wicht-v2-train/image195.jpg", image.Rect(0, 0, 389, far), true},
		{"one column cut, read as 6×6 (was a wrong solution)", "wicht-v2-train/image1066.jpg", image.Rect(0, 0, 600, far), true},
		{"top rows cut (was a wrong solution)", "others-train/es2812-43.jpg", image.Rect(0, 305, far, far), true},
		{"right columns cut (was a wrong solution)", "others-train/es2812-54.jpg", image.Rect(0, 0, 1306, far), true},
		{"whole, cropped tight", "wicht-v2-train/image1000.jpg", image.Rect(1, 109, 941, 1163), false},
		{"whole, cropped tight, dim", "wicht-v2-train/image195.jpg", image.Rect(35, 2, 509, 473), false},
		{"whole, cropped tight, 39 givens", "wicht-v2-train/image1066.jpg", image.Rect(39, 338, 665, 949), false},
		{"whole, cropped tight, large", "others-train/es2812-43.jpg", image.Rect(7, 38, 1030, 1099), false},
	}
	dir := testenv.Shared(t, "datasets")
	p := newPipeline(t, "")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.photo)
			img, err := ReadImage(path, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer img.Close()
			full := p.Process(img)
			if full.Status != StatusSolved {
				t.Fatalf("%s whole: %s, want solved", c.photo, full.Status)
			}
			region := img.Region(c.crop.Intersect(image.Rect(0, 0, img.Cols(), img.Rows())))
			frame := region.Clone()
			region.Close()
			defer frame.Close()
			r := p.Process(frame)
			switch {
			case c.cut && r.Status != StatusMoveBack:
				t.Errorf("%s cropped to %v: %s (%s, read %s), want move back", c.photo, c.crop, r.Status, r.Error, r.Given())
			case !c.cut && r.Status != StatusSolved:
				t.Errorf("%s cropped to %v: %s (%s), want solved", c.photo, c.crop, r.Status, r.Error)
			case !c.cut && sudoku.CellString(r.Solved.Cells) != sudoku.CellString(full.Solved.Cells):
				t.Errorf("%s cropped to %v: solved as %s, the whole photo as %s", c.photo, c.crop,
					sudoku.CellString(r.Solved.Cells), sudoku.CellString(full.Solved.Cells))
			}
		})
	}
}
