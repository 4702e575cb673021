package ocr

import (
	"math"
	"testing"

	"github.com/sudokuar/sudokuar/vision"
)

// glyph draws a view: ink 1 where on(x, y), moved by (dx, dy).
func glyph(dx, dy int, on func(x, y int) bool) []float32 {
	const s = vision.CellSize
	v := make([]float32, s*s)
	for y := 0; y < s; y++ {
		for x := 0; x < s; x++ {
			if on(x-dx, y-dy) {
				v[y*s+x] = 1
			}
		}
	}
	return v
}

// ring is a printed-looking "0": a box outline two pixels thick.
func ring(x, y int) bool {
	in := x >= 9 && x <= 18 && y >= 7 && y <= 20
	hole := x >= 11 && x <= 16 && y >= 9 && y <= 18
	return in && !hole
}

// slash is a handwritten-looking stroke across the cell.
func slash(x, y int) bool { return x >= 8 && x <= 19 && y >= 6 && y <= 21 && abs(x-8-(y-6)*11/15) <= 1 }

func abs(v int) int { return max(v, -v) }

func TestInkViewMatch(t *testing.T) {
	const s = vision.CellSize
	rim := make([]float32, s*s)
	for i := 0; i < s; i++ {
		rim[i] = 1 // the top row: a grid-line remnant
	}
	cases := []struct {
		name     string
		a, b     []float32
		min, max float64
	}{
		{"itself", glyph(0, 0, ring), glyph(0, 0, ring), 0.999, 1.001},
		{"moved 3 px", glyph(0, 0, ring), glyph(3, -2, ring), 0.999, 1.001},
		{"other shape", glyph(0, 0, ring), glyph(0, 0, slash), -1, 0.4},
		{"remnant in the rim only", glyph(0, 0, ring), rim, -1, -1},
	}
	for _, tc := range cases {
		got := newInkView(tc.a).match(newInkView(tc.b), fontShift)
		if got < tc.min || got > tc.max || math.IsNaN(got) {
			t.Errorf("%s: match %.3f, want %.3f..%.3f", tc.name, got, tc.min, tc.max)
		}
	}
}

// TestByTypeface: on a page of printed rings, a ring the pen model
// hesitantly called handwritten becomes printed, a slash it hesitantly
// called printed becomes handwritten, and nothing changes where the page
// has no sample of the digit, where the pen model is sure, or where the
// page has too few samples.
func TestByTypeface(t *testing.T) {
	pen := func(printed float32, hand int) []float32 {
		p := make([]float32, PenClasses)
		p[PenPrinted] = printed
		p[PenHand0+hand] = 1 - printed
		return p
	}
	type cell struct {
		view  []float32
		p     []float32
		given int
	}
	sample := cell{glyph(0, 0, ring), pen(0.999, 1), 1}
	page := func(n int, extra ...cell) ([]vision.Cell, []penCell, [][]float32, []int) {
		all := append([]cell(nil), extra...)
		for k := 0; k < n; k++ {
			all = append(all, sample)
		}
		cells := make([]vision.Cell, len(all))
		kinds := make([]penCell, len(all))
		probs := make([][]float32, len(all))
		given := make([]int, len(all))
		for i, c := range all {
			cells[i] = vision.Cell{Row: i / 9, Col: i % 9, View: c.view}
			kind, conf, d, dc := PenDecide(c.p)
			kinds[i] = penCell{kind: kind, conf: conf, digit: d, digitConf: dc}
			if kind == KindPrinted {
				given[i] = c.given
			}
			probs[i] = c.p
		}
		return cells, kinds, probs, given
	}
	cases := []struct {
		name    string
		samples int
		c       cell
		want    Kind
	}{
		{"ring read handwritten", 6, cell{glyph(1, 1, ring), pen(0.3, 1), 0}, KindPrinted},
		{"slash read printed", 6, cell{glyph(0, 0, slash), pen(0.7, 1), 1}, KindHand},
		{"slash read printed, no sample of its digit", 6, cell{glyph(0, 0, slash), pen(0.7, 1), 7}, KindPrinted},
		{"slash read printed surely", 6, cell{glyph(0, 0, slash), pen(0.99, 1), 1}, KindPrinted},
		{"too few samples", fontTemplatesMin - 1, cell{glyph(0, 0, slash), pen(0.7, 1), 1}, KindPrinted},
	}
	for _, tc := range cases {
		cells, kinds, probs, given := page(tc.samples, tc.c)
		got, changed := byTypeface(cells, kinds, probs, given)
		if got[0].kind != tc.want || changed != (tc.want != kinds[0].kind) {
			t.Errorf("%s: %v (changed %v), want %v", tc.name, got[0].kind, changed, tc.want)
		}
		if got[0].kind != kinds[0].kind && got[0].conf >= EntrySureAt {
			t.Errorf("%s: kind changed at %.3f, must stay below EntrySureAt", tc.name, got[0].conf)
		}
		if got[0].kind == KindHand && (got[0].digit != 1 || len(got[0].digits) != 10) {
			t.Errorf("%s: handwritten digit %d %v, want 1 and its distribution", tc.name, got[0].digit, got[0].digits)
		}
		for i := 1; i < len(got); i++ {
			if got[i].kind != kinds[i].kind {
				t.Errorf("%s: sample %d changed to %v", tc.name, i, got[i].kind)
			}
		}
	}
}

// BenchmarkByTypeface times the typeface check of a page of 25 surely
// printed cells and 10 cells in doubt, each matched with the samples.
func BenchmarkByTypeface(b *testing.B) {
	var cells []vision.Cell
	var kinds []penCell
	var probs [][]float32
	var given []int
	add := func(view []float32, printed float32, digit int) {
		p := make([]float32, PenClasses)
		p[PenPrinted], p[PenHand0+digit] = printed, 1-printed
		kind, conf, d, dc := PenDecide(p)
		cells = append(cells, vision.Cell{Row: len(cells) / 9, Col: len(cells) % 9, View: view})
		kinds = append(kinds, penCell{kind: kind, conf: conf, digit: d, digitConf: dc})
		probs = append(probs, p)
		g := 0
		if kind == KindPrinted {
			g = digit
		}
		given = append(given, g)
	}
	for k := 0; k < 25; k++ {
		add(glyph(k%3-1, k%2, ring), 0.999, 1)
	}
	for k := 0; k < 10; k++ {
		add(glyph(k%3-1, 0, slash), 0.3+0.05*float32(k), 1)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		byTypeface(cells, kinds, probs, given)
	}
}
