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

// TestPageRules reads pen pages of the training side with one cell the
// pen models read as the wrong kind, which a rule of the whole page sets
// right: the givens are the printed digits exactly, the cell is of its
// kind, and an entry a rule made is not of a sure kind (so it is never
// called wrong).
//   - The givens' symmetry (bySymmetry): the player's 7 taken for print
//     (image162 r1c4), a printed 9 and a printed 1 taken for handwriting
//     (image28 r9c1, image209 r5c2).
//   - The ink's colour (byTint): entries in blue or red pen taken for
//     print (image10 r1c1, image16 r2c3); without its colour the same
//     photo reads the cell as printed, as the pen models do.
func TestPageRules(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	digits, pen := shippedReaders(t)
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	for _, tc := range []struct {
		page   string
		cell   int
		kind   ocr.Kind
		colour bool // the rule needs the photo's colour
	}{
		{"image162", 3, ocr.KindHand, false},
		{"image28", 72, ocr.KindPrinted, false},
		{"image209", 37, ocr.KindPrinted, false},
		{"image10", 0, ocr.KindHand, true},
		{"image16", 11, ocr.KindHand, true},
	} {
		t.Run(tc.page, func(t *testing.T) {
			path := filepath.Join(dir, tc.page+".jpg")
			dat, hand := penTruth(t, path)
			name := sudoku.CellName(tc.cell, 9)
			r := readPenPhoto(t, det, digits, pen, path, false)
			if !r.Given.Equal(dat) || r.Solutions != 1 {
				t.Errorf("givens %v (%d solutions), printed %v", r.Given.Cells, r.Solutions, dat.Cells)
			}
			if r.Kinds[tc.cell] != tc.kind || (tc.kind == ocr.KindHand && r.KindConf[tc.cell] >= ocr.EntrySureAt) {
				t.Errorf("%s: %v at %.4f, want %v (an entry under EntrySureAt)", name, r.Kinds[tc.cell], r.KindConf[tc.cell], tc.kind)
			}
			if h := hand.Cells[tc.cell]; tc.kind == ocr.KindHand && r.Entries[tc.cell] != h {
				t.Errorf("%s: entry %d, handwritten %d", name, r.Entries[tc.cell], h)
			}
			if !tc.colour {
				return
			}
			if g := readPenPhoto(t, det, digits, pen, path, true); g.Kinds[tc.cell] != ocr.KindPrinted {
				t.Errorf("%s without colour: %v, want printed (as the pen models read it)", name, g.Kinds[tc.cell])
			}
		})
	}
}

// penTruth is the truth of the pen page at path: its printed givens
// (.dat) and handwritten entries (.pen).
func penTruth(t *testing.T, path string) (dat, hand sudoku.Grid) {
	t.Helper()
	var err error
	for _, f := range []struct {
		g   *sudoku.Grid
		ext string
	}{{&dat, ".dat"}, {&hand, ".pen"}} {
		if *f.g, err = sudoku.ReadDatFile(strings.TrimSuffix(path, ".jpg") + f.ext); err != nil {
			t.Fatal(err)
		}
	}
	return dat, hand
}

// shippedReaders are the embedded digit and pen models on the Go backend.
func shippedReaders(t *testing.T) (digits, pen ocr.Classifier) {
	t.Helper()
	digits, err := ocr.Default(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	if pen, err = ocr.DefaultPen(ocr.BackendGo); err != nil {
		t.Fatal(err)
	}
	return digits, pen
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

// TestEntriesRuleOutRivals reads pen pages of the training side whose
// givens are read right but have a rival reading (a given read another
// way, about 10 to 90 times less likely, also with one solution): the
// player's entries contradict the rival's solution, so the reading is
// certain and no given is held for a check.
func TestEntriesRuleOutRivals(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	digits, pen := shippedReaders(t)
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	for _, page := range []string{"image40", "image97", "image199"} {
		t.Run(page, func(t *testing.T) {
			path := filepath.Join(dir, page+".jpg")
			dat, _ := penTruth(t, path)
			r := readPenPhoto(t, det, digits, pen, path, false)
			if !r.Given.Equal(dat) {
				t.Fatalf("givens %v, printed %v", r.Given.Cells, dat.Cells)
			}
			if !r.Certain() {
				t.Errorf("not certain: %d solutions, doubts %+v", r.Solutions, r.Doubt)
			}
		})
	}
}
