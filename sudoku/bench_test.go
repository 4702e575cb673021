package sudoku

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/internal/testenv"
)

// loadPuzzles reads a one-line puzzle file, skipping comments and blanks.
func loadPuzzles(tb testing.TB, path string) []Grid {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []Grid
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		g, err := ParseLine(text, nil)
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(out) == 0 {
		tb.Fatalf("%s: no puzzles", path)
	}
	return out
}

// benchSolve solves the puzzles round-robin with one Solver, through the
// public API, and reports puzzles per second and search nodes per puzzle.
//
// On the shared machine timings swing 2-3x, so A/B decisions on the solver
// use instruction counts, which callgrind repeats exactly (async preemption
// off, or callgrind trips over Go's signals):
//
//	go test -c -o /tmp/sudoku.test ./sudoku && cd sudoku &&
//	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
//	  --toggle-collect='github.com/sudokuar/sudokuar/sudoku.(*Solver).SolveInto' \
//	  --toggle-collect='github.com/sudokuar/sudokuar/sudoku.(*Solver).Count' \
//	  /tmp/sudoku.test -test.run '^$' -test.bench '^BenchmarkSolve17Clue$' -test.benchtime=5000x
//
// then divide the total (callgrind_annotate) by the 5000 puzzles.
func benchSolve(b *testing.B, puzzles []Grid, limit int) {
	sv, err := NewDLXSolver(puzzles[0].Shape)
	if err != nil {
		b.Fatal(err)
	}
	benchWith(b, sv, puzzles, limit)
}

// benchWith is benchSolve with the given solver (its engine: DLX or bits).
func benchWith(b *testing.B, sv *Solver, puzzles []Grid, limit int) {
	dst := make([]int, len(puzzles[0].Cells))
	sv.ResetStats()
	i := 0
	// Also time the thread's CPU use: on a shared machine the wall clock
	// counts the time other processes hold the core.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := cputime.Thread()
	for b.Loop() {
		g := puzzles[i]
		if i++; i == len(puzzles) {
			i = 0
		}
		if limit == 1 {
			if err := sv.SolveInto(dst, g); err != nil {
				b.Fatal(err)
			}
		} else if n, err := sv.Count(g, limit); err != nil || n != 1 {
			b.Fatalf("puzzle %v: %d solutions, %v", g, n, err)
		}
	}
	cpu := cputime.Thread() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
	if cpu > 0 && cpu0 > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "puzzles/cpu-s")
	}
	b.ReportMetric(float64(sv.Stats().Nodes)/float64(b.N), "nodes/puzzle")
	b.ReportMetric(float64(sv.Stats().Updates)/float64(b.N), "updates/puzzle")
}

func BenchmarkSolve17Clue(b *testing.B) {
	benchSolve(b, loadPuzzles(b, testenv.Shared(b, "puzzles/17-clue.txt")), 1)
}

func BenchmarkUnique17Clue(b *testing.B) {
	benchSolve(b, loadPuzzles(b, testenv.Shared(b, "puzzles/17-clue.txt")), 2)
}

func BenchmarkTop95(b *testing.B) {
	benchSolve(b, loadPuzzles(b, testenv.Shared(b, "puzzles/top95.txt")), 1)
}

// benchGenerated solves the committed generated puzzles of one size; they
// are in the repository, so this needs no ../shared.
func benchGenerated(b *testing.B, name string) {
	path := filepath.Join("..", "testdata", "puzzles", name)
	if _, err := os.Stat(path); err != nil {
		b.Fatalf("%s is committed but absent: %v", path, err)
	}
	benchSolve(b, loadPuzzles(b, path), 1)
}

func BenchmarkGenerated16(b *testing.B) { benchGenerated(b, "gen16.txt") }

func BenchmarkGenerated25(b *testing.B) { benchGenerated(b, "gen25.txt") }

// BenchmarkGenerate9 makes minimal 9x9 puzzles (new seed each time).
func BenchmarkGenerate9(b *testing.B) {
	seed := int64(0)
	for b.Loop() {
		seed++
		if _, err := Generate(Shape{3, 3}, seed, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
}

// benchBits is benchSolve with the bit-parallel engine (NewSolver's for
// 9×9); its nodes/puzzle are propagations and updates/puzzle guesses.
func benchBits(b *testing.B, rel string, limit int) {
	puzzles := loadPuzzles(b, testenv.Shared(b, rel))
	sv, err := NewSolver(puzzles[0].Shape)
	if err != nil {
		b.Fatal(err)
	}
	if sv.Engine() != "bits" {
		b.Fatalf("engine %s, want bits", sv.Engine())
	}
	benchWith(b, sv, puzzles, limit)
}

func BenchmarkBitsSolve17Clue(b *testing.B)  { benchBits(b, "puzzles/17-clue.txt", 1) }
func BenchmarkBitsUnique17Clue(b *testing.B) { benchBits(b, "puzzles/17-clue.txt", 2) }
func BenchmarkBitsTop95(b *testing.B)        { benchBits(b, "puzzles/top95.txt", 1) }
func BenchmarkBitsUniqueTop95(b *testing.B)  { benchBits(b, "puzzles/top95.txt", 2) }
