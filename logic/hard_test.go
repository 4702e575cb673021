package logic

import (
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
)

// The hardest known puzzles: the forum's ph1910 list
// (../shared/puzzles/hardest/ph1910-500.txt) and Easter Monster, with
// Sudoku Explainer's ratings (SukakuExplainer's serate, single-threaded):
// ../shared/puzzles/hardest/se-ratings-sample.txt and our own run in
// testdata/se-hardest.txt (its header gives the command).

// TestHardestRated rates a few of the hardest known puzzles and checks that
// each is solved by logic, that every step is sound against the solution,
// and that ER, EP and ED are Sudoku Explainer's.
func TestHardestRated(t *testing.T) {
	cases := []struct {
		puzzle     string
		er, ep, ed float64 // Sudoku Explainer's; 0: not known
	}{
		// se-ratings-sample.txt, lines 6, 14 and 1.
		{"9..8..7...8..7..6...7..5...4...5..3..2.4..9.......1..62...3.....9...2.1...47..2..", 10.4, 10.4, 10.4},
		{"98.7.......6.5.7.......6.9.4....5.....76...5.....3.4.22....1..3.1.........95...8.", 10.4, 10.4, 10.4},
		{"9..8..7...8..6..5...4.....83...7.5...2...3.....14....9.3...2.....71..4......5..6.", 10.6, 10.6, 10.5},
		// Easter Monster: SE 11.6 (the forum's figure; EP and ED not given).
		{"1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1", 11.6, 0, 0},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		p := mustParse(t, c.puzzle)
		r, err := Rate(p)
		if err != nil {
			t.Fatalf("%s: %v", c.puzzle, err)
		}
		_, sol := uniqueGrid(t, c.puzzle)
		if err := CheckSteps(p, r.Steps, sol); err != nil {
			t.Fatalf("%s: %v", c.puzzle, err)
		}
		for _, f := range []struct {
			name      string
			got, want float64
		}{{"ER", r.SE, c.er}, {"EP", r.EP, c.ep}, {"ED", r.ED, c.ed}} {
			if f.want != 0 && round1(f.got) != f.want {
				t.Errorf("%s: %s %.1f, Sudoku Explainer %.1f (hardest: %s)", c.puzzle, f.name, f.got, f.want, r.Hardest)
			}
		}
	}
}

// BenchmarkHardest rates the puzzles of the Sudoku Explainer samples of
// ph1910 (../shared/puzzles/hardest/se-ratings-sample.txt and
// testdata/se-hardest.txt), one op being all of them, and reports the
// median and largest thread CPU time per puzzle and how many ratings are
// within 0.3 of Sudoku Explainer's:
//
//	GOMAXPROCS=1 go test ./logic -run '^$' -bench Hardest -benchtime 1x
func BenchmarkHardest(b *testing.B) {
	puzzles := readRated(b, "puzzles/hardest/se-ratings-sample.txt")
	puzzles = append(puzzles, readRatedFile(b, "testdata/se-hardest.txt")...)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var times []time.Duration
	near := 0
	for i := 0; i < b.N; i++ {
		times, near = times[:0], 0
		for _, rp := range puzzles {
			t0 := cputime.Thread()
			r, err := Rate(rp.grid)
			times = append(times, cputime.Thread()-t0)
			if err != nil {
				b.Fatalf("%s: %v", rp.line, err)
			}
			if d := round1(r.SE) - rp.rating; d <= 0.3+1e-9 && d >= -0.3-1e-9 {
				near++
			}
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(times[len(times)/2].Seconds(), "median-s/puzzle")
	b.ReportMetric(times[len(times)-1].Seconds(), "max-s/puzzle")
	b.ReportMetric(float64(near)/float64(len(puzzles)), "within0.3")
}

// TestNestedDynamicLevel runs Sudoku Explainer's level 4 (dynamic forcing
// chains nested in dynamic forcing chains), which no puzzle of the samples
// reaches, on Easter Monster's start: it finds a sound step, rated at least
// its base 10.5 plus a length bonus for the nested chains.
func TestNestedDynamicLevel(t *testing.T) {
	g, sol := uniqueGrid(t, "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1")
	s, ok := techNested40.Find(g)
	if !ok {
		t.Fatal("level 4 found nothing on Easter Monster")
	}
	checkStep(t, s, sol)
	if s.Rating <= 10.5 || s.Technique != "Dynamic contradiction forcing chains (+ dynamic forcing chains)" {
		t.Errorf("%.1f %s", s.Rating, s.Technique)
	}
}
