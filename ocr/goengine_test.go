package ocr_test

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
)

// benchPenPages are the pages BenchmarkReadPenPages reads.
var benchPenPages = []string{"image1050", "image1066", "image58", "image61", "image76", "image160"}

// loadPenPages cuts the named pages of wicht-mixed-train with vision.
func loadPenPages(t testing.TB, names []string) []penPage {
	t.Helper()
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	var pages []penPage
	for _, name := range names {
		img, err := pipeline.ReadImage(filepath.Join(dir, name+".jpg"), 0)
		if err != nil {
			t.Fatal(err)
		}
		g, cells, err := det.Analyze(img)
		img.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pages = append(pages, penPage{g.Shape, cells})
	}
	return pages
}

// TestGoEngineReadsAsGorgonia: the Go backend (goEngine's fast data
// moves) reads the benchmark's pen pages as it did with gorgonia's own
// engine: every model's probabilities for every input the reader gives
// it (the first batch, the other views, turned cells) within 1e-5, and
// the whole readings alike.
func TestGoEngineReadsAsGorgonia(t *testing.T) {
	const tol = 1e-5
	pages := loadPenPages(t, benchPenPages)
	digits, pen := shippedReaders(t)
	plainDigits, plainPen, err := ocr.PlainGo()
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range pages {
		name := benchPenPages[k]
		var penIn, digitIn [][]float32
		for _, c := range p.cells {
			if !ocr.PenLooks(c) {
				continue
			}
			penIn = append(penIn, ocr.PenInput(c))
			for _, v := range append([][]float32{c.Pixels, c.Half}, c.Looks...) {
				if len(v) != ocr.CellLen {
					continue
				}
				x := ocr.PenInput(c)
				copy(x, v)
				penIn = append(penIn, x)
				digitIn = append(digitIn, v, ocr.TurnCell(v, 1))
			}
		}
		for _, m := range []struct {
			name       string
			fast, slow ocr.Classifier
			in         [][]float32
		}{{"pen", pen, plainPen, penIn}, {"digits", digits, plainDigits, digitIn}} {
			// In chunks of a few sizes, so that several graphs are run.
			for _, n := range []int{81, 13, 5} {
				for at := 0; at < len(m.in); at += n {
					batch := m.in[at:min(at+n, len(m.in))]
					got, err := m.fast.Classify(batch)
					if err != nil {
						t.Fatal(err)
					}
					want, err := m.slow.Classify(batch)
					if err != nil {
						t.Fatal(err)
					}
					for i := range want {
						if d := rowDiff(got[i], want[i]); d > tol {
							t.Errorf("%s: %s input %d (batches of %d): differs by %g", name, m.name, at+i, n, d)
						}
					}
				}
			}
		}
		set := ocr.DefaultSettings
		set.Pen = pen
		got, err := ocr.ReadWith(digits, p.shape, p.cells, set)
		if err != nil {
			t.Fatal(err)
		}
		set.Pen = plainPen
		want, err := ocr.ReadWith(plainDigits, p.shape, p.cells, set)
		if err != nil {
			t.Fatal(err)
		}
		type verdict struct {
			Given, Entries []int
			Kinds          []ocr.Kind
			Solutions      int
			Doubt          []ocr.Doubt
		}
		g := verdict{got.Given.Cells, got.Entries, got.Kinds, got.Solutions, got.Doubt}
		w := verdict{want.Given.Cells, want.Entries, want.Kinds, want.Solutions, want.Doubt}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: read\n%+v\nwant\n%+v", name, g, w)
		}
		for i := range want.Prob {
			if d := rowDiff(got.Prob[i], want.Prob[i]); d > tol {
				t.Errorf("%s: cell %d: Prob differs by %g", name, i, d)
			}
			if d := rowDiff(got.EntryProb[i], want.EntryProb[i]); d > tol {
				t.Errorf("%s: cell %d: EntryProb differs by %g", name, i, d)
			}
		}
	}
}

// rowDiff is the largest absolute difference between a and b (+Inf when
// their lengths differ).
func rowDiff(a, b []float32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i]-b[i])))
	}
	return d
}
