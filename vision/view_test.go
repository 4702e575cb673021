package vision

import (
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// TestCellView: on committed synthetic photos, every cell vision reads
// ink in has a View and a Grey of CellSize² values in [0,1], a cell with
// no ink has neither, and View keeps the ink where the cell holds it (in
// the cell's middle for a printed digit) rather than re-framing it.
func TestCellView(t *testing.T) {
	dir := testenv.Committed(t, "testdata/synth")
	for _, name := range []string{"image1.jpg", "image2.jpg", "image3.jpg"} {
		t.Run(name, func(t *testing.T) {
			img, err := readImage(filepath.Join(dir, name))
			defer img.Close()
			if err != nil {
				t.Fatal(err)
			}
			d := NewDetector(Options{})
			defer d.Close()
			_, cells, err := d.Analyze(img)
			if err != nil {
				t.Fatal(err)
			}
			digits := 0
			for _, c := range cells {
				if c.Empty && c.View == nil {
					if c.Grey != nil {
						t.Errorf("r%dc%d: Grey without View", c.Row+1, c.Col+1)
					}
					continue
				}
				if len(c.View) != CellSize*CellSize || len(c.Grey) != CellSize*CellSize {
					t.Fatalf("r%dc%d (empty %v): View %d, Grey %d values", c.Row+1, c.Col+1, c.Empty, len(c.View), len(c.Grey))
				}
				var mass, cx, cy float64
				for i, v := range c.View {
					if v < 0 || v > 1 || c.Grey[i] < 0 || c.Grey[i] > 1 {
						t.Fatalf("r%dc%d: value out of [0,1]", c.Row+1, c.Col+1)
					}
					mass += float64(v)
					cx += float64(v) * float64(i%CellSize)
					cy += float64(v) * float64(i/CellSize)
				}
				if c.Empty || mass == 0 {
					continue
				}
				digits++
				cx, cy = cx/mass, cy/mass
				if cx < 8 || cx > 20 || cy < 8 || cy > 20 {
					t.Errorf("r%dc%d: printed digit's ink centred at (%.1f, %.1f) of the view", c.Row+1, c.Col+1, cx, cy)
				}
			}
			if digits == 0 {
				t.Error("no digit with a view")
			}
		})
	}
}
