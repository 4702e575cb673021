//go:build explore

// The exploration tools of the logic engine: development aids that print
// tables and examples rather than assert anything, so they are not part of
// `go test ./...`. Run one with the build tag and the variable it names:
//
//	LOGIC_TABLE=1 go test -tags explore -run TestTableCandidates -v ./logic
//
// TestExplore (LOGIC_EXPLORE=file), TestFindExamples (LOGIC_EXAMPLES=1),
// TestTableCandidates (LOGIC_TABLE=1), TestTrace (LOGIC_PUZZLE),
// TestDebugAt (LOGIC_PUZZLE, LOGIC_AFTER, LOGIC_TECH), TestTechniqueTimes
// (LOGIC_TIMES=1), TestSeventeen (LOGIC_17=count), TestHintPathAll
// (LOGIC_HINTALL=1), TestGeneratorRates (LOGIC_GEN=count).

package logic

import (
	"context"
	"fmt"
	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/sudoku"
	"math"
	"os"
	"runtime"
	"sort"
	"testing"
	"time"
)

// TestExplore rates the calibration file with whatever techniques exist and
// writes `puzzle ours se hardest` lines to $LOGIC_EXPLORE (a development aid).
func TestExplore(t *testing.T) {
	out := os.Getenv("LOGIC_EXPLORE")
	if out == "" {
		t.Skip("set LOGIC_EXPLORE=file to run")
	}
	ps := readRated(t, "puzzles/rated/se-sudoku-exchange.txt")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var times []time.Duration
	stuck := 0
	start := cputime.Thread()
	for _, p := range ps {
		t0 := cputime.Thread()
		r, err := Rate(p.grid)
		times = append(times, cputime.Thread()-t0)
		if err != nil {
			stuck++
			fmt.Fprintf(f, "%s x %.1f %v\n", p.line, p.rating, err)
			continue
		}
		fmt.Fprintf(f, "%s %.1f %.1f %s\n", p.line, r.SE, p.rating, r.Hardest)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	t.Logf("%d puzzles, %d unrated, CPU total %v, median %v, p99 %v, max %v", len(ps), stuck, cputime.Thread()-start,
		times[len(times)/2], times[len(times)*99/100], times[len(times)-1])
}

// TestFindExamples prints, for each technique in rating order, the first
// calibration puzzles whose rating path uses it (a development aid to pick
// table-test puzzles): LOGIC_EXAMPLES=1.
func TestFindExamples(t *testing.T) {
	if os.Getenv("LOGIC_EXAMPLES") == "" {
		t.Skip("set LOGIC_EXAMPLES=1 to run")
	}
	ps := readRated(t, "puzzles/rated/se-sudoku-exchange.txt")
	seen := map[string]int{}
	for _, p := range ps {
		r, err := Rate(p.grid)
		if err != nil {
			continue
		}
		for _, s := range r.Steps {
			if seen[s.Technique] < 2 {
				seen[s.Technique]++
				fmt.Printf("%-22s %s %.1f | %s\n", s.Technique, p.line, p.rating, s.Text)
			}
		}
	}
}

// TestTableCandidates prints table-test rows: for each technique of the
// rating order, the first calibration puzzle whose rating path uses it (with
// the step's sentence) and the first whose initial grid it finds nothing in.
// LOGIC_TABLE=1.
func TestTableCandidates(t *testing.T) {
	if os.Getenv("LOGIC_TABLE") == "" {
		t.Skip("set LOGIC_TABLE=1 to run")
	}
	ps := readRated(t, "puzzles/rated/se-sudoku-exchange.txt")
	for _, tech := range append(RatingTechniques(), Techniques()...) {
		fires, not := "", ""
		var text string
		for _, p := range ps {
			if not == "" {
				g, _ := NewGrid(p.grid)
				g.unique = true
				if _, ok := tech.Find(g); !ok {
					not = p.line
				}
			}
			if fires == "" {
				g, _ := NewGrid(p.grid)
				g.unique = true
				for i := 0; i < 400 && !g.Solved(); i++ {
					if s, ok := tech.Find(g); ok {
						fires, text = p.line, s.Text
						// advance: i steps of the rating order
						fmt.Printf("\t{%q, %q, %d, %q, %q},\n", tech.Name, p.line, i, s.Text, "")
						break
					}
					s, ok := nextStep(g, rateOrder)
					if !ok {
						break
					}
					g.Apply(s)
				}
			}
			if fires != "" && not != "" {
				break
			}
		}
		_ = text
		fmt.Printf("\t// not %q: %q\n", tech.Name, not)
	}
}

// TestTrace prints the rating path of $LOGIC_PUZZLE.
func TestTrace(t *testing.T) {
	p := os.Getenv("LOGIC_PUZZLE")
	if p == "" {
		t.Skip("set LOGIC_PUZZLE")
	}
	r, err := Rate(mustParse(t, p))
	for i, s := range r.Steps {
		fmt.Printf("%3d %.1f %s\n", i+1, s.Rating, s.Text)
	}
	fmt.Println(r.SE, r.Hardest, err)
}

// TestDebugAt applies $LOGIC_AFTER rating steps to $LOGIC_PUZZLE, prints
// the candidates and what technique $LOGIC_TECH finds.
func TestDebugAt(t *testing.T) {
	p, tech := os.Getenv("LOGIC_PUZZLE"), os.Getenv("LOGIC_TECH")
	if p == "" || tech == "" {
		t.Skip("set LOGIC_PUZZLE, LOGIC_AFTER, LOGIC_TECH")
	}
	after := 0
	fmt.Sscan(os.Getenv("LOGIC_AFTER"), &after)
	g, _ := uniqueGrid(t, p)
	for i := 0; i < after; i++ {
		s, ok := nextStep(g, rateOrder)
		if !ok {
			break
		}
		g.Apply(s)
	}
	for r := 0; r < 9; r++ {
		for c := 0; c < 9; c++ {
			i := r*9 + c
			if g.value[i] != 0 {
				fmt.Printf("%-10d", g.value[i])
			} else {
				s := ""
				for _, d := range g.cand[i].digits() {
					s += fmt.Sprint(d)
				}
				fmt.Printf("%-10s", "."+s)
			}
		}
		fmt.Println()
	}
	tt, _ := TechniqueByName(tech)
	s, ok := tt.Find(g)
	fmt.Println(ok, s.Rating, s.Text)
}

// TestTechniqueTimes reports, over the hard calibration puzzles, the time
// each rating technique spends (LOGIC_TIMES=1).
func TestTechniqueTimes(t *testing.T) {
	if os.Getenv("LOGIC_TIMES") == "" {
		t.Skip("set LOGIC_TIMES=1")
	}
	ps := readRated(t, "puzzles/rated/se-sudoku-exchange.txt")
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	spent := make([]time.Duration, len(rateOrder))
	calls := make([]int, len(rateOrder))
	fired := make([]int, len(rateOrder))
	lo, hi := 6.5, 99.0
	fmt.Sscan(os.Getenv("LOGIC_TIMES"), &lo, &hi)
	n := 0
	for _, p := range ps {
		if p.rating < lo || p.rating >= hi {
			continue
		}
		n++
		if n > 150 {
			break
		}
		g, _ := uniqueGrid(t, p.line)
		for !g.Solved() {
			ok := false
			for i, tech := range rateOrder {
				t0 := cputime.Thread()
				s, f := tech.find(g)
				spent[i] += cputime.Thread() - t0
				calls[i]++
				if f {
					fired[i]++
					g.Apply(s)
					ok = true
					break
				}
			}
			if !ok {
				break
			}
		}
	}
	var total time.Duration
	for _, d := range spent {
		total += d
	}
	for i, tech := range rateOrder {
		fmt.Printf("%-32s %8v %5.1f%% calls %6d fired %5d  per call %v\n", tech.Name, spent[i].Round(time.Millisecond), 100*float64(spent[i])/float64(total), calls[i], fired[i], (spent[i] / time.Duration(calls[i]+1)).Round(time.Microsecond))
	}
	fmt.Println("total", total, "puzzles", n-1)
}

// TestSeventeen rates the first $LOGIC_17 puzzles of 17-clue.txt, checking
// every step against the solution (a development aid; the sweep itself is
// a benchmark).
func TestSeventeen(t *testing.T) {
	limit := 0
	fmt.Sscan(os.Getenv("LOGIC_17"), &limit)
	if limit == 0 {
		t.Skip("set LOGIC_17=count")
	}
	ps := readRated(t, "puzzles/17-clue.txt")
	if limit > len(ps) {
		limit = len(ps)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := cputime.Thread()
	hist := map[float64]int{}
	var worst time.Duration
	for _, p := range ps[:limit] {
		t0 := cputime.Thread()
		g, sol, err := prepare(p.grid)
		if err != nil {
			t.Fatalf("%s: %v", p.line, err)
		}
		r, err := rateGrid(context.Background(), g, true)
		if err != nil {
			t.Errorf("%s: %v", p.line, err)
			continue
		}
		if d := cputime.Thread() - t0; d > worst {
			worst = d
		}
		g2, _ := NewGrid(p.grid)
		for _, s := range r.Steps {
			checkStep(t, s, sol)
			g2.Apply(s)
		}
		hist[math.Floor(r.SE)]++
	}
	t.Logf("%d puzzles, CPU %v, worst %v, by SE: %v", limit, cputime.Thread()-start, worst, hist)
}

// TestHintPathAll solves every calibration puzzle in hint order, checking
// each step against the solution (LOGIC_HINTALL=1).
func TestHintPathAll(t *testing.T) {
	if os.Getenv("LOGIC_HINTALL") == "" {
		t.Skip("set LOGIC_HINTALL=1")
	}
	ps := readRated(t, "puzzles/rated/se-sudoku-exchange.txt")
	used := map[string]int{}
	runtime.LockOSThread()
	start := cputime.Thread()
	for _, p := range ps {
		sol, steps, err := SolveSteps(context.Background(), p.grid)
		if err != nil {
			t.Fatalf("%s: %v", p.line, err)
		}
		want, _ := uniqueSolution(p.grid)
		if !sol.Equal(want) {
			t.Fatalf("%s: wrong solution", p.line)
		}
		for _, s := range steps {
			checkStep(t, s, want)
			used[s.Technique]++
		}
	}
	t.Logf("CPU %v; techniques used: %v", cputime.Thread()-start, used)
}

// TestGeneratorRates measures Generate per level on 9×9 ($LOGIC_GEN=count
// of puzzles per level): puzzles per CPU second and the median CPU time.
func TestGeneratorRates(t *testing.T) {
	count := 0
	fmt.Sscan(os.Getenv("LOGIC_GEN"), &count)
	if count == 0 {
		t.Skip("set LOGIC_GEN=count")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	shape := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	for _, l := range Levels {
		var ts []time.Duration
		var total time.Duration
		for seed := int64(0); seed < int64(count); seed++ {
			t0 := cputime.Thread()
			p, r, err := Generate(shape, l, 1000+seed, seed%2 == 0)
			d := cputime.Thread() - t0
			if err != nil || r.Level != l || sudoku.CountSolutions(p, 2) != 1 {
				t.Fatalf("%v seed %d: %v %v", l, seed, r.Level, err)
			}
			ts = append(ts, d)
			total += d
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
		t.Logf("%-8v %3d puzzles: %.1f/s, median %v, max %v", l, count, float64(count)/total.Seconds(), ts[len(ts)/2].Round(time.Millisecond), ts[len(ts)-1].Round(time.Millisecond))
	}
}
