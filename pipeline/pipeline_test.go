package pipeline

import (
	"image"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/models"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

func newPipeline(t *testing.T, backend string) *Pipeline {
	t.Helper()
	if len(models.Digits()) == 0 {
		t.Fatal("models/digits.onnx is empty: the committed digit model is lost (`make model` retrains it)")
	}
	p, err := New(Options{Backend: backend})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestNewRejectsUnknownBackend(t *testing.T) {
	if _, err := New(Options{Backend: "tpu"}); err == nil {
		t.Fatal("backend tpu accepted")
	}
	if _, err := New(Options{Model: []byte("not onnx")}); err == nil {
		t.Fatal("a model that is not ONNX was accepted")
	}
}

// TestProcessBadFrames feeds frames that must give a status, not a crash.
func TestProcessBadFrames(t *testing.T) {
	p := newPipeline(t, BackendGo)
	blank := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	defer blank.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	tiny := gocv.NewMatWithSize(1, 1, gocv.MatTypeCV8UC3)
	defer tiny.Close()
	tests := []struct {
		name  string
		frame gocv.Mat
		want  Status
	}{
		{"blank page", blank, StatusNoGrid},
		{"empty Mat", empty, StatusBadInput},
		{"1x1", tiny, StatusBadInput},
	}
	for _, tc := range tests {
		r := p.Process(tc.frame)
		if r.Status != tc.want || r.Found || r.Error == "" {
			t.Errorf("%s: status %q found %v error %q; want %q with an error message", tc.name, r.Status, r.Found, r.Error, tc.want)
		}
	}
}

// TestProcessSynthetic runs both OCR backends over the committed synthetic
// photos. They must agree cell for cell; the grids must be read exactly
// (the target is all of them; one miss is allowed so that a model retrain
// does not fail it outright) and, when read, be solved or held back for a
// check; none may be shown solved with a wrong solution.
func TestProcessSynthetic(t *testing.T) {
	goP := newPipeline(t, BackendGo)
	cvP := newPipeline(t, BackendOpenCV)
	files, err := ImageFiles([]string{testenv.Committed(t, "testdata/synth")}, false)
	if err != nil {
		t.Fatal(err)
	}
	exact, held, tooLarge, big, bigExact := 0, 0, 0, 0, 0
	for _, f := range files {
		truth, err := ReadTruth(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := ReadImage(f, 0)
		if err != nil {
			img.Close()
			t.Fatal(err)
		}
		a, b := goP.Process(img), cvP.Process(img)
		img.Close()
		if a.Given() != b.Given() || a.Status != b.Status {
			t.Errorf("%s: onnx-go read %s (%s), opencv %s (%s)", f, a.Given(), a.Status, b.Given(), b.Status)
		}
		if a.IsSolved() {
			if want, err := sudoku.Solve(truth); err != nil || !want.Equal(a.Solved) {
				t.Errorf("%s: shown solved with a wrong solution", f)
			}
		}
		right := a.Given() == sudoku.CellString(truth.Cells)
		if truth.N() > 9 {
			big++
			if right {
				bigExact++
			}
		}
		switch {
		case a.Status == StatusUnread && strings.Contains(a.Error, ocr.ErrGridTooLarge.Error()):
			tooLarge++ // a model without glyphs above 9
		case truth.N() > 9 && !right:
			t.Logf("%s: %s (box %v, symbols %q), read %s, truth %s", f, a.Status, a.Grid.Shape, a.Symbols, a.Given(), sudoku.CellString(truth.Cells))
		case a.Given() == sudoku.CellString(truth.Cells) && a.Status == StatusSolved:
			exact++
		case a.Given() == sudoku.CellString(truth.Cells) && a.Status == StatusCheck:
			exact++
			held++
			t.Logf("%s: read exactly, held back: %v", f, a.Check)
		default:
			t.Logf("%s: %s (found %v, box %v, symbols %q), read %s, truth %s", f, a.Status, a.Found, a.Grid.Shape, a.Symbols, a.Given(), sudoku.CellString(truth.Cells))
		}
	}
	small := len(files) - big
	smallExact := exact - bigExact
	t.Logf("%d of %d synthetic grids up to 9x9 read exactly (%d held back for a check); 12x12 and 16x16: %d of %d (%d without glyphs for them)",
		smallExact, small, held, bigExact, big, tooLarge)
	if small == 0 || smallExact < small-1 {
		t.Errorf("read %d of %d synthetic grids up to 9x9 exactly", smallExact, small)
	}
	// 12x12 and 16x16 at 640x480 have cells of 12..20 pixels; the target is
	// all of them, the floor what is read today: all but one (11 of 12;
	// the miss, image30, is a 16x16 too blurred to read: 72 of its 112
	// givens misread). image18, a blurred 16x16 in a thin font whose 3s
	// blur into bars (five givens misread: 3 as 1, 13 as 11 or 15), is
	// read by the reader's wide repair and held for a check.
	if tooLarge == 0 && bigExact < big-1 {
		t.Errorf("read %d of %d synthetic 12x12 and 16x16 grids exactly", bigExact, big)
	}
}

// TestReadCanvasAsProcess: the canvas of a grid Process read, read again
// by ReadCanvas, gives the same givens and status (one reading path for
// frames and canvases); a canvas that does not fit the grid gives a
// status, not a crash.
func TestReadCanvasAsProcess(t *testing.T) {
	p := newPipeline(t, BackendGo)
	canvas := gocv.NewMat()
	defer canvas.Close()
	// image1 three times as large too (1920×1440): a frame over vision's working size, whose
	// cells are read from fewer pixels than the frame has.
	for _, c := range []struct {
		name  string
		scale float64
	}{{"image1", 1}, {"image4", 1}, {"image13", 1}, {"image1", 3}} {
		img := gocv.IMRead(filepath.Join(testenv.RepoRoot(), "testdata", "synth", c.name+".jpg"), gocv.IMReadColor)
		if img.Empty() {
			t.Fatalf("testdata/synth/%s.jpg does not load", c.name)
		}
		if c.scale != 1 {
			gocv.Resize(img, &img, image.Point{}, c.scale, c.scale, gocv.InterpolationLinear)
		}
		r := p.Process(img)
		err := p.Canvas(img, r.Grid, &canvas)
		size := image.Pt(img.Cols(), img.Rows())
		img.Close()
		if len(r.Puzzle.Cells) == 0 || err != nil {
			t.Fatalf("%s at %g×: %s %v", c.name, c.scale, r.Status, err)
		}
		again := p.ReadCanvas(canvas, r.Grid, size)
		if again.Given() != r.Given() || again.Status != r.Status || again.Turns != 0 || again.CellPx != r.CellPx {
			t.Errorf("%s at %g×: canvas read %s (%s, %d turns, cells %.2f px), the frame %s (%s, cells %.2f px)",
				c.name, c.scale, again.Given(), again.Status, again.Turns, again.CellPx, r.Given(), r.Status, r.CellPx)
		}
	}
	small := gocv.NewMatWithSize(50, 50, gocv.MatTypeCV8UC1)
	defer small.Close()
	g := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	if r := p.ReadCanvas(small, vision.Grid{Side: 288, Shape: g}, image.Pt(640, 480)); r.Status != StatusBadInput || r.Error == "" {
		t.Errorf("a 50×50 canvas for a 288 px grid: status %q error %q, want %q with a message", r.Status, r.Error, StatusBadInput)
	}
}
