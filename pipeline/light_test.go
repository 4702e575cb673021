package pipeline

import (
	"image"
	"math/rand"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// dimmed returns photo as a dim room's camera gives it: its grey scaled
// by level, blurred by a Gaussian of blur pixels (none at 0), and grey
// Gaussian noise of noise levels added (the same on the three channels,
// drawn from seed). The caller closes the Mat.
func dimmed(t *testing.T, photo gocv.Mat, level, noise, blur float64, seed int64) gocv.Mat {
	t.Helper()
	f := gocv.NewMat()
	defer f.Close()
	photo.ConvertToWithParams(&f, gocv.MatTypeCV32FC3, float32(level), 0)
	if blur > 0 {
		gocv.GaussianBlur(f, &f, image.Pt(0, 0), blur, blur, gocv.BorderReplicate)
	}
	v, err := f.DataPtrFloat32()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(seed))
	for i := 0; i+2 < len(v); i += 3 {
		e := float32(r.NormFloat64() * noise)
		v[i] += e
		v[i+1] += e
		v[i+2] += e
	}
	out := gocv.NewMat()
	f.ConvertTo(&out, gocv.MatTypeCV8UC3)
	return out
}

// TestDimPages reads training photos (none of wicht-holdout.list) darkened
// to 55%, 35% and 20% of their light, with a camera's noise and a little
// blur: pages a person still reads. Each must be read exactly as printed
// and, when shown solved, with the page's givens. Main's code before the
// lift called these too dark (mean grey under 45), found no grid in them,
// or misread them.
func TestDimPages(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-v2-train")
	p := newPipeline(t, "")
	for _, photo := range []string{"image1.jpg", "image112.jpg", "image172.jpg", "image185.jpg", "image195.jpg", "image21.jpg"} {
		path := filepath.Join(dir, photo)
		truth, err := ReadTruth(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := ReadImage(path, 0)
		if err != nil {
			img.Close()
			t.Fatal(err)
		}
		want := sudoku.CellString(truth.Cells)
		for _, level := range []float64{0.55, 0.35, 0.20} {
			frame := dimmed(t, img, level, 3, 0.7, 1)
			r := p.Process(frame)
			frame.Close()
			if r.Given != want {
				t.Errorf("%s at %.0f%%: read %s (%s: %s), want %s", photo, 100*level, r.Given, r.Status, r.Error, want)
			}
			if r.Status == StatusSolved && r.Given != want {
				t.Errorf("%s at %.0f%%: shown solved with givens %s", photo, 100*level, r.Given)
			}
		}
		img.Close()
	}
}

// TestUnreadableLightRefused: frames no one can read are still refused
// (too dark, too blurry, no grid or move closer), never read into a puzzle: a black
// frame, one of noise, a training photo at 2% of its light, and one at
// 20% blurred past reading.
func TestUnreadableLightRefused(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-v2-train")
	p := newPipeline(t, "")
	img, err := ReadImage(filepath.Join(dir, "image1.jpg"), 0)
	if err != nil {
		img.Close()
		t.Fatal(err)
	}
	defer img.Close()
	black := gocv.NewMatWithSize(img.Rows(), img.Cols(), gocv.MatTypeCV8UC3)
	defer black.Close()
	grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(20, 20, 20, 0), img.Rows(), img.Cols(), gocv.MatTypeCV8UC3)
	defer grey.Close()
	for _, tc := range []struct {
		name  string
		frame gocv.Mat
	}{
		{"black", dimmed(t, black, 1, 0, 0, 1)},
		{"noise", dimmed(t, grey, 1, 6, 0, 2)},
		{"2% light", dimmed(t, img, 0.02, 1, 0.7, 3)},
		{"20% light, blurred", dimmed(t, img, 0.20, 3, 6, 4)},
	} {
		r := p.Process(tc.frame)
		tc.frame.Close()
		switch r.Status {
		case StatusDark, StatusBlurry, StatusNoGrid, StatusTooSmall:
			t.Logf("%s: %s (%s)", tc.name, r.Status, r.Error)
		default:
			t.Errorf("%s: %s, givens %s; want it refused", tc.name, r.Status, r.Given)
		}
	}
}
