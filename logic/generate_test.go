package logic

import (
	"errors"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

func TestGenerateLevels(t *testing.T) {
	for _, c := range []struct {
		shape     sudoku.Shape
		level     Level
		symmetric bool
	}{
		{sudoku.Shape{BoxRows: 3, BoxCols: 3}, Easy, false},
		{sudoku.Shape{BoxRows: 3, BoxCols: 3}, Medium, true},
		{sudoku.Shape{BoxRows: 3, BoxCols: 3}, Hard, false},
		{sudoku.Shape{BoxRows: 2, BoxCols: 2}, Easy, false},
		{sudoku.Shape{BoxRows: 2, BoxCols: 3}, Medium, true},
		{sudoku.Shape{BoxRows: 3, BoxCols: 2}, Hard, false},
		{sudoku.Shape{BoxRows: 2, BoxCols: 4}, Expert, false},
		{sudoku.Shape{BoxRows: 3, BoxCols: 3}, Expert, true},
		{sudoku.Shape{BoxRows: 3, BoxCols: 3}, Extreme, false},
		{sudoku.Shape{BoxRows: 4, BoxCols: 4}, Easy, false},
	} {
		p, r, err := Generate(c.shape, c.level, 7, c.symmetric)
		if err != nil {
			t.Fatalf("%v %v: %v", c.shape, c.level, err)
		}
		if n := sudoku.CountSolutions(p, 2); n != 1 {
			t.Errorf("%v %v: %d solutions", c.shape, c.level, n)
		}
		if r.Level != c.level {
			t.Errorf("%v %v: rated %.1f (%v)", c.shape, c.level, r.SE, r.Level)
		}
		if again, _, _ := Generate(c.shape, c.level, 7, c.symmetric); !again.Equal(p) {
			t.Errorf("%v %v: same seed, other puzzle", c.shape, c.level)
		}
		if c.symmetric {
			for i, v := range p.Cells {
				if (v == 0) != (p.Cells[len(p.Cells)-1-i] == 0) {
					t.Fatalf("%v: givens not symmetric: %v", c.shape, p)
				}
			}
		}
	}
	var le *LevelError
	for _, c := range []struct {
		shape sudoku.Shape
		level Level
	}{{sudoku.Shape{BoxRows: 2, BoxCols: 2}, Medium}, {sudoku.Shape{BoxRows: 2, BoxCols: 3}, Extreme}} {
		if _, _, err := Generate(c.shape, c.level, 1, false); !errors.As(err, &le) || le.Max != MaxLevel(c.shape) {
			t.Errorf("%v %v: got %v, want *LevelError", c.shape, c.level, err)
		}
	}
}
