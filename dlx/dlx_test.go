package dlx

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// knuth builds the 6x7 example matrix of the paper (columns A..G).
func knuth() *Matrix {
	m := New(7, 0)
	m.AddRow(2, 4, 5) // C E F
	m.AddRow(0, 3, 6) // A D G
	m.AddRow(1, 2, 5) // B C F
	m.AddRow(0, 3)    // A D
	m.AddRow(1, 6)    // B G
	m.AddRow(3, 4, 6) // D E G
	return m
}

func TestKnuthExample(t *testing.T) {
	m := knuth()
	var got [][]int
	n, err := m.Search(0, func(rows []int) bool {
		got = append(got, slices.Sorted(slices.Values(rows)))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 || len(got) != 1 || !slices.Equal(got[0], []int{0, 3, 4}) {
		t.Fatalf("got %d solutions %v, want 1: [0 3 4]", n, got)
	}
	if m.Stats().Nodes == 0 || m.Stats().Updates == 0 {
		t.Errorf("stats not counted: %+v", m.Stats())
	}
}

// queens builds the N-queens problem as in section 4 of the paper: ranks
// and files are primary, the diagonals secondary (a diagonal may stay empty).
func queens(n int) *Matrix {
	m := New(2*n, 2*(2*n-1))
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			m.AddRow(r, n+c, 2*n+r+c, 2*n+(2*n-1)+(n-1-r+c))
		}
	}
	return m
}

func TestQueens(t *testing.T) {
	want := map[int]int{1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724}
	for n := 1; n <= 10; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			m := queens(n)
			got, err := m.Search(0, func(rows []int) bool {
				if len(rows) != n {
					t.Fatalf("solution with %d queens", len(rows))
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != want[n] {
				t.Errorf("%d-queens: %d solutions, want %d", n, got, want[n])
			}
		})
	}
}

// latin builds the exact cover whose solutions are the Latin squares of
// order n: cell, row-symbol and column-symbol constraints.
func latin(n int) *Matrix {
	m := New(3*n*n, 0)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			for s := 0; s < n; s++ {
				m.AddRow(r*n+c, n*n+r*n+s, 2*n*n+c*n+s)
			}
		}
	}
	return m
}

