package ilp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// solve solves m and fails the test on an error.
func solve(t *testing.T, m *Model) *Solution {
	t.Helper()
	sol, err := m.Solve(context.Background(), Options{})
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	return sol
}

// knapsack builds "maximise sum value·x subject to sum weight·x <= capacity".
func knapsack(values, weights []int, capacity int) (*Model, []Var) {
	var m Model
	xs := make([]Var, len(values))
	var obj, w []Term
	for i := range values {
		xs[i] = m.Binary()
		obj = append(obj, Term{xs[i], float64(values[i])})
		w = append(w, Term{xs[i], float64(weights[i])})
	}
	m.SetObjective(Maximize, 0, obj)
	m.Add(w, LE, float64(capacity))
	return &m, xs
}

// bestKnapsack is the dynamic-programming answer to the same problem.
func bestKnapsack(values, weights []int, capacity int) int {
	best := make([]int, capacity+1)
	for i := range values {
		for c := capacity; c >= weights[i]; c-- {
			best[c] = max(best[c], best[c-weights[i]]+values[i])
		}
	}
	return best[capacity]
}

func TestKnapsack(t *testing.T) {
	// The textbook instance: take items 2 and 3 for 220.
	m, xs := knapsack([]int{60, 100, 120}, []int{10, 20, 30}, 50)
	sol := solve(t, m)
	if sol.Status != Optimal || sol.Objective != 220 {
		t.Fatalf("got %v, objective %g; want optimal, 220", sol.Status, sol.Objective)
	}
	if got := []int{sol.Int(xs[0]), sol.Int(xs[1]), sol.Int(xs[2])}; !slices.Equal(got, []int{0, 1, 1}) {
		t.Errorf("items taken %v, want [0 1 1]", got)
	}

	// Random instances against dynamic programming.
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 30; k++ {
		n := 5 + rng.IntN(25)
		values, weights := make([]int, n), make([]int, n)
		total := 0
		for i := range values {
			values[i], weights[i] = 1+rng.IntN(100), 1+rng.IntN(60)
			total += weights[i]
		}
		capacity := total / (2 + rng.IntN(3))
		m, xs := knapsack(values, weights, capacity)
		sol := solve(t, m)
		want := bestKnapsack(values, weights, capacity)
		if sol.Status != Optimal || int(math.Round(sol.Objective)) != want {
			t.Fatalf("instance %d: %v, objective %g; want optimal, %d", k, sol.Status, sol.Objective, want)
		}
		value, weight := 0, 0
		for i, x := range xs {
			value += sol.Int(x) * values[i]
			weight += sol.Int(x) * weights[i]
		}
		if value != want || weight > capacity {
			t.Errorf("instance %d: the values give value %d weight %d, want %d within %d", k, value, weight, want, capacity)
		}
	}
}

func TestAssignment(t *testing.T) {
	// Workers to jobs, one each, at least total cost; checked against
	// every permutation.
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 10; k++ {
		n := 2 + k%5
		cost := make([][]int, n)
		for i := range cost {
			cost[i] = make([]int, n)
			for j := range cost[i] {
				cost[i][j] = rng.IntN(50)
			}
		}
		var m Model
		x := make([][]Var, n)
		var obj []Term
		for i := range x {
			x[i] = make([]Var, n)
			for j := range x[i] {
				x[i][j] = m.Binary()
				obj = append(obj, Term{x[i][j], float64(cost[i][j])})
			}
		}
		for i := 0; i < n; i++ {
			var row, col []Var
			for j := 0; j < n; j++ {
				row = append(row, x[i][j])
				col = append(col, x[j][i])
			}
			m.Add(Sum(row...), EQ, 1)
			m.Add(Sum(col...), EQ, 1)
		}
		m.SetObjective(Minimize, 0, obj)
		sol := solve(t, &m)

		best := math.MaxInt
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		var walk func(int, int)
		walk = func(i, sum int) {
			if i == n {
				best = min(best, sum)
				return
			}
			for j := i; j < n; j++ {
				perm[i], perm[j] = perm[j], perm[i]
				walk(i+1, sum+cost[i][perm[i]])
				perm[i], perm[j] = perm[j], perm[i]
			}
		}
		walk(0, 0)
		if sol.Status != Optimal || int(math.Round(sol.Objective)) != best {
			t.Fatalf("%dx%d: %v, cost %g; want optimal, %d", n, n, sol.Status, sol.Objective, best)
		}
	}
}

