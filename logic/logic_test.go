package logic

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

const (
	puzzleA = "2...8...3..7...4...38.4.76....651....1.....8.4.......95..924..6...376....9.....4." // SE 3.0
	puzzleB = ".7..362.5.....819.....5..8..5....92....3.7....87....3..6..4.....297.....5.468..7." // SE 7.0
)

// fireCase is a puzzle on whose rating path a technique fires: after
// `after` steps of the rating order, the technique finds `text`.
type fireCase struct {
	tech, puzzle string
	after        int
	text         string
}

var fireCases = []fireCase{
	{"Full house", puzzleA, 7, "Full house: r6c5 is the last empty cell in column 5, so it is 3"},
	{"Hidden single", puzzleA, 0, "Hidden single: 6 can only go in r2c5 within box 2"},
	{"Direct locked candidates", puzzleA, 0, "Direct claiming: in column 7, 8 can only go in box 9, so within column 9 it can only go in r2c9"},
	{"Direct locked candidates", ".142..3....934...23......14....1..85.7.4.8.9.68..2....94......71...629....8..453.", 0, "Direct pointing: in box 6, 2 can only go in column 7, so within box 9 it can only go in r7c8"},
	{"Direct hidden pair", puzzleA, 0, "Direct hidden pair: in box 8, 5 and 8 can only go in r9c4 and r9c6, so 1 can only go in r9c5"},
	{"Naked single", puzzleA, 0, "Naked single: 3 is the only candidate left in r6c5"},
	{"Direct hidden triple", puzzleA, 1, "Direct hidden triple: in column 1, 3, 6 and 7 can only go in r4c1, r5c1 and r9c1, so 8 can only go in r8c1"},
	{"Locked candidates", puzzleA, 0, "Pointing: in box 8, 1 can only go in row 9 (r9c4 and r9c5), so remove 1 from r9c1, r9c3, r9c7 and r9c9"},
	{"Naked pair", puzzleA, 1, "Naked pair: in box 1, r2c1 and r3c1 hold only 1 and 9, so remove 1 and 9 from r1c3"},
	{"X-wing", puzzleA, 0, "X-wing on 8: in column 4 and column 6, 8 can only go in row 6 and row 9, so remove 8 from r6c2, r9c1, r9c7 and r9c9"},
	{"Hidden pair", puzzleA, 0, "Hidden pair: in row 1, 4 and 6 can only go in r1c2 and r1c3, so remove 1 and 9 from r1c3; 5 from r1c2 and r1c3"},
	{"Naked triple", puzzleA, 1, "Naked triple: in column 1, r2c1, r3c1 and r8c1 hold only 1, 8 and 9, so remove 1 from r9c1; 8 from r4c1 and r9c1; 9 from r4c1 and r5c1"},
	{"Swordfish", ".6.....2.279...863............9.4...6.3...2.4.4.235.7..3.598.1...8...6..5.......8", 10, "Swordfish on 1: in column 2, column 4 and column 5, 1 can only go in row 5, row 8 and row 9, so remove 1 from r8c1"},
	{"Hidden triple", puzzleB, 9, "Hidden triple: in box 9, 1, 2 and 9 can only go in r7c8, r7c9 and r9c9, so remove 3 from r7c9 and r9c9; 5 from r7c8; 8 from r7c9"},
	{"Naked quad", ".6.73..29...2...4.....4..878.....4...79...81...4.....563..5.....4...2...92..71.5.", 18, "Naked quad: in box 5, r4c4, r4c5, r6c4 and r6c5 hold only 1, 2, 8 and 9, so remove 9 from r4c6 and r6c6"},
	{"Jellyfish", ".5......7..6.932...925.....2..93.57...........37.46..9.....162...875.9..3......8.", 25, "Jellyfish on 4: in column 1, column 6, column 7 and column 8, 4 can only go in row 1, row 3, row 5 and row 8, so remove 4 from r1c4, r3c9, r5c3, r8c2 and r8c9"},
	{"Hidden quad", "..........82...36.69.....82....3.....3.....7.8.64.72.9..9.5.8.....1.6....41.7.52.", 9, "Hidden quad: in row 1, 2, 3, 6 and 8 can only go in r1c3, r1c4, r1c5 and r1c6, so remove 1 from r1c6; 4 from r1c3, r1c5 and r1c6; 5 from r1c3, r1c4 and r1c6; 7 from r1c3 and r1c4; 9 from r1c4, r1c5 and r1c6"},
	{"Finned X-wing", puzzleA, 0, "Sashimi X-wing on 6: in row 1 and row 9, 6 can only go in column 1 and column 3 or in the fins r1c2, so remove 6 from r2c1"},
	{"Finned swordfish", puzzleA, 0, "Sashimi swordfish on 6: in row 1, row 5 and row 9, 6 can only go in column 1, column 3 and column 7 or in the fins r1c2, so remove 6 from r2c1"},
}

