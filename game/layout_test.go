package game_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/sudoku"
)

// kakuroLike is a 3×3 board shaped like a tiny Kakuro: the top row and
// left column are walls (clue squares), the 2×2 white area's rows and
// columns are houses, and the domains are those of two-cell runs summing
// to 3 (across, row 1: 1 and 2) and 4 (across, row 2: 1 and 3).
func kakuroLike(t *testing.T) (*game.Game, game.Layout) {
	t.Helper()
	l := game.Layout{
		Rows: 3, Cols: 3, Max: 9,
		Houses: [][]int{{4, 5}, {7, 8}, {4, 7}, {5, 8}},
		Domain: []game.Marks{0, 0, 0, 0, 1<<1 | 1<<2, 1<<1 | 1<<2, 0, 1<<1 | 1<<3, 1<<1 | 1<<3},
	}
	g, err := game.NewLayout(l)
	if err != nil {
		t.Fatal(err)
	}
	return g, l
}

func TestLayoutMoves(t *testing.T) {
	g, _ := kakuroLike(t)
	if g.EmptyCells() != 4 || g.Full() {
		t.Fatalf("empty %d, full %v: the walls count as cells", g.EmptyCells(), g.Full())
	}
	if _, err := g.Set(0, 1, 3); !errors.Is(err, game.ErrWall) {
		t.Errorf("a digit on a wall: %v, want ErrWall", err)
	}
	if _, err := g.ToggleMark(1, 0, 3); !errors.Is(err, game.ErrWall) {
		t.Errorf("a mark on a wall: %v, want ErrWall", err)
	}
	// Two 2s in row 1's house clash; a 2 in another house does not.
	g.Set(1, 1, 2)
	g.Set(1, 2, 2)
	if !g.Conflict(1, 1) || !g.Conflict(1, 2) {
		t.Error("two 2s in one house are not in conflict")
	}
	g.Undo()
	g.Set(2, 2, 2)
	if g.Conflict(1, 1) || g.Conflict(2, 2) {
		t.Error("a 2 in another house is in conflict")
	}
	// Legal respects the domain and the houses.
	if got := g.Legal(1, 2); got != 1<<1 {
		t.Errorf("legal at r2c3 = %v, want {1}: its domain is 1, 2 and its column holds 2", got.Values())
	}
	// Placing clears the peers' marks, in its houses only.
	g.Undo()
	g.ToggleMark(1, 2, 1)
	g.ToggleMark(2, 2, 1)
	g.Place(1, 1, 1)
	if g.Marks(1, 2).Has(1) || !g.Marks(2, 2).Has(1) {
		t.Errorf("after placing 1 at r2c2: marks r2c3 %v, r3c3 %v", g.Marks(1, 2).Values(), g.Marks(2, 2).Values())
	}
}

func TestCandidates(t *testing.T) {
	g, _ := kakuroLike(t)
	g.Set(1, 1, 1)
	m := g.Candidates()
	if m.Kind != game.KindCandidates || len(m.Changes) != 3 {
		t.Fatalf("candidates: %+v", m)
	}
	want := map[[2]int][]int{{1, 2}: {2}, {2, 1}: {3}, {2, 2}: {1, 3}}
	for rc, w := range want {
		if got := g.Marks(rc[0], rc[1]).Values(); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("r%dc%d candidates %v, want %v", rc[0]+1, rc[1]+1, got, w)
		}
	}
	if again := g.Candidates(); len(again.Changes) != 0 {
		t.Errorf("a second fill changed %d cells", len(again.Changes))
	}
	g.Undo()
	if g.Marks(2, 2) != 0 {
		t.Error("one undo does not take the candidates back")
	}

	// On a Sudoku: every empty cell gets its legal values, givens none.
	p, _ := sudoku.ParseLine("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", nil)
	fixed := make([]bool, 81)
	for i, v := range p.Cells {
		fixed[i] = v != 0
	}
	s, _ := game.FromGrid(p, fixed)
	s.Candidates()
	for i := range 81 {
		r, c := i/9, i%9
		if (p.Cells[i] != 0) != (s.Marks(r, c) == 0) || s.Marks(r, c) != 0 && s.Marks(r, c) != s.Legal(r, c) {
			t.Fatalf("r%dc%d: marks %v, legal %v", r+1, c+1, s.Marks(r, c).Values(), s.Legal(r, c).Values())
		}
	}
}

// TestRestoreLayout: a Layout's game survives a snapshot through JSON, and
// a forged snapshot (a digit on a wall, a move into one, a Sudoku's box)
// is refused.
func TestRestoreLayout(t *testing.T) {
	g, l := kakuroLike(t)
	g.Set(1, 1, 2)
	g.ToggleMark(2, 2, 3)
	g.Set(1, 2, 1)
	g.Undo()
	b, _ := json.Marshal(g.Snapshot())
	var snap game.Snapshot
	json.Unmarshal(b, &snap)
	h, err := game.RestoreLayout(l, snap)
	if err != nil {
		t.Fatal(err)
	}
	if h.Value(1, 1) != 2 || !h.Marks(2, 2).Has(3) || !h.CanRedo() || h.EmptyCells() != 3 {
		t.Errorf("restored: r2c2 %d, marks %v, redo %v, empty %d", h.Value(1, 1), h.Marks(2, 2).Values(), h.CanRedo(), h.EmptyCells())
	}
	if _, err := game.Restore(snap); err == nil {
		t.Error("a Layout's snapshot restored as a Sudoku")
	}
	for name, forge := range map[string]func(s *game.Snapshot){
		"a digit on a wall": func(s *game.Snapshot) { s.Values[0] = 4 },
		"a move on a wall": func(s *game.Snapshot) {
			s.Moves = append(s.Moves, game.Move{Kind: game.KindSet, Changes: []game.Change{{Row: 0, Col: 0, From: 0, To: 4}}})
		},
		"boxes": func(s *game.Snapshot) { s.BoxRows, s.BoxCols = 1, 3 },
		"size":  func(s *game.Snapshot) { s.Rows = 4 },
	} {
		var s game.Snapshot
		json.Unmarshal(b, &s)
		forge(&s)
		if _, err := game.RestoreLayout(l, s); err == nil {
			t.Errorf("%s: restored", name)
		}
	}
	for name, bad := range map[string]game.Layout{
		"no cells":    {Rows: 0, Cols: 3, Max: 9},
		"off board":   {Rows: 2, Cols: 2, Max: 9, Houses: [][]int{{0, 4}}},
		"twice":       {Rows: 2, Cols: 2, Max: 9, Houses: [][]int{{1, 1}}},
		"big values":  {Rows: 2, Cols: 2, Max: 64},
		"domain size": {Rows: 2, Cols: 2, Max: 9, Domain: []game.Marks{2}},
	} {
		var le *game.LayoutError
		if _, err := game.NewLayout(bad); !errors.As(err, &le) {
			t.Errorf("%s: %v, want a LayoutError", name, err)
		}
	}
	if _, err := g.Solvable(t.Context(), nil); !errors.Is(err, game.ErrNotSudoku) {
		t.Errorf("solving a Layout's board: %v", err)
	}
}
