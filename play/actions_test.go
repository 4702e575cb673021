package play

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// newToy is a toy game on a fresh board of puzzle (toySolution's
// 4×4), started at t0, with limit as its mistake limit (mistakes shown).
func newToy(t *testing.T, puzzle string, limit int) *toy {
	t.Helper()
	shape := sudoku.Shape{BoxRows: 2, BoxCols: 2}
	p, err := sudoku.ParseCellGrid(shape, puzzle)
	if err != nil {
		t.Fatal(err)
	}
	fixed := make([]bool, len(p.Cells))
	for i, v := range p.Cells {
		fixed[i] = v != 0
	}
	gm, err := game.FromGrid(p, fixed)
	if err != nil {
		t.Fatal(err)
	}
	sol, _ := sudoku.ParseCellGrid(shape, toySolution)
	g := &toy{rec: store.Game{Status: store.StatusPlaying, Created: t0}, gm: gm, sol: sol.Cells}
	if limit > 0 {
		g.st.MistakeLimit, g.st.ShowErrors = limit, true
	}
	return g
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// step is one action of a scenario and what must hold after it.
type step struct {
	rule   Rule
	cell   int // -1: none
	value  int
	kind   ErrorKind // the refusal wanted, with refused
	refuse bool
	check  func(g *toy, f Found) string // "" when all is well
}

func cv(c, v int) (a Args) { return Args{Cell: &c, Value: &v} }

func runSteps(t *testing.T, g *toy, steps []step) {
	t.Helper()
	for i, s := range steps {
		a := Args{}
		if s.cell >= 0 {
			a = cv(s.cell, s.value)
		}
		f, err := s.rule(g, a, t0.Add(time.Duration(i+1)*time.Second))
		var pe *Error
		switch {
		case s.refuse && (!errors.As(err, &pe) || pe.Kind != s.kind):
			t.Fatalf("step %d: %v, want a refusal of kind %d", i, err, s.kind)
		case !s.refuse && err != nil:
			t.Fatalf("step %d: %v", i, err)
		}
		if s.check != nil {
			if msg := s.check(g, f); msg != "" {
				t.Fatalf("step %d: %s", i, msg)
			}
		}
	}
}

func mistakes(n int) func(g *toy, _ Found) string {
	return func(g *toy, _ Found) string {
		if got := g.st.Tally().Total(); got != n {
			return fmt.Sprintf("mistakes %d, want %d", got, n)
		}
		return ""
	}
}

func status(want string) func(g *toy, _ Found) string {
	return func(g *toy, _ Found) string {
		if g.rec.Status != want {
			return "status " + g.rec.Status + ", want " + want
		}
		return ""
	}
}

// TestActions plays the actions every kind shares on a real board, each
// scenario a player's sequence: a slip mended is no mistake, a wrong digit
// left is one, redo writes it again, the last right digit finishes, a
// mistake limit loses, and each refusal has its kind.
func TestActions(t *testing.T) {
	const open = "1234341221430000" // the last row empty: cells 12..15 take 4 3 2 1
	tests := []struct {
		name   string
		puzzle string
		limit  int
		steps  []step
	}{
		{"a slip mended", open, 0, []step{
			{rule: Move, cell: 12, value: 1, check: mistakes(1)}, // open: counted if it stays
			{rule: Move, cell: 12, value: 4, check: mistakes(0)},
		}},
		{"a wrong digit left", open, 0, []step{
			{rule: Move, cell: 12, value: 1},
			{rule: Move, cell: 13, value: 3, check: mistakes(1)},
			{rule: Move, cell: 13, value: 3, check: mistakes(1)}, // the same digit again: no move
			{rule: CheckEntries, cell: -1, check: func(g *toy, f Found) string {
				if !slices.Equal(f.Checked, []int{12}) || !g.st.Assisted {
					return "check did not find r4c1 or left the game ranked"
				}
				return ""
			}},
		}},
		{"undo and redo", open, 0, []step{
			{rule: Undo, cell: -1, refuse: true, kind: Conflict},
			{rule: Move, cell: 12, value: 2},
			{rule: Undo, cell: -1, check: mistakes(0)}, // undone at once: a slip
			{rule: Redo, cell: -1, check: mistakes(1)}, // written again
			{rule: Redo, cell: -1, refuse: true, kind: Conflict},
		}},
		{"finish", open, 0, []step{
			{rule: Name, cell: -1, refuse: true, kind: Conflict},
			{rule: Submit, cell: -1, refuse: true, kind: Conflict},
			{rule: Move, cell: 12, value: 4}, {rule: Move, cell: 13, value: 3}, {rule: Move, cell: 14, value: 2},
			{rule: Move, cell: 15, value: 1, check: func(g *toy, _ Found) string {
				if g.rec.Status != store.StatusSolved || g.st.ElapsedMs != 6000 || g.st.FinishedAt != t0.Add(6*time.Second).UnixMilli() {
					return "the last digit did not finish the game at its 6th second"
				}
				return ""
			}},
		}},
		{"a mistake limit", open, 2, []step{
			{rule: ToggleMistakes, cell: -1, refuse: true, kind: Bad},
			{rule: Move, cell: 12, value: 1, check: mistakes(1)}, // shown: counted at once
			{rule: Move, cell: 12, value: 4, check: mistakes(1)},
			{rule: Move, cell: 13, value: 4, check: status(store.StatusLost)},
		}},
		{"cells refused", open, 0, []step{
			{rule: Move, cell: 16, value: 1, refuse: true, kind: Bad},
			{rule: Move, cell: -1, refuse: true, kind: Bad}, // no cell sent
			{rule: Move, cell: 12, value: 5, refuse: true, kind: Bad},
			{rule: Move, cell: 0, value: 1, refuse: true, kind: Conflict}, // a given
			{rule: Mark, cell: 12, value: 0, refuse: true, kind: Bad},
		}},
		{"marks and candidates", open, 0, []step{
			{rule: Mark, cell: 12, value: 3, check: func(g *toy, _ Found) string {
				if !g.gm.Marks(3, 0).Has(3) {
					return "the mark is not there"
				}
				return ""
			}},
			{rule: FillCandidates, cell: -1, check: func(g *toy, _ Found) string {
				if m := g.gm.Marks(3, 0); !m.Has(4) || m.Count() != 1 || !slices.Contains(g.st.Used, Candidates) {
					return fmt.Sprintf("candidates of r4c1 %v, used %v", m.Values(), g.st.Used)
				}
				return ""
			}},
		}},
		{"a hint reveals", open, 0, []step{
			{rule: Move, cell: 14, value: 1},
			{rule: RevealCell, cell: -1, check: func(g *toy, f Found) string {
				if f.Revealed == nil || *f.Revealed != (Digit{Cell: 14, Digit: 2}) || g.st.Hints != 1 {
					return "the hint did not mend the wrong cell first"
				}
				return ""
			}},
			{rule: RevealCell, cell: -1, check: func(_ *toy, f Found) string {
				if *f.Revealed != (Digit{Cell: 12, Digit: 4}) {
					return "the second hint did not fill the first empty cell"
				}
				return ""
			}},
		}},
		{"given up", open, 0, []step{
			{rule: Move, cell: 12, value: 1},
			{rule: GiveUp, cell: -1, check: func(g *toy, _ Found) string {
				if g.rec.Status != store.StatusRevealed || g.st.Tally().Count != 1 {
					return "giving up did not end the game and count its slip"
				}
				return ""
			}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runSteps(t, newToy(t, tc.puzzle, tc.limit), tc.steps) })
	}
}

// TestHintStages: a new hint counts, its later stages are free while it
// is open, a move closes it, and its answer is played only on the board
// the engine saw.
func TestHintStages(t *testing.T) {
	g := newToy(t, "1234341221430000", 0)
	if err := OpenHint(g, 2); err == nil {
		t.Fatal("a pattern with no hint open")
	}
	for _, st := range []int{1, 2, 3} {
		if err := OpenHint(g, st); err != nil {
			t.Fatalf("stage %d: %v", st, err)
		}
	}
	if g.st.Hints != 1 || g.st.HintStages != 3 || g.st.HintStage != 0 {
		t.Fatalf("hints %d, stages %d, open %d", g.st.Hints, g.st.HintStages, g.st.HintStage)
	}
	seen := Entries(g)
	adv := logic.Advice{Placements: []logic.Candidate{{Cell: 12, Digit: 4}}}
	if _, err := Move(g, cv(13, 3), t0); err != nil {
		t.Fatal(err)
	}
	if err := PlayAdvice(g, seen, adv, t0); err == nil {
		t.Fatal("an answer played on a board that changed")
	}
	if err := PlayAdvice(g, Entries(g), adv, t0); err != nil || g.gm.Value(3, 0) != 4 {
		t.Fatalf("the answer: %v, r4c1 holds %d", err, g.gm.Value(3, 0))
	}
	for range MaxHints - 1 {
		if err := OpenHint(g, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := OpenHint(g, 1); err == nil {
		t.Fatalf("hint %d allowed", MaxHints+1)
	}
}

// TestCellsCheck words refusals in the kind's numbering.
func TestCellsCheck(t *testing.T) {
	white := Cells{N: 18, Max: 9, Noun: "white cell", Square: func(k int) (int, int) { return 1 + k/5, 1 + k%5 }}
	n := func(v int) *int { return &v }
	for _, tc := range []struct {
		cell, value *int
		lo          int
		want        string
	}{
		{nil, n(1), 0, `move needs "cell" (white cell 0..17) and "value" (0..9)`},
		{n(18), n(1), 0, "cell 18 is off the board (white cell 0..17)"},
		{n(3), n(10), 0, "value 10 is not 0..9"},
		{n(3), n(0), 1, "value 0 is not 1..9"},
		{n(3), n(0), 0, ""},
	} {
		_, _, err := white.Check("move", tc.cell, tc.value, tc.lo)
		if got := ""; err != nil {
			got = err.Error()
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		} else if tc.want != "" {
			t.Errorf("no refusal, want %q", tc.want)
		}
	}
	if k := white.At(2, 3); k != 7 {
		t.Errorf("the white cell at r3c4 is %d, want 7", k)
	}
}
