package vision

import (
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// cellMosaic lays out the normalised cells of one grid as an image (N
// rows of N cells, 2 px gaps, empty cells mid grey) for eyeballing what
// the digit reader gets; the caller closes the Mat.
func cellMosaic(cells []Cell, n int) gocv.Mat {
	const gap = 2
	side := n*(CellSize+gap) + gap
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 0, 0, 0), side, side, gocv.MatTypeCV8UC1)
	for _, c := range cells {
		x0, y0 := gap+c.Col*(CellSize+gap), gap+c.Row*(CellSize+gap)
		for y := 0; y < CellSize; y++ {
			for x := 0; x < CellSize; x++ {
				v := uint8(128)
				if !c.Empty && len(c.Pixels) == CellSize*CellSize {
					v = uint8(255 * c.Pixels[y*CellSize+x])
				}
				m.SetUCharAt(y0+y, x0+x, v)
			}
		}
	}
	return m
}

// TestCellMosaic checks the cell contract (size, range, centring) on real
// photos and, with VISION_MOSAIC=folder, writes one mosaic PNG per photo.
func TestCellMosaic(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-v2-train")
	out := os.Getenv("VISION_MOSAIC")
	d := NewDetector(Options{})
	defer d.Close()
	for _, name := range []string{"image1.jpg", "image1008.jpg", "image115.jpg", "image1038.jpg", "image201.jpg", "image71.jpg"} {
		img, err := readImage(filepath.Join(dir, name))
		if err != nil {
			img.Close()
			t.Fatal(err)
		}
		g, cells, err := d.Analyze(img)
		img.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, c := range cells {
			if !c.Empty {
				checkCellContract(t, name, c)
			}
		}
		if out != "" {
			m := cellMosaic(cells, g.Shape.N())
			gocv.IMWrite(filepath.Join(out, "mosaic_"+name[:len(name)-4]+".png"), m)
			m.Close()
		}
	}
}

// checkCellContract checks one non-empty cell of photo name: its pixels in
// [0,1], its ink inside the centred 20×20 box and balanced around the
// centre, and its half-way view the same digit, thinner.
func checkCellContract(t *testing.T, name string, c Cell) {
	t.Helper()
	if len(c.Pixels) != CellSize*CellSize {
		t.Fatalf("%s r%dc%d: %d pixels", name, c.Row, c.Col, len(c.Pixels))
	}
	// Ink must stay inside the centred 20×20 box (±1 for rounding)
	// and be balanced around the centre.
	var sum, sx, sy float64
	for y := 0; y < CellSize; y++ {
		for x := 0; x < CellSize; x++ {
			v := float64(c.Pixels[y*CellSize+x])
			if v < 0 || v > 1 {
				t.Fatalf("%s r%dc%d: pixel %v out of [0,1]", name, c.Row, c.Col, v)
			}
			if v > 0 && (x < 3 || y < 3 || x > 24 || y > 24) {
				t.Errorf("%s r%dc%d: ink at (%d,%d) outside the 20x20 box", name, c.Row, c.Col, x, y)
			}
			sum += v
			sx += v * float64(x)
			sy += v * float64(y)
		}
	}
	if sum == 0 {
		t.Errorf("%s r%dc%d: non-empty cell without ink", name, c.Row, c.Col)
		return
	}
	if cx, cy := sx/sum, sy/sum; cx < 8 || cx > 19 || cy < 8 || cy > 19 {
		t.Errorf("%s r%dc%d: ink centred at (%.1f,%.1f)", name, c.Row, c.Col, cx, cy)
	}
	// The half-way view is the same digit, thinner: in the same
	// box, in [0,1], with some ink but not more than the
	// binarisation's (plus the one-pixel rim around it).
	if len(c.Half) != CellSize*CellSize {
		t.Fatalf("%s r%dc%d: %d half-way pixels", name, c.Row, c.Col, len(c.Half))
	}
	var half float64
	for y := 0; y < CellSize; y++ {
		for x := 0; x < CellSize; x++ {
			v := float64(c.Half[y*CellSize+x])
			if v < 0 || v > 1 || v > 0 && (x < 3 || y < 3 || x > 24 || y > 24) {
				t.Fatalf("%s r%dc%d: half-way pixel %v at (%d,%d)", name, c.Row, c.Col, v, x, y)
			}
			half += v
		}
	}
	if half < 0.2*sum || half > 1.5*sum {
		t.Errorf("%s r%dc%d: half-way view has %.0f of ink, the binarised one %.0f", name, c.Row, c.Col, half, sum)
	}
}
