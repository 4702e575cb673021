package ocr_test

import (
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// TestBySymmetry reads pen pages of the training side whose printed givens
// are symmetric and whose one cell the pen models read as the wrong kind:
// the player's 7 taken for print (image162 r1c4), a printed 9 and a
// printed 1 taken for handwriting (image28 r9c1, image209 r5c2). The
// symmetry of the givens sets each right: the givens are the printed
// digits exactly and the cell is of its kind; an entry the symmetry made
// is not of a sure kind, so it is never called wrong.
func TestBySymmetry(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	digits, err := ocr.Default(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	pen, err := ocr.DefaultPen(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	for _, tc := range []struct {
		page string
		cell int
		kind ocr.Kind
	}{
		{"image162", 3, ocr.KindHand},
		{"image28", 72, ocr.KindPrinted},
		{"image209", 37, ocr.KindPrinted},
	} {
		t.Run(tc.page, func(t *testing.T) {
			path := filepath.Join(dir, tc.page+".jpg")
			dat, err := sudoku.ReadDatFile(strings.TrimSuffix(path, ".jpg") + ".dat")
			if err != nil {
				t.Fatal(err)
			}
			hand, err := sudoku.ReadDatFile(strings.TrimSuffix(path, ".jpg") + ".pen")
			if err != nil {
				t.Fatal(err)
			}
			r := readPenPhoto(t, det, digits, pen, path, false)
			name := sudoku.CellName(tc.cell, 9)
			for i, want := range dat.Cells {
				if r.Given.Cells[i] != want {
					t.Errorf("%s: given %d, printed %d (kind %v)", sudoku.CellName(i, 9), r.Given.Cells[i], want, r.Kinds[i])
				}
			}
			if r.Solutions != 1 {
				t.Errorf("%d solutions, want 1", r.Solutions)
			}
			if r.Kinds[tc.cell] != tc.kind || (tc.kind == ocr.KindHand && r.KindConf[tc.cell] >= ocr.EntrySureAt) {
				t.Errorf("%s: %v at %.4f, want %v (an entry under EntrySureAt)", name, r.Kinds[tc.cell], r.KindConf[tc.cell], tc.kind)
			}
			if h := hand.Cells[tc.cell]; tc.kind == ocr.KindHand && r.Entries[tc.cell] != h {
				t.Errorf("%s: entry %d, handwritten %d", name, r.Entries[tc.cell], h)
			}
		})
	}
}

// readPenPhoto reads the photo at path with the pen models as scan does,
// or with its colour taken away (grey).
func readPenPhoto(t *testing.T, det *vision.Detector, digits, pen ocr.Classifier, path string, grey bool) ocr.Reading {
	t.Helper()
	img, err := pipeline.ReadImage(path, 0)
	if err != nil {
		img.Close()
		t.Fatal(err)
	}
	defer img.Close()
	if grey {
		g := gocv.NewMat()
		defer g.Close()
		gocv.CvtColor(img, &g, gocv.ColorBGRToGray)
		gocv.CvtColor(g, &img, gocv.ColorGrayToBGR)
	}
	g, cells, err := det.Analyze(img)
	if err != nil {
		t.Fatal(err)
	}
	set := ocr.DefaultSettings
	set.Pen = pen
	r, err := ocr.ReadWith(digits, g.Shape, cells, set)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
