package vision

import (
	"errors"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestCanvasCellsAsAnalyze: the canvas Canvas gives of a grid Analyze
// found, cut by CellsOf, gives the cells Analyze cut (the same ink in the
// same cells) on the committed synthetic photos; bad canvases and grids
// are refused with a BadInput error, not handed to OpenCV.
func TestCanvasCellsAsAnalyze(t *testing.T) {
	shape9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	dir := filepath.Join(testenv.RepoRoot(), "testdata", "synth")
	det := NewDetector(Options{})
	defer det.Close()
	canvas := gocv.NewMat()
	defer canvas.Close()
	for _, name := range []string{"image1", "image4", "image10", "image13"} {
		img, err := readImage(filepath.Join(dir, name+".jpg"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g, cells, err := det.Analyze(img)
		if err != nil {
			img.Close()
			t.Fatalf("%s: %v", name, err)
		}
		err = det.Canvas(img, g, &canvas)
		img.Close()
		if err != nil {
			t.Fatalf("%s: Canvas: %v", name, err)
		}
		if canvas.Cols() != g.Side || canvas.Rows() != g.Side || canvas.Type() != gocv.MatTypeCV8UC1 {
			t.Fatalf("%s: canvas %dx%d type %v, want %d² grey", name, canvas.Cols(), canvas.Rows(), canvas.Type(), g.Side)
		}
		_, again, err := det.CellsOf(canvas, g)
		if err != nil {
			t.Fatalf("%s: CellsOf: %v", name, err)
		}
		if len(again) != len(cells) {
			t.Fatalf("%s: %d cells, Analyze cut %d", name, len(again), len(cells))
		}
		differ := 0
		for i := range cells {
			if cells[i].Empty != again[i].Empty {
				differ++
			}
		}
		if differ > len(cells)/50 {
			t.Errorf("%s: %d of %d cells empty in one cut and not the other", name, differ, len(cells))
		}
	}
	bad := []struct {
		name   string
		canvas gocv.Mat
		g      Grid
	}{
		{"no side", gocv.NewMatWithSize(288, 288, gocv.MatTypeCV8UC1), Grid{Shape: shape9}},
		{"no shape", gocv.NewMatWithSize(288, 288, gocv.MatTypeCV8UC1), Grid{Side: 288}},
		{"huge side", gocv.NewMatWithSize(288, 288, gocv.MatTypeCV8UC1), Grid{Side: 1 << 20, Shape: shape9}},
		{"canvas of another size", gocv.NewMatWithSize(100, 288, gocv.MatTypeCV8UC1), Grid{Side: 288, Shape: shape9}},
		{"colour canvas", gocv.NewMatWithSize(288, 288, gocv.MatTypeCV8UC3), Grid{Side: 288, Shape: shape9}},
		{"empty canvas", gocv.NewMat(), Grid{Side: 288, Shape: shape9}},
	}
	for _, c := range bad {
		_, _, err := det.CellsOf(c.canvas, c.g)
		c.canvas.Close()
		var qe *QualityError
		if !errors.As(err, &qe) || qe.Kind != BadInput {
			t.Errorf("CellsOf, %s: %v, want a BadInput error", c.name, err)
		}
	}
	frame := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	defer frame.Close()
	bend := &Bend{K: 4, DX: make([]float64, 3)}
	if err := det.Canvas(frame, Grid{Side: 288, Shape: shape9, Bend: bend}, &canvas); err == nil {
		t.Error("Canvas with a bend of the wrong size: no error")
	}
	empty := gocv.NewMat()
	defer empty.Close()
	if err := det.Canvas(empty, Grid{Side: 288, Shape: shape9}, &canvas); err == nil {
		t.Error("Canvas of an empty frame: no error")
	}
}
