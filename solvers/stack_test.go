package solvers

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// countBoards are boards whose number of solutions is known from the
// literature (288 4x4 grids; 28,200,960 6x6 grids with 2x3 boxes, so
// 28,200,960/6! = 39,168 with the first row fixed) or from a puzzle
// collection (17-clue puzzles have exactly one).
var countBoards = []struct {
	name  string
	line  string
	box   sudoku.Shape
	count uint64
}{
	{"empty 4x4", strings.Repeat(".", 16), sudoku.Shape{BoxRows: 2, BoxCols: 2}, 288},
	{"6x6 first row", "123456" + strings.Repeat(".", 30), sudoku.Shape{BoxRows: 2, BoxCols: 3}, 39168},
	{"17 clues", ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...", sudoku.Shape{BoxRows: 3, BoxCols: 3}, 1},
	{"17 clues minus one", ".......................2.3......3.2...1.4......5....6..3......4.7..8...962...7...", sudoku.Shape{BoxRows: 3, BoxCols: 3}, 17204},
	{"top95 #1", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", sudoku.Shape{BoxRows: 3, BoxCols: 3}, 1},
	{"full", "1234341221434321", sudoku.Shape{BoxRows: 2, BoxCols: 2}, 1},
	{"no solution", "..12.4..3.......", sudoku.Shape{BoxRows: 2, BoxCols: 2}, 0},
	{"conflict", "11..............", sudoku.Shape{BoxRows: 2, BoxCols: 2}, 0},
	{"1x1", ".", sudoku.Shape{BoxRows: 1, BoxCols: 1}, 1},
}

func parseShape(t testing.TB, line string, s sudoku.Shape) sudoku.Grid {
	t.Helper()
	g, err := sudoku.ParseLine(line, &s)
	if err != nil {
		t.Fatalf("parse %q: %v", line, err)
	}
	return g
}

func TestCountKnownBoards(t *testing.T) {
	for _, b := range countBoards {
		g := parseShape(t, b.line, b.box)
		got, err := Count(context.Background(), g, 0, nil)
		if err != nil || got != b.count {
			t.Errorf("%s: Count = %d, %v; want %d", b.name, got, err, b.count)
		}
		if b.count > 0 {
			if dl := sudoku.CountSolutions(g, 0); uint64(dl) != b.count {
				t.Errorf("%s: DLX counts %d, want %d", b.name, dl, b.count)
			}
		}
	}
}

// TestCountAgreesWithDLX removes one clue from real 17-clue puzzles, which
// leaves from one to thousands of solutions, and checks that both counters
// agree on 25 of them. A puzzle with 5000 solutions or more is passed over
// (DLX stops counting there) and not counted as checked.
func TestCountAgreesWithDLX(t *testing.T) {
	const want = 25
	path := testenv.Shared(t, "puzzles/17-clue.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	tried, checked := 0, 0
	for sc.Scan() && checked < want {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		g := parseShape(t, line, sudoku.Shape{BoxRows: 3, BoxCols: 3})
		// Drop the (tried%17)-th clue: 16 givens.
		for i, k := 0, 0; i < len(g.Cells); i++ {
			if g.Cells[i] != 0 {
				if k == tried%17 {
					g.Cells[i] = 0
					break
				}
				k++
			}
		}
		tried++
		dlx := sudoku.CountSolutions(g, 5000)
		if dlx >= 5000 {
			continue
		}
		got, err := Count(context.Background(), g, 0, nil)
		if err != nil || got != uint64(dlx) {
			t.Errorf("%s minus a clue: stack counts %d (%v), DLX %d", line, got, err, dlx)
		}
		checked++
	}
	t.Logf("%d puzzles compared, %d passed over (5000 solutions or more)", checked, tried-checked)
	if checked < want {
		t.Fatalf("only %d puzzles compared, want %d", checked, want)
	}
}

func TestCountLimitProgressAndCancel(t *testing.T) {
	empty9 := sudoku.NewGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3})
	n, err := Count(context.Background(), empty9, 1000, nil)
	if err != nil || n != 1000 {
		t.Errorf("limit 1000: %d, %v", n, err)
	}

	var calls int
	var last CountProgress
	n, err = Count(context.Background(), empty9, 300000, func(p CountProgress) {
		if p.Solutions < last.Solutions || p.Nodes < last.Nodes {
			t.Errorf("progress went back: %+v after %+v", p, last)
		}
		calls++
		last = p
	})
	if err != nil || n != 300000 || calls < 2 || last.Solutions != n {
		t.Errorf("progress: %d solutions, %v, %d calls, last %+v", n, err, calls, last)
	}

	// Counting an empty 9×9 would not end in any test's lifetime: only
	// noticing the deadline returns (how soon is a benchmark's business,
	// not a test's on a busy machine).
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	n, err = Count(ctx, empty9, 0, nil)
	if !errors.Is(err, context.DeadlineExceeded) || n == 0 {
		t.Errorf("cancel: %d, %v", n, err)
	}

	if _, err := Count(context.Background(), sudoku.Grid{Shape: sudoku.Shape{BoxRows: 2, BoxCols: 2}, Cells: []int{1}}, 0, nil); !errors.Is(err, sudoku.ErrInvalidGrid) {
		t.Errorf("malformed grid: %v", err)
	}
}

func TestStackSolveCancel(t *testing.T) {
	// A 25x25 with one given and a rule-breaking pattern no solver can
	// finish quickly is not needed: an already-done context must stop it.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewStack().Solve(ctx, sudoku.NewGrid(sudoku.Shape{BoxRows: 5, BoxCols: 5}))
	var te *TimeoutError
	if err != nil && !errors.As(err, &te) {
		t.Errorf("Solve on a done context: %v", err)
	}
	if _, err := NewStack().Solve(context.Background(), parseShape(t, "..12.4..3.......", sudoku.Shape{BoxRows: 2, BoxCols: 2})); !errors.Is(err, sudoku.ErrNoSolution) {
		t.Errorf("no solution: %v", err)
	}
}

// BenchmarkCount16 proves the 55 16x16 puzzles of ../shared (Gecode's
// examples, from janko.at) unique with both counters: ns/op is all 55.
func BenchmarkCount16(b *testing.B) {
	path := testenv.Shared(b, "puzzles/large/gecode_16x16.txt")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var grids []sudoku.Grid
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && line[0] != '#' {
			grids = append(grids, parseShape(b, line, sudoku.Shape{BoxRows: 4, BoxCols: 4}))
		}
	}
	b.Run("stack", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, g := range grids {
				if n, _ := Count(context.Background(), g, 0, nil); n != 1 {
					b.Fatalf("count %d", n)
				}
			}
		}
	})
	b.Run("dlx", func(b *testing.B) {
		sv, _ := sudoku.NewSolver(sudoku.Shape{BoxRows: 4, BoxCols: 4})
		for i := 0; i < b.N; i++ {
			for _, g := range grids {
				if n, _ := sv.Count(g, 0); n != 1 {
					b.Fatalf("count %d", n)
				}
			}
		}
	})
}

// BenchmarkCount counts the solutions of the known boards with the
// explicit-stack backtracker and with the DLX counter, side by side.
// Solutions/s is the counting speed; for one-solution puzzles ns/op is the
// time to prove uniqueness.
func BenchmarkCount(b *testing.B) {
	for _, cb := range countBoards {
		if cb.count == 0 || cb.name == "full" || cb.name == "1x1" {
			continue
		}
		g := parseShape(b, cb.line, cb.box)
		b.Run(strings.ReplaceAll(cb.name, " ", "_")+"/stack", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if n, _ := Count(context.Background(), g, 0, nil); n != cb.count {
					b.Fatalf("count %d", n)
				}
			}
			b.ReportMetric(float64(cb.count)*float64(b.N)/b.Elapsed().Seconds(), "solutions/s")
		})
		b.Run(strings.ReplaceAll(cb.name, " ", "_")+"/dlx", func(b *testing.B) {
			sv, err := sudoku.NewSolver(g.Shape)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				if n, _ := sv.Count(g, 0); uint64(n) != cb.count {
					b.Fatalf("count %d", n)
				}
			}
			b.ReportMetric(float64(cb.count)*float64(b.N)/b.Elapsed().Seconds(), "solutions/s")
		})
	}
}
