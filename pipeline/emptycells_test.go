package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/internal/held"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestSmallCellsNotEmptied reads real photos held up to a 640×480 webcam
// at 55% of the frame's height (cells 14–19 px, frames of
// ../shared/tools/mkvideo's motion) and wants every cell read as printed:
// each given read as its digit, each empty cell left empty. Main's code
// before the line remnants were told apart (vision's markLines) lost the
// givens in brackets: a dash of a blurred grid line beside the digit
// squeezed it into a blob the reader called empty, or a corner of two
// lines taken for the cell's ink left the digit faint. None may be shown
// solved with another solution than the page's.
func TestSmallCellsNotEmptied(t *testing.T) {
	dir := testenv.Shared(t, "datasets/others-train")
	p := newPipeline(t, "")
	for _, c := range []struct {
		photo string
		pi, f int
	}{
		{"es2812-10.jpg", 15, 15},      // (r1c1 4, r4c1 5, r9c4 7 read empty)
		{"es2812-8.jpg", 57, 47},       // (r8c9 1 read empty)
		{"es2812-8.jpg", 57, 51},       // (r6c1 6 read empty)
		{"es2812-14.jpg", 19, 59},      // (r1c5 8 read empty)
		{"andreibrihac-14.jpg", 4, 19}, // (r1c1 5 read empty)
		{"es2812-3.jpg", 33, 47},       // (r4c6 8, r7c9 6 read empty, r7c3 4 read 5)
	} {
		path := filepath.Join(dir, c.photo)
		truth, err := ReadTruth(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := ReadImage(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		frame, _, err := held.Frame(img, 640, 480, 0.55, c.pi, c.f)
		img.Close()
		if err != nil {
			t.Fatal(err)
		}
		r := p.Process(frame)
		frame.Close()
		want := sudoku.CellString(truth.Cells)
		if r.Given() != want {
			t.Errorf("%s frame %d (cells %.1f px): read %s (%s), want %s", c.photo, c.f, r.CellPx, r.Given(), r.Status, want)
		}
		if sol, err := sudoku.Solve(truth); err != nil {
			t.Fatalf("%s: %v", c.photo, err)
		} else if r.Status == StatusSolved && !sol.Equal(r.Solved) {
			t.Errorf("%s frame %d: shown solved with a wrong solution (givens %s)", c.photo, c.f, r.Given())
		}
	}
}