// queens models N-queens: a queen on each row and column, at most one on
// each diagonal.
func queens(n int) (*Model, [][]Var) {
	var m Model
	x := make([][]Var, n)
	for r := range x {
		x[r] = make([]Var, n)
		for c := range x[r] {
			x[r][c] = m.Binary()
		}
	}
	for i := 0; i < n; i++ {
		var row, col []Var
		for j := 0; j < n; j++ {
			row = append(row, x[i][j])
			col = append(col, x[j][i])
		}
		m.Add(Sum(row...), EQ, 1)
		m.Add(Sum(col...), EQ, 1)
	}
	for d := -(n - 2); d <= n-2; d++ { // diagonals with two or more squares
		var down, up []Var
		for r := 0; r < n; r++ {
			if c := r + d; c >= 0 && c < n {
				down = append(down, x[r][c])
			}
			if c := n - 1 - r + d; c >= 0 && c < n {
				up = append(up, x[r][c])
			}
		}
		m.Add(Sum(down...), LE, 1)
		m.Add(Sum(up...), LE, 1)
	}
	return &m, x
}

// placement reads a queens solution as the column of each row's queen and
// checks it.
func placement(t *testing.T, n int, x [][]Var, sol *Solution) string {
	t.Helper()
	cols := make([]int, n)
	for r := range x {
		cols[r] = -1
		for c := range x[r] {
			if sol.Int(x[r][c]) == 1 {
				if cols[r] >= 0 {
					t.Fatalf("two queens in row %d", r)
				}
				cols[r] = c
			}
		}
	}
	for r := range cols {
		for s := r + 1; s < n; s++ {
			if cols[r] < 0 || cols[r] == cols[s] || s-r == cols[s]-cols[r] || s-r == cols[r]-cols[s] {
				t.Fatalf("queens %v attack each other (rows %d, %d)", cols, r, s)
			}
		}
	}
	return fmt.Sprint(cols)
}

func TestQueensEnumerate(t *testing.T) {
	// The number of N-queens solutions is known (OEIS A000170).
	// (7 and 8 queens take GLPK 1 and 12 s to enumerate: a MIP solver is
	// no counter. 8 queens is sampled with a limit below.)
	for _, tc := range []struct{ n, want int }{{1, 1}, {2, 0}, {3, 0}, {4, 2}, {5, 10}, {6, 4}} {
		m, x := queens(tc.n)
		sols, err := m.Enumerate(context.Background(), Options{}, 1000, nil)
		if err != nil {
			t.Fatalf("%d queens: %v", tc.n, err)
		}
		if len(sols) != tc.want {
			t.Errorf("%d queens: %d solutions, want %d", tc.n, len(sols), tc.want)
		}
		seen := map[string]bool{}
		for _, s := range sols {
			p := placement(t, tc.n, x, s)
			if seen[p] {
				t.Errorf("%d queens: %s found twice", tc.n, p)
			}
			seen[p] = true
		}
		if m.NumConstraints() != 2*tc.n+2*max(0, 2*tc.n-3) {
			t.Errorf("%d queens: Enumerate changed the model (%d constraints)", tc.n, m.NumConstraints())
		}
	}
}

// BenchmarkQueensEnumerate enumerates all 4 solutions of 6 queens: the
// cost of Exclude's cuts (the tighter one, since rows fix the count).
func BenchmarkQueensEnumerate(b *testing.B) {
	m, _ := queens(6)
	for b.Loop() {
		if sols, err := m.Enumerate(context.Background(), Options{}, 100, nil); err != nil || len(sols) != 4 {
			b.Fatalf("%d solutions, %v", len(sols), err)
		}
	}
}

