package logic

import "testing"

// BenchmarkRateHard rates the hard tail of the calibration file (the first
// 100 puzzles rated SE 7.0 or more).
func BenchmarkRateHard(b *testing.B) {
	ps := readRated(b, "puzzles/rated/se-sudoku-exchange.txt")
	var hard []ratedPuzzle
	for _, p := range ps {
		if p.rating >= 7.0 {
			hard = append(hard, p)
		}
	}
	hard = hard[:100]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range hard {
			Rate(p.grid)
		}
	}
}