// quietCases are puzzles in whose initial grid a technique finds nothing.
var quietCases = []struct{ tech, puzzle string }{
	{"Full house", puzzleA},
	{"Hidden single", "..72496..6.......9....1....14.....96.36.8.25...5...3...7.....8...2.7.9....35.14.."},
	{"Direct locked candidates", "8.......6..1.389...6.5...8..4.8.12...7..6..5...34.7.9..8...3.6...627.8..4.......3"},
	{"Direct hidden pair", ".6.73..29...2...4.....4..878.....4...79...81...4.....563..5.....4...2...92..71.5."},
	{"Naked single", "..1..57...6.98..5.3....6..89.3....7..2.....6..5....9.12..5....7.3..42.8...48..6.."},
	{"Direct hidden triple", puzzleA},
	{"Locked candidates", "..31.9.5.5.....4...4...8..33.29.4..1....6....8..2.36.97..4...8...1.....4.5.3.71.."},
	{"Naked pair", puzzleA},
	{"X-wing", puzzleB},
	{"Hidden pair", ".6.73..29...2...4.....4..878.....4...79...81...4.....563..5.....4...2...92..71.5."},
	{"Naked triple", puzzleA},
	{"Swordfish", puzzleA},
	{"Hidden triple", puzzleA},
	{"Naked quad", puzzleA},
	{"Jellyfish", puzzleA},
	{"Hidden quad", puzzleA},
	{"Finned X-wing", "1...2...5.6.....1.9.4...3.6...1.9...2.......4...253.....7...8..8.1.9.5.75...8...3"},
	{"Finned swordfish", ".....56....17.98.3......54.53...298...8...2...268...35.17......8.29.17....56....."},
}

// uniqueGrid returns the candidate grid of a unique puzzle and its solution.
func uniqueGrid(t testing.TB, puzzle string) (*Grid, sudoku.Grid) {
	t.Helper()
	g, sol, err := prepare(mustParse(t, puzzle))
	if err != nil {
		t.Fatalf("%s: %v", puzzle, err)
	}
	return g, sol
}

func TestTechniqueFires(t *testing.T) {
	for _, c := range fireCases {
		tech, ok := TechniqueByName(c.tech)
		if !ok {
			t.Fatalf("no technique %q", c.tech)
		}
		g, sol := uniqueGrid(t, c.puzzle)
		for i := 0; i < c.after; i++ {
			s, ok := nextStep(g, rateOrder)
			if !ok {
				t.Fatalf("%s: rating path stuck after %d steps", c.tech, i)
			}
			checkStep(t, s, sol)
			g.Apply(s)
		}
		s, ok := tech.Find(g)
		if !ok {
			t.Errorf("%s does not fire on %s after %d steps", c.tech, c.puzzle, c.after)
			continue
		}
		checkStep(t, s, sol)
		if s.Text != c.text {
			t.Errorf("%s on %s:\n got  %s\n want %s", c.tech, c.puzzle, s.Text, c.text)
		}
		if len(s.Placements)+len(s.Eliminations) == 0 || len(s.Cells) == 0 {
			t.Errorf("%s: step changes nothing or has no pattern: %+v", c.tech, s)
		}
	}
}

func TestTechniqueQuiet(t *testing.T) {
	for _, c := range quietCases {
		tech, ok := TechniqueByName(c.tech)
		if !ok {
			t.Fatalf("no technique %q", c.tech)
		}
		g, _ := uniqueGrid(t, c.puzzle)
		if s, ok := tech.Find(g); ok {
			t.Errorf("%s fires on the initial grid of %s: %s", c.tech, c.puzzle, s.Text)
		}
	}
}

func TestNewGridErrors(t *testing.T) {
	conflict := mustParse(t, "11"+strings.Repeat(".", 79))
	if _, err := NewGrid(conflict); !errors.As(err, new(*sudoku.ConflictError)) {
		t.Errorf("conflicting givens: got %v", err)
	}
	var se *SizeError
	if _, err := NewGrid(sudoku.NewGrid(sudoku.Shape{BoxRows: 5, BoxCols: 5})); !errors.As(err, &se) {
		t.Errorf("25x25: got %v, want *SizeError", err)
	}
	bad := sudoku.NewGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3})
	bad.Cells[3] = 12
	if _, err := NewGrid(bad); !errors.Is(err, sudoku.ErrInvalidGrid) {
		t.Errorf("value out of range: got %v", err)
	}
	bad.Cells = bad.Cells[:10]
	if _, err := NewGrid(bad); !errors.Is(err, sudoku.ErrInvalidGrid) {
		t.Errorf("short grid: got %v", err)
	}
}

