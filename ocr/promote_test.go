package ocr

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// TestPromoteForUnique reads a real pen page of the training side with a
// printed digit taken for handwriting (its kind set so by hand, as the pen
// model sometimes reads one): the givens then have several solutions, and
// the promotion takes it back as printed to get the one solution, in doubt
// and no likelier than no given, so that nothing shows a solution from it
// unchecked. A handwritten digit that does not give one solution stays.
func TestPromoteForUnique(t *testing.T) {
	path := filepath.Join(testenv.Shared(t, "datasets/wicht-mixed-train"), "image76.jpg")
	dat, err := sudoku.ReadDatFile(strings.TrimSuffix(path, ".jpg") + ".dat")
	if err != nil {
		t.Fatal(err)
	}
	img := gocv.IMRead(path, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		t.Fatalf("%s: not read", path)
	}
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	g, cells, err := det.Analyze(img)
	if err != nil || g.Shape.N() != 9 {
		t.Fatalf("%s: %v, shape %v", path, err, g.Shape)
	}
	digits, err := Default(BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	pen, err := DefaultPen(BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	kinds, probs, err := readPen(pen, cells, 9)
	if err != nil {
		t.Fatal(err)
	}
	set := DefaultSettings
	// asHand is kinds with printed cell i read as a handwritten d, 30%
	// printed.
	asHand := func(i, d int) ([]penCell, [][]float32) {
		k, p := slices.Clone(kinds), slices.Clone(probs)
		p[i] = make([]float32, PenClasses)
		p[i][PenPrinted], p[i][PenHand0+d] = 0.3, 0.7
		digs := handDigits(p[i])
		k[i] = penCell{kind: KindHand, conf: 0.7, digit: d, digitConf: 1, digits: digs}
		return k, p
	}
	for i, want := range dat.Cells {
		if want == 0 || kinds[i].kind != KindPrinted {
			continue
		}
		k, p := asHand(i, want)
		r, err := readPrinted(digits, g.Shape, cells, k, set)
		if err != nil {
			t.Fatal(err)
		}
		if r.Solutions < 2 {
			continue // the page has one solution without this given
		}
		got, err := promoteForUnique(digits, g.Shape, cells, k, p, set, r)
		if err != nil {
			t.Fatal(err)
		}
		name := sudoku.CellName(i, 9)
		if got.Solutions != 1 || got.Given.Cells[i] != want {
			t.Fatalf("%s read as handwritten %d: %d solutions, given %d after the promotion", name, want, got.Solutions, got.Given.Cells[i])
		}
		if got.Certain() || !slices.ContainsFunc(got.Doubt, func(d Doubt) bool { return d.Cell == i }) {
			t.Errorf("%s promoted without a doubt: %+v", name, got.Doubt)
		}
		if pr := got.Prob[i]; got.Conf[i] > 0.5 || len(pr) != 10 || pr[0] < pr[want] {
			t.Errorf("%s promoted at conf %.2f, probabilities %v: want it no likelier than no given", name, got.Conf[i], pr)
		}
		// The same cell read as another handwritten digit: the digit
		// model reads the printed one, so it is not taken.
		k, p = asHand(i, want%9+1)
		if r, err = readPrinted(digits, g.Shape, cells, k, set); err != nil {
			t.Fatal(err)
		}
		if got, err = promoteForUnique(digits, g.Shape, cells, k, p, set, r); err != nil {
			t.Fatal(err)
		}
		if got.Solutions == 1 && got.Given.Cells[i] != 0 {
			t.Errorf("%s read as handwritten %d promoted to the printed %d", name, want%9+1, got.Given.Cells[i])
		}
		return
	}
	t.Fatalf("%s: no printed digit whose loss leaves several solutions", path)
}
