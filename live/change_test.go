package live

import (
	"testing"

	"gocv.io/x/gocv"

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
