package live

import (
	"testing"

	"gocv.io/x/gocv"

	"sudokuar/vision"
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
