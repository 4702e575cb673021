package logic

import "testing"

func TestLengthBonus(t *testing.T) {
	// Sudoku Explainer: +0.1 once length = complexity-2 passes 4, 6, 8, 12, 16, 24, 32, ...
	for _, c := range []struct{ complexity, bonus int }{
		{2, 0}, {6, 0}, {7, 1}, {8, 1}, {9, 2}, {10, 2}, {11, 3}, {14, 3}, {15, 4}, {18, 4}, {19, 5}, {26, 5}, {27, 6}, {34, 6}, {35, 7},
	} {
		if got := lengthBonus(c.complexity); got != c.bonus {
			t.Errorf("lengthBonus(%d) = %d, want %d", c.complexity, got, c.bonus)
		}
	}
	for base := 65; base <= 90; base += 5 {
		for limit := base; limit < base+8; limit++ {
			m := maxComplexity(base, limit)
			if base+lengthBonus(m) > limit || base+lengthBonus(m+1) <= limit {
				t.Errorf("maxComplexity(%d, %d) = %d", base, limit, m)
			}
		}
	}
}
