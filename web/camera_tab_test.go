package web

import (
	"testing"
	"time"

	"github.com/coder/websocket"
	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/synth"
)

// TestCameraTab streams a page with two puzzles side by side: the answers
// say two grids are in view and which is followed, and the Tab key moves
// the session on to the other puzzle, which is then read.
func TestCameraTab(t *testing.T) {
	opts := synth.DefaultOptions(1280, 720, 2000007)
	opts.Beside = synth.BesideSudoku
	pz, err := synth.RandomPuzzle(sudoku.Shape{BoxRows: 3, BoxCols: 3}, opts.Seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	ph, err := synth.Render(pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ph.Image.Close()
	frame, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, ph.Image, []int{gocv.IMWriteJpegQuality, 80})
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	jpg := append([]byte(nil), frame.GetBytes()...)
	// The page's two solutions (a given missed still solves the same).
	solutions := map[string]bool{}
	for _, g := range []sudoku.Grid{ph.Truth, ph.Other} {
		sol, err := sudoku.Solve(g)
		if err != nil {
			t.Fatal(err)
		}
		solutions[sudoku.CellString(sol.Cells)] = true
	}

	a := newAPIServer(t, Config{MaxCameraStreams: 2})
	c := dialCamera(t, a.URL)
	// readOne sends frames until one of the page's puzzles is solved, and
	// returns its solution with the grid followed.
	readOne := func(not string) (string, float64) {
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			m := c.frameAnswerFor(c.sendFrame(jpg))
			g, _ := m["solution"].(string)
			if m["grids"] == 2.0 && solutions[g] && g != not {
				at, _ := m["gridAt"].(float64)
				return g, at
			}
		}
		t.Fatalf("no puzzle of the page solved (other than %q) in 60 s", not)
		return "", 0
	}
	first, at1 := readOne("")
	if err := c.send(websocket.MessageText, []byte(`{"type":"key","key":"Tab"}`)); err != nil {
		t.Fatal(err)
	}
	second, at2 := readOne(first)
	if at1 == at2 || at1 < 1 || at2 < 1 {
		t.Errorf("grid followed %v, then %v after Tab: want 1 and 2", at1, at2)
	}
	if first == second {
		t.Errorf("solved %q twice", first)
	}
}
