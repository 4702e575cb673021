package logic_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestAdviceHouse walks the solution paths of real puzzles and checks that
// every single's nudge names the house its sentence proves it in, and that
// every nudge names the technique.
func TestAdviceHouse(t *testing.T) {
	within := regexp.MustCompile(`within ((?:box|row|column) \d+)$|last empty cell in ((?:box|row|column) \d+)`)
	for _, line := range []string{
		"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
		"2...8...3..7...4...38.4.76....651....1.....8.4.......95..924..6...376....9.....4.",
		".7..362.5.....819.....5..8..5....92....3.7....87....3..6..4.....297.....5.468..7.",
	} {
		p, err := sudoku.ParseLine(line, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, steps, err := logic.SolveSteps(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		advice, err := logic.AdviceFor(p, steps)
		if err != nil {
			t.Fatal(err)
		}
		singles := 0
		for i, a := range advice {
			if !strings.Contains(a.Nudge, strings.ToLower(a.Technique)) {
				t.Errorf("%s step %d: nudge %q does not name %q", line[:9], i+1, a.Nudge, a.Technique)
			}
			if m := within.FindStringSubmatch(a.Sentence); m != nil {
				singles++
				want := m[1] + m[2]
				if a.House != want || !strings.HasSuffix(a.Nudge, " in "+want) {
					t.Errorf("%s step %d %q: house %q, nudge %q; want %q", line[:9], i+1, a.Sentence, a.House, a.Nudge, want)
				}
			}
		}
		if singles == 0 {
			t.Errorf("%s: no single in %d steps", line[:9], len(advice))
		}
	}
}

// TestAdvise: a wrong entry comes first, then the next step with its
// nudge; a solved grid is ErrSolved.
func TestAdvise(t *testing.T) {
	p, _ := sudoku.ParseLine("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", nil)
	cur := p.Clone()
	cur.Cells[2] = 9
	a, err := logic.Advise(context.Background(), p, cur)
	if err != nil || len(a.Wrong) != 1 || a.Wrong[0] != 2 || a.House != "box 1" {
		t.Errorf("wrong entry: %+v, %v", a, err)
	}
	cur.Cells[2] = 0
	a, err = logic.Advise(context.Background(), p, cur)
	if err != nil || a.Nudge != "There is a hidden single in box 2" || len(a.Placements) != 1 {
		t.Errorf("next step: %+v, %v", a, err)
	}
	sol, _ := sudoku.Solve(p)
	if _, err := logic.Advise(context.Background(), p, sol); err != logic.ErrSolved {
		t.Errorf("solved grid: %v, want ErrSolved", err)
	}
}
