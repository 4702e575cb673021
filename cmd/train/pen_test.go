package main

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// TestTruthFits: a training page's own truth fits its photo; the same
// truth moved a row down or turned (the mismatches that left pages out)
// does not.
func TestTruthFits(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	digits, err := ocr.Default(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ocr.CloseClassifier(digits) }()
	det := vision.NewDetector(vision.Options{Sizes: []int{9}})
	defer det.Close()
	p := cutPhoto(det, filepath.Join(dir, "image1.jpg"))
	if p.cells == nil {
		t.Fatalf("image1: %v", p.err)
	}
	down := sudoku.Grid{Shape: p.truth.Shape, Cells: append(append([]int(nil), p.truth.Cells[72:]...), p.truth.Cells[:72]...)}
	cases := []struct {
		name string
		dat  sudoku.Grid
		fits bool
	}{
		{"own truth", p.truth, true},
		{"a row down", down, false},
		{"turned", p.truth.Turn(1), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := truthFits(digits, p.cells, c.dat, 0)
			var te *truthError
			switch {
			case c.fits && err != nil:
				t.Errorf("want the truth to fit: %v", err)
			case !c.fits && !errors.As(err, &te):
				t.Errorf("want a truthError, got %v", err)
			}
		})
	}
}

// TestMixedFramesLabelled: camera frames of a real pen page (mixed-train
// image1, a tune page) are cut with labels that match their cells: the
// shipped pen model, which has seen such pages as stills, agrees with
// the labels' kind (printed or handwritten) on almost every inked cell.
// A frame whose truth were turned or shifted would put print labels on
// handwriting.
func TestMixedFramesLabelled(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	digits, err := ocr.Default(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ocr.CloseClassifier(digits) }()
	pen, err := ocr.DefaultPen(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ocr.CloseClassifier(pen) }()
	det := vision.NewDetector(vision.Options{Sizes: []int{9}})
	defer det.Close()
	const frames = 3
	samples, err := cutMixedFrames(det, digits, filepath.Join(dir, "image1.jpg"), frames, 7)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]int{}
	xs := make([][]float32, len(samples))
	for i, s := range samples {
		pages[s.Page]++
		xs[i] = s.X
	}
	if len(pages) < 2 {
		t.Fatalf("%d of %d camera frames cut (%v), want at least 2", len(pages), frames, pages)
	}
	out, err := pen.Classify(xs)
	if err != nil {
		t.Fatal(err)
	}
	agree := 0
	for i, s := range samples {
		kind, _, _, _ := ocr.PenDecide(out[i])
		if want, _, _, _ := ocr.PenDecide(oneHot(s.Y)); kind == want {
			agree++
		}
	}
	if 10*agree < 9*len(samples) {
		t.Errorf("the pen model agrees with the labels' kind on %d of %d cells, want 90%%", agree, len(samples))
	}
}

// oneHot is a pen class as the pen model's output would say it surely.
func oneHot(y int) []float32 {
	p := make([]float32, ocr.PenClasses)
	p[y] = 1
	return p
}
