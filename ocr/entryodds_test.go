package ocr

import "testing"

// TestEntryOdds: the entries weigh only the cells where two solutions
// differ, a sure entry at most EntryPrior against the rest's share, and
// a rival is ruled out only when the entries alone clear AcceptMargin.
func TestEntryOdds(t *testing.T) {
	const n = 9
	// best and rival differ in cells 0, 1 and 2 (a 4 and a 9 swapped, and
	// a 7 for a 1); cell 3 is the same in both.
	best := []int{4, 9, 7, 5}
	rival := []int{9, 4, 1, 5}
	sure := func(d int) []float32 {
		q := make([]float32, n+1)
		q[d] = 1
		return q
	}
	split := func(a, b int) []float32 {
		q := make([]float32, n+1)
		q[a], q[b] = 0.5, 0.5
		return q
	}
	for _, tc := range []struct {
		name    string
		entries [][]float32
		out     bool
	}{
		{"no entries where they differ", [][]float32{nil, nil, nil, sure(5)}, false},
		{"one sure entry for best", [][]float32{sure(4), nil, nil, nil}, false},
		{"two sure entries for best", [][]float32{sure(4), sure(9), nil, nil}, true},
		{"two for best, one for the rival", [][]float32{sure(4), sure(9), sure(1), nil}, false},
		{"two for the rival", [][]float32{sure(9), sure(4), nil, nil}, false},
		{"three read between the two", [][]float32{split(4, 9), split(9, 4), split(7, 1), nil}, false},
		{"three written otherwise", [][]float32{sure(2), sure(3), sure(8), nil}, false},
		{"three sure entries for best", [][]float32{sure(4), sure(9), sure(7), nil}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &resolver{set: DefaultSettings, n: n}
			s.set.entries = tc.entries
			if got := s.rivalRuledOut(best, rival); got != tc.out {
				t.Errorf("ruled out %v (log odds %.2f), want %v", got, entryOdds(tc.entries, best, rival, n), tc.out)
			}
		})
	}
}
