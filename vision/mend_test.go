package vision

import "testing"

// TestMendCrossings checks which runs of a horizontal line mask are given
// back to the ink: only strokes crossing the line, away from the lattice's
// crossings, and not other lines.
func TestMendCrossings(t *testing.T) {
	const side, cs = 40, 20.0
	const lineY = 15 // mid-cell: a crease, not a grid line
	tests := []struct {
		name     string
		x        int // column of the vertical ink
		y0, y1   int // its extent [y0, y1)
		lineAt   int
		wantMend bool
	}{
		{"stroke crossing", 10, 9, 22, lineY, true},
		{"stroke touching from above", 10, 9, lineY + 2, lineY, false},
		{"stroke touching from below", 10, lineY, 22, lineY, false},
		{"line crossing (ink runs on)", 10, 0, side, lineY, false},
		{"stroke at a lattice crossing", 20, 14, 26, 20, false},
		{"stroke on a grid line, mid-cell", 10, 14, 26, 20, true},
	}
	for _, tc := range tests {
		// Each case as drawn (a horizontal line) and transposed (a
		// vertical line crossed by a horizontal stroke).
		for _, vertical := range []bool{false, true} {
			name := tc.name
			at := func(x, y int) int { return y*side + x }
			step, next := side, 1
			if vertical {
				name += " (vertical line)"
				at = func(x, y int) int { return x*side + y }
				step, next = 1, side
			}
			t.Run(name, func(t *testing.T) {
				bin := make([]uint8, side*side)
				mask := make([]uint8, side*side)
				for x := 0; x < side; x++ {
					for y := tc.lineAt - 1; y <= tc.lineAt+1; y++ {
						bin[at(x, y)] = 255
						mask[at(x, y)] = 255
					}
				}
				for y := tc.y0; y < tc.y1; y++ {
					bin[at(tc.x, y)] = 255
				}
				mendCrossings(mask, bin, side, step, next, 5, 10, cs)
				mended := mask[at(tc.x, tc.lineAt)] == 0
				if mended != tc.wantMend {
					t.Errorf("mended %v, want %v", mended, tc.wantMend)
				}
				// Places without a crossing stroke keep their mask.
				if mask[at(tc.x+3, tc.lineAt)] == 0 {
					t.Errorf("%d px along the line lost its mask", tc.x+3)
				}
			})
		}
	}
}

// BenchmarkMendCrossings runs both directions on a 512 px canvas of a
// 16×16 grid (lines 4 px thick) with a short stroke across every line
// in every cell.
func BenchmarkMendCrossings(b *testing.B) {
	const side, cs = 512, 32.0
	bin := make([]uint8, side*side)
	h := make([]uint8, side*side)
	v := make([]uint8, side*side)
	for k := 0; k <= 16; k++ {
		at := min(side-4, k*32)
		for i := 0; i < side; i++ {
			for t := 0; t < 4; t++ {
				h[(at+t)*side+i], v[i*side+at+t] = 255, 255
				bin[(at+t)*side+i], bin[i*side+at+t] = 255, 255
			}
		}
	}
	for y := 0; y < side; y += 32 {
		for x := 10; x < side; x += 32 {
			for t := -6; t < 10; t++ {
				if yy := y + t; yy >= 0 && yy < side {
					bin[yy*side+x] = 255
				}
			}
		}
	}
	hm, vm := make([]uint8, len(h)), make([]uint8, len(v))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(hm, h)
		copy(vm, v)
		mendCrossings(hm, bin, side, side, 1, 8, 16, cs)
		mendCrossings(vm, bin, side, 1, side, 8, 16, cs)
	}
}
