package vision

import "testing"

// TestFinerFromGrey builds median-grey profiles of a 4×4-box canvas and
// checks when the faint cell lines of a 16×16 grid are found.
func TestFinerFromGrey(t *testing.T) {
	const side = 512
	profile := func(cellDip, midDip float32, shift int) (grey, lines []float32) {
		grey, lines = make([]float32, side), make([]float32, side)
		for i := range grey {
			grey[i] = 200
		}
		for k := 0; k <= 16; k++ {
			at := min(side-1, k*32+shift)
			if k%4 == 0 {
				grey[at] -= 60
				lines[at] = 100
			} else {
				grey[at] -= cellDip
			}
			if mid := at + 16; k < 16 && mid < side {
				grey[mid] -= midDip
			}
		}
		return grey, lines
	}
	tests := []struct {
		name            string
		cellDip, midDip float32
		shift           int // whole lattice shifted (outline a little off)
		want            int
	}{
		{"faint cell lines", 5, 0, 0, 16},
		{"faint cell lines, lattice shifted 6 px", 5, 0, 6, 16},
		{"no cell lines", 0, 0, 0, 0},
		{"dips too shallow", 1, 0, 0, 0},
		{"midpoints as dark (text rows)", 5, 5, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, l := profile(tc.cellDip, tc.midDip, tc.shift)
			m, conf := finerFromGrey(g, g, l, l, 4, defaultSizes)
			if m != tc.want {
				t.Errorf("m = %d (conf %.2f), want %d", m, conf, tc.want)
			}
			if m > 0 && (conf <= 0 || conf > 1) {
				t.Errorf("confidence %.2f out of (0, 1]", conf)
			}
		})
	}
	if m, _ := finerFromGrey(nil, nil, nil, nil, 4, defaultSizes); m != 0 {
		t.Errorf("empty profiles: m = %d", m)
	}
}
