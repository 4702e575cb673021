package ocr_test

import (
	"errors"
	"image"
	"image/png"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/models"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/ocr/digitnet"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// penCells returns n random pen inputs (PenLen floats each).
func penCells(rng *rand.Rand, n int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		for k := 0; k < ocr.PenViews; k++ {
			out[i] = append(out[i], randomCells(rng, 1)[0]...)
		}
	}
	return out
}

// TestPenModelFiles: each constructor takes only its own kind of model,
// and both shipped pen models run on both backends with the same result
// as the training graph.
func TestPenModelFiles(t *testing.T) {
	cases := []struct {
		name   string
		data   []byte
		pen    bool // NewPen accepts it
		digits bool // New accepts it
	}{
		{"shipped pen model", models.Pen(), true, false},
		{"second pen model", models.PenSecond(), true, false},
		{"shipped digit model", models.Digits(), false, true},
		{"two views", digitnet.Init(digitnet.Arch{C1: 4, C2: 8, Hidden: 16, Classes: ocr.PenClasses, In: 2}, rand.New(rand.NewSource(1))).ONNX(), false, false},
		{"pen views, 10 classes", digitnet.Init(digitnet.Arch{C1: 4, C2: 8, Hidden: 16, In: ocr.PenViews}, rand.New(rand.NewSource(1))).ONNX(), false, false},
		{"garbage", []byte("not a model"), false, false},
	}
	for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
		for _, tc := range cases {
			p, err := ocr.NewPen(tc.data, backend)
			var me *ocr.ModelError
			if tc.pen != (err == nil) || err != nil && !errors.As(err, &me) {
				t.Errorf("%s %s: NewPen error %v, want accepted %v (else a ModelError)", backend, tc.name, err, tc.pen)
			}
			ocr.CloseClassifier(p)
			d, err := ocr.New(tc.data, backend)
			if tc.digits != (err == nil) {
				t.Errorf("%s %s: New error %v, want accepted %v", backend, tc.name, err, tc.digits)
			}
			ocr.CloseClassifier(d)
		}
	}
	for name, data := range map[string][]byte{"pen.onnx": models.Pen(), "pen2.onnx": models.PenSecond()} {
		w, err := digitnet.FromONNX(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cells := penCells(rand.New(rand.NewSource(3)), 9)
		want := reference(t, w, cells)
		for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
			c, err := ocr.NewPen(data, backend)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Classify(cells)
			ocr.CloseClassifier(c)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				for j := range want[i] {
					if d := math.Abs(float64(got[i][j] - want[i][j])); d > 1e-3 {
						t.Fatalf("%s, %s: cell %d class %d: %g, training graph %g", name, backend, i, j, got[i][j], want[i][j])
					}
				}
			}
		}
	}
}

// TestPenInputChecked: a pen input of the wrong size is an InputError
// naming the cell, before any runtime sees it.
func TestPenInputChecked(t *testing.T) {
	for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
		c, err := ocr.DefaultPen(backend)
		if err != nil {
			t.Fatal(err)
		}
		cells := penCells(rand.New(rand.NewSource(1)), 3)
		cells[2] = cells[2][:ocr.CellLen]
		_, err = c.Classify(cells)
		var ie *ocr.InputError
		if !errors.As(err, &ie) || ie.Cell != 2 {
			t.Errorf("%s: error %v, want InputError for cell 2", backend, err)
		}
		ocr.CloseClassifier(c)
	}
}

// TestPenDecide: the kinds are the pen classes summed, and a handwritten
// digit's probability is renormalised over 1..9.
func TestPenDecide(t *testing.T) {
	p := func(set map[int]float32) []float32 {
		v := make([]float32, ocr.PenClasses)
		for k, x := range set {
			v[k] = x
		}
		return v
	}
	cases := []struct {
		name     string
		p        []float32
		kind     ocr.Kind
		kindConf float32
		digit    int
		conf     float32
	}{
		{"printed", p(map[int]float32{ocr.PenPrinted: 0.9, ocr.PenHand0 + 3: 0.1}), ocr.KindPrinted, 0.9, 0, 0},
		{"hand summed", p(map[int]float32{ocr.PenPrinted: 0.4, ocr.PenHand0 + 3: 0.3, ocr.PenHand0 + 8: 0.3}), ocr.KindHand, 0.6, 3, 0.5},
		{"notes", p(map[int]float32{ocr.PenNotes: 0.7, ocr.PenHand0 + 1: 0.3}), ocr.KindNotes, 0.7, 0, 0},
		{"unclear", p(map[int]float32{ocr.PenUnclear: 0.5, ocr.PenEmpty: 0.5 - 1e-3}), ocr.KindUnclear, 0.5, 0, 0},
		{"wrong length", []float32{1}, ocr.KindUnclear, 0, 0, 0},
	}
	for _, tc := range cases {
		k, kc, d, dc := ocr.PenDecide(tc.p)
		if k != tc.kind || math.Abs(float64(kc-tc.kindConf)) > 1e-6 || d != tc.digit || math.Abs(float64(dc-tc.conf)) > 1e-6 {
			t.Errorf("%s: %v %.3f %d %.3f, want %v %.3f %d %.3f", tc.name, k, kc, d, dc, tc.kind, tc.kindConf, tc.digit, tc.conf)
		}
	}
}

