package vision

import (
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// TestLatticeCorrection draws the lines of an 8×8 grid shifted, and
// slanted, on a 256-px canvas and checks the correction brings every
// measured crossing back onto the ideal lattice.
func TestLatticeCorrection(t *testing.T) {
	const side, n = 256, 8
	cs := float64(side) / n
	tests := []struct {
		name      string
		dx, dy    float64 // shift of the drawn lattice
		slant     float64 // vertical lines drift by slant px per px down
		wantOK    bool
		maxMovePx float64
	}{
		{"in place", 0, 0, 0, true, 16},
		{"shifted", 4, -3, 0, true, 16},
		{"slanted", 2, 1, 0.02, true, 16},
		{"too far", 4, -3, 0, false, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vl := make([]uint8, side*side)
			hl := make([]uint8, side*side)
			pos := func(k int, along float64, d, slant float64) float64 {
				return float64(k)*cs + d + slant*along
			}
			for k := 0; k <= n; k++ {
				for a := 0; a < side; a++ {
					c := int(math.Floor(pos(k, float64(a)+0.5, tc.dx, tc.slant)))
					for w := c - 1; w <= c+1; w++ {
						if w >= 0 && w < side {
							vl[a*side+w] = 255
						}
					}
					r := int(math.Floor(pos(k, 0, tc.dy, 0)))
					for w := r - 1; w <= r+1; w++ {
						if w >= 0 && w < side {
							hl[w*side+a] = 255
						}
					}
				}
			}
			cols, rows := bandSums(vl, hl, side)
			h, ok := latticeCorrection(cols, rows, side, n, cs, tc.maxMovePx)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tc.wantOK)
			}
			if !ok {
				return
			}
			for k := 1; k < n; k++ {
				for j := 1; j < n; j++ {
					y := float64(j)*cs + tc.dy
					x := float64(k)*cs + tc.dx + tc.slant*y
					got := apply(h, pt{x, y})
					if d := got.dist(pt{float64(k) * cs, float64(j) * cs}); d > 1 {
						t.Errorf("crossing (%d,%d) maps to %v, %.2f px off", k, j, got, d)
					}
				}
			}
		})
	}
}

// BenchmarkLatticeCorrection times the lattice fit on a 9×9 canvas (288
// px) from its band sums, which Analyze runs on every frame.
func BenchmarkLatticeCorrection(b *testing.B) {
	const side, n = 288, 9
	cs := float64(side) / n
	vl := make([]uint8, side*side)
	hl := make([]uint8, side*side)
	for k := 0; k <= n; k++ {
		c := min(side-1, int(float64(k)*cs))
		for a := 0; a < side; a++ {
			vl[a*side+c] = 255
			hl[c*side+a] = 255
		}
	}
	cols, rows := bandSums(vl, hl, side)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := latticeCorrection(cols, rows, side, n, cs, cs/2); !ok {
			b.Fatal("no lattice")
		}
	}
}

// TestBandSums checks the OpenCV band sums Analyze uses against the plain
// Go reference on a canvas with a line at every 7th column and row.
func TestBandSums(t *testing.T) {
	const side = 90
	vl := make([]uint8, side*side)
	hl := make([]uint8, side*side)
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			if x%7 == 0 && y%3 != 0 {
				vl[y*side+x] = 255
			}
			if y%7 == 0 && x%5 != 0 {
				hl[y*side+x] = 255
			}
		}
	}
	d := NewDetector(Options{})
	defer d.Close()
	var err error
	c := d.rect.fresh(nil)
	c.vlines.Close()
	c.hlines.Close()
	if c.vlines, err = gocv.NewMatFromBytes(side, side, gocv.MatTypeCV8U, vl); err != nil {
		t.Fatal(err)
	}
	if c.hlines, err = gocv.NewMatFromBytes(side, side, gocv.MatTypeCV8U, hl); err != nil {
		t.Fatal(err)
	}
	wc, wr := bandSums(vl, hl, side)
	gc, gr, ok := d.rect.bandSums(c, side)
	if !ok {
		t.Fatal("bandSums refused a matching canvas")
	}
	for b := 0; b < latticeBands; b++ {
		for i := 0; i < side; i++ {
			if gc[b][i] != wc[b][i] || gr[b][i] != wr[b][i] {
				t.Fatalf("band %d index %d: got %v/%v, want %v/%v", b, i, gc[b][i], gr[b][i], wc[b][i], wr[b][i])
			}
		}
	}
	if _, _, ok := d.rect.bandSums(c, side+1); ok {
		t.Error("bandSums accepted a side that does not match the canvas")
	}
}

// TestEdgeLines draws a grid border on line images, with short strokes
// (remnants of a caption) between it and the canvas edge, and checks each
// side is found on the border; a border on the canvas edge is not moved.
func TestEdgeLines(t *testing.T) {
	const side = 200
	tests := []struct {
		name      string
		inset     [4]int // top, right, bottom, left: border distance from the edge
		wantMoved bool
	}{
		{"border on the edge", [4]int{1, 1, 1, 1}, false},
		{"caption under the grid", [4]int{1, 1, 15, 1}, true},
		{"text left and above", [4]int{10, 1, 1, 18}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vl := make([]uint8, side*side)
			hl := make([]uint8, side*side)
			top, right, bottom, left := tc.inset[0], side-1-tc.inset[1], side-1-tc.inset[2], tc.inset[3]
			for a := 0; a < side; a++ {
				hl[top*side+a], hl[bottom*side+a] = 255, 255
				vl[a*side+left], vl[a*side+right] = 255, 255
			}
			// Short strokes outside the border: words, not lines.
			for x := 0; x < side; x += 20 {
				for w := 0; w < 6; w++ {
					hl[(side-3)*side+x+w] = 255
					vl[(x+w)*side+2] = 255
				}
			}
			cols, rows := bandSums(vl, hl, side)
			ls, moved := edgeLines(cols, rows, side)
			if moved != tc.wantMoved {
				t.Errorf("moved = %v, want %v", moved, tc.wantMoved)
			}
			want := [4]float64{float64(top) + 0.5, float64(right) + 0.5, float64(bottom) + 0.5, float64(left) + 0.5}
			got := [4]float64{ls[0].P.Y, ls[1].P.X, ls[2].P.Y, ls[3].P.X}
			for i := range want {
				if math.Abs(got[i]-want[i]) > 0.01 {
					t.Errorf("side %d at %.2f, want %.2f", i, got[i], want[i])
				}
			}
		})
	}
}
