package logic

import (
	"fmt"
	"os"
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
	var times []time.Duration
	stuck := 0
	start := time.Now()
	for _, p := range ps {
		t0 := time.Now()
		r, err := Rate(p.grid)
		times = append(times, time.Since(t0))
		if err != nil {
			stuck++
			fmt.Fprintf(f, "%s x %.1f %v\n", p.line, p.rating, err)
			continue
		}
		fmt.Fprintf(f, "%s %.1f %.1f %s\n", p.line, r.SE, p.rating, r.Hardest)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	t.Logf("%d puzzles, %d unrated, total %v, median %v, p99 %v, max %v", len(ps), stuck, time.Since(start),
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
