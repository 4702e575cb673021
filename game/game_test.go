package game

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/solvers"
	"github.com/sudokuar/sudokuar/sudoku"
)

// The 4x4 puzzle of the specification's file example: "4 0 1. 0" is its
// first row.
const smallFile = "2 2\n4 0 1. 0\n0 1. 0 0\n1. 0 0 2\n0 0 0 0\n"

func read(t *testing.T, text string, keepFixed bool) *Game {
	t.Helper()
	g, err := Read(strings.NewReader(text), keepFixed)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return g
}

// values returns the board as a one-line string.
func values(g *Game) string { return g.Grid().String() }

func TestReadWrite(t *testing.T) {
	g := read(t, smallFile, true)
	if values(g) != "4.1..1..1..2...." || !g.Fixed(0, 2) || g.Fixed(0, 0) || g.N() != 4 {
		t.Fatalf("read %s", values(g))
	}
	var b bytes.Buffer
	if err := g.Write(&b, false); err != nil || b.String() != smallFile {
		t.Errorf("Write = %q, %v; want %q", b.String(), err, smallFile)
	}
	b.Reset()
	g.Write(&b, true)
	if want := "2 2\n4. 0 1. 0\n0 1. 0 0\n1. 0 0 2.\n0 0 0 0\n"; b.String() != want {
		t.Errorf("Write(fixAll) = %q, want %q", b.String(), want)
	}
	e := read(t, smallFile, false)
	for i := 0; i < 16; i++ {
		if e.Fixed(i/4, i%4) {
			t.Errorf("edit: r%dc%d fixed", i/4+1, i%4+1)
		}
	}
	for _, bad := range []string{"", "0 0\n", "-3 3\n", "3\n", "a b\n", "2 2\n1 2 3\n", smallFile + "0\n", "2 2\n" + strings.Repeat("99999999999999999999 ", 16)} {
		var pe *sudoku.ParseError
		if _, err := Read(strings.NewReader(bad), true); !errors.As(err, &pe) {
			t.Errorf("Read(%q) = %v, want *sudoku.ParseError", bad, err)
		}
	}
}

func TestConflicts(t *testing.T) {
	g := read(t, smallFile, true)
	// r1c3 holds a fixed 1; a 1 at r1c1 clashes with it in the row.
	if _, err := g.Set(0, 0, 1); err != nil {
		t.Fatal(err)
	}
	if !g.Conflict(0, 0) || g.Conflict(0, 2) || !g.Erroneous() {
		t.Errorf("fixed 1 and entered 1: conflict %v/%v, erroneous %v", g.Conflict(0, 0), g.Conflict(0, 2), g.Erroneous())
	}
	// Two entered values clash both ways; clearing one clears both.
	g.Set(0, 0, 0)
	g.Set(3, 3, 3)
	g.Set(3, 0, 3)
	if !g.Conflict(3, 3) || !g.Conflict(3, 0) || g.Conflict(0, 0) {
		t.Error("row clash of two entries not marked on both")
	}
	g.Set(3, 0, 0)
	if g.Conflict(3, 3) || g.Erroneous() {
		t.Error("clash still marked after clearing")
	}
	// Two fixed cells that clash are never marked, but the board is
	// erroneous.
	f := read(t, "2 2\n1. 1. 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n", true)
	if f.Conflict(0, 0) || f.Conflict(0, 1) || !f.Erroneous() {
		t.Error("fixed clash")
	}
	if l := g.Legal(1, 0); !reflect.DeepEqual(l.Values(), []int{2, 3, 4}) {
		t.Errorf("Legal(r2c1) = %v, want [2 3 4]", l.Values())
	}
}

func TestSetErrors(t *testing.T) {
	g := read(t, smallFile, true)
	for _, tc := range []struct {
		r, c, v int
		want    error
	}{
		{0, 2, 3, ErrFixed},
		{-1, 0, 1, &RangeError{}},
		{0, 4, 1, &RangeError{}},
		{0, 0, 5, &RangeError{}},
		{0, 0, -1, &RangeError{}},
	} {
		_, err := g.Set(tc.r, tc.c, tc.v)
		var re *RangeError
		if _, isRange := tc.want.(*RangeError); isRange && !errors.As(err, &re) || !isRange && !errors.Is(err, tc.want) {
			t.Errorf("Set(%d,%d,%d) = %v, want %v", tc.r, tc.c, tc.v, err, tc.want)
		}
	}
	if g.CanUndo() || values(g) != "4.1..1..1..2...." {
		t.Error("a refused move changed the game")
	}
}

