package vision

import (
	"fmt"
	"image"
	"path/filepath"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/internal/testenv"
)

// benchFrame loads a real photo resized to w×h (the camera sizes the live
// app sees); the caller closes it.
func benchFrame(b *testing.B, name string, w, h int) gocv.Mat {
	dir := testenv.Shared(b, "datasets/wicht-v2-train")
	img, err := readImage(filepath.Join(dir, name))
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
			c0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				if _, _, err := d.Analyze(frame); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0)
		})
	}
}

// BenchmarkLocate times the per-frame tracker alone.
func BenchmarkLocate(b *testing.B) {
	frame := benchFrame(b, "image1.jpg", 1280, 720)
	defer frame.Close()
	d := NewDetector(Options{})
	defer d.Close()
	b.ResetTimer()
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		if _, err := d.Locate(frame); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

func reportCPU(b *testing.B, since time.Duration) {
	b.ReportMetric(float64(cputime.Process()-since)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkAnalyze16 times Analyze on a synthetic 16×16 photo (640×480),
// the costliest path: second look at the finest canvas and the lattice fit.
func BenchmarkAnalyze16(b *testing.B) {
	img, err := readImage(filepath.Join(testenv.RepoRoot(), "testdata", "synth", "image6.jpg"))
	if err != nil {
		img.Close()
		b.Fatal(err)
	}
	defer img.Close()
	d := NewDetector(Options{})
	defer d.Close()
	if g, _, err := d.Analyze(img); err != nil || g.Shape.N() != 16 {
		b.Fatalf("image6: N=%d, %v", g.Shape.N(), err)
	}
	b.ResetTimer()
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		d.Analyze(img)
	}
	reportCPU(b, c0)
}

// BenchmarkAnalyzeCurled times Analyze on a curled synthetic page
// (640×480, testdata/synth-curl/image1.jpg): the bent path, resampled
// through the outline's bend and the measured crossings.
func BenchmarkAnalyzeCurled(b *testing.B) {
	benchFile(b, "synth-curl/image1.jpg", true)
}

// BenchmarkAnalyzeBeside times Analyze on a page with two puzzles side by
// side (640×480, testdata/synth-beside/image1.jpg): every candidate scored.
func BenchmarkAnalyzeBeside(b *testing.B) {
	benchFile(b, "synth-beside/image1.jpg", false)
}

func benchFile(b *testing.B, name string, bent bool) {
	img, err := readImage(filepath.Join(testenv.RepoRoot(), "testdata", name))
	if err != nil {
		img.Close()
		b.Fatal(err)
	}
	defer img.Close()
	d := NewDetector(Options{})
	defer d.Close()
	if g, _, err := d.Analyze(img); err != nil || (g.Bend != nil) != bent {
		b.Fatalf("%s: %v, bent %v", name, err, g.Bend != nil)
	}
	b.ResetTimer()
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		d.Analyze(img)
	}
	reportCPU(b, c0)
}

// BenchmarkCutByFrame times the edge rule on a whole photo whose grid
// touches the frame's edge (every side of it asked) and on a crop that
// cuts that grid: the cost it adds to each reading of such a frame.
func BenchmarkCutByFrame(b *testing.B) {
	photo := benchFrame(b, "image1000.jpg", 960, 1280)
	defer photo.Close()
	region := photo.Region(image.Rect(0, 0, 850, 1280))
	cut := region.Clone()
	region.Close()
	defer cut.Close()
	for _, c := range []struct {
		name  string
		frame gocv.Mat
	}{{"whole", photo}, {"cut", cut}} {
		b.Run(c.name, func(b *testing.B) {
			d := NewDetector(Options{})
			defer d.Close()
			g, _, _ := d.Analyze(c.frame)
			b.ResetTimer()
			for range b.N {
				cutByFrame(c.frame, g)
			}
		})
	}
}

// BenchmarkSetTints times the ink colour of every cell of a real page
// (part of every Analyze of a colour frame).
func BenchmarkSetTints(b *testing.B) {
	frame := benchFrame(b, "image1.jpg", 1280, 720)
	defer frame.Close()
	d := NewDetector(Options{})
	defer d.Close()
	g, cells, err := d.Analyze(frame)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		setTints(frame, g, cells)
	}
}
