package kakuro

import (
	"fmt"
	"testing"
)

// runSolves reports whether reasoning inside one run at a time solves b:
// a cell keeps a digit only while some filling of each run through it
// (digits from the cells' candidates, none twice, adding up to the clue)
// puts that digit there, repeated until nothing changes. It is written
// from the levels' definition, apart from the rater: a puzzle rated easy
// or medium needs nothing more, a hard or expert one does.
func runSolves(b *Board) bool {
	cand := make([]uint16, len(b.Cells))
	for i, c := range b.Cells {
		switch {
		case !c.White:
		case c.Digit > 0:
			cand[i] = 1 << c.Digit
		default:
			cand[i] = 0x3fe // 1..9
		}
	}
	runs := b.Runs()
	for changed := true; changed; {
		changed = false
		for _, r := range runs {
			seen := make([]uint16, len(r.Cells))
			fillings(r, cand, 0, 0, 0, make([]int, len(r.Cells)), seen)
			for k, i := range r.Cells {
				if cand[i]&seen[k] != cand[i] {
					cand[i] &= seen[k]
					changed = true
				}
			}
		}
	}
	for i, c := range b.Cells {
		if c.White && cand[i]&(cand[i]-1) != 0 {
			return false
		}
	}
	return true
}

// fillings enumerates the fillings of run r from cell k on (digits used
// so far in used, their sum in sum), marking in seen each digit each cell
// takes in some complete filling.
func fillings(r Run, cand []uint16, k int, used uint16, sum int, at []int, seen []uint16) {
	if k == len(r.Cells) {
		if r.Sum == 0 || sum == r.Sum {
			for j, d := range at {
				seen[j] |= 1 << d
			}
		}
		return
	}
	for d := 1; d <= 9; d++ {
		if cand[r.Cells[k]]&(1<<d) == 0 || used&(1<<d) != 0 || (r.Sum > 0 && sum+d > r.Sum) {
			continue
		}
		at[k] = d
		fillings(r, cand, k+1, used|1<<d, sum+d, at, seen)
	}
}

// TestGenerateLevelIndependently checks the generator's levels with
// runSolves rather than with Rate, which chose them: easy and medium
// puzzles fall to reasoning inside runs, hard ones do not.
func TestGenerateLevelIndependently(t *testing.T) {
	for _, c := range []struct {
		n     int
		level Level
		seeds int
	}{
		{5, Easy, 4}, {5, Medium, 4}, {7, Medium, 3}, {8, Hard, 3}, {9, Hard, 2},
	} {
		for seed := 1; seed <= c.seeds; seed++ {
			t.Run(fmt.Sprintf("%dx%d-%v-%d", c.n, c.n, c.level, seed), func(t *testing.T) {
				sol, _, err := Generate(GenerateOptions{Rows: c.n, Cols: c.n, Level: c.level, Seed: uint64(seed)})
				if err != nil {
					t.Fatal(err)
				}
				if got, want := runSolves(sol.Blank()), c.level <= Medium; got != want {
					t.Errorf("reasoning inside runs solves it: %v, want %v for a %v puzzle:\n%s", got, want, c.level, sol.Blank())
				}
			})
		}
	}
}
