package live

import (
	"image"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// TestInkPrintNoticesTheSwap takes ink prints along the demo video: over
// the ten frames before the cut the puzzle moves but its print stays
// similar; right after the cut to another puzzle it is not.
func TestInkPrintNoticesTheSwap(t *testing.T) {
	d := loadDemo(t)
	src, err := OpenVideo(d.video)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	p := newPrinter()
	defer p.Close()
	m := gocv.NewMat()
	defer m.Close()
	const ref, cut = 125, 135
	var refPrint inkPrint
	for i := 0; i < cut+5 && src.Read(&m); i++ {
		if i < ref {
			continue
		}
		g, err := det.Locate(m)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		pr := p.print(m, g, 9)
		if len(pr) != 81 {
			t.Fatalf("frame %d: print of %d cells", i, len(pr))
		}
		if i == ref {
			refPrint = pr
			continue
		}
		sim := similarity(refPrint, pr)
		switch {
		case i < cut && sim < 0.85:
			t.Errorf("frame %d, same puzzle: similarity %.2f, want >= 0.85", i, sim)
		case i >= cut && sim >= changedBelow:
			t.Errorf("frame %d, after the swap: similarity %.2f, want < %.2f", i, sim, changedBelow)
		}
	}
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		a, b inkPrint
		want float64
	}{
		{inkPrint{1, 2, 3}, inkPrint{2, 4, 6}, 1},
		{inkPrint{1, 2, 3}, inkPrint{3, 2, 1}, -1},
		{inkPrint{1, 1, 1}, inkPrint{1, 2, 3}, 0}, // flat
		{inkPrint{1, 2}, inkPrint{1, 2, 3}, 0},    // sizes differ
		{nil, nil, 0},
	}
	for _, tc := range tests {
		if got := similarity(tc.a, tc.b); got < tc.want-1e-9 || got > tc.want+1e-9 {
			t.Errorf("similarity(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestCutOff(t *testing.T) {
	quad := func(x0, y0, x1, y1 float32) vision.Grid {
		return vision.Grid{Corners: [4]gocv.Point2f{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}}
	}
	tests := []struct {
		name string
		g    vision.Grid
		want bool
	}{
		{"inside", quad(100, 50, 600, 400), false},
		{"4 px from the edges", quad(4, 4, 635, 475), false},
		{"at the left edge", quad(3, 50, 600, 400), true},
		{"beyond the right edge", quad(100, 50, 700, 400), true},
		{"at the bottom", quad(100, 50, 600, 476), true},
	}
	for _, tc := range tests {
		if got := cutOff(tc.g, 640, 480); got != tc.want {
			t.Errorf("%s: cutOff = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCutOffGridInDemo: while the demo's page slides back into view
// (frames 295-297) no grid is followed; from frame 300 it is.
func TestCutOffGridInDemo(t *testing.T) {
	d := loadDemo(t)
	src, err := OpenVideo(d.video)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	s := session{loc: det}
	m := gocv.NewMat()
	defer m.Close()
	for i := 0; i <= 300 && src.Read(&m); i++ {
		switch {
		case i >= 295 && i <= 297:
			if _, err := s.locate(m); err == nil {
				t.Errorf("frame %d (grid partly in view) was followed", i)
			}
		case i == 300:
			if _, err := s.locate(m); err != nil {
				t.Errorf("frame 300 (grid in view): %v", err)
			}
		}
	}
}

// TestSwapNoticedAfterSizeChange: the ink print of the frame last sent
// for recognition was taken while another puzzle size was in view (a
// 9×9 page read once as 12×12, as es2812-19 is in the webcam framing),
// then a 9×9 reading of page A came in and the page was swapped for B.
// The swap must be noticed at B's first frame and nothing of A drawn on
// it. (Before, prints of different sizes were not compared at all, so
// A's solution stayed on B until B's first reading came back: under load
// in the browser, half a second and more.) With the reference at the
// same size, A's solution stays on A and B is noticed as well.
func TestSwapNoticedAfterSizeChange(t *testing.T) {
	a, truthA := markedPage(t, 7101, 10)
	defer a.Close()
	b, _ := markedPage(t, 7102, 250)
	defer b.Close()
	ra := judged(truthA, nil)
	if ra.Status != pipeline.StatusSolved {
		t.Fatalf("A: %s, want solved", ra.Status)
	}
	for _, refN := range []int{9, 12, 6, 16} {
		s := newTestSession(t)
		ga, err := s.locate(a)
		if err != nil {
			t.Fatalf("page A: %v", err)
		}
		// The frame last sent was A's, printed while a refN×refN
		// reading was in view; the reading that came back is A as a
		// 9×9, solved.
		s.ref = s.ink.print(a, ga, refN)
		if len(s.ref) != refN*refN {
			t.Fatalf("print of A at %d: %d cells", refN, len(s.ref))
		}
		s.cur = view{puzzle: truthA, raw: ra, verdict: pipeline.Verdict{Status: pipeline.StatusSolved, Solution: ra.Solved}}
		g, err := s.locateAndSchedule(a, 1)
		if err != nil {
			t.Fatalf("page A again: %v", err)
		}
		if info := s.draw(&a, g, true, 1); refN == 9 && info.Solution != ra.Solution() {
			t.Errorf("page A's own solution not drawn on it (status %q)", info.Status)
		}
		g, err = s.locateAndSchedule(b, 2)
		if err != nil {
			t.Fatalf("page B: %v", err)
		}
		if info := s.draw(&b, g, true, 2); info.Solution != "" || info.Given != "" {
			t.Errorf("reference at %d×%d: the first frame of page B shows given %q solution %q: page A's", refN, refN, info.Given, info.Solution)
		}
		s.close()
	}
}

// newTestSession is a session that follows grids in frames handed to it
// directly (no source, no recogniser: it is busy, so none is sent a job).
func newTestSession(t *testing.T) *session {
	t.Helper()
	return &session{opts: Options{Every: 1000, Undrawn: true}, loc: vision.NewDetector(vision.Options{}), ink: newPrinter(),
		still: newStillness(), track: newTracker(), best: newSharpest(), logf: t.Logf, busy: true, auto: true, hint: hintState{puzzle: -1}}
}

// close releases what newTestSession made.
func (s *session) close() {
	s.loc.Close()
	s.ink.Close()
	s.still.Close()
	s.track.Close()
	s.best.Close()
}

// TestSameBookPageHeld: Wicht's image1036 and image1040 are two puzzles of
// one book whose givens sit in nearly the same cells (their ink prints
// correlate at about 0.5). Swapped in one frame, the second must not show
// the first's solution: with a print that alike, nothing is drawn until
// a reading of the new frame is in. The first page itself, moved a
// little, keeps its solution.
func TestSameBookPageHeld(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-v2-train")
	load := func(name string) (gocv.Mat, sudoku.Grid) {
		img := gocv.IMRead(filepath.Join(dir, name+".jpg"), gocv.IMReadColor)
		if img.Empty() {
			t.Fatalf("%s: not an image", name)
		}
		g, err := sudoku.ReadDatFile(filepath.Join(dir, name+".dat"))
		if err != nil {
			t.Fatal(err)
		}
		// Held up to a 640×480 camera, the photo filling 70% of it.
		frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 110, 110, 0), 480, 640, gocv.MatTypeCV8UC3)
		k := 0.7 * min(640/float64(img.Cols()), 480/float64(img.Rows()))
		w, h := int(k*float64(img.Cols())), int(k*float64(img.Rows()))
		roi := frame.Region(image.Rect((640-w)/2, (480-h)/2, (640-w)/2+w, (480-h)/2+h))
		gocv.Resize(img, &roi, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
		roi.Close()
		img.Close()
		return frame, g
	}
	a, truthA := load("image1036")
	defer a.Close()
	b, _ := load("image1040")
	defer b.Close()
	ra := judged(truthA, nil)
	if ra.Status != pipeline.StatusSolved {
		t.Fatalf("image1036: %s, want solved", ra.Status)
	}
	s := newTestSession(t)
	defer s.close()
	ga, err := s.locate(a)
	if err != nil {
		t.Fatalf("image1036: %v", err)
	}
	gb, err := s.locate(b)
	if err != nil {
		t.Fatalf("image1040: %v", err)
	}
	s.ref = s.ink.print(a, ga, 9)
	sim := similarity(s.ref, s.ink.print(b, gb, 9))
	if sim < changedBelow {
		t.Logf("the two pages print at %.2f: the swap is noticed as a change anyway", sim)
	}
	s.cur = view{puzzle: truthA, raw: ra, verdict: pipeline.Verdict{Status: pipeline.StatusSolved, Solution: ra.Solved}}
	g, err := s.locateAndSchedule(a, 1)
	if err != nil {
		t.Fatal(err)
	}
	if info := s.draw(&a, g, true, 1); info.Solution != ra.Solution() {
		t.Errorf("image1036's own solution not drawn on it (status %q)", info.Status)
	}
	g, err = s.locateAndSchedule(b, 2)
	if err != nil {
		t.Fatal(err)
	}
	if info := s.draw(&b, g, true, 2); info.Solution != "" || info.Given != "" {
		t.Errorf("image1040 (prints at %.2f of image1036) shows given %q solution %q: image1036's", sim, info.Given, info.Solution)
	}
}
