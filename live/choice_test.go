package live

import (
	"testing"
	"time"

	"gocv.io/x/gocv"

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
	one, two := sudoku.CellString(ph.Truth.Cells), sudoku.CellString(ph.Other.Cells)
	// Tab is pressed once the grid followed has been read (recognition runs
	// in the background, so on a busy machine that can take many frames),
	// and Q once the third stretch has been read too; the source gives up
	// after maxFrames, which fails the test below.
	const maxFrames = 3000
	src := &stillSource{img: ph.Image, n: maxFrames}
	sink := &tabSink{}
	type reading struct {
		frame int
		given string
	}
	var got []reading
	var followed []int // GridAt per frame
	_, err = Run(src, sink, Options{
		Every: 5,
		OnRecognition: func(r Recognition) {
			if r.IsSolved() {
				got = append(got, reading{r.Frame, r.Given()})
				sink.read(r.Frame)
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
	if len(sink.presses) != 2 {
		t.Fatalf("Tab pressed after frames %v in %d frames: the session did not read each grid in turn (readings %v)", sink.presses, len(followed), got)
	}
	tab1, tab2, frames := sink.presses[0], sink.presses[1], len(followed)
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
	if followed[tab1] == followed[tab1+1] || followed[tab2] == followed[tab2+1] || followed[0] != followed[frames-1] {
		t.Errorf("grid followed per frame %v: want it to change after frames %d and %d", followed, tab1, tab2)
	}
}

// tabSink presses Tab after the first frame whose grid was read since the
// last press (frames recognised before a press do not count), twice, and
// then Q.
type tabSink struct {
	shown   int
	fresh   bool  // a reading of a frame after the last press arrived
	presses []int // frames after which Tab was pressed
}

func (k *tabSink) read(frame int) {
	if len(k.presses) == 0 || frame > k.presses[len(k.presses)-1] {
		k.fresh = true
	}
}

func (k *tabSink) Show(gocv.Mat, time.Duration) int {
	i := k.shown
	k.shown++
	if !k.fresh {
		return -1
	}
	k.fresh = false
	if len(k.presses) == 2 {
		return 'q'
	}
	k.presses = append(k.presses, i)
	return keyTab
}

func (k *tabSink) Close() error { return nil }