func TestUndoRedoReset(t *testing.T) {
	g := read(t, smallFile, true)
	start := values(g)
	if _, err := g.Undo(); !errors.Is(err, ErrNoUndo) {
		t.Errorf("Undo on a new game: %v", err)
	}
	g.Set(0, 1, 2)
	g.Set(0, 1, 3)
	g.Set(0, 1, 3) // the same value is still a move
	m, err := g.Undo()
	if err != nil || m.Changes[0] != (Change{Row: 0, Col: 1, From: 3, To: 3}) {
		t.Errorf("Undo = %+v, %v", m, err)
	}
	g.Undo()
	if g.Value(0, 1) != 2 {
		t.Errorf("after two undos r1c2 = %d, want 2", g.Value(0, 1))
	}
	m, _ = g.Redo()
	if g.Value(0, 1) != 3 || m.Changes[0].From != 2 {
		t.Errorf("Redo: %+v, r1c2 = %d", m, g.Value(0, 1))
	}
	// A new move drops the redo part.
	g.Set(1, 0, 3)
	if _, err := g.Redo(); !errors.Is(err, ErrNoRedo) {
		t.Errorf("Redo after a new move: %v", err)
	}
	moves, pos := g.History()
	if len(moves) != 3 || pos != 3 {
		t.Errorf("history %d moves at %d, want 3 at 3", len(moves), pos)
	}
	g.Undo()
	g.Reset()
	if values(g) != start || g.CanUndo() || g.CanRedo() {
		t.Errorf("Reset: %s (undo %v redo %v), want %s", values(g), g.CanUndo(), g.CanRedo(), start)
	}
}

// TestAutofill checks autofill on partial boards cut from real puzzles'
// solutions: it fills exactly the empty cells that had one legal value
// before the command, in reading order, as one move that one undo takes
// back, and leaves the cells that only became obvious for the next call.
func TestAutofill(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	sol, err := sudoku.Solve(sudoku.NewGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3}))
	if err != nil {
		t.Fatal(err)
	}
	secondRound := 0
	for trial := 0; trial < 200; trial++ {
		p := sol.Clone()
		for _, i := range rng.Perm(81)[:30+rng.IntN(40)] {
			p.Cells[i] = 0
		}
		g, _ := FromGrid(p, nil)
		before := values(g)
		var want []Change
		for i := 0; i < 81; i++ {
			if l := g.Legal(i/9, i%9); g.Value(i/9, i%9) == 0 && l.Count() == 1 {
				want = append(want, Change{Row: i / 9, Col: i % 9, To: l.Values()[0]})
			}
		}
		m, err := g.Autofill()
		if err != nil || m.Kind != KindAutofill {
			t.Fatal(m, err)
		}
		var got []Change
		for _, c := range m.Changes {
			got = append(got, Change{Row: c.Row, Col: c.Col, To: c.To})
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Autofill on %s changed %+v, want %+v", before, got, want)
		}
		for i := 0; i < 81; i++ {
			if g.Value(i/9, i%9) == 0 && g.Legal(i/9, i%9).Count() == 1 {
				secondRound++
				break
			}
		}
		if len(want) > 0 {
			g.Undo()
			if values(g) != before || g.CanUndo() {
				t.Fatalf("undo autofill: %s, want %s", values(g), before)
			}
		} else if g.CanUndo() {
			t.Fatal("an autofill that filled nothing was recorded")
		}
	}
	if secondRound == 0 {
		t.Error("no board had cells that became obvious only after autofill: the test proves nothing")
	}
	g := read(t, smallFile, true)
	g.Set(0, 1, 4)
	if _, err := g.Autofill(); !errors.Is(err, ErrErroneous) {
		t.Errorf("Autofill on an erroneous board: %v", err)
	}
}

