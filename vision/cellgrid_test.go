package vision

import "testing"

// TestGridFromCells builds the cell holes of a 9×9 grid (side 270 at
// (50, 40), lines 3 px wide) with parts missing, as happens when digits
// touch the lines, plus a column of similar boxes beside it (a crossword),
// and checks the grid's corners are recovered.
func TestGridFromCells(t *testing.T) {
	const x0, y0, pitch, line = 50.0, 40.0, 30.0, 3.0
	want := [4]pt{{x0, y0}, {x0 + 9*pitch, y0}, {x0 + 9*pitch, y0 + 9*pitch}, {x0, y0 + 9*pitch}}
	cell := func(r, c int) [4]pt {
		a, b := x0+float64(c)*pitch+line/2, y0+float64(r)*pitch+line/2
		s := pitch - line
		return [4]pt{{a, b}, {a + s, b}, {a + s, b + s}, {a, b + s}}
	}
	crossword := func() [][4]pt {
		var out [][4]pt
		for k := 0; k < 8; k++ {
			a, b := x0+9*pitch+45, y0+float64(k)*pitch
			out = append(out, [4]pt{{a, b}, {a + 27, b}, {a + 27, b + 27}, {a, b + 27}})
		}
		return out
	}
	tests := []struct {
		name string
		skip func(r, c int) bool
		more [][4]pt
	}{
		{"all cells", func(r, c int) bool { return false }, nil},
		{"every other cell", func(r, c int) bool { return (r+c)%2 == 1 }, nil},
		{"bottom-right box missing, crossword beside", func(r, c int) bool { return r >= 6 && c >= 6 }, crossword()},
		{"top-left box missing", func(r, c int) bool { return r < 3 && c < 3 }, crossword()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var holes [][4]pt
			for r := 0; r < 9; r++ {
				for c := 0; c < 9; c++ {
					if !tc.skip(r, c) {
						holes = append(holes, cell(r, c))
					}
				}
			}
			holes = append(holes, tc.more...)
			q, ok := gridFromCells(holes, 4)
			if !ok {
				t.Fatal("no grid")
			}
			q = orderCorners(q)
			for i := range q {
				if d := q[i].dist(want[i]); d > 0.03*9*pitch {
					t.Errorf("corner %d = %v, want %v (off by %.1f px)", i, q[i], want[i], d)
				}
			}
		})
	}
	if _, ok := gridFromCells(crossword()[:3], 4); ok {
		t.Error("three boxes accepted as a grid")
	}
}
