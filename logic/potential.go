package logic

import (
	"fmt"
	"strings"
)

// Chains reason about potentials: a candidate assumed true ("on") or false
// ("off"). A potential is numbered (cell*N + digit-1)*2 + 1 for on, + 0 for
// off, so a search can keep its state in flat arrays.
type pot int32

func mkPot(n, cell, d int, on bool) pot {
	p := pot((cell*n + d - 1) * 2)
	if on {
		p++
	}
	return p
}

func (p pot) on() bool        { return p&1 == 1 }
func (p pot) cand() int       { return int(p >> 1) }
func (p pot) cell(n int) int  { return int(p>>1) / n }
func (p pot) digit(n int) int { return int(p>>1)%n + 1 }
func (p pot) conj() pot       { return p ^ 1 }
func (p pot) candidate(n int) Candidate {
	return Candidate{Cell: p.cell(n), Digit: p.digit(n)}
}

// potName says a potential in words: "r1c5 is 7" or "r1c5 is not 7".
func (g *geometry) potName(p pot) string {
	if p.on() {
		return fmt.Sprintf("%s is %d", g.cellName(p.cell(g.n)), p.digit(g.n))
	}
	return fmt.Sprintf("%s is not %d", g.cellName(p.cell(g.n)), p.digit(g.n))
}

// chainText says a chain of potentials in order: "r1c1 is 5, so r1c5 is not
// 5, so r4c5 is 5".
func (g *geometry) chainText(chain []pot) string {
	parts := make([]string, len(chain))
	for i, p := range chain {
		parts[i] = g.potName(p)
	}
	return strings.Join(parts, ", so ")
}

// chainLinks turns a chain of potentials into links for drawing: an off→on
// step rests on a strong link, an on→off step on a weak one.
func chainLinks(n int, chain []pot) []Link {
	var out []Link
	for i := 1; i < len(chain); i++ {
		a, b := chain[i-1], chain[i]
		out = append(out, Link{From: a.candidate(n), To: b.candidate(n), Strong: !a.on() && b.on()})
	}
	return out
}

// lengthBonus is Sudoku Explainer's rating increment for a chain of the
// given complexity (the number of potentials it involves): 0.1 for every
// threshold the length (complexity-2) passes, the thresholds growing as
// 4, 6, 8, 12, 16, 24, 32, 48, ... (alternately ×3/2 and ×4/3). It returns
// tenths.
func lengthBonus(complexity int) int {
	added, ceil, length, odd := 0, 4, complexity-2, false
	for length > ceil {
		added++
		if !odd {
			ceil = ceil * 3 / 2
		} else {
			ceil = ceil * 4 / 3
		}
		odd = !odd
	}
	return added
}

// maxComplexity returns the largest complexity whose rating base+bonus (in
// tenths) stays at or below limit, or -1 if even the shortest chain rates
// above it.
func maxComplexity(base, limit int) int {
	allowed := limit - base
	if allowed < 0 {
		return -1
	}
	if allowed > 30 {
		return 1 << 30
	}
	ceil, odd := 4, false
	for ; allowed > 0; allowed-- {
		if !odd {
			ceil = ceil * 3 / 2
		} else {
			ceil = ceil * 4 / 3
		}
		odd = !odd
	}
	return ceil + 2
}

// hintKey orders candidate chain steps the way Sudoku Explainer does: by
// rating, then complexity, then the kind of hint; the first one found wins
// a tie.
type hintKey struct {
	rating     int // tenths
	complexity int
	sortKey    int
}

func (a hintKey) less(b hintKey) bool {
	if a.rating != b.rating {
		return a.rating < b.rating
	}
	if a.complexity != b.complexity {
		return a.complexity < b.complexity
	}
	return a.sortKey < b.sortKey
}

// noHint is worse than any real hint.
var noHint = hintKey{rating: 1 << 30}
