package sudoku

import (
	"errors"
	"strings"
	"testing"
)

func TestCellString(t *testing.T) {
	s4 := Shape{BoxRows: 2, BoxCols: 2}
	s16 := Shape{BoxRows: 4, BoxCols: 4}
	for _, tc := range []struct {
		shape Shape
		text  string
		read  string // what CellString writes back; "" when it is text
	}{
		{s4, "1234341221434321", ""},
		{s4, "1.3.............", "1030000000000000"},
		{s16, "G" + strings.Repeat("0", 15) + "A" + strings.Repeat("0", 239), ""},
	} {
		g, err := ParseCellGrid(tc.shape, tc.text)
		if err != nil {
			t.Fatalf("ParseCellGrid(%s, %q): %v", tc.shape, tc.text, err)
		}
		want := tc.read
		if want == "" {
			want = tc.text
		}
		if got := CellString(g.Cells); got != want {
			t.Errorf("CellString = %q, want %q", got, want)
		}
	}
	if g, _ := ParseCellGrid(s16, "G"+strings.Repeat("0", 15)+"A"+strings.Repeat("0", 239)); g.Cells[0] != 16 || g.Cells[16] != 10 {
		t.Errorf("letters read as %d, %d", g.Cells[0], g.Cells[16])
	}
	if got := CellString([]int{0, 9, 35, 36, -1}); got != "09Z??" {
		t.Errorf("CellString out of range = %q", got)
	}
}

func TestParseCellsErrors(t *testing.T) {
	for _, tc := range []struct {
		text string
		n    int
		cell int
		want string
	}{
		{"123", 4, -1, `grid string "123": 3 characters, want 16 for a 4x4 grid`},
		{"12a4" + strings.Repeat("0", 12), 4, 2, `bad character 'a' at cell 2`},
		{"12 4" + strings.Repeat("0", 12), 4, 2, `bad character ' ' at cell 2`},
		{"1254" + strings.Repeat("0", 12), 4, 2, `value 5 above 4 at cell 2`},
		{strings.Repeat("x", 500), 9, -1, `"` + strings.Repeat("x", 100) + `...": 500 characters`},
	} {
		_, err := ParseCells(tc.text, tc.n)
		var ce *CellsError
		if !errors.As(err, &ce) || ce.Cell != tc.cell || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCells(%.20q, %d) = %v (cell %v), want cell %d and %q", tc.text, tc.n, err, ce, tc.cell, tc.want)
		}
	}
}