// TestPenPagesSplit reads held-out pen-filled photos (wicht-mixed-train,
// names in testdata/live/wicht-holdout.list) with the pen model: the
// givens must be exactly the printed digits (without the pen model every
// handwritten digit is read as a given), every handwritten cell must be
// read as handwritten (or unclear, to check) and no entry read surely may
// be wrong.
func TestPenPagesSplit(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	pages := []string{"image1006", "image155", "image156", "image159", "image23", "image101", "image42", "image116", "image81"}
	digits, pen := shippedReaders(t)
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	for _, name := range pages {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".jpg")
			dat, hand := penTruth(t, path)
			img, err := pipeline.ReadImage(path, 0)
			if err != nil {
				img.Close()
				t.Fatal(err)
			}
			g, cells, err := det.Analyze(img)
			img.Close()
			if err != nil {
				t.Fatal(err)
			}
			// Without the pen model (the reader before it) handwriting is
			// read as givens: the page tells the two readers apart.
			plain, err := ocr.Read(digits, g.Shape, cells)
			if err != nil {
				t.Fatal(err)
			}
			taken := 0
			for i, h := range hand.Cells {
				if h > 0 && plain.Given.Cells[i] > 0 {
					taken++
				}
			}
			if taken == 0 {
				t.Errorf("without the pen model no handwritten digit is read as a given")
			}
			set := ocr.DefaultSettings
			set.Pen = pen
			r, err := ocr.ReadWith(digits, g.Shape, cells, set)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range dat.Cells {
				if r.Given.Cells[i] != want {
					t.Errorf("r%dc%d: given %d, printed %d (kind %v)", i/9+1, i%9+1, r.Given.Cells[i], want, r.Kinds[i])
				}
				if h := hand.Cells[i]; h > 0 && r.Kinds[i] != ocr.KindHand && r.Kinds[i] != ocr.KindUnclear {
					t.Errorf("r%dc%d: read as %v, handwritten %d", i/9+1, i%9+1, r.Kinds[i], h)
				}
				if r.EntrySure(i) && r.Entries[i] != hand.Cells[i] {
					t.Errorf("r%dc%d: entry %d read surely, handwritten %d", i/9+1, i%9+1, r.Entries[i], hand.Cells[i])
				}
			}
		})
	}
}

// TestUnclearNeverSure reads cells of the calibration side (ocr/testdata/
// pencells, README.md there) alone on a page with the shipped pen models:
// unclear ink that pen.onnx alone reads as a sure entry must not be one
// (the second model doubts it), and right entries both models read
// surely stay sure, one of them with more of the unclear class in
// pen.onnx than either unclear cell.
func TestUnclearNeverSure(t *testing.T) {
	cases := []struct {
		file  string
		entry int // the sure entry wanted, 0 for none
	}{
		{"unclear-image161-r9c3.png", 0},  // overwritten; pen2.onnx: unclear
		{"unclear-image1081-r9c3.png", 0}, // a 1 over a crossed 7; pen2.onnx: hand under EntrySureAt
		{"hand2-image58-r5c8.png", 2},
		{"hand2-image1082-r3c7.png", 2},
	}
	first, err := ocr.NewPen(models.Pen(), ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	defer ocr.CloseClassifier(first)
	pen, err := ocr.DefaultPen(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	defer ocr.CloseClassifier(pen)
	digits, err := ocr.Default(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	defer ocr.CloseClassifier(digits)
	set := ocr.DefaultSettings
	set.Pen = pen
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			cell := penCellFile(t, filepath.Join("testdata", "pencells", tc.file))
			p, err := first.Classify([][]float32{ocr.PenInput(cell)})
			if err != nil {
				t.Fatal(err)
			}
			if k, kc, _, dc := ocr.PenDecide(p[0]); tc.entry == 0 && (k != ocr.KindHand || kc < ocr.EntrySureAt || dc < ocr.EntrySureAt) {
				t.Fatalf("pen.onnx alone reads %v at %.4f (digit %.4f); the case wants a sure entry", k, kc, dc)
			}
			cells := make([]vision.Cell, 81)
			for i := range cells {
				cells[i] = vision.Cell{Row: i / 9, Col: i % 9, Empty: true}
			}
			cell.Row, cell.Col = 0, 0
			cells[0] = cell
			r, err := ocr.ReadWith(digits, sudoku.Shape{BoxRows: 3, BoxCols: 3}, cells, set)
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			if r.EntrySure(0) {
				got = r.Entries[0]
			}
			if got != tc.entry {
				t.Errorf("sure entry %d (%v at %.4f, %d at %.4f), want %d", got, r.Kinds[0], r.KindConf[0], r.Entries[0], r.EntryConf[0], tc.entry)
			}
		})
	}
}

// penCellFile reads a cell's three pen views (Pixels, View, Grey) from a
// 16-bit grey PNG holding them side by side.
func penCellFile(t *testing.T, path string) vision.Cell {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	g, ok := img.(*image.Gray16)
	if !ok || g.Rect.Dx() != ocr.PenViews*28 || g.Rect.Dy() != 28 {
		t.Fatalf("%s: want a 16-bit grey image of %d×28", path, ocr.PenViews*28)
	}
	views := make([][]float32, ocr.PenViews)
	for k := range views {
		views[k] = make([]float32, ocr.CellLen)
		for y := 0; y < 28; y++ {
			for x := 0; x < 28; x++ {
				views[k][y*28+x] = float32(g.Gray16At(k*28+x, y).Y) / 65535
			}
		}
	}
	return vision.Cell{Pixels: views[0], View: views[1], Grey: views[2]}
}