func TestRateErrors(t *testing.T) {
	several := mustParse(t, "1........"+strings.Repeat(".", 72))
	if _, err := Rate(several); !errors.Is(err, ErrSeveralSolutions) || err.Error() != "several solutions: not rated" {
		t.Errorf("several solutions: got %v", err)
	}
	// Givens that break no rule, yet r1c9 has no digit left.
	none := mustParse(t, "12345678."+"........9"+strings.Repeat(".", 63))
	if _, err := Rate(none); !errors.Is(err, sudoku.ErrNoSolution) {
		t.Errorf("no solution: got %v", err)
	}
	conflict := mustParse(t, "1.......1"+strings.Repeat(".", 72))
	if _, err := Rate(conflict); !errors.As(err, new(*sudoku.ConflictError)) {
		t.Errorf("conflict: got %v", err)
	}
}

func TestRateKnown(t *testing.T) {
	for _, c := range []struct {
		puzzle  string
		se      float64
		hardest string
	}{
		{puzzleA, 3.0, "Naked pair"},
		{"8.......6..1.389...6.5...8..4.8.12...7..6..5...34.7.9..8...3.6...627.8..4.......3", 2.8, "Claiming"},
		{".5......7..6.932...925.....2..93.57...........37.46..9.....162...875.9..3......8.", 5.2, "Jellyfish"},
	} {
		r, err := Rate(mustParse(t, c.puzzle))
		if err != nil {
			t.Fatalf("%s: %v", c.puzzle, err)
		}
		if r.SE != c.se || r.Hardest != c.hardest || r.Level != LevelOf(c.se) {
			t.Errorf("%s: got %.1f %s %v, want %.1f %s", c.puzzle, r.SE, r.Hardest, r.Level, c.se, c.hardest)
		}
		g, sol := uniqueGrid(t, c.puzzle)
		for _, s := range r.Steps {
			checkStep(t, s, sol)
			if err := g.Apply(s); err != nil {
				t.Fatal(err)
			}
		}
		if !g.Values().Equal(sol) {
			t.Errorf("%s: steps do not reach the solution", c.puzzle)
		}
	}
}

func TestLevels(t *testing.T) {
	for _, l := range Levels {
		p, err := ParseLevel(strings.ToUpper(l.String()))
		if err != nil || p != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l, p, err)
		}
		lo, hi := l.Band()
		if LevelOf(lo) != l || LevelOf(hi-0.05) != l {
			t.Errorf("%v: band %.1f..%.1f does not map back", l, lo, hi)
		}
	}
	if _, err := ParseLevel("diabolical"); err == nil {
		t.Error("ParseLevel accepted an unknown level")
	}
}

func TestHint(t *testing.T) {
	puzzle := mustParse(t, puzzleA)
	sol, err := sudoku.Solve(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	// From the puzzle itself: the first step of the hint order.
	h, err := Hint(puzzle, puzzle)
	if err != nil || h.Step == nil || h.Wrong != nil {
		t.Fatalf("hint on the puzzle: %+v, %v", h, err)
	}
	if h.Step.Text != "Hidden single: 6 can only go in r2c5 within box 2" {
		t.Errorf("first hint: %s", h.Step.Text)
	}
	// Two right entries and a wrong one: the wrong one comes first.
	cur := puzzle.Clone()
	cur.Cells[1], cur.Cells[2] = sol.Cells[1], sol.Cells[2]
	wrong := 80
	for cur.Cells[wrong] != 0 {
		wrong--
	}
	cur.Cells[wrong] = sol.Cells[wrong]%9 + 1
	h, err = Hint(puzzle, cur)
	if err != nil || h.Wrong == nil || h.Wrong.Cell != wrong || h.Wrong.Correct != sol.Cells[wrong] {
		t.Fatalf("wrong entry not reported: %+v, %v", h, err)
	}
	// Right entries only: a step that is sound from there.
	cur.Cells[wrong] = 0
	h, err = Hint(puzzle, cur)
	if err != nil || h.Step == nil {
		t.Fatalf("hint with entries: %+v, %v", h, err)
	}
	checkStep(t, *h.Step, sol)
	// A finished grid.
	if h, err = Hint(puzzle, sol); err != nil || !h.Solved {
		t.Errorf("solved grid: %+v, %v", h, err)
	}
	// A changed given.
	cur = puzzle.Clone()
	cur.Cells[0] = 5
	var se *StateError
	if _, err := Hint(puzzle, cur); !errors.As(err, &se) || se.Cell != 0 {
		t.Errorf("changed given: %v", err)
	}
}

func TestSolveSteps(t *testing.T) {
	p := mustParse(t, puzzleA)
	sol, steps, err := SolveSteps(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := sudoku.Solve(p)
	if !sol.Equal(want) || len(steps) == 0 {
		t.Errorf("SolveSteps: wrong solution or no steps")
	}
	for _, s := range steps {
		checkStep(t, s, want)
	}
	several := mustParse(t, "1........"+strings.Repeat(".", 72))
	if _, _, err := SolveSteps(context.Background(), several); !errors.Is(err, ErrStuck) || !errors.Is(err, ErrSeveralSolutions) {
		t.Errorf("several solutions: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := SolveSteps(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
