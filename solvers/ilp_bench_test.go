package solvers

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/ilp"
	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/sudoku"
)

// The ILP figures of the README. Each benchmark iteration solves a whole
// set once, one puzzle at a time on one thread; each puzzle's time is the
// best over the iterations (run with -benchtime Nx), and the benchmark
// reports the median and the maximum over the set, in wall-clock ms and in
// CPU ms of the solving thread (GLPK included): on a shared machine the
// CPU figures are the steadier ones. Every answer is checked.
//
//	go test ./solvers -run '^$' -bench 'ILP' -benchtime 5x -count 3
//
// The 25x25 set takes a per-puzzle limit (SUDOKUAR_ILP_LIMIT, a Go
// duration, default 2s: the target) and reports how many it solved.

// setTimes is what benchILP measured for one set.
type setTimes struct {
	wall, cpu []time.Duration // best per puzzle
	solved    int
	nodes     uint64
}

// solveFunc solves one puzzle, returning its solution and GLPK's nodes.
type solveFunc func(ctx context.Context, g sudoku.Grid) (sudoku.Grid, uint64, error)

func benchILP(b *testing.B, puzzles []sudoku.Grid, limit time.Duration, solve solveFunc) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t := setTimes{wall: make([]time.Duration, len(puzzles)), cpu: make([]time.Duration, len(puzzles))}
	for k := range puzzles {
		t.wall[k], t.cpu[k] = time.Duration(1<<62), time.Duration(1<<62)
	}
	for b.Loop() {
		t.solved, t.nodes = 0, 0
		for k, g := range puzzles {
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			c0, w0 := cputime.Thread(), time.Now()
			sol, nodes, err := solve(ctx, g)
			w, c := time.Since(w0), cputime.Thread()-c0
			cancel()
			t.nodes += nodes
			var te *TimeoutError
			switch {
			case errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ilp.ErrTimeLimit):
				continue // stays at the "unsolved" sentinel
			case err != nil:
				b.Fatalf("puzzle %d: %v", k+1, err)
			}
			if err := Check(g, sol); err != nil {
				b.Fatalf("puzzle %d: %v", k+1, err)
			}
			t.solved++
			t.wall[k], t.cpu[k] = min(t.wall[k], w), min(t.cpu[k], c)
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	report := func(ds []time.Duration, unit string) {
		s := slices.Clone(ds)
		slices.Sort(s)
		if s[len(s)/2] < 1<<62 {
			b.ReportMetric(ms(s[len(s)/2]), "median-"+unit)
		}
		if s[len(s)-1] < 1<<62 {
			b.ReportMetric(ms(s[len(s)-1]), "max-"+unit)
		}
	}
	report(t.wall, "ms")
	if cputime.Thread() > 0 {
		report(t.cpu, "cpu-ms")
	}
	b.ReportMetric(float64(t.solved), "solved")
	b.ReportMetric(float64(len(puzzles)), "puzzles")
	b.ReportMetric(float64(t.nodes)/float64(len(puzzles)), "glpk-nodes/puzzle")
}

// withLevel solves with an ILP reducing at the given level.
func withLevel(level int, unique bool) solveFunc {
	s := NewILP()
	s.level = level
	return func(ctx context.Context, g sudoku.Grid) (sudoku.Grid, uint64, error) {
		var res Result
		var err error
		if unique {
			res, _, err = s.Unique(ctx, g)
		} else {
			res, err = s.Solve(ctx, g)
		}
		return res.Solution, res.Stats.Nodes, err
	}
}

