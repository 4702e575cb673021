package live

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

// grid4 reads a 4×4 puzzle written as 16 digits (spaces ignored).
func grid4(t *testing.T, s string) sudoku.Grid {
	t.Helper()
	s = strings.ReplaceAll(s, " ", "")
	if len(s) != 16 {
		t.Fatalf("grid4(%q): want 16 digits", s)
	}
	g := sudoku.NewGrid(sudoku.Shape{BoxRows: 2, BoxCols: 2})
	for i, c := range s {
		g.Cells[i] = int(c - '0')
	}
	return g
}

func gridText(g sudoku.Grid) string {
	var b strings.Builder
	for _, v := range g.Cells {
		b.WriteByte(byte('0' + v))
	}
	return b.String()
}

func TestVoter(t *testing.T) {
	// a is the true puzzle; a1 misreads one cell (3 -> 1), a2 another.
	const (
		a  = "1200 0034 0010 4000"
		a1 = "1200 0014 0010 4000"
		a2 = "1200 0034 0030 4000"
		b  = "0043 2100 0002 0310" // a different puzzle: most filled cells differ
	)
	type step struct {
		read      string
		conf      []float64
		solvable  bool
		wantVoted string
		wantFresh bool
	}
	tests := []struct {
		name  string
		depth int
		steps []step
	}{
		{"first reading starts a puzzle", 3, []step{
			{a, nil, true, a, true},
		}},
		{"one misread is outvoted", 3, []step{
			{a, nil, true, a, true},
			{a, nil, true, a, false},
			{a1, nil, false, a, false},
			{a2, nil, false, a, false},
		}},
		{"confidence outweighs a count", 3, []step{
			{a1, uniform(16, 0.3), false, a1, true},
			{a, uniform(16, 0.9), true, a, false},
		}},
		{"old readings age out", 2, []step{
			{a, nil, true, a, true},
			{a1, nil, false, a1, false}, // tie: the newest wins
			{a1, nil, false, a1, false},
		}},
		{"a solvable new puzzle is adopted at once", 3, []step{
			{a, nil, true, a, true},
			{a, nil, true, a, false},
			{b, nil, true, b, true},
		}},
		{"an unsolvable outlier waits for a second look", 3, []step{
			{a, nil, true, a, true},
			{b, nil, false, a, false},
			{b, nil, false, b, true},
			{b, nil, false, b, false},
		}},
		{"an outlier seen once is forgotten", 3, []step{
			{a, nil, true, a, true},
			{b, nil, false, a, false},
			{a, nil, true, a, false},
			{b, nil, false, a, false},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := NewVoter(tc.depth)
			for i, s := range tc.steps {
				got, fresh := v.Add(grid4(t, s.read), s.conf, nil, nil, s.solvable)
				want := strings.ReplaceAll(s.wantVoted, " ", "")
				if gridText(got) != want || fresh != s.wantFresh {
					t.Fatalf("step %d: Add(%s) = %s fresh=%v, want %s fresh=%v",
						i, s.read, gridText(got), fresh, want, s.wantFresh)
				}
			}
		})
	}
}

func TestVoterShapeChangeStartsOver(t *testing.T) {
	v := NewVoter(3)
	v.Add(grid4(t, "1200 0034 0010 4000"), nil, nil, nil, true)
	g6 := sudoku.NewGrid(sudoku.Shape{BoxRows: 2, BoxCols: 3})
	g6.Cells[0] = 5
	got, fresh := v.Add(g6, nil, nil, nil, false)
	if !fresh || got.Shape != g6.Shape || got.Cells[0] != 5 {
		t.Fatalf("after a 6x6 reading: fresh=%v shape=%v cell0=%d", fresh, got.Shape, got.Cells[0])
	}
	if v.Len() != 1 {
		t.Fatalf("Len = %d, want 1", v.Len())
	}
}

func uniform(n int, c float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = c
	}
	return s
}

