package kakuro

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
)

// TestGenerate makes small puzzles of every level and checks what Generate
// promises: one solution, the level asked, 180-degree symmetry, the size,
// runs of 2 to 9 cells (or MaxRun), and the same puzzle again from the same
// seed.
func TestGenerate(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		level      Level
		seed       uint64
		maxRun     int
	}{
		{5, 5, Easy, 1, 0}, {5, 5, Medium, 2, 0}, {6, 7, Easy, 3, 0}, {7, 7, Medium, 4, 0},
		{9, 9, Easy, 5, 0}, {8, 8, Hard, 6, 0}, {10, 10, Medium, 8, 5},
	} {
		name := fmt.Sprintf("%dx%d-%v-%d", c.rows, c.cols, c.level, c.seed)
		t.Run(name, func(t *testing.T) {
			opt := GenerateOptions{Rows: c.rows, Cols: c.cols, Level: c.level, Seed: c.seed, MaxRun: c.maxRun}
			maxRun := c.maxRun
			if maxRun == 0 {
				maxRun = 9
			}
			sol, r, err := Generate(opt)
			if err != nil {
				t.Fatal(err)
			}
			if sol.Rows != c.rows+1 || sol.Cols != c.cols+1 || !sol.Filled() {
				t.Fatalf("board %dx%d filled %v", sol.Rows, sol.Cols, sol.Filled())
			}
			if err := checkSolution(sol); err != nil {
				t.Fatal(err)
			}
			puzzle := sol.Blank()
			s, err := NewSolver(puzzle)
			if err != nil {
				t.Fatal(err)
			}
			if res := s.Count(2); res.Count != 1 || res.Solutions[0].String() != sol.String() {
				t.Fatalf("%d solutions", res.Count)
			}
			if r2, err := Rate(puzzle); err != nil || r2.Level != c.level || r.Level != c.level {
				t.Fatalf("rated %v / %v (%v), want %v", r, r2, err, c.level)
			}
			for i, cell := range puzzle.Cells {
				row, col := i/puzzle.Cols, i%puzzle.Cols
				if row == 0 || col == 0 {
					if cell.White {
						t.Fatalf("white cell in the clue row or column at %d,%d", row, col)
					}
					continue
				}
				mirror := puzzle.At(puzzle.Rows-row, puzzle.Cols-col)
				if cell.White != mirror.White {
					t.Fatalf("shape not symmetric at %d,%d", row, col)
				}
			}
			for _, run := range puzzle.Runs() {
				if len(run.Cells) < 2 || len(run.Cells) > maxRun {
					t.Fatalf("%s has %d cells", run.Name(puzzle.Cols), len(run.Cells))
				}
			}
			again, _, err := Generate(opt)
			if err != nil || again.String() != sol.String() {
				t.Fatalf("same seed, another puzzle (%v)", err)
			}
		})
	}
	if _, _, err := Generate(GenerateOptions{Rows: 9, Cols: 9, Level: Expert + 1}); err == nil {
		t.Error("a level beyond expert was accepted")
	}
	if _, _, err := Generate(GenerateOptions{Rows: 9, Cols: 9, MaxRun: 10}); err == nil {
		t.Error("runs of 10 were accepted")
	}
	if _, _, err := Generate(GenerateOptions{Rows: 2, Cols: 9}); err == nil {
		t.Error("a 2-row play area was accepted")
	}
}

// BenchmarkGenerate makes puzzles of each size and level from seeds 1..n
// and reports the median and slowest time per puzzle (wall and CPU of the
// benchmark's thread). One iteration is the whole set:
//
//	go test -run '^$' -bench Generate -benchtime 1x -timeout 1h ./kakuro
func BenchmarkGenerate(b *testing.B) {
	for _, c := range []struct {
		n     int
		level Level
		seeds int
	}{
		{5, Easy, 11}, {5, Medium, 11},
		{9, Easy, 11}, {9, Medium, 11}, {9, Hard, 11},
		{15, Medium, 11}, {15, Hard, 11},
	} {
		b.Run(fmt.Sprintf("%dx%d-%v", c.n, c.n, c.level), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var wall, cpu []float64
			fails := 0
			for b.Loop() {
				wall, cpu, fails = wall[:0], cpu[:0], 0
				for seed := 1; seed <= c.seeds; seed++ {
					t0, c0 := time.Now(), cputime.Thread()
					_, _, err := Generate(GenerateOptions{Rows: c.n, Cols: c.n, Level: c.level, Seed: uint64(seed)})
					if err != nil {
						fails++
					}
					wall = append(wall, time.Since(t0).Seconds())
					cpu = append(cpu, (cputime.Thread() - c0).Seconds())
				}
			}
			slices.Sort(wall)
			slices.Sort(cpu)
			b.ReportMetric(wall[len(wall)/2], "median-s")
			b.ReportMetric(wall[len(wall)-1], "max-s")
			b.ReportMetric(cpu[len(cpu)/2], "median-cpu-s")
			b.ReportMetric(float64(fails), "failed")
		})
	}
}
