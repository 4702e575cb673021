package sudoku

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// The fuzz targets check that the parsers never panic, that every error is
// a *ParseError with a usable position, and that whatever they accept is a
// well-formed grid that survives a write/read round trip.

func wellFormed(t *testing.T, g Grid) {
	t.Helper()
	if err := check(g); err != nil {
		t.Fatalf("parser returned a malformed grid: %v", err)
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{wikiPuzzle, "1.3..4.......2.1", strings.Repeat("G", 256), "", "12 # x", "\xff\xfe", strings.Repeat("0", 36)} {
		f.Add(s, 0, 0)
	}
	f.Add("123456"+strings.Repeat(".", 30), 3, 2)
	f.Fuzz(func(t *testing.T, line string, r, c int) {
		var s *Shape
		if r != 0 || c != 0 {
			s = &Shape{r, c}
		}
		g, err := ParseLine(line, s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Reason == "" || pe.Col < 0 || pe.Col > len(line) {
				t.Fatalf("ParseLine(%q): bad error %#v", line, err)
			}
			return
		}
		wellFormed(t, g)
		back, err := ParseLine(g.String(), &g.Shape)
		if err != nil || !back.Equal(g) {
			t.Fatalf("round trip of %q via %q: %v", line, g.String(), err)
		}
	})
}

func FuzzReadDat(f *testing.F) {
	f.Add("sonyEricsson s500i\n640x480:24 JPG\n" + strings.Repeat("0 0 0 7 0 0 0 8 0 \n", 9))
	f.Add("x\r\n960x1280: 24 JPG\r\n1 2 3 4\r\n3 4 1 2\r\n0 0 0 0\r\n0 0 0 0\r\n\r\n")
	f.Add("a\nb\n")
	f.Add("a\nb\n-1\n")
	f.Fuzz(func(t *testing.T, text string) {
		g, err := ReadDat(strings.NewReader(text))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Reason == "" || pe.Line < 1 {
				t.Fatalf("ReadDat(%q): bad error %#v", text, err)
			}
			return
		}
		wellFormed(t, g)
		var b bytes.Buffer
		if err := WriteDat(&b, g, DatHeader{}); err != nil {
			t.Fatal(err)
		}
		back, err := ReadDat(&b)
		if err != nil || !back.Equal(g) {
			t.Fatalf("round trip of %q: %v", text, err)
		}
	})
}

func FuzzGridFile(f *testing.F) {
	f.Add("2 2\n4 0 1. 0\n0 1. 0 0\n1. 0 0 2\n0 0 0 0\n")
	f.Add("9 9\n" + strings.Repeat("0 ", 81))
	f.Add("# c\n1 3\n1. 2 3\n0 0 0\n0 0 0\n")
	f.Add("2 2\n0.")
	f.Fuzz(func(t *testing.T, text string) {
		g, fixed, err := ReadGrid(strings.NewReader(text))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Reason == "" || pe.Line < 1 {
				t.Fatalf("ReadGrid(%q): bad error %#v", text, err)
			}
			return
		}
		wellFormed(t, g)
		if len(fixed) != len(g.Cells) {
			t.Fatalf("%d fixed flags for %d cells", len(fixed), len(g.Cells))
		}
		var b bytes.Buffer
		if err := WriteGrid(&b, g, fixed); err != nil {
			t.Fatal(err)
		}
		back, fixed2, err := ReadGrid(&b)
		if err != nil || !back.Equal(g) {
			t.Fatalf("round trip of %q via %q: %v", text, b.String(), err)
		}
		for i := range fixed {
			if fixed[i] != fixed2[i] {
				t.Fatalf("round trip changed fixed[%d]", i)
			}
		}
	})
}

// FuzzGridFileStrict checks the console game's reader: errors are
// *ParseError with a position, and what it accepts is written back byte
// for byte by WriteGrid once in the canonical form.
func FuzzGridFileStrict(f *testing.F) {
	f.Add("2 2\n4 0 1. 0\n0 1. 0 0\n1. 0 0 2\n0 0 0 0\n")
	f.Add("1 1\n1.")
	f.Add("2\t3\n" + strings.Repeat("0 ", 36))
	f.Add("3 3\n1 2 3\n")
	f.Add("-3 3\n")
	f.Fuzz(func(t *testing.T, text string) {
		g, fixed, err := ReadGridStrict(strings.NewReader(text))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Reason == "" || pe.Line < 1 {
				t.Fatalf("ReadGridStrict(%q): bad error %#v", text, err)
			}
			return
		}
		wellFormed(t, g)
		var b bytes.Buffer
		if err := WriteGrid(&b, g, fixed); err != nil {
			t.Fatal(err)
		}
		canon := b.String()
		back, fixed2, err := ReadGridStrict(&b)
		if err != nil || !back.Equal(g) {
			t.Fatalf("round trip of %q via %q: %v", text, canon, err)
		}
		var b2 bytes.Buffer
		WriteGrid(&b2, back, fixed2)
		if b2.String() != canon {
			t.Fatalf("canonical form changed: %q then %q", canon, b2.String())
		}
	})
}