func TestEnumerateLimitAndUniqueness(t *testing.T) {
	m8, x8 := queens(8)
	sols, err := m8.Enumerate(context.Background(), Options{}, 12, nil)
	if err != nil || len(sols) != 12 {
		t.Fatalf("limit 12 on 8 queens: %d solutions, %v; want 12", len(sols), err)
	}
	seen := map[string]bool{}
	for _, s := range sols {
		seen[placement(t, 8, x8, s)] = true
	}
	if len(seen) != 12 {
		t.Errorf("limit 12 on 8 queens: %d distinct solutions", len(seen))
	}

	m, x := queens(6)
	sols, err = m.Enumerate(context.Background(), Options{}, 2, nil)
	if err != nil || len(sols) != 2 {
		t.Fatalf("limit 2 on 6 queens: %d solutions, %v; want 2", len(sols), err)
	}
	// Fixing a queen at row 0, column 1 leaves one of the four solutions.
	m.Add([]Term{{x[0][1], 1}}, EQ, 1)
	m.Add([]Term{{x[1][3], 1}}, EQ, 1)
	sols, err = m.Enumerate(context.Background(), Options{}, 2, nil)
	if err != nil || len(sols) != 1 {
		t.Fatalf("6 queens with two fixed: %d solutions, %v; want exactly 1", len(sols), err)
	}
	if got := placement(t, 6, x, sols[0]); got != "[1 3 5 0 2 4]" {
		t.Errorf("the unique solution is %s, want [1 3 5 0 2 4]", got)
	}
	if sols, err := m.Enumerate(context.Background(), Options{}, 0, nil); sols != nil || err != nil {
		t.Errorf("limit 0: %v, %v; want nothing", sols, err)
	}
}

func TestExcludeByHand(t *testing.T) {
	// Exclude on chosen variables only: two binaries, x+y = 1, excluded on
	// x alone leaves the other solution, then none.
	var m Model
	x, y := m.Binary(), m.Binary()
	m.Add(Sum(x, y), EQ, 1)
	first := solve(t, &m)
	if _, err := m.Exclude(first, []Var{x}); err != nil {
		t.Fatal(err)
	}
	second := solve(t, &m)
	if second.Status != Optimal || second.Int(x) == first.Int(x) {
		t.Fatalf("after excluding x=%d: %v with x=%d", first.Int(x), second.Status, second.Int(x))
	}
	if _, err := m.Exclude(second, []Var{x}); err != nil {
		t.Fatal(err)
	}
	if third := solve(t, &m); third.Status != Infeasible {
		t.Fatalf("both values of x excluded: %v, want infeasible", third.Status)
	}

	// Exclude refuses what it cannot express, leaving the model alone.
	z := m.Integer(0, 3)
	rows := m.NumConstraints()
	for name, vars := range map[string][]Var{"integer": {z}, "unknown": {7}, "negative": {-1}, "new": {m.Binary()}} {
		if _, err := m.Exclude(second, vars); err == nil {
			t.Errorf("Exclude on %s variable: no error", name)
		}
	}
	if _, err := m.Exclude(&Solution{Status: Infeasible}, nil); err == nil {
		t.Error("Exclude of an infeasible solution: no error")
	}
	if m.NumConstraints() != rows {
		t.Errorf("failed Excludes added constraints: %d, want %d", m.NumConstraints(), rows)
	}
}

