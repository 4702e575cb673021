package ocr

import "math"

// EntryPrior is the share of a player's entries taken to be right before
// their ink is read: the prior of the digit a solution expects in a cell
// the player wrote in, the other digits sharing the rest. The check of the
// entries (pipeline) and the weighing of rival readings (rivalRuledOut)
// both use it.
const EntryPrior = 0.9

// entryOdds is the log-likelihood ratio of the player's entries under
// solution a against solution b (both row-major, n×n): how much likelier
// the digits written on the page are if a is the puzzle's solution. entries
// holds per cell the handwritten digit's probabilities (Reading.EntryProb;
// nil where the cell holds no entry). Only cells where a and b differ
// count. A misread given would be written in the same digit a solution
// puts there, so a cell's kind need not be sure for its ink to count.
func entryOdds(entries [][]float32, a, b []int, n int) float64 {
	if len(a) != len(b) || len(entries) != len(a) {
		return 0
	}
	other := (1 - EntryPrior) / float64(n-1)
	var odds float64
	for i, q := range entries {
		if a[i] == b[i] || len(q) != n+1 || a[i] < 1 || a[i] > n || b[i] < 1 || b[i] > n {
			continue
		}
		// P(ink | the solution puts d here): the player wrote d (EntryPrior)
		// and the reader read it, or wrote another digit.
		like := func(d int) float64 {
			qd := float64(q[d])
			return EntryPrior*qd + other*(1-qd)
		}
		odds += math.Log(like(a[i])) - math.Log(like(b[i]))
	}
	return odds
}

// rivalRuledOut reports whether the player's entries alone make solution
// rival at least e^AcceptMargin times less likely than best: the margin the
// reading's own rivals must clear, so a rival reading of the givens whose
// solution the entries contradict cell after cell is not a reason to hold
// back the page (one right entry is worth at most 72 to 1, so it takes two).
func (s *resolver) rivalRuledOut(best, rival []int) bool {
	if s.set.entries == nil || best == nil || rival == nil {
		return false
	}
	return entryOdds(s.set.entries, best, rival, s.n) >= s.set.AcceptMargin
}
