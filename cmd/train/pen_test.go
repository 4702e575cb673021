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
