package logic

import (
	"fmt"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/sudoku"
)

// BenchmarkGenerate times Generate for every box shape the play pages offer
// and every level the shape reaches (MaxLevel), one puzzle per seed, half of
// them symmetric. Besides ns/op (the mean) it reports the median and worst
// CPU time of one puzzle and puzzles per CPU second; every puzzle is checked
// unique and inside its band. Run with
//
//	go test -run '^$' -bench Generate -benchtime 20x ./logic
//
// (a sub-benchmark such as -bench 'Generate/9x9/extreme' picks one pair).
func BenchmarkGenerate(b *testing.B) {
	for _, s := range []sudoku.Shape{{BoxRows: 2, BoxCols: 2}, {BoxRows: 2, BoxCols: 3}, {BoxRows: 2, BoxCols: 4}, {BoxRows: 3, BoxCols: 3}, {BoxRows: 3, BoxCols: 4}, {BoxRows: 4, BoxCols: 4}} {
		for _, l := range Levels {
			if l > MaxLevel(s) {
				continue
			}
			b.Run(fmt.Sprintf("%dx%d/%v", s.N(), s.N(), l), func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var ts []time.Duration
				var total time.Duration
				for i := 0; i < b.N; i++ {
					t0 := cputime.Thread()
					p, r, err := Generate(s, l, int64(1000+i), i%2 == 0)
					d := cputime.Thread() - t0
					if err != nil {
						b.Fatalf("seed %d: %v", 1000+i, err)
					}
					if r.Level != l || sudoku.CountSolutions(p, 2) != 1 {
						b.Fatalf("seed %d: rated %.1f (%v), %d solutions", 1000+i, r.SE, r.Level, sudoku.CountSolutions(p, 2))
					}
					ts = append(ts, d)
					total += d
				}
				sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
				b.ReportMetric(float64(ts[len(ts)/2])/1e6, "median-cpu-ms")
				b.ReportMetric(float64(ts[len(ts)-1])/1e6, "max-cpu-ms")
				b.ReportMetric(float64(len(ts))/total.Seconds(), "puzzles/cpu-s")
			})
		}
	}
}
