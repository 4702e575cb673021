package ocr

import (
	"strconv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Glyph classes: what the model sees in a cell, before a grid's symbol
// convention (sudoku.Symbols) turns it into a value. A model with Classes
// outputs knows the first ten; the shipped model knows all NumGlyphs.
const (
	GlyphEmpty = 0  // no glyph
	GlyphTen   = 10 // the two-digit numbers "10".."16" are GlyphTen..GlyphTen+6
	GlyphA     = 17 // the letters "A".."G" are GlyphA..GlyphA+6
	GlyphZero  = 24 // the digit "0" (zero-based 0..F grids)
	NumGlyphs  = 25
	// 1..9 are the digits "1".."9".
)

// GlyphText returns what glyph class k looks like in print ("" for empty,
// "?" for a class outside 0..NumGlyphs-1).
func GlyphText(k int) string {
	switch {
	case k == GlyphEmpty:
		return ""
	case k >= 1 && k <= 9:
		return strconv.Itoa(k)
	case k >= GlyphTen && k < GlyphA:
		return strconv.Itoa(k)
	case k >= GlyphA && k < GlyphZero:
		return string(rune('A' + k - GlyphA))
	case k == GlyphZero:
		return "0"
	}
	return "?"
}

// GlyphOf returns the glyph class of a printed symbol, or -1 for text no
// class stands for.
func GlyphOf(text string) int {
	for k := 0; k < NumGlyphs; k++ {
		if GlyphText(k) == text {
			return k
		}
	}
	return -1
}

// ValueGlyphs returns, for a grid of side n whose page writes values with
// convention s, the glyph class of each value 0..n (index 0 = GlyphEmpty),
// or nil when s cannot write every value of such a grid with the glyphs the
// model knows.
func ValueGlyphs(s sudoku.Symbols, n int) []int {
	out := make([]int, n+1)
	for v := 1; v <= n; v++ {
		k := GlyphOf(s.Symbol(v))
		if k < 0 {
			return nil
		}
		out[v] = k
	}
	return out
}
