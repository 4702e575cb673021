package logic

import (
	"context"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/sudoku"
)

// fuzzPuzzles are unique puzzles of several shapes for FuzzFindSteps.
var fuzzPuzzles = []struct {
	shape  sudoku.Shape
	puzzle string
}{
	{sudoku.Shape{BoxRows: 2, BoxCols: 2}, "..4.4...1.2..2.."},
	{sudoku.Shape{BoxRows: 2, BoxCols: 3}, ".5.1....3.6..........4.62..5....1..2"},
	{sudoku.Shape{BoxRows: 3, BoxCols: 2}, ".4.2.....53......2....5..3......1..6"},
	{sudoku.Shape{BoxRows: 2, BoxCols: 4}, "...17.8.8......5...36.4.68....3..7....6...3.25....2...5.4.8..2.."},
	{sudoku.Shape{BoxRows: 3, BoxCols: 3}, puzzleA},
	{sudoku.Shape{BoxRows: 3, BoxCols: 3}, puzzleB},
	{sudoku.Shape{BoxRows: 3, BoxCols: 3}, ".5......7..6.932...925.....2..93.57...........37.46..9.....162...875.9..3......8."},
}

// FuzzFindSteps runs every technique on candidate grids built from the
// fuzzer's bytes. With the first byte even, the grid is a unique puzzle
// with some wrong candidates already removed (chosen by the bytes): every
// step found must then be sound, checked against the solution. With it
// odd, digits and candidates are arbitrary (often contradictory): the
// techniques must simply not panic or hang.
func FuzzFindSteps(f *testing.F) {
	f.Add([]byte{0, 3, 0xff, 0x0f, 0xf0, 0x55})
	f.Add([]byte{2, 4, 0, 0, 0, 0, 0x81})
	f.Add([]byte{1, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xaa, 0x55})
	f.Add([]byte{3, 4, 0, 1, 2, 3, 4})
	f.Add([]byte{4, 5, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		bit := func(i int) bool {
			if len(data) <= 2 {
				return false
			}
			b := data[2+(i/8)%(len(data)-2)]
			return b&(1<<uint(i%8)) != 0
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		var g *Grid
		var sol sudoku.Grid
		if data[0]%2 == 0 {
			fp := fuzzPuzzles[int(data[1])%len(fuzzPuzzles)]
			p, err := sudoku.ParseLine(fp.puzzle, &fp.shape)
			if err != nil {
				t.Fatal(err)
			}
			if g, sol, err = prepare(p); err != nil {
				t.Fatal(err)
			}
			// Remove wrong candidates only: the puzzle keeps its one
			// solution, so uniqueness reasoning stays valid.
			for c := 0; c < g.geo.size; c++ {
				for _, d := range g.Candidates(c) {
					if d != sol.Cells[c] && bit(c*g.geo.n+d) {
						g.eliminate(c, d)
					}
				}
			}
		} else {
			shapes := []sudoku.Shape{{BoxRows: 2, BoxCols: 2}, {BoxRows: 2, BoxCols: 3}, {BoxRows: 3, BoxCols: 3}}
			s := shapes[int(data[1])%len(shapes)]
			geo, err := geometryFor(s)
			if err != nil {
				t.Fatal(err)
			}
			vals := make([]int, geo.size)
			for c := range vals {
				if bit(3*c) && bit(3*c+1) {
					vals[c] = 1 + int(data[2+c%max(1, len(data)-2)])%geo.n
				}
			}
			g = newGrid(geo, vals)
			g.unique = bit(7)
			for c := 0; c < geo.size; c++ {
				for _, d := range g.Candidates(c) {
					if bit(c*geo.n + d + 11) {
						g.eliminate(c, d)
					}
				}
			}
		}
		g.ctx = ctx
		for _, order := range [][]Technique{rateOrder, hintOrder} {
			for _, tech := range order {
				s, ok := tech.Find(g)
				if !ok {
					continue
				}
				if sol.Cells != nil {
					checkStep(t, s, sol)
				}
				if s.Text == "" || len(s.Placements)+len(s.Eliminations) == 0 {
					t.Fatalf("%s: empty step %+v", tech.Name, s)
				}
				for _, c := range append(append([]Candidate(nil), s.Placements...), s.Eliminations...) {
					if c.Cell < 0 || c.Cell >= g.geo.size || c.Digit < 1 || c.Digit > g.geo.n {
						t.Fatalf("%s: candidate out of range %+v", tech.Name, c)
					}
				}
			}
		}
	})
}
