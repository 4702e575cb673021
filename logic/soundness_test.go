package logic

import (
	"context"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

// TestSoundnessSample is the soundness sweep on a sample: every 100th
// puzzle of the 17-clue collection and every 40th of the calibration file,
// rated (Sudoku Explainer's order) and solved (the hint order), every step
// checked against the DLX solution, every puzzle solved to the end. The full
// sweep is `sudokuar rate --check ../shared/puzzles/17-clue.txt`.
func TestSoundnessSample(t *testing.T) {
	var ps []ratedPuzzle
	for i, p := range readRated(t, "puzzles/17-clue.txt") {
		if i%100 == 0 {
			ps = append(ps, p)
		}
	}
	for i, p := range readRated(t, "puzzles/rated/se-sudoku-exchange.txt") {
		if i%40 == 0 {
			ps = append(ps, p)
		}
	}
	for _, p := range ps {
		r, err := Rate(p.grid)
		if err != nil {
			t.Fatalf("%s: %v", p.line, err)
		}
		sol, err := sudoku.Solve(p.grid)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckSteps(p.grid, r.Steps, sol); err != nil {
			t.Fatalf("%s: rating order: %v", p.line, err)
		}
		got, steps, err := SolveSteps(context.Background(), p.grid)
		if err != nil || !got.Equal(sol) {
			t.Fatalf("%s: SolveSteps: %v", p.line, err)
		}
		if err := CheckSteps(p.grid, steps, sol); err != nil {
			t.Fatalf("%s: hint order: %v", p.line, err)
		}
	}
}

// TestShapes rates, hints and solves puzzles of every supported box shape,
// rectangular boxes included.
func TestShapes(t *testing.T) {
	for _, c := range []struct {
		shape  sudoku.Shape
		puzzle string
	}{
		{sudoku.Shape{BoxRows: 2, BoxCols: 2}, "..4.4...1.2..2.."},
		{sudoku.Shape{BoxRows: 2, BoxCols: 3}, ".5.1....3.6..........4.62..5....1..2"},
		{sudoku.Shape{BoxRows: 3, BoxCols: 2}, ".4.2.....53......2....5..3......1..6"},
		{sudoku.Shape{BoxRows: 2, BoxCols: 4}, "...17.8.8......5...36.4.68....3..7....6...3.25....2...5.4.8..2.."},
		{sudoku.Shape{BoxRows: 3, BoxCols: 4}, ".43...1.A...8......3.C....B.5..82.1..6.4.8......C.9...258.......7....6A319..67.A.8..4...2.B..5.....3...C.B7..54.......3..8C..B.....6A7...5C....."},
	} {
		p, err := sudoku.ParseLine(c.puzzle, &c.shape)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := sudoku.Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewGrid(p)
		if err != nil {
			t.Fatal(err)
		}
		// Every house holds N cells and every cell N-1+... peers.
		n := g.N()
		for h := 0; h < 3*n; h++ {
			if len(g.geo.houses[h]) != n {
				t.Fatalf("%v: house %s has %d cells", c.shape, g.geo.houseName(h), len(g.geo.houses[h]))
			}
		}
		if want := 3*(n-1) - (c.shape.BoxRows - 1) - (c.shape.BoxCols - 1); len(g.geo.peerList[0]) != want {
			t.Fatalf("%v: %d peers, want %d", c.shape, len(g.geo.peerList[0]), want)
		}
		r, err := Rate(p)
		if err != nil {
			t.Fatalf("%v: %v", c.shape, err)
		}
		got, steps, err := SolveSteps(context.Background(), p)
		if err != nil || !got.Equal(sol) {
			t.Fatalf("%v: SolveSteps: %v", c.shape, err)
		}
		for _, s := range append(r.Steps, steps...) {
			checkStep(t, s, sol)
		}
		h, err := Hint(p, p)
		if err != nil || h.Step == nil {
			t.Fatalf("%v: hint %+v %v", c.shape, h, err)
		}
		t.Logf("%v: SE %.1f (%s), %d steps", c.shape, r.SE, r.Hardest, len(steps))
	}
}

// TestCheckSteps makes sure the soundness check can fail: a wrong
// placement, a true candidate eliminated and a path that stops short are
// each reported.
func TestCheckSteps(t *testing.T) {
	p, err := sudoku.ParseLine("..4.4...1.2..2..", &sudoku.Shape{BoxRows: 2, BoxCols: 2})
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sudoku.Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Rate(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckSteps(p, r.Steps, sol); err != nil {
		t.Fatalf("sound path rejected: %v", err)
	}
	empty := -1
	for c, v := range p.Cells {
		if v == 0 {
			empty = c
			break
		}
	}
	wrong := sol.Cells[empty]%4 + 1
	for _, c := range []struct {
		name  string
		steps []Step
		want  string
	}{
		{"wrong placement", []Step{{Technique: "test", Placements: []Candidate{{Cell: empty, Digit: wrong}}}}, "places"},
		{"true candidate eliminated", []Step{{Technique: "test", Eliminations: []Candidate{{Cell: empty, Digit: sol.Cells[empty]}}}}, "eliminates"},
		{"short path", r.Steps[:len(r.Steps)-1], "stop short"},
	} {
		err := CheckSteps(p, c.steps, sol)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
