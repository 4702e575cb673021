package ocr_test

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// photo is a committed synthetic test photo cut by vision, with its truth.
type photo struct {
	name  string
	shape sudoku.Shape
	cells []vision.Cell
	truth []int
}

// synthPhotos cuts the 9×9 photos of testdata/synth (vision's cutter, as
// the app uses it). Photos vision cannot cut into the true shape are left
// out: this measures the reader, not the eye.
func synthPhotos(tb testing.TB) []photo {
	dir := filepath.Join("..", "testdata", "synth")
	jpgs, _ := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if len(jpgs) == 0 {
		tb.Fatal("no photos in testdata/synth (committed; `make synth` writes them)")
	}
	sort.Strings(jpgs)
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	var out []photo
	for _, j := range jpgs {
		data, err := os.ReadFile(strings.TrimSuffix(j, ".jpg") + ".dat")
		if err != nil {
			continue
		}
		var vals []int
		for _, line := range strings.Split(string(data), "\n")[2:] {
			for _, f := range strings.Fields(line) {
				v, err := strconv.Atoi(f)
				if err != nil {
					tb.Fatalf("%s: bad value %q", j, f)
				}
				vals = append(vals, v)
			}
		}
		if len(vals) != 81 {
			continue // other sizes: 4×4 to 8×8 are readable but rarer; 10+ are not
		}
		img, err := pipeline.ReadImage(j, 0)
		if err != nil {
			img.Close()
			tb.Fatalf("%s: %v", j, err)
		}
		g, cells, err := det.Analyze(img)
		img.Close()
		if err != nil || g.Shape.N() != 9 {
			continue
		}
		out = append(out, photo{filepath.Base(j), g.Shape, cells, vals})
	}
	if len(out) == 0 {
		tb.Fatal("vision cut no 9×9 photo of testdata/synth")
	}
	return out
}

// TestShippedModelOnSynthPhotos: every cell vision hands over from the
// committed synthetic photos is read right by the shipped model, with both
// runtimes.
func TestShippedModelOnSynthPhotos(t *testing.T) {
	if len(shippedBytes()) == 0 {
		t.Fatal("models/digits.onnx is empty: the committed digit model is lost (`make model` retrains it)")
	}
	photos := synthPhotos(t)
	for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
		c, err := ocr.Default(backend)
		if err != nil {
			t.Fatal(err)
		}
		cells, wrong := 0, 0
		for _, p := range photos {
			r, err := ocr.Read(c, p.shape, p.cells)
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			for i, pr := range r.Prob {
				if pr == nil {
					continue
				}
				cells++
				if r.Given.Cells[i] != p.truth[i] {
					wrong++
					t.Errorf("%s %s: r%dc%d read %d (conf %.2f), want %d", backend, p.name, i/9+1, i%9+1, r.Given.Cells[i], r.Conf[i], p.truth[i])
				}
			}
		}
		t.Logf("%s: %d photos, %d cells classified, %d wrong", backend, len(photos), cells, wrong)
		ocr.CloseClassifier(c)
	}
}

// BenchmarkReadGrid times ocr.Read (one batch of the non-empty cells plus
// conflict and solution checks) on the 9×9 photos of testdata/synth; ns/op
// is per grid.
func BenchmarkReadGrid(b *testing.B) {
	if len(shippedBytes()) == 0 {
		b.Fatal("models/digits.onnx is empty: the committed digit model is lost (`make model` retrains it)")
	}
	photos := synthPhotos(b)
	for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
		b.Run(backend, func(b *testing.B) {
			c, err := ocr.Default(backend)
			if err != nil {
				b.Fatal(err)
			}
			defer ocr.CloseClassifier(c)
			for _, p := range photos { // build every batch-size graph first
				if _, err := ocr.Read(c, p.shape, p.cells); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			cpu := cputime.Process()
			for i := 0; i < b.N; i++ {
				p := photos[i%len(photos)]
				if _, err := ocr.Read(c, p.shape, p.cells); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkReadRealPhotos times Read on real photos (every fourth 9×9
// photo of ../shared/datasets/wicht-v2-train and others-train, cut by
// vision), where unlike the clean synthetic ones about half the grids have
// a given under Settings.LookCertainBelow or need the repair and so get the
// second look: per backend with the default settings and with the second
// look on every grid (LookCertainBelow 1, the cost before it was gated).
func BenchmarkReadRealPhotos(b *testing.B) {
	if len(shippedBytes()) == 0 {
		b.Fatal("models/digits.onnx is empty: the committed digit model is lost (`make model` retrains it)")
	}
	var files []string
	for _, d := range []string{"datasets/wicht-v2-train", "datasets/others-train"} {
		f, _ := filepath.Glob(filepath.Join(testenv.Shared(b, d), "*.jpg"))
		sort.Strings(f)
		files = append(files, f...)
	}
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	var grids []photo
	for i := 0; i < len(files); i += 4 {
		img, err := pipeline.ReadImage(files[i], 0)
		if err != nil {
			b.Fatalf("%s: %v", files[i], err)
		}
		g, cells, err := det.Analyze(img)
		img.Close()
		if err != nil || g.Shape.N() != 9 {
			continue
		}
		grids = append(grids, photo{name: filepath.Base(files[i]), shape: g.Shape, cells: cells})
	}
	if len(grids) == 0 {
		b.Fatal("vision cut no 9×9 grid from the real photos")
	}
	always := ocr.DefaultSettings
	always.LookCertainBelow = 1
	for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
		for _, s := range []struct {
			name string
			set  ocr.Settings
		}{{"default", ocr.DefaultSettings}, {"look-always", always}} {
			b.Run(backend+"/"+s.name, func(b *testing.B) {
				c, err := ocr.Default(backend)
				if err != nil {
					b.Fatal(err)
				}
				defer ocr.CloseClassifier(c)
				for _, p := range grids { // build every batch-size graph first
					if _, err := ocr.ReadWith(c, p.shape, p.cells, s.set); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				cpu := cputime.Process()
				for i := 0; i < b.N; i++ {
					p := grids[i%len(grids)]
					if _, err := ocr.ReadWith(c, p.shape, p.cells, s.set); err != nil {
						b.Fatalf("%s: %v", p.name, err)
					}
				}
				b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			})
		}
	}
}