func TestLatinSquares(t *testing.T) {
	// OEIS A002860: 1, 2, 12, 576, 161280.
	want := []int{0, 1, 2, 12, 576, 161280}
	max := 5
	if testing.Short() {
		max = 4
	}
	for n := 1; n <= max; n++ {
		got, err := latin(n).Search(0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got != want[n] {
			t.Errorf("Latin squares of order %d: %d, want %d", n, got, want[n])
		}
	}
}

// brute counts exact covers by trying every subset of rows. As in the
// paper, a row with no primary column is never part of a solution.
func brute(rows [][]int, primary, secondary int) int {
	count := 0
	for mask := 0; mask < 1<<len(rows); mask++ {
		hits := make([]int, primary+secondary)
		for i, r := range rows {
			if mask&(1<<i) != 0 {
				if len(r) == 0 || r[0] >= primary { // search only chooses rows through primary columns
					hits[0] = 2
				}
				for _, c := range r {
					hits[c]++
				}
			}
		}
		ok := true
		for c, h := range hits {
			if h > 1 || (c < primary && h != 1) {
				ok = false
				break
			}
		}
		if ok {
			count++
		}
	}
	return count
}

// TestRandomMatricesAgainstBruteForce checks counts, solution validity and
// that the links are restored, on many small random matrices.
func TestRandomMatricesAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 300; iter++ {
		primary, secondary := 1+rng.IntN(6), rng.IntN(3)
		nrows := rng.IntN(13)
		var rows [][]int
		m := New(primary, secondary)
		for i := 0; i < nrows; i++ {
			var r []int
			for c := 0; c < primary+secondary; c++ {
				if rng.IntN(3) == 0 {
					r = append(r, c)
				}
			}
			rows = append(rows, r)
			m.AddRow(r...)
		}
		want := brute(rows, primary, secondary)
		for pass := 0; pass < 2; pass++ { // a second pass proves the links were restored
			got, err := m.Search(0, func(sol []int) bool {
				hits := make([]int, primary+secondary)
				for _, r := range sol {
					for _, c := range rows[r] {
						hits[c]++
					}
				}
				for c, h := range hits {
					if h > 1 || (c < primary && h != 1) {
						t.Fatalf("iter %d: invalid solution %v", iter, sol)
					}
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("iter %d pass %d: %d solutions, brute force says %d (primary %d secondary %d rows %v)", iter, pass, got, want, primary, secondary, rows)
			}
		}
	}
}

func TestLimitAndStop(t *testing.T) {
	m := queens(8)
	tests := []struct {
		limit, stopAfter, want int
	}{
		{1, 0, 1},
		{2, 0, 2},
		{0, 5, 5},
		{3, 5, 3},
		{100, 0, 92},
	}
	for _, tc := range tests {
		calls := 0
		got, err := m.Search(tc.limit, func([]int) bool {
			calls++
			return tc.stopAfter == 0 || calls < tc.stopAfter
		})
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want || calls != tc.want {
			t.Errorf("limit %d stop %d: got %d (visits %d), want %d", tc.limit, tc.stopAfter, got, calls, tc.want)
		}
	}
	// After early stops the matrix must be intact.
	if got, _ := m.Search(0, nil); got != 92 {
		t.Errorf("after early stops: %d solutions, want 92", got)
	}
}

func TestSelect(t *testing.T) {
	m := queens(8)
	// A queen on a1 (row 0): 4 of the 92 solutions have it.
	if !m.Select(0) {
		t.Fatal("Select(0) refused on an empty board")
	}
	if m.Select(1) { // a2... same rank as a1
		t.Fatal("Select accepted a queen on the same rank")
	}
	if m.Select(9) { // b2 shares a1's diagonal (a secondary column)
		t.Fatal("Select accepted a queen on the same diagonal")
	}
	var sols [][]int
	got, _ := m.Search(0, func(rows []int) bool {
		sols = append(sols, slices.Clone(rows))
		return true
	})
	if got != 4 {
		t.Errorf("with a queen on a1: %d solutions, want 4", got)
	}
	for _, s := range sols {
		if s[0] != 0 || len(s) != 8 {
			t.Errorf("solution %v does not start with the selected row 0", s)
		}
	}
	if m.Selected() != 1 {
		t.Errorf("Selected() = %d, want 1", m.Selected())
	}
	m.Reset()
	if got, _ := m.Search(0, nil); got != 92 {
		t.Errorf("after Reset: %d solutions, want 92", got)
	}
}

func TestRandomOrder(t *testing.T) {
	first := func(seed uint64) []int {
		m := queens(12)
		m.SetRandom(true, seed)
		var sol []int
		if n, err := m.Search(1, func(rows []int) bool { sol = slices.Sorted(slices.Values(rows)); return true }); n != 1 || err != nil {
			t.Fatalf("seed %d: %d solutions, %v", seed, n, err)
		}
		return sol
	}
	a, b := first(1), first(1)
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different solutions: %v vs %v", a, b)
	}
	distinct := map[string]bool{}
	for seed := uint64(1); seed <= 10; seed++ {
		distinct[fmt.Sprint(first(seed))] = true
	}
	if len(distinct) < 5 {
		t.Errorf("10 seeds gave only %d distinct first solutions", len(distinct))
	}
	// The shuffled search still finds every solution exactly once.
	m := queens(8)
	m.SetRandom(true, 7)
	seen := map[string]bool{}
	n, _ := m.Search(0, func(rows []int) bool {
		seen[fmt.Sprint(slices.Sorted(slices.Values(rows)))] = true
		return true
	})
	if n != 92 || len(seen) != 92 {
		t.Errorf("random order: %d solutions, %d distinct, want 92", n, len(seen))
	}
}

func TestBudget(t *testing.T) {
	m := latin(5)
	m.SetBudget(1000)
	n, err := m.Search(0, nil)
	if !errors.Is(err, ErrBudget) {
		t.Fatalf("err = %v, want ErrBudget", err)
	}
	if n <= 0 || n >= 161280 {
		t.Errorf("partial count %d out of range", n)
	}
	m.SetBudget(0)
	if n, err := latin(4).Search(0, nil); err != nil || n != 576 {
		t.Errorf("no budget: %d, %v", n, err)
	}
	// The budget stop must leave the links intact.
	m.SetBudget(0)
	before := m.Stats().Nodes
	if n, err := m.Search(1, nil); n != 1 || err != nil {
		t.Errorf("after budget stop: %d, %v", n, err)
	}
	if m.Stats().Nodes <= before {
		t.Error("node counter did not move")
	}
}

// TestSearchContext: a search stops soon after its context ends, returns
// the count so far with the context's error, and leaves the links intact
// (for both Search and SearchThenReset).
func TestSearchContext(t *testing.T) {
	for _, reset := range []bool{false, true} {
		t.Run(fmt.Sprint("reset=", reset), func(t *testing.T) {
			m := latin(5)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// Cancel from inside the search, after 100 solutions: it must
			// stop within ctxCheckNodes nodes, far before all 161280.
			visit := func([]int) bool {
				if n := m.found; n == 100 {
					cancel()
				}
				return true
			}
			search := m.SearchContext
			if reset {
				search = m.SearchThenResetContext
			}
			before := m.Stats().Nodes
			n, err := search(ctx, 0, visit)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if n < 100 || n >= 161280 {
				t.Errorf("partial count %d out of range", n)
			}
			if nodes := m.Stats().Nodes - before; nodes > 1_000_000 {
				t.Errorf("%d nodes after the cancel: it did not stop", nodes)
			}
			if n, err := m.SearchContext(context.Background(), 0, nil); n != 161280 || err != nil {
				t.Errorf("after the stop: %d, %v; want 161280", n, err)
			}
		})
	}
}

func TestSearchAllocatesNothing(t *testing.T) {
	m := queens(8)
	m.Search(0, nil) // warm up the level buffers
	allocs := testing.AllocsPerRun(10, func() { m.Search(0, nil) })
	if allocs != 0 {
		t.Errorf("Search allocated %.1f times per run, want 0", allocs)
	}
}

func BenchmarkQueens8(b *testing.B) {
	m := queens(8)
	for b.Loop() {
		m.Search(0, nil)
	}
	b.ReportMetric(float64(m.Stats().Nodes)/float64(b.N), "nodes/op")
}

func TestSearchThenReset(t *testing.T) {
	m := queens(8)
	for _, row := range []int{0, 8*3 + 5} { // a1, then d6 (no clash)
		if !m.Select(row) {
			t.Fatalf("Select(%d) refused", row)
		}
	}
	want, _ := m.Search(0, nil) // with both queens fixed
	m.Select(0 + 0)             // refused: already selected column
	if m.Selected() != 2 {
		t.Fatalf("Selected() = %d, want 2", m.Selected())
	}
	got, err := m.SearchThenReset(1, nil) // stops early, links abandoned, then copied back
	if err != nil || got != min(1, want) {
		t.Fatalf("SearchThenReset: %d, %v (want %d)", got, err, min(1, want))
	}
	if m.Selected() != 0 {
		t.Errorf("Selected() after SearchThenReset = %d, want 0", m.Selected())
	}
	for i := 0; i < 3; i++ {
		if n, _ := m.Search(0, nil); n != 92 {
			t.Fatalf("after SearchThenReset: %d solutions, want 92", n)
		}
		m.Select(i)
		m.SearchThenReset(2, nil)
	}
	m.Select(5)
	m.ResetFast()
	if n, _ := m.Search(0, nil); n != 92 {
		t.Errorf("after ResetFast: %d solutions, want 92", n)
	}
}
