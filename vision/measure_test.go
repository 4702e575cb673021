package vision

import (
	"math"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// TestVariance16 checks the exact-integer variance Analyze takes for
// Sharpness against OpenCV's MeanStdDev on the Laplacians of real photos.
func TestVariance16(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-v2-train")
	for _, name := range []string{"image1.jpg", "image94.jpg", "image1049.jpg"} {
		img, err := readImage(filepath.Join(dir, name))
		if err != nil {
			img.Close()
			t.Fatal(err)
		}
		gray, lap := gocv.NewMat(), gocv.NewMat()
		gocv.CvtColor(img, &gray, gocv.ColorBGRToGray)
		gocv.Laplacian(gray, &lap, gocv.MatTypeCV16S, 1, 1, 0, gocv.BorderReplicate)
		mean, std := gocv.NewMat(), gocv.NewMat()
		gocv.MeanStdDev(lap, &mean, &std)
		sd := std.GetDoubleAt(0, 0)
		want, got := sd*sd, variance16(lap)
		if math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("%s: variance16 %.12g, MeanStdDev gives %.12g", name, got, want)
		}
		for _, m := range []*gocv.Mat{&img, &gray, &lap, &mean, &std} {
			m.Close()
		}
	}
}
