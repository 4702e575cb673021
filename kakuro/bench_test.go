package kakuro

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
)

// BenchmarkSolve times the fast solver on every published puzzle of
// ../shared/puzzles/kakuro: compile the board and count its solutions up
// to 2 (solve and prove unique), as `sudokuar kakuro solve` does after
// reading the file. One sub-benchmark per puzzle:
//
//	go test -run '^$' -bench 'Solve/' -count 3 ./kakuro
func BenchmarkSolve(b *testing.B) {
	for _, f := range sharedPuzzles(b) {
		board, err := ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		b.Run(name, func(b *testing.B) {
			var res Result
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0 := cputime.Thread()
			for b.Loop() {
				s, err := NewSolver(board)
				if err != nil {
					b.Fatal(err)
				}
				res = s.Count(2)
			}
			if res.Count != 1 {
				b.Fatalf("%d solutions", res.Count)
			}
			reportCPU(b, cpu0)
			b.ReportMetric(float64(res.Nodes), "nodes")
		})
	}
}

// BenchmarkSolveAll is the whole published set in one loop: the time to
// solve and prove unique all of it.
func BenchmarkSolveAll(b *testing.B) {
	var boards []*Board
	for _, f := range sharedPuzzles(b) {
		board, err := ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		boards = append(boards, board)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := cputime.Thread()
	for b.Loop() {
		for _, board := range boards {
			s, _ := NewSolver(board)
			if s.Count(2).Count != 1 {
				b.Fatal("not unique")
			}
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(len(boards)), "puzzles")
}

// reportCPU adds the benchmark goroutine's CPU time per operation (since
// cpu0), which the other jobs on a shared machine disturb far less than
// wall time.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if cpu := cputime.Thread() - cpu0; cpu > 0 && cpu0 > 0 {
		b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkSolveDLX is BenchmarkSolve with the exact-cover solver. Exact
// cover sees no sums until a combination row is chosen, so it needs
// minutes where propagation needs a millisecond: boards over 60 white
// cells are skipped unless KAKURO_DLX_ALL=1.
func BenchmarkSolveDLX(b *testing.B) {
	for _, f := range sharedPuzzles(b) {
		board, err := ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		b.Run(name, func(b *testing.B) {
			if len(board.Whites()) > 60 && os.Getenv("KAKURO_DLX_ALL") == "" {
				b.Skip("over 60 white cells; KAKURO_DLX_ALL=1 runs it")
			}
			var sols []*Board
			var nodes uint64
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0 := cputime.Thread()
			for b.Loop() {
				x, err := NewExactCover(board)
				if err != nil {
					b.Fatal(err)
				}
				sols, nodes = x.Solve(2)
			}
			if len(sols) != 1 {
				b.Fatalf("%d solutions", len(sols))
			}
			reportCPU(b, cpu0)
			b.ReportMetric(float64(nodes), "nodes")
		})
	}
}
