package live

import (
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestSmallCellsSureTogether holds real pages up to a 640×480 webcam, the
// photo filling 55% of its height (cells of 15–16 px where they are read),
// and recognises 8 of each page's frames in turn. Pages whose vote is right
// but whose frames are each short of SmallCellSure on some given (main
// asked to "move closer" on every one) are drawn solved, right, once the
// frames together are sure (Evidence.Sure); a page read wrong, its wrong
// vote solving, stays held at every recognition.
func TestSmallCellsSureTogether(t *testing.T) {
	needModel(t)
	dir := testenv.Shared(t, "datasets/others-train")
	p := openPipeline(t)
	var at []int
	for f := 15; f < 60; f += 6 {
		at = append(at, f)
	}
	for _, tc := range []struct {
		photo string
		pi    int // the photo's number in the tune video, which sets how it moves
		drawn bool
	}{
		{"andreibrihac-8", 12, true},
		{"es2812-3", 33, true},
		{"andreibrihac-2", 7, false},
	} {
		t.Run(tc.photo, func(t *testing.T) {
			photo := filepath.Join(dir, tc.photo+".jpg")
			truth, err := pipeline.ReadTruth(photo)
			if err != nil {
				t.Fatal(err)
			}
			solution := pipeline.Judge(truth).Solution
			frames := heldFramesAt(t, photo, 0.55, tc.pi, at)
			defer closeAll(frames)
			views := recogniseEach(p, frames)
			wrongHeld := 0
			for _, v := range views {
				solved := v.verdict.Status == pipeline.StatusSolved
				right := sudoku.CellString(v.puzzle.Cells) == sudoku.CellString(truth.Cells)
				switch {
				case solved && sudoku.CellString(v.verdict.Solution.Cells) != sudoku.CellString(solution.Cells):
					t.Errorf("frame %d: a wrong vote %s drawn solved", v.frame, sudoku.CellString(v.puzzle.Cells))
				case !solved && !right && len(v.puzzle.Cells) > 0 && pipeline.Judge(v.puzzle).Status == pipeline.StatusSolved:
					wrongHeld++
				}
			}
			last := views[len(views)-1]
			if tc.drawn && last.verdict.Status != pipeline.StatusSolved {
				t.Errorf("last of %d recognitions: %s, cells %.1f px, want the right vote drawn solved", len(views), last.verdict.Status, last.raw.CellPx)
			}
			if !tc.drawn && wrongHeld == 0 {
				t.Errorf("no recognition held a wrong vote that solves: the page no longer tests the gate")
			}
		})
	}
}
