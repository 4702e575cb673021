package vision

import (
	"math"
	"testing"
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
			h, ok := latticeCorrection(vl, hl, side, n, cs, tc.maxMovePx)
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