// TestVoterCheck: a cell stays to check while at least half the readings
// that agree with its voted value doubt it.
func TestVoterCheck(t *testing.T) {
	v := NewVoter(4)
	g := grid4(t, "1200 0034 0010 4000")
	steps := []struct {
		check []int
		want  []int
	}{
		{[]int{1}, []int{1}},    // readings 2..5 remain: 2 of 4
		{nil, []int{1}},         // 1 of 2 doubt it: still half
		{nil, nil},              // 1 of 3
		{[]int{5, 1}, []int{1}}, // r2c2 is empty in the vote: nothing to check; r1c2: 2 of 4
		{[]int{1}, []int{1}},    // readings 2..5 remain: 2 of 4
	}
	for k, s := range steps {
		v.Add(g, nil, nil, s.check, true)
		if got := v.Check(); fmt.Sprint(got) != fmt.Sprint(s.want) {
			t.Errorf("after reading %d: check %v, want %v", k+1, got, s.want)
		}
	}
}

// TestVoterSure: the readings' probabilities combined (naive Bayes, two
// readings one view) make a cell sure only when several readings agree
// surely; one reading, or a reading that disagrees or saw no ink there
// among few, keep it unsure, and probabilities that say nothing fall back
// to the readings' own confidences.
func TestVoterSure(t *testing.T) {
	// probs gives cell 0 of a 4×4 reading "1000 ..." the probability p of
	// a 1, the rest spread over 0, 2, 3 and 4.
	probs := func(p float32, v int) [][]float32 {
		out := make([][]float32, 16)
		q := make([]float32, 5)
		for x := range q {
			q[x] = (1 - p) / 4
		}
		q[v] = p
		out[0] = q
		return out
	}
	one := grid4(t, "1000 0000 0000 0000")
	two := grid4(t, "2000 0000 0000 0000")
	empty := grid4(t, "0000 0000 0000 0000")
	type add struct {
		g    sudoku.Grid
		conf float64
		prob [][]float32
	}
	for _, tc := range []struct {
		name     string
		adds     []add
		min, max float64
	}{
		{"one sure reading", []add{{one, 0.999, probs(0.999, 1)}}, 0, 0.99},
		{"three sure readings", []add{{one, 0.999, probs(0.999, 1)}, {one, 0.999, probs(0.999, 1)}, {one, 0.999, probs(0.999, 1)}}, 0.999, 1},
		{"three unsure readings", []add{{one, 0.7, probs(0.7, 1)}, {one, 0.7, probs(0.7, 1)}, {one, 0.7, probs(0.7, 1)}}, 0, 0.99},
		{"three readings, one for a 2", []add{{one, 0.99, probs(0.99, 1)}, {two, 0.99, probs(0.99, 2)}, {one, 0.99, probs(0.99, 1)}}, 0, 0.99},
		{"four sure readings outweigh one for a 2", []add{{one, 0.99, probs(0.99, 1)}, {two, 0.99, probs(0.99, 2)}, {one, 0.99, probs(0.99, 1)}, {one, 0.99, probs(0.99, 1)}, {one, 0.99, probs(0.99, 1)}}, 0.999, 1},
		{"three readings, one without ink there", []add{{one, 0.999, probs(0.999, 1)}, {empty, 1, make([][]float32, 16)}, {one, 0.999, probs(0.999, 1)}}, 0, 0.99},
		{"no probabilities: the confidences", []add{{one, 0.9999, nil}, {one, 0.9999, nil}, {one, 0.9999, nil}, {one, 0.9999, nil}}, 0.999, 1},
	} {
		v := NewVoter(5)
		for _, a := range tc.adds {
			conf := make([]float64, 16)
			for i := range conf {
				conf[i] = 1
			}
			conf[0] = a.conf
			v.Add(a.g, conf, a.prob, nil, false)
		}
		got := v.Sure(2)
		if len(got) != 16 || got[0] < tc.min || got[0] > tc.max {
			t.Errorf("%s: vote %s, Sure(2)[0] = %v, want in [%g, %g]", tc.name, gridText(v.Voted()), got, tc.min, tc.max)
		}
	}
	if NewVoter(3).Sure(2) != nil {
		t.Error("Sure before any reading: want nil")
	}
}
