package solvers

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/sudoku"
)

// parse reads a one-line puzzle or fails the test.
func parse(t *testing.T, line string) sudoku.Grid {
	t.Helper()
	g, err := sudoku.ParseLine(line, nil)
	if err != nil {
		t.Fatalf("parse %q: %v", line, err)
	}
	return g
}

// Every solver on hard real puzzles, with a deadline: a solver may give
// up (out of time, or a logical solver stuck), but a grid it returns must
// keep every rule, and dlx must solve them all. TestZoo holds the
// puzzles every solver must solve.
func TestEverySolverOnRealPuzzles(t *testing.T) {
	puzzles := []string{
		// The first puzzle of top95.
		"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
		// A 17-clue puzzle.
		".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
		// 4x4 and 6x6 (2x3 boxes).
		"1...........2..3",
		"..4......1.2.5.4...2.6..3.......1...",
	}
	for _, name := range Names() {
		for _, p := range puzzles {
			g := parse(t, p)
			s, err := New(name, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			res, err := s.Solve(ctx, g)
			cancel()
			if refused(t, name, g, res, err) {
				continue
			}
			var te *TimeoutError
			if name != "dlx" && (errors.As(err, &te) || errors.Is(err, ErrStuck)) {
				t.Logf("%s on %s: %v", name, p, err)
				continue
			}
			if err != nil {
				t.Errorf("%s on %s: %v", name, p, err)
				continue
			}
			if err := Check(g, res.Solution); err != nil {
				t.Errorf("%s on %s returned a bad grid: %v", name, p, err)
			}
		}
	}
}

func TestConflictingGivensAreAnError(t *testing.T) {
	for _, name := range Names() {
		g := parse(t, "11..............")
		if name == "bits" {
			g = parse(t, "1.......1........................................................................")
		}
		s, _ := New(name, Options{})
		res, err := s.Solve(context.Background(), g)
		var ce *sudoku.ConflictError
		if !errors.As(err, &ce) {
			t.Errorf("%s: err = %v, want a *sudoku.ConflictError", name, err)
		}
		if len(res.Solution.Cells) != 0 {
			t.Errorf("%s returned a grid with its error", name)
		}
	}
}

func TestUnknownSolver(t *testing.T) {
	if _, err := New("magic", Options{}); err == nil {
		t.Fatal("New(magic) gave no error")
	}
}

func TestCheck(t *testing.T) {
	p := parse(t, "1...........2..3")
	good := parse(t, "1342423131242413")
	if err := Check(p, good); err != nil {
		t.Fatalf("Check(good) = %v", err)
	}
	for _, bad := range []string{
		"3142243113244213", // a valid grid that breaks the given 1 at r1c1
		"1342423131242431", // row clash in the last row
		"134242313124241.", // not full
	} {
		if err := Check(p, parse(t, bad)); err == nil {
			t.Errorf("Check(%s) = nil, want an error", bad)
		}
	}
}
