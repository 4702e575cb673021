package ocr_test

import (
	"testing"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
)

func TestGlyphs(t *testing.T) {
	for k := 0; k < ocr.NumGlyphs; k++ {
		if got := ocr.GlyphOf(ocr.GlyphText(k)); got != k {
			t.Errorf("GlyphOf(GlyphText(%d) = %q) = %d", k, ocr.GlyphText(k), got)
		}
	}
	cases := []struct {
		s    sudoku.Symbols
		n    int
		want []int // glyph classes of values 0..n
	}{
		{sudoku.Numbers, 4, []int{0, 1, 2, 3, 4}},
		{sudoku.Numbers, 12, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{sudoku.Letters, 12, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ocr.GlyphA, ocr.GlyphA + 1, ocr.GlyphA + 2}},
		{sudoku.ZeroBased, 16, []int{0, ocr.GlyphZero, 1, 2, 3, 4, 5, 6, 7, 8, 9, ocr.GlyphA, ocr.GlyphA + 1, ocr.GlyphA + 2, ocr.GlyphA + 3, ocr.GlyphA + 4, ocr.GlyphA + 5}},
	}
	for _, c := range cases {
		got := ocr.ValueGlyphs(c.s, c.n)
		if len(got) != len(c.want) {
			t.Fatalf("ValueGlyphs(%v, %d) = %v, want %v", c.s, c.n, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("ValueGlyphs(%v, %d) = %v, want %v", c.s, c.n, got, c.want)
				break
			}
		}
	}
	// 25×25 as numbers needs "17".."25": no glyphs for them.
	if g := ocr.ValueGlyphs(sudoku.Numbers, 25); g != nil {
		t.Errorf("ValueGlyphs(numbers, 25) = %v, want nil", g)
	}
}