// plain solves the unreduced model: a binary for every cell and digit,
// the givens fixed by constraints, GLPK's default search. It is the
// baseline the reductions are measured against.
func plain(ctx context.Context, g sudoku.Grid) (sudoku.Grid, uint64, error) {
	u := newUnits(g.Shape)
	n := u.n
	var m ilp.Model
	x := make([]ilp.Var, n*n*n) // x[cell*n + digit-1]
	for i := range x {
		x[i] = m.Binary()
	}
	for i := 0; i < n*n; i++ {
		m.Add(ilp.Sum(x[i*n:(i+1)*n]...), ilp.EQ, 1)
		if v := g.Cells[i]; v != 0 {
			m.Add(ilp.Sum(x[i*n+v-1]), ilp.EQ, 1)
		}
	}
	vars := make([]ilp.Var, n)
	for _, cells := range u.cells {
		for d := 0; d < n; d++ {
			for k, i := range cells {
				vars[k] = x[int(i)*n+d]
			}
			m.Add(ilp.Sum(vars...), ilp.EQ, 1)
		}
	}
	sol, err := m.Solve(ctx, ilp.Options{})
	if err != nil {
		return sudoku.Grid{}, 0, err
	}
	if sol.Status != ilp.Optimal {
		return sudoku.Grid{}, 0, sudoku.ErrNoSolution
	}
	out := sudoku.NewGrid(g.Shape)
	for i := range out.Cells {
		for d := 0; d < n; d++ {
			if sol.Int(x[i*n+d]) == 1 {
				out.Cells[i] = d + 1
			}
		}
	}
	return out, uint64(sol.Nodes), nil
}

// limit25 is the per-puzzle limit for the 25x25 set.
func limit25(b *testing.B) time.Duration {
	if s := os.Getenv("SUDOKUAR_ILP_LIMIT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatalf("SUDOKUAR_ILP_LIMIT=%q: %v", s, err)
		}
		return d
	}
	return 2 * time.Second
}

// generated reads a committed set of generated puzzles (no ../shared).
func generated(b *testing.B, name string) []sudoku.Grid {
	b.Helper()
	path := filepath.Join("..", "testdata", "puzzles", name)
	if _, err := os.Stat(path); err != nil {
		b.Fatalf("%s is committed but absent: %v", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("SUDOKUAR_SHARED", filepath.Dir(filepath.Dir(abs)))
	return loadSet(b, filepath.Join("puzzles", name), 0)
}

const minute = time.Minute

func BenchmarkILPTop95(b *testing.B) {
	benchILP(b, loadSet(b, "puzzles/top95.txt", 0), minute, withLevel(reduceProbe, false))
}

func BenchmarkILPTop95Unique(b *testing.B) {
	benchILP(b, loadSet(b, "puzzles/top95.txt", 0), minute, withLevel(reduceProbe, true))
}

func BenchmarkILPTop95SinglesOnly(b *testing.B) {
	benchILP(b, loadSet(b, "puzzles/top95.txt", 0), minute, withLevel(reduceSingles, false))
}

func BenchmarkILPTop95Plain(b *testing.B) {
	benchILP(b, loadSet(b, "puzzles/top95.txt", 0), minute, plain)
}

func BenchmarkILP16x16(b *testing.B) {
	benchILP(b, loadSet(b, "puzzles/large/gecode_16x16.txt", 0), minute, withLevel(reduceProbe, false))
}

func BenchmarkILP16x16Plain(b *testing.B) {
	benchILP(b, loadSet(b, "puzzles/large/gecode_16x16.txt", 0), minute, plain)
}

func BenchmarkILP25x25(b *testing.B) {
	benchILP(b, loadSet(b, "puzzles/large/gecode_25x25.txt", 0), limit25(b), withLevel(reduceProbe, false))
}

// The project's own generated puzzles (testdata/puzzles), harder for the
// reduction than the Gecode 16x16 set, proven unique as the generator and
// the console need.
func BenchmarkILPGenerated16Unique(b *testing.B) {
	benchILP(b, generated(b, "gen16.txt"), minute, withLevel(reduceProbe, true))
}

func BenchmarkILPGenerated25(b *testing.B) {
	benchILP(b, generated(b, "gen25.txt"), limit25(b), withLevel(reduceProbe, false))
}

func BenchmarkILP25x25Plain(b *testing.B) {
	benchILP(b, loadSet(b, "puzzles/large/gecode_25x25.txt", 0), limit25(b), plain)
}
