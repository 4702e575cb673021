package vision

import (
	"fmt"
	"image"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"sudokuar/internal/testenv"
)

// benchFrame loads a real photo resized to w×h (the camera sizes the live
// app sees); the caller closes it.
func benchFrame(b *testing.B, name string, w, h int) gocv.Mat {
	dir := testenv.Shared(b, "datasets/wicht-v2-train")
	img, err := ReadImage(filepath.Join(dir, name))
	if err != nil {
		img.Close()
		b.Fatal(err)
	}
	defer img.Close()
	out := gocv.NewMat()
	gocv.Resize(img, &out, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	return out
}

// BenchmarkAnalyze times find + warp + box shape + cells. Run it on one
// thread: OPENCV_FOR_THREADS_NUM=1 taskset -c 0 go test -bench Analyze.
func BenchmarkAnalyze(b *testing.B) {
	for _, sz := range []image.Point{{640, 480}, {1280, 720}} {
		b.Run(fmt.Sprintf("%dx%d", sz.X, sz.Y), func(b *testing.B) {
			frame := benchFrame(b, "image1.jpg", sz.X, sz.Y)
			defer frame.Close()
			d := NewDetector(Options{})
			defer d.Close()
			if _, _, err := d.Analyze(frame); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, err := d.Analyze(frame); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLocate times the per-frame tracker alone.
func BenchmarkLocate(b *testing.B) {
	frame := benchFrame(b, "image1.jpg", 1280, 720)
	defer frame.Close()
	d := NewDetector(Options{})
	defer d.Close()
	for i := 0; i < b.N; i++ {
		if _, err := d.Locate(frame); err != nil {
			b.Fatal(err)
		}
	}
}
