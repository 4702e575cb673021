package logic

import (
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// The hardest known puzzles: the forum's ph1910 list
// (../shared/puzzles/hardest/ph1910-500.txt) and Easter Monster, with
// Sudoku Explainer's ratings (SukakuExplainer's serate, single-threaded):
// ../shared/puzzles/hardest/se-ratings-sample.txt and our own run in
// testdata/se-hardest.txt (by line of ph1910-500.txt; its header gives
// the command).

// TestHardestRated rates a few of the hardest known puzzles and checks that
// each is solved by logic, that every step is sound against the solution,
// and that ER, EP and ED are Sudoku Explainer's.
func TestHardestRated(t *testing.T) {
	sample := sharedLines(t, "puzzles/hardest/se-ratings-sample.txt")
	cases := []struct {
		puzzle     string
		er, ep, ed float64 // Sudoku Explainer's; 0: not known
	}{
		// se-ratings-sample.txt, lines 6, 14 and 1 (elements 5, 13, 0), with that file's ratings.
		{sample[5], 10.4, 10.4, 10.4},
		{sample[13], 10.4, 10.4, 10.4},
		{sample[0], 10.6, 10.6, 10.5},
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
	puzzles = append(puzzles, readHeldOut(b)...)
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

// sharedLines returns the first field (the puzzle) of every line of a
// file of ../shared, in order, comments included as they stand, so that
// line n is element n-1.
func sharedLines(t testing.TB, rel string) []string {
	t.Helper()
	b, err := os.ReadFile(testenv.Shared(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			out = append(out, "")
			continue
		}
		out = append(out, f[0])
	}
	return out
}

// readHeldOut reads testdata/se-hardest.txt (`LINE ER EP ED ELAPSED`, LINE
// a line of ../shared/puzzles/hardest/ph1910-500.txt) with each puzzle
// taken from that line.
func readHeldOut(t testing.TB) []ratedPuzzle {
	t.Helper()
	ph := sharedLines(t, "puzzles/hardest/ph1910-500.txt")
	b, err := os.ReadFile("testdata/se-hardest.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []ratedPuzzle
	for i, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 1 || n > len(ph) || len(f) < 2 {
			t.Fatalf("testdata/se-hardest.txt:%d: want LINE ER ..., a line of ph1910-500.txt (1..%d)", i+1, len(ph))
		}
		er, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			t.Fatalf("testdata/se-hardest.txt:%d: rating %q: %v", i+1, f[1], err)
		}
		g, err := sudoku.ParseLine(ph[n-1], nil)
		if err != nil {
			t.Fatalf("ph1910-500.txt:%d: %v", n, err)
		}
		out = append(out, ratedPuzzle{ph[n-1], g, er})
	}
	return out
}
