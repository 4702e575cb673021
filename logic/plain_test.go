package logic_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestPlainWords walks the solution paths of generated puzzles of every
// level and checks the plain words of every step: no rXcY, no technique's
// name, no formatting slip, and every cell the step places in or removes
// from named as people do (its row and its column both said).
func TestPlainWords(t *testing.T) {
	rc := regexp.MustCompile(`\br\d+c\d+\b`)
	shape := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	techniques := map[string]bool{}
	for _, lv := range []logic.Level{logic.Easy, logic.Medium, logic.Hard, logic.Expert, logic.Extreme} {
		for seed := int64(1); seed <= 4; seed++ {
			p, _, err := logic.Generate(shape, lv, seed, true)
			if err != nil {
				t.Fatalf("generate %v %d: %v", lv, seed, err)
			}
			_, steps, err := logic.SolveSteps(context.Background(), p)
			if err != nil && len(steps) == 0 {
				t.Fatalf("%v %d: %v", lv, seed, err)
			}
			advice, err := logic.AdviceFor(p, steps)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range advice {
				techniques[a.Technique] = true
				where := fmt.Sprintf("%v seed %d step %d (%s)", lv, seed, i+1, a.Technique)
				for _, text := range []string{a.PlainNudge, a.Plain} {
					switch {
					case text == "":
						t.Errorf("%s: empty plain words", where)
					case rc.MatchString(text):
						t.Errorf("%s: %q names a cell rXcY", where, text)
					case strings.Contains(strings.ToLower(text), strings.ToLower(a.Technique)):
						t.Errorf("%s: %q names the technique", where, text)
					case strings.Contains(text, "%!") || strings.Contains(text, "{d}"):
						t.Errorf("%s: %q has a formatting slip", where, text)
					}
				}
				// Every cell acted on is in the sentence: its row, and its
				// column, said (one at a time or in a list of its line).
				for _, c := range append(append([]logic.Candidate(nil), a.Placements...), a.Eliminations...) {
					r, col := fmt.Sprint(c.Cell/9+1), fmt.Sprint(c.Cell%9+1)
					if len(a.Eliminations) <= 8 && (!regexp.MustCompile(`(?i)row[s]? [0-9, and]*\b`+r+`\b`).MatchString(a.Plain) ||
						!regexp.MustCompile(`(?i)column[s]? [0-9, and]*\b`+col+`\b`).MatchString(a.Plain)) {
						t.Errorf("%s: %q does not name row %s, column %s", where, a.Plain, r, col)
					}
				}
			}
		}
	}
	if len(techniques) < 12 {
		t.Errorf("only %d techniques met: %v", len(techniques), techniques)
	}
	t.Logf("%d techniques put in plain words", len(techniques))
}

// TestPlainSingles: the three singles word as they should, cells named
// "row R, column C".
func TestPlainSingles(t *testing.T) {
	p, _ := sudoku.ParseLine("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", nil)
	_, steps, err := logic.SolveSteps(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	advice, _ := logic.AdviceFor(p, steps)
	want := map[string]*regexp.Regexp{
		"Hidden single": regexp.MustCompile(`^In (box|row|column) \d, \d fits in only one place: row \d, column \d$`),
		"Naked single":  regexp.MustCompile(`^Row \d, column \d can only be \d: its row, column and box hold every other digit$`),
		"Full house":    regexp.MustCompile(`^Row \d, column \d is the last empty cell of (box|row|column) \d: it takes the missing \d$`),
	}
	seen := map[string]bool{}
	for _, a := range advice {
		if re, ok := want[a.Technique]; ok {
			seen[a.Technique] = true
			if !re.MatchString(a.Plain) {
				t.Errorf("%s: %q", a.Technique, a.Plain)
			}
			if !strings.HasPrefix(a.PlainNudge, "Look at "+a.House+":") {
				t.Errorf("%s: nudge %q, house %q", a.Technique, a.PlainNudge, a.House)
			}
		}
	}
	if len(seen) < 2 {
		t.Errorf("singles met: %v", seen)
	}
}
