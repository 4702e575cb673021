package ocr_test

import (
	"errors"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/models"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/ocr/digitnet"
)

// randomCells returns n cells of blotchy ink so that every unit of the
// network sees varied activity.
func randomCells(rng *rand.Rand, n int) [][]float32 {
	cells := make([][]float32, n)
	for i := range cells {
		c := make([]float32, ocr.CellLen)
		for j := range c {
			if rng.Float32() < 0.3 {
				c[j] = rng.Float32()
			}
		}
		cells[i] = c
	}
	return cells
}

func flatten(cells [][]float32) []float32 {
	var x []float32
	for _, c := range cells {
		x = append(x, c...)
	}
	return x
}

// reference runs the gorgonia training graph and applies softmax.
func reference(t *testing.T, w digitnet.Weights, cells [][]float32) [][]float32 {
	t.Helper()
	logits, err := digitnet.Forward(w, flatten(cells), len(cells))
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]float32, len(cells))
	k := w.Arch.Outputs()
	for i := range out {
		row := logits[i*k : (i+1)*k]
		var sum float64
		p := make([]float32, k)
		m := row[digitnet.Argmax(row)]
		for j, v := range row {
			p[j] = float32(math.Exp(float64(v - m)))
			sum += float64(p[j])
		}
		for j := range p {
			p[j] = float32(float64(p[j]) / sum)
		}
		out[i] = p
	}
	return out
}

func maxDiff(a, b [][]float32) float64 {
	d := 0.0
	for i := range a {
		for j := range a[i] {
			d = math.Max(d, math.Abs(float64(a[i][j]-b[i][j])))
		}
	}
	return d
}

// TestBackendsAgreeWithTrainingGraph checks that onnx-go and OpenCV DNN, two
// independent ONNX readers, compute what the gorgonia training graph
// computes, for random weights and for the shipped model, over batch sizes
// that hit the padding and chunking paths of the Go backend.
func TestBackendsAgreeWithTrainingGraph(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	models := map[string][]byte{
		"random weights": digitnet.Init(digitnet.Arch{C1: 4, C2: 8, Hidden: 16}, rng).ONNX(),
	}
	if data := shippedModel(t); data != nil {
		models["models/digits.onnx"] = data
	}
	for name, data := range models {
		w, err := digitnet.FromONNX(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
			c, err := ocr.New(data, backend)
			if err != nil {
				t.Fatalf("%s %s: %v", name, backend, err)
			}
			for _, n := range []int{1, 3, 10, 18, 26, 30, 35, 43, 60, 70, 81, 90} {
				cells := randomCells(rng, n)
				got, err := c.Classify(cells)
				if err != nil {
					t.Fatalf("%s %s n=%d: %v", name, backend, n, err)
				}
				if len(got) != n {
					t.Fatalf("%s %s: %d results for %d cells", name, backend, len(got), n)
				}
				want := reference(t, w, cells)
				if d := maxDiff(got, want); d > 1e-4 {
					t.Errorf("%s %s n=%d: max abs diff %g from the training graph", name, backend, n, d)
				}
			}
			ocr.CloseClassifier(c)
		}
	}
}

// shippedModel returns the embedded model, or nil before one is trained.
func shippedModel(t *testing.T) []byte {
	data := shippedBytes()
	if len(data) == 0 {
		t.Log("models/digits.onnx is empty; only random weights checked")
		return nil
	}
	return data
}

func TestBadModelFiles(t *testing.T) {
	dir := t.TempDir()
	good := digitnet.Init(digitnet.DefaultArch, rand.New(rand.NewSource(1))).ONNX()
	other := digitnet.Init(digitnet.DefaultArch, rand.New(rand.NewSource(1)))
	other.FC2B = other.FC2B[:5]
	files := map[string][]byte{
		"empty.onnx":     {},
		"truncated.onnx": good[:len(good)/2],
		"text.onnx":      []byte("this is not a model\n"),
		"garbage.onnx":   {0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02},
		"shortbias.onnx": other.ONNX(),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := append([]string{"missing.onnx"}, "empty.onnx", "truncated.onnx", "text.onnx", "garbage.onnx", "shortbias.onnx")
	for _, name := range cases {
		for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
			path := filepath.Join(dir, name)
			c, err := ocr.Load(path, backend)
			if err == nil {
				ocr.CloseClassifier(c)
				t.Errorf("%s %s: no error", name, backend)
				continue
			}
			var me *ocr.ModelError
			if !errors.As(err, &me) {
				t.Errorf("%s %s: error %T %v, want *ocr.ModelError", name, backend, err, err)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("%s %s: error %q does not name the file", name, backend, err)
			}
		}
	}
	if _, err := ocr.Load(filepath.Join(dir, "empty.onnx"), "tensorflow"); err == nil {
		t.Error("unknown backend accepted")
	}
}

func TestWrongInputSizes(t *testing.T) {
	data := digitnet.Init(digitnet.DefaultArch, rand.New(rand.NewSource(1))).ONNX()
	nan := make([]float32, ocr.CellLen)
	nan[3] = float32(math.NaN())
	inf, negInf := make([]float32, ocr.CellLen), make([]float32, ocr.CellLen)
	inf[5], negInf[ocr.CellLen-1] = float32(math.Inf(1)), float32(math.Inf(-1))
	huge := make([]float32, ocr.CellLen)
	huge[0] = math.MaxFloat32 // finite: accepted
	cases := []struct {
		name  string
		cells [][]float32
		bad   int
	}{
		{"short", [][]float32{make([]float32, ocr.CellLen), make([]float32, 27*27)}, 1},
		{"long", [][]float32{make([]float32, ocr.CellLen+1)}, 0},
		{"nil", [][]float32{nil}, 0},
		{"nan", [][]float32{make([]float32, ocr.CellLen), nan}, 1},
		{"inf", [][]float32{huge, inf}, 1},
		{"-inf", [][]float32{negInf, huge}, 0},
	}
	for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
		c, err := ocr.New(data, backend)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range cases {
			_, err := c.Classify(tc.cells)
			var ie *ocr.InputError
			if !errors.As(err, &ie) || ie.Cell != tc.bad {
				t.Errorf("%s %s: error %v, want InputError for cell %d", backend, tc.name, err, tc.bad)
			}
		}
		if got, err := c.Classify(nil); err != nil || len(got) != 0 {
			t.Errorf("%s: empty batch gave %v, %v", backend, got, err)
		}
		ocr.CloseClassifier(c)
	}
}

func shippedBytes() []byte { return models.Digits() }
