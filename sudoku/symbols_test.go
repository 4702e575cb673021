package sudoku

import "testing"

func TestSymbols(t *testing.T) {
	cases := []struct {
		s    Symbols
		v    int
		want string
	}{
		{Numbers, 0, ""}, {Numbers, 7, "7"}, {Numbers, 10, "10"}, {Numbers, 16, "16"},
		{Letters, 9, "9"}, {Letters, 10, "A"}, {Letters, 16, "G"},
		{ZeroBased, 1, "0"}, {ZeroBased, 10, "9"}, {ZeroBased, 11, "A"}, {ZeroBased, 16, "F"},
	}
	for _, c := range cases {
		if got := c.s.Symbol(c.v); got != c.want {
			t.Errorf("%v.Symbol(%d) = %q, want %q", c.s, c.v, got, c.want)
		}
	}
	for _, s := range AllSymbols {
		got, err := ParseSymbols(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSymbols(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseSymbols("roman"); err == nil {
		t.Error("ParseSymbols accepted roman")
	}
}
