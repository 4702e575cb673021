package sudoku

import (
	"errors"
	"testing"

	"github.com/sudokuar/sudokuar/dlx"
	"github.com/sudokuar/sudokuar/internal/testenv"
)

// crossCheck solves and counts g with the bit-parallel engine and with
// dancing links and reports the first disagreement.
func crossCheck(t testing.TB, fast, slow *Solver, g Grid, limit int) {
	t.Helper()
	a, errA := fast.Solve(g)
	b, errB := slow.Solve(g)
	switch {
	case (errA == nil) != (errB == nil):
		t.Fatalf("%v: bits says %v, dlx %v", g, errA, errB)
	case errA != nil:
		if errors.Is(errA, ErrNoSolution) != errors.Is(errB, ErrNoSolution) {
			t.Fatalf("%v: bits says %v, dlx %v", g, errA, errB)
		}
	default:
		if cs := Validate(a); len(cs) > 0 || a.Givens() != len(a.Cells) {
			t.Fatalf("%v: bits returned %v, which breaks a rule or is not full", g, a)
		}
		for i, v := range g.Cells {
			if v != 0 && a.Cells[i] != v {
				t.Fatalf("%v: bits returned %v, which changes the given at cell %d", g, a, i)
			}
		}
	}
	n, errA := fast.Count(g, limit)
	m, errB := slow.Count(g, limit)
	if n != m || errA != nil || errB != nil {
		t.Fatalf("%v: bits counts %d (%v), dlx %d (%v), limit %d", g, n, errA, m, errB, limit)
	}
	if n == 1 && !a.Equal(b) {
		t.Fatalf("%v: unique, but bits gives %v and dlx %v", g, a, b)
	}
}

func newPair(t testing.TB) (fast, slow *Solver) {
	fast, err := NewSolver(Shape{3, 3})
	if err != nil || fast.Engine() != "bits" {
		t.Fatalf("NewSolver(3x3): engine %v, %v", fast, err)
	}
	slow, err = NewDLXSolver(Shape{3, 3})
	if err != nil || slow.Engine() != "dlx" {
		t.Fatalf("NewDLXSolver(3x3): %v", err)
	}
	return fast, slow
}

// Every 50th 17-clue puzzle and all of top95 (BenchmarkBitsCrossCheck
// does every puzzle), then puzzles with clues taken away (many
// solutions), with no solution, and with clashing givens.
func TestBitsAgreesWithDLX(t *testing.T) {
	fast, slow := newPair(t)
	var sample []Grid
	for i, g := range loadPuzzles(t, testenv.Shared(t, "puzzles/17-clue.txt")) {
		if i%50 == 0 {
			sample = append(sample, g)
		}
	}
	sample = append(sample, loadPuzzles(t, testenv.Shared(t, "puzzles/top95.txt"))...)
	for _, g := range sample {
		crossCheck(t, fast, slow, g, 2)
	}
	for seed := int64(1); seed <= 20; seed++ {
		g, err := Generate(Shape{3, 3}, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		crossCheck(t, fast, slow, g, 2)
		// Take clues away one by one: more and more solutions.
		for i := 0; i < len(g.Cells); i += 7 {
			g.Cells[i] = 0
			crossCheck(t, fast, slow, g, 40)
		}
	}
	for _, line := range []string{
		".....8.42.......71..1..............83.......75..6.93........9..45..2..8..........", // no solution, singles do not see it
		"5...5............................................................................", // clashing givens
		"123456789........................................................................",
	} {
		g, err := ParseLine(line, nil)
		if err != nil {
			t.Fatal(err)
		}
		crossCheck(t, fast, slow, g, 3)
	}
	var ce *ConflictError
	if _, err := fast.Solve(mustParse(t, "5...5............................................................................")); !errors.As(err, &ce) {
		t.Errorf("clashing givens: %v, want a *ConflictError", err)
	}
}

func mustParse(t testing.TB, line string) Grid {
	t.Helper()
	g, err := ParseLine(line, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The empty grid: counting stops at the limit, and the budget stops a
// search that would not end.
func TestBitsLimitAndBudget(t *testing.T) {
	fast, _ := newPair(t)
	empty := NewGrid(Shape{3, 3})
	if n, err := fast.Count(empty, 1000); n != 1000 || err != nil {
		t.Errorf("Count(empty, 1000) = %d, %v", n, err)
	}
	fast.SetBudget(500)
	n, err := fast.Count(empty, 0)
	if !errors.Is(err, dlx.ErrBudget) || n == 0 {
		t.Errorf("Count(empty, all) with a budget = %d, %v; want some and ErrBudget", n, err)
	}
	fast.SetBudget(0)
	if _, err := fast.Solve(Grid{Shape: Shape{3, 3}, Cells: make([]int, 80)}); !errors.Is(err, ErrInvalidGrid) {
		t.Errorf("80 cells: %v", err)
	}
}

// FuzzBits: any 81 values 0..9 (mostly empty, so the counts stay small
// searches) are solved and counted alike by both engines.
func FuzzBits(f *testing.F) {
	f.Add([]byte("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"))
	f.Add([]byte(".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."))
	f.Add([]byte("12345678"))
	fast, slow := newPair(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		g := NewGrid(Shape{3, 3})
		for i := 0; i < len(data) && i < 81; i++ {
			if c := data[i]; c >= '1' && c <= '9' {
				g.Cells[i] = int(c - '0')
			}
		}
		if g.Givens() < 8 {
			return // too many solutions to count to the limit quickly
		}
		crossCheck(t, fast, slow, g, 5)
	})
}

// BenchmarkBitsCrossCheck checks the bit-parallel engine against dancing
// links on every puzzle of 17-clue and top95 (solution and count):
//
//	go test -run '^$' -bench BitsCrossCheck -benchtime 1x ./sudoku
func BenchmarkBitsCrossCheck(b *testing.B) {
	fast, slow := newPair(b)
	all := loadPuzzles(b, testenv.Shared(b, "puzzles/17-clue.txt"))
	all = append(all, loadPuzzles(b, testenv.Shared(b, "puzzles/top95.txt"))...)
	for b.Loop() {
		for _, g := range all {
			crossCheck(b, fast, slow, g, 2)
		}
	}
	b.ReportMetric(float64(len(all)), "puzzles")
}