func TestAutofillSameValueTwice(t *testing.T) {
	// r1c1 and r3c1 both have 1 as their only legal value, in the same
	// column: one autofill fills both, and both are then in conflict.
	g := read(t, "2 2\n0 2 3 4\n0 0 0 0\n0 4 2 3\n0 0 0 0\n", true)
	m, err := g.Autofill()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Changes) < 2 || m.Changes[0].Row != 0 || m.Changes[0].Col != 0 || !g.Conflict(0, 0) || !g.Conflict(2, 0) {
		t.Errorf("autofill %+v: conflicts r1c1 %v r3c1 %v", m.Changes, g.Conflict(0, 0), g.Conflict(2, 0))
	}
}

func TestMarks(t *testing.T) {
	g := read(t, smallFile, true)
	if _, err := g.ToggleMark(0, 1, 2); err != nil {
		t.Fatal(err)
	}
	g.ToggleMark(0, 1, 3)
	g.ToggleMark(0, 1, 2)
	if m := g.Marks(0, 1); !reflect.DeepEqual(m.Values(), []int{3}) {
		t.Errorf("marks %v, want [3]", m.Values())
	}
	g.Undo()
	if m := g.Marks(0, 1); !reflect.DeepEqual(m.Values(), []int{2, 3}) {
		t.Errorf("marks after undo %v, want [2 3]", m.Values())
	}
	// Setting a value keeps the marks, and undoing it too.
	g.Set(0, 1, 2)
	g.Undo()
	if g.Marks(0, 1).Count() != 2 || g.Value(0, 1) != 0 {
		t.Error("set/undo lost the marks")
	}
	if _, err := g.ToggleMark(0, 2, 1); !errors.Is(err, ErrFixed) {
		t.Errorf("mark on a fixed cell: %v", err)
	}
	var re *RangeError
	if _, err := g.ToggleMark(0, 1, 5); !errors.As(err, &re) {
		t.Errorf("mark 5 on a 4x4: %v", err)
	}
	if _, err := g.SetMarks(0, 1, 1); !errors.As(err, &re) {
		t.Errorf("mark 0: %v", err)
	}
}