func TestExcludeCutStrength(t *testing.T) {
	// Queens' row constraints fix the number of queens, so Exclude adds
	// the ones-only cut; a knapsack fixes nothing, so the general one.
	for _, tc := range []struct {
		name  string
		m     *Model
		terms int // terms in the cut
	}{
		{"queens", func() *Model { m, _ := queens(5); return m }(), 5},
		{"knapsack", func() *Model { m, _ := knapsack([]int{1, 2, 3}, []int{1, 1, 1}, 2); return m }(), 3},
	} {
		sol := solve(t, tc.m)
		i, err := tc.m.Exclude(sol, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := tc.m.rows[i]; r.end-r.start != tc.terms {
			t.Errorf("%s: the cut has %d terms, want %d", tc.name, r.end-r.start, tc.terms)
		}
	}
	// A variable listed twice, or rows that overlap, fix nothing.
	var m Model
	a, b, c := m.Binary(), m.Binary(), m.Binary()
	m.Add(Sum(a, b), EQ, 1)
	m.Add(Sum(b, c), EQ, 1)
	if m.fixesCount([]Var{a, b, c}) || m.fixesCount([]Var{a, a, b}) {
		t.Error("fixesCount: true for overlapping rows or a repeated variable")
	}
	if !m.fixesCount([]Var{a, b}) || !m.fixesCount([]Var{b, c}) {
		t.Error("fixesCount: false for a row that covers the variables")
	}
	var d Model
	e, f := d.Binary(), d.Binary()
	d.Add([]Term{{e, 1}, {e, 1}, {f, 1}}, EQ, 1)
	if d.fixesCount([]Var{e, f}) {
		t.Error("fixesCount: true for 2e + f = 1")
	}
}

func TestIntegerVariables(t *testing.T) {
	// maximise 5a + 4b + 3c subject to 2a + 3b + c <= 5, 4a + b + 2c <= 11,
	// 3a + 4b + 2c <= 8, a in 0..3, b in -2..2, c in 1..4; brute force
	// gives the answer.
	var m Model
	a, b, c := m.Integer(0, 3), m.Integer(-2, 2), m.Integer(1, 4)
	m.Add([]Term{{a, 2}, {b, 3}, {c, 1}}, LE, 5)
	m.Add([]Term{{a, 4}, {b, 1}, {c, 2}}, LE, 11)
	m.Add([]Term{{a, 3}, {b, 4}, {c, 2}}, LE, 8)
	m.SetObjective(Maximize, 10, []Term{{a, 5}, {b, 4}, {c, 3}})
	sol := solve(t, &m)
	best, arg := math.MinInt, ""
	for va := 0; va <= 3; va++ {
		for vb := -2; vb <= 2; vb++ {
			for vc := 1; vc <= 4; vc++ {
				if 2*va+3*vb+vc <= 5 && 4*va+vb+2*vc <= 11 && 3*va+4*vb+2*vc <= 8 {
					if v := 10 + 5*va + 4*vb + 3*vc; v > best {
						best, arg = v, fmt.Sprint(va, vb, vc)
					}
				}
			}
		}
	}
	got := fmt.Sprint(sol.Int(a), sol.Int(b), sol.Int(c))
	if sol.Status != Optimal || int(math.Round(sol.Objective)) != best {
		t.Fatalf("%v, objective %g at %s; want optimal, %d at %s", sol.Status, sol.Objective, got, best, arg)
	}
	// A fixed integer (lo == hi) is allowed.
	var f Model
	v := f.Integer(4, 4)
	f.Add([]Term{{v, 1}}, GE, 0)
	if sol := solve(t, &f); sol.Int(v) != 4 {
		t.Errorf("fixed variable = %d, want 4", sol.Int(v))
	}
}

func TestInfeasible(t *testing.T) {
	for name, build := range map[string]func(*Model){
		// The LP relaxation is infeasible already.
		"lp": func(m *Model) {
			x, y := m.Binary(), m.Binary()
			m.Add(Sum(x, y), GE, 3)
		},
		// The LP relaxation has x = y = z = 1/2; no integer point.
		"odd cycle": func(m *Model) {
			x, y, z := m.Binary(), m.Binary(), m.Binary()
			m.Add(Sum(x, y), EQ, 1)
			m.Add(Sum(y, z), EQ, 1)
			m.Add(Sum(x, z), EQ, 1)
		},
		// Parity: 2a = 2b + 1 has no integer solution.
		"parity": func(m *Model) {
			a, b := m.Integer(0, 10), m.Integer(0, 10)
			m.Add([]Term{{a, 2}, {b, -2}}, EQ, 1)
		},
	} {
		var m Model
		build(&m)
		sol := solve(t, &m)
		if sol.Status != Infeasible || sol.HasValues() {
			t.Errorf("%s: %v (values %v), want infeasible without values", name, sol.Status, sol.HasValues())
		}
		if !math.IsNaN(sol.Value(0)) || sol.Int(0) != 0 {
			t.Errorf("%s: Value on an infeasible solution = %g", name, sol.Value(0))
		}
	}
}

func TestDuplicateAndCancellingTerms(t *testing.T) {
	// x + x <= 1 is 2x <= 1, so x = 0 even when maximised; terms that
	// cancel are dropped, and a constraint left with none is refused.
	var m Model
	x, y := m.Binary(), m.Binary()
	m.Add([]Term{{x, 1}, {x, 1}}, LE, 1)
	m.Add([]Term{{y, 1}, {x, 2}, {x, -2}}, LE, 1)
	m.SetObjective(Maximize, 0, []Term{{x, 1}, {y, 1}, {y, 0.5}})
	sol := solve(t, &m)
	if sol.Int(x) != 0 || sol.Int(y) != 1 || sol.Objective != 1.5 {
		t.Errorf("x=%d y=%d objective %g; want 0, 1, 1.5", sol.Int(x), sol.Int(y), sol.Objective)
	}
	m.Add([]Term{{x, 1}, {x, -1}}, LE, 1)
	var me *ModelError
	if _, err := m.Solve(context.Background(), Options{}); !errors.As(err, &me) || me.Constraint != 2 {
		t.Errorf("a constraint whose terms cancel: %v, want a *ModelError on constraint 2", err)
	}
}

func TestNoConstraints(t *testing.T) {
	var m Model
	x := m.Binary()
	y := m.Integer(-3, 7)
	m.SetObjective(Minimize, 0, []Term{{x, -1}, {y, 1}})
	sol := solve(t, &m)
	if sol.Int(x) != 1 || sol.Int(y) != -3 {
		t.Errorf("x=%d y=%d, want 1, -3", sol.Int(x), sol.Int(y))
	}
}

// marketSplit builds a Cornuéjols–Dawande market split instance: m
// equality constraints with random coefficients 0..99 over 10(m-1)
// binaries, each right-hand side half its row's total. Branch and bound
// takes very long on these (most have no solution), which makes them
// good for testing limits.
func marketSplit(rows int, seed uint64) *Model {
	rng := rand.New(rand.NewPCG(seed, seed))
	var m Model
	n := 10 * (rows - 1)
	xs := make([]Var, n)
	for j := range xs {
		xs[j] = m.Binary()
	}
	for i := 0; i < rows; i++ {
		terms := make([]Term, n)
		total := 0
		for j := range terms {
			a := rng.IntN(100)
			terms[j] = Term{xs[j], float64(a)}
			total += a
		}
		m.Add(terms, EQ, float64(total/2))
	}
	return &m
}

func TestTimeLimitAndCancel(t *testing.T) {
	m := marketSplit(6, 1)
	start := time.Now()
	sol, err := m.Solve(context.Background(), Options{TimeLimit: 100 * time.Millisecond})
	if !errors.Is(err, ErrTimeLimit) {
		t.Fatalf("time limit: err = %v, want ErrTimeLimit (the instance was solved in %v?)", err, time.Since(start))
	}
	if sol == nil || sol.Status == Optimal || sol.Status == Infeasible {
		t.Errorf("time limit: solution %+v, want Feasible or Unknown", sol)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := m.Solve(ctx, Options{TimeLimit: time.Hour}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("context deadline: err = %v, want context.DeadlineExceeded", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := m.Solve(ctx, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
	if _, err := m.Solve(ctx, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("already cancelled: err = %v, want context.Canceled", err)
	}
	if _, err := m.Enumerate(ctx, Options{}, 2, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Enumerate, cancelled: err = %v, want context.Canceled", err)
	}
}

func TestParallelSolves(t *testing.T) {
	// Goroutines solve at once, each on its own thread and GLPK
	// environment, and all get the right answers. Run with -race too.
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 10; k++ {
				n := 4 + (g+k)%3 // 4..6 queens
				m, _ := queens(n)
				sols, err := m.Enumerate(context.Background(), Options{}, 1000, nil)
				want := map[int]int{4: 2, 5: 10, 6: 4}[n]
				if err != nil || len(sols) != want {
					errs <- fmt.Errorf("goroutine %d: %d queens: %d solutions, %v; want %d", g, n, len(sols), err, want)
					return
				}
			}
		}()
	}
	// One shared model solved by several goroutines (Solve only reads it).
	shared, _ := knapsack([]int{60, 100, 120}, []int{10, 20, 30}, 50)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				sol, err := shared.Solve(context.Background(), Options{})
				if err != nil || sol.Objective != 220 {
					errs <- fmt.Errorf("shared knapsack: %v, %v", sol, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestStatusAndErrorText(t *testing.T) {
	for s, want := range map[Status]string{Unknown: "unknown", Optimal: "optimal", Feasible: "feasible", Infeasible: "infeasible", 9: "Status(9)"} {
		if s.String() != want {
			t.Errorf("%d: %q, want %q", s, s.String(), want)
		}
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&ModelError{Constraint: 3, Var: 4, Reason: "r"}, "ilp: constraint 3, variable 4: r"},
		{&ModelError{Constraint: 3, Var: -1, Reason: "r"}, "ilp: constraint 3: r"},
		{&ModelError{Constraint: -1, Var: 4, Reason: "r"}, "ilp: variable 4: r"},
		{&ModelError{Constraint: -1, Var: -1, Reason: "r"}, "ilp: r"},
		{&SolverError{Message: "glp_x: bad\n"}, "ilp: GLPK error: glp_x: bad"},
		{&SolverError{Code: 5}, "ilp: glp_intopt returned 5: the search failed (GLP_EFAIL)"},
	} {
		if tc.err.Error() != tc.want {
			t.Errorf("%q, want %q", tc.err.Error(), tc.want)
		}
	}
	if v := Version(); v == "" {
		t.Error("Version is empty")
	}
}
