package live

import (
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/synth"
)

// stillSource shows one picture for n frames.
type stillSource struct {
	img gocv.Mat
	n   int
}

func (s *stillSource) Read(m *gocv.Mat) bool {
	if s.n == 0 {
		return false
	}
	s.n--
	s.img.CopyTo(m)
	return true
}
func (s *stillSource) FPS() float64     { return 30 }
func (s *stillSource) Size() (int, int) { return s.img.Cols(), s.img.Rows() }
func (s *stillSource) Name() string     { return "still" }
func (s *stillSource) Close() error     { return nil }

// TestTabSwitchesGrid shows a page with two puzzles side by side (package
// synth) and presses Tab twice: the session reads one puzzle, then the
// other, then the first again, and the HUD says which grid is followed.
func TestTabSwitchesGrid(t *testing.T) {
	needModel(t)
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	opts := synth.DefaultOptions(640, 480, 2000007)
	opts.Beside = synth.BesideSudoku
	pz, err := synth.RandomPuzzle(s9, opts.Seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	ph, err := synth.Render(pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ph.Image.Close()
	one, two := pipeline.GridString(ph.Truth), pipeline.GridString(ph.Other)
	const tab1, tab2, frames = 20, 45, 70
	src := &stillSource{img: ph.Image, n: frames}
	sink := &keySink{keys: map[int]int{tab1: keyTab, tab2: keyTab}}
	type reading struct {
		frame int
		given string
	}
	var got []reading
	var followed []int // GridAt per frame
	_, err = Run(src, sink, Options{
		Every: 5,
		OnRecognition: func(r pipeline.Result) {
			if r.IsSolved() {
				got = append(got, reading{*r.Frame, r.Given})
			}
		},
		OnFrame: func(f FrameInfo) {
			if f.Grids != 2 {
				t.Errorf("frame %d: %d grids in view, want 2", f.Index, f.Grids)
			}
			followed = append(followed, f.GridAt)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	// What each stretch between the key presses settled on.
	settled := func(from, to int) map[string]bool {
		seen := map[string]bool{}
		for _, r := range got {
			if r.frame > from && r.frame < to {
				seen[r.given] = true
			}
		}
		return seen
	}
	a, b, c := settled(-1, tab1), settled(tab1, tab2), settled(tab2, frames)
	if len(a) != 1 || len(b) != 1 || len(c) != 1 {
		t.Fatalf("readings %v: want one puzzle before, between and after the Tab presses", got)
	}
	var first, second, third string
	for g := range a {
		first = g
	}
	for g := range b {
		second = g
	}
	for g := range c {
		third = g
	}
	if first == second || first != third || !(first == one && second == two || first == two && second == one) {
		t.Errorf("read %q, then %q, then %q; want the page's two puzzles in turn:\n%q\n%q", first, second, third, one, two)
	}
	// The HUD's "grid k of 2" changes with each press.
	if len(followed) != frames || followed[tab1] == followed[tab1+1] || followed[tab2] == followed[tab2+1] || followed[0] != followed[frames-1] {
		t.Errorf("grid followed per frame %v: want it to change after frames %d and %d", followed, tab1, tab2)
	}
}
