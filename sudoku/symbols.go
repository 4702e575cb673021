package sudoku

import (
	"fmt"
	"strconv"
)

// Symbols is how a printed grid writes its values: the convention a page
// uses for values above 9 (and, for ZeroBased, for every value). Reading a
// photo needs it to turn the glyphs it sees into values; drawing onto a
// photo needs it to write the solution the way the page does.
type Symbols int

const (
	// Numbers writes every value as its decimal number: 1..9, then the
	// two-digit 10..16, as most printed 12×12 and 16×16 puzzles do.
	Numbers Symbols = iota
	// Letters writes 1..9 as digits and 10.. as A, B, C ... (16 is G).
	Letters
	// ZeroBased writes value v as the hexadecimal digit of v-1: 0..9 then
	// A..F, the "hexadoku" convention of 16×16 puzzles.
	ZeroBased
)

// AllSymbols lists the conventions, Numbers first.
var AllSymbols = [...]Symbols{Numbers, Letters, ZeroBased}

// String names the convention: "numbers", "letters" or "0-F".
func (s Symbols) String() string {
	switch s {
	case Letters:
		return "letters"
	case ZeroBased:
		return "0-F"
	}
	return "numbers"
}

// Symbol returns the text printed for value v (1..N) under s, "" for 0.
// Values past what the convention has letters for fall back to numbers.
func (s Symbols) Symbol(v int) string {
	switch {
	case v <= 0:
		return ""
	case s == ZeroBased && v <= 10:
		return strconv.Itoa(v - 1)
	case s == ZeroBased && v <= 36:
		return string(rune('A' + v - 11))
	case s == Letters && v > 9 && v <= 35:
		return string(rune('A' + v - 10))
	}
	return strconv.Itoa(v)
}

// ParseSymbols reads a convention's name as String writes it ("numbers",
// "letters", "0-F"; "hex" and "zero" are taken for 0-F too).
func ParseSymbols(name string) (Symbols, error) {
	switch name {
	case "numbers", "":
		return Numbers, nil
	case "letters":
		return Letters, nil
	case "0-F", "0-f", "hex", "zero":
		return ZeroBased, nil
	}
	return Numbers, fmt.Errorf("sudoku: symbols %q unknown (want numbers, letters or 0-F)", name)
}
