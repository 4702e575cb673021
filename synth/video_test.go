package synth

import (
	"crypto/sha256"
	"errors"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// videoRun renders a small demo and returns each frame's hash and truth.
func videoRun(t *testing.T, o VideoOptions) ([][32]byte, []VideoFrame) {
	t.Helper()
	var sums [][32]byte
	var truth []VideoFrame
	err := RenderVideo(o, func(m gocv.Mat, tr VideoFrame) error {
		if m.Cols() != o.Width || m.Rows() != o.Height || m.Type() != gocv.MatTypeCV8UC3 {
			t.Fatalf("frame %d: %dx%d type %v", tr.Index, m.Cols(), m.Rows(), m.Type())
		}
		sums = append(sums, sha256.Sum256(m.ToBytes()))
		truth = append(truth, tr)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums, truth
}

func TestVideo(t *testing.T) {
	o := DefaultVideoOptions(5, puzzle(t, 9, 1), puzzle(t, 9, 2))
	o.Width, o.Height, o.FPS = 320, 180, 6
	sums, truth := videoRun(t, o)
	if len(truth) != o.VideoFrames() || len(truth) != 69 {
		t.Fatalf("%d frames, want %d", len(truth), o.VideoFrames())
	}
	seen := map[int]int{}
	for i, tr := range truth {
		seen[tr.Puzzle]++
		if tr.Index != i {
			t.Fatalf("frame %d has index %d", i, tr.Index)
		}
		if tr.FullView {
			for _, c := range tr.Corners {
				if c.X < 0 || c.Y < 0 || c.X >= 320 || c.Y >= 180 {
					t.Errorf("frame %d: full view but corner %v is outside", i, c)
				}
			}
		}
		if tr.Puzzle == -1 && tr.FullView {
			t.Errorf("frame %d: no puzzle yet full view", i)
		}
	}
	// The script: both puzzles, a stretch without a grid, puzzle 1 twice.
	if seen[0] < 20 || seen[1] < 10 || seen[-1] < 4 {
		t.Errorf("frames per puzzle %v: want puzzle 1, puzzle 2 and an empty stretch", seen)
	}
	if truth[0].Puzzle != 0 || truth[len(truth)-1].Puzzle != 0 || !truth[len(truth)-1].FullView {
		t.Error("the video must start and end with puzzle 1 fully in view")
	}
	for i := 1; i < len(sums); i++ {
		if sums[i] == sums[i-1] {
			t.Errorf("frames %d and %d are identical: the page is not moving", i-1, i)
		}
	}
	again, _ := videoRun(t, o)
	for i := range sums {
		if sums[i] != again[i] {
			t.Fatalf("frame %d differs between two runs with the same seed", i)
		}
	}
}

func TestVideoBadOptions(t *testing.T) {
	g := puzzle(t, 9, 1)
	for name, o := range map[string]VideoOptions{
		"zero fps":   {Width: 320, Height: 180, Puzzles: [2]sudoku.Grid{g, g}},
		"zero width": {Height: 180, FPS: 30, Puzzles: [2]sudoku.Grid{g, g}},
		"empty grid": {Width: 320, Height: 180, FPS: 30, Puzzles: [2]sudoku.Grid{g}},
	} {
		err := RenderVideo(o, func(gocv.Mat, VideoFrame) error { return nil })
		var oe *OptionError
		if !errors.As(err, &oe) {
			t.Errorf("%s: error %v, want an *OptionError", name, err)
		}
	}
}