// TestPlace: a placed value leaves the pencil marks of its row, column
// and box (not of other cells, not its other marks); one Undo brings both
// back, Redo takes them again, and the move survives a snapshot.
func TestPlace(t *testing.T) {
	g := read(t, smallFile, true)
	// 4x4, boxes 2x2. Cell (0,1) is empty; mark 3 in its row (0,3), column
	// (2,1), box (1,0), and outside all three (3,3); mark 2 beside 3 at (0,3).
	for _, c := range [][3]int{{0, 3, 3}, {0, 3, 2}, {2, 1, 3}, {1, 0, 3}, {3, 3, 3}} {
		if _, err := g.ToggleMark(c[0], c[1], c[2]); err != nil {
			t.Fatal(err)
		}
	}
	m, err := g.Place(0, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != KindPlace || len(m.Changes) != 4 || g.Value(0, 1) != 3 {
		t.Fatalf("move %+v, value %d", m, g.Value(0, 1))
	}
	want := map[[2]int][]int{{0, 3}: {2}, {2, 1}: nil, {1, 0}: nil, {3, 3}: {3}}
	for rc, w := range want {
		if got := g.Marks(rc[0], rc[1]).Values(); !reflect.DeepEqual(got, w) {
			t.Errorf("marks of r%dc%d after Place: %v, want %v", rc[0]+1, rc[1]+1, got, w)
		}
	}
	data, _ := json.Marshal(g.Snapshot())
	var s Snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	h, err := Restore(s)
	if err != nil {
		t.Fatalf("Restore after Place: %v", err)
	}
	for _, gm := range []*Game{g, h} {
		if _, err := gm.Undo(); err != nil {
			t.Fatal(err)
		}
		if gm.Value(0, 1) != 0 || !gm.Marks(2, 1).Has(3) || !gm.Marks(1, 0).Has(3) || gm.Marks(0, 3).Count() != 2 {
			t.Errorf("Undo did not bring the marks back: %v %v %v", gm.Marks(2, 1), gm.Marks(1, 0), gm.Marks(0, 3))
		}
		gm.Redo()
		if gm.Value(0, 1) != 3 || gm.Marks(2, 1).Has(3) {
			t.Error("Redo did not place again")
		}
	}
	var re *RangeError
	if _, err := g.Place(0, 1, 0); !errors.As(err, &re) {
		t.Errorf("Place 0: %v, want a RangeError (erase with Set)", err)
	}
	if _, err := g.Place(0, 2, 1); !errors.Is(err, ErrFixed) {
		t.Errorf("Place on a fixed cell: %v", err)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	g := read(t, smallFile, true)
	g.Set(0, 1, 2)
	g.ToggleMark(1, 0, 3)
	g.Set(3, 3, 4)
	g.Autofill()
	g.Undo()
	g.Undo()
	data, err := json.Marshal(g.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	var s Snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	h, err := Restore(s)
	if err != nil {
		t.Fatalf("Restore(%s): %v", data, err)
	}
	if !reflect.DeepEqual(h.Snapshot(), g.Snapshot()) {
		t.Fatalf("restored %+v\nwant %+v", h.Snapshot(), g.Snapshot())
	}
	// Both games go on the same way.
	for _, step := range []func(*Game) (Move, error){(*Game).Redo, (*Game).Redo, (*Game).Undo, (*Game).Undo, (*Game).Undo, (*Game).Undo} {
		m1, e1 := step(g)
		m2, e2 := step(h)
		if !reflect.DeepEqual(m1, m2) || !errors.Is(e2, e1) || values(g) != values(h) {
			t.Fatalf("diverged: %+v %v vs %+v %v", m1, e1, m2, e2)
		}
	}
}

func TestRestoreRefusesBadSnapshots(t *testing.T) {
	g := read(t, smallFile, true)
	g.Set(0, 1, 2)
	g.Set(3, 3, 4)
	good := g.Snapshot()
	edits := map[string]func(s *Snapshot){
		"shape":            func(s *Snapshot) { s.BoxRows = 0 },
		"huge shape":       func(s *Snapshot) { s.BoxRows, s.BoxCols = 1000, 1000 },
		"values":           func(s *Snapshot) { s.Values = s.Values[:3] },
		"value range":      func(s *Snapshot) { s.Values[1] = 9 },
		"fixed empty":      func(s *Snapshot) { s.Fixed[1] = false; s.Fixed[3] = true },
		"marks length":     func(s *Snapshot) { s.Marks = []Marks{1} },
		"marks range":      func(s *Snapshot) { s.Marks = make([]Marks, 16); s.Marks[0] = 1 << 7 },
		"position":         func(s *Snapshot) { s.Position = 5 },
		"negative pos":     func(s *Snapshot) { s.Position = -1 },
		"kind":             func(s *Snapshot) { s.Moves[0].Kind = "teleport" },
		"cell off board":   func(s *Snapshot) { s.Moves[0].Changes[0].Row = 7 },
		"fixed changed":    func(s *Snapshot) { s.Moves[0].Changes[0].Col = 2 },
		"does not fit":     func(s *Snapshot) { s.Moves[1].Changes[0].To = 3 },
		"chain broken":     func(s *Snapshot) { s.Moves[1].Changes[0] = Change{Row: 0, Col: 1, From: 3, To: 2} },
		"value after redo": func(s *Snapshot) { s.Position = 1 },
	}
	for name, edit := range edits {
		s := g.Snapshot()
		s.Moves, _ = g.History()
		edit(&s)
		if _, err := Restore(s); err == nil {
			t.Errorf("%s: Restore accepted %+v", name, s)
		}
	}
	if _, err := Restore(good); err != nil {
		t.Errorf("good snapshot: %v", err)
	}
}

// failing is a solver that never finds a solution.
type failing struct{}

func (failing) Name() string { return "failing" }
func (failing) Solve(context.Context, sudoku.Grid) (solvers.Result, error) {
	return solvers.Result{}, sudoku.ErrNoSolution
}

// liar returns a wrong "solution".
type liar struct{}

func (liar) Name() string { return "liar" }
func (liar) Solve(_ context.Context, g sudoku.Grid) (solvers.Result, error) {
	return solvers.Result{Solution: sudoku.NewGrid(g.Shape)}, nil
}

func TestSolvableHintCount(t *testing.T) {
	ctx := context.Background()
	dlx := solvers.NewDLX()
	g := read(t, smallFile, true)
	if ok, err := g.Solvable(ctx, dlx); !ok || err != nil {
		t.Errorf("Solvable = %v, %v", ok, err)
	}
	if n, err := g.CountSolutions(ctx, 0, nil); err != nil || n != uint64(sudoku.CountSolutions(g.Grid(), 0)) || n == 0 {
		t.Errorf("CountSolutions = %d, %v", n, err)
	}
	// Hint's checks in the specification's order.
	var re *RangeError
	if _, err := g.Hint(ctx, dlx, 4, 0); !errors.As(err, &re) {
		t.Errorf("hint off the board: %v", err)
	}
	if _, err := g.Hint(ctx, dlx, 0, 2); !errors.Is(err, ErrFixed) {
		t.Errorf("hint on a fixed cell: %v", err)
	}
	if _, err := g.Hint(ctx, dlx, 0, 0); !errors.Is(err, ErrFilled) {
		t.Errorf("hint on a filled cell: %v", err)
	}
	v, err := g.Hint(ctx, dlx, 0, 1)
	if err != nil || v < 1 || v > 4 {
		t.Errorf("hint = %d, %v", v, err)
	}
	if _, err := g.Hint(ctx, failing{}, 0, 1); !errors.Is(err, ErrUnsolvable) {
		t.Errorf("hint from a failing solver: %v", err)
	}
	if _, err := g.Hint(ctx, liar{}, 0, 1); err == nil || errors.Is(err, ErrUnsolvable) {
		t.Errorf("hint from a lying solver: %v", err)
	}
	g.Set(0, 1, 4) // clashes with the 4 at r1c1
	if _, err := g.Hint(ctx, dlx, 0, 2); !errors.Is(err, ErrErroneous) {
		t.Errorf("hint on an erroneous board (fixed cell): %v", err)
	}
	if _, err := g.Solvable(ctx, dlx); !errors.Is(err, ErrErroneous) {
		t.Errorf("Solvable on an erroneous board: %v", err)
	}
	if _, err := g.CountSolutions(ctx, 0, nil); !errors.Is(err, ErrErroneous) {
		t.Errorf("CountSolutions on an erroneous board: %v", err)
	}
	// Breaks no rule but cannot be completed.
	u := read(t, "2 2\n0 0 1 2\n0 4 0 0\n3 0 0 0\n0 0 0 0\n", true)
	if ok, err := u.Solvable(ctx, dlx); ok || err != nil {
		t.Errorf("unsolvable board: %v, %v", ok, err)
	}
	if _, err := u.Hint(ctx, dlx, 0, 0); !errors.Is(err, ErrUnsolvable) {
		t.Errorf("hint on an unsolvable board: %v", err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	e, _ := New(sudoku.Shape{BoxRows: 3, BoxCols: 3})
	if _, err := e.Solvable(done, solvers.NewDLX()); !errors.Is(err, context.Canceled) {
		t.Errorf("Solvable with a cancelled context: %v", err)
	}
}

func TestGenerate(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, shape := range []sudoku.Shape{{BoxRows: 3, BoxCols: 3}, {BoxRows: 2, BoxCols: 3}, {BoxRows: 4, BoxCols: 4}} {
		g, _ := New(shape)
		n := shape.N()
		m, err := g.Generate(ctx, solvers.NewDLX(), rng, n, n*n/3)
		if err != nil {
			t.Fatalf("%v: %v", shape, err)
		}
		if got := n*n - g.EmptyCells(); got != n*n/3 || len(m.Changes) != got || g.Erroneous() {
			t.Errorf("%v: %d cells kept, move of %d, erroneous %v", shape, got, len(m.Changes), g.Erroneous())
		}
		if ok, _ := g.Solvable(ctx, solvers.NewDLX()); !ok {
			t.Errorf("%v: generated an unsolvable board", shape)
		}
		g.Undo()
		if !g.Empty() {
			t.Errorf("%v: undo did not clear the generated puzzle", shape)
		}
	}
	g, _ := New(sudoku.Shape{BoxRows: 3, BoxCols: 3})
	var re *RangeError
	for _, xy := range [][2]int{{-1, 0}, {0, 82}, {82, 0}, {0, -5}} {
		if _, err := g.Generate(ctx, solvers.NewDLX(), rng, xy[0], xy[1]); !errors.As(err, &re) {
			t.Errorf("Generate(%v): %v", xy, err)
		}
	}
	if _, err := g.Generate(ctx, failing{}, rng, 10, 10); !errors.Is(err, ErrGeneratorFailed) || !g.Empty() {
		t.Errorf("Generate with a failing solver: %v", err)
	}
	g.Set(0, 0, 1)
	if _, err := g.Generate(ctx, solvers.NewDLX(), rng, 80, 80); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("Generate on a board with a value: %v", err)
	}
	// Range comes first: 81 > 80 empty cells.
	if _, err := g.Generate(ctx, solvers.NewDLX(), rng, 81, 0); !errors.As(err, &re) || re.Max != 80 {
		t.Errorf("Generate(81) on a board with 80 empty cells: %v", err)
	}
}

func TestFromGridAndNewErrors(t *testing.T) {
	var se *ShapeError
	if _, err := New(sudoku.Shape{BoxRows: 0, BoxCols: 3}); !errors.As(err, &se) {
		t.Errorf("New(0x3): %v", err)
	}
	if _, err := New(sudoku.Shape{BoxRows: 6, BoxCols: 6}); !errors.As(err, &se) {
		t.Errorf("New(6x6 boxes): %v", err)
	}
	if _, err := FromGrid(sudoku.Grid{Shape: sudoku.Shape{BoxRows: 2, BoxCols: 2}, Cells: []int{1}}, nil); !errors.Is(err, sudoku.ErrInvalidGrid) {
		t.Errorf("FromGrid short: %v", err)
	}
	g := sudoku.NewGrid(sudoku.Shape{BoxRows: 2, BoxCols: 2})
	fixed := make([]bool, 16)
	fixed[0] = true
	if _, err := FromGrid(g, fixed); !errors.Is(err, sudoku.ErrInvalidGrid) {
		t.Errorf("FromGrid fixed empty cell: %v", err)
	}
}

// TestTrimHistory bounds the move list: thousands of pencil toggles keep
// at most max moves, the board is unchanged, undo stops at the oldest
// kept move, and the trimmed game still round-trips through a Snapshot.
func TestTrimHistory(t *testing.T) {
	g := read(t, smallFile, true)
	if _, err := g.Set(0, 1, 2); err != nil {
		t.Fatal(err)
	}
	for k := range 5000 {
		if _, err := g.ToggleMark(1, 0, 1+k%4); err != nil {
			t.Fatal(err)
		}
	}
	g.Undo()
	g.Undo()
	before := g.Snapshot()
	if n := g.TrimHistory(100); n != 5001-100 {
		t.Errorf("TrimHistory forgot %d moves, want %d", n, 5001-100)
	}
	moves, pos := g.History()
	if len(moves) != 100 || pos != 98 {
		t.Errorf("after trimming: %d moves, position %d; want 100, 98", len(moves), pos)
	}
	after := g.Snapshot()
	if !reflect.DeepEqual(after.Values, before.Values) || !reflect.DeepEqual(after.Marks, before.Marks) {
		t.Errorf("trimming changed the board")
	}
	h, err := Restore(after)
	if err != nil {
		t.Fatalf("Restore after trimming: %v", err)
	}
	for h.CanUndo() {
		h.Undo()
	}
	if h.Value(0, 1) != 2 {
		t.Errorf("undo went past the oldest kept move: r1c2 = %d, want 2 (set by a forgotten move)", h.Value(0, 1))
	}
	if g.TrimHistory(100) != 0 || g.TrimHistory(0) != 0 {
		t.Errorf("a second trim, or max 0, forgot moves")
	}
	// The redo part is never dropped while done moves remain.
	for g.CanUndo() {
		g.Undo()
	}
	if n := g.TrimHistory(10); n != 0 || !g.CanRedo() {
		t.Errorf("trim with every move undone forgot %d", n)
	}
}
