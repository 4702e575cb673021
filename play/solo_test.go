package play

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// toy is a 4×4 Sudoku kept by Solo: the least a kind needs.
type toy struct {
	rec store.Game
	st  toyState
	gm  *game.Game
	sol []int
}

type toyState struct {
	Board game.Snapshot `json:"board"`
	Session
}

func (g *toy) Record() *store.Game   { return &g.rec }
func (g *toy) Session() *Session     { return &g.st.Session }
func (g *toy) Board() *game.Game     { return g.gm }
func (g *toy) Allow(a string) error  { return nil }
func (g *toy) State() any            { g.st.Board = g.gm.Snapshot(); return g.st }
func (g *toy) Answer(cell int) int   { return g.sol[cell] }
func (g *toy) Stop(now time.Time)    { g.st.ElapsedMs = now.Sub(g.rec.Created).Milliseconds() }
func (g *toy) Start(time.Time)       {}
func (g *toy) Cells() Cells          { return Squares(4, func(k int) bool { return g.gm.Fixed(k/4, k%4) }) }
func (g *toy) set(cell, v int) error { _, err := g.gm.Set(cell/4, cell%4, v); return GameError(err) }

const (
	toyPuzzle   = "1234341221434300"
	toySolution = "1234341221434321"
)

func loadToy(s *Solo) func(ctx context.Context, id string) (*toy, error) {
	return func(ctx context.Context, id string) (*toy, error) {
		rec, err := s.Store.Game(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, Refuse(NotFound, "no game %q", id)
		}
		if err != nil {
			return nil, err
		}
		g := &toy{rec: rec}
		if err := json.Unmarshal(rec.State, &g.st); err != nil {
			return nil, err
		}
		if g.gm, err = game.Restore(g.st.Board); err != nil {
			return nil, err
		}
		sol, _ := sudoku.ParseCellGrid(sudoku.Shape{BoxRows: 2, BoxCols: 2}, toySolution)
		g.sol = sol.Cells
		return g, nil
	}
}

// TestSoloAct plays a toy game through Solo: only its player acts, a
// refused action stores nothing, the history is capped, the finish is
// named from the player's remembered name, its result recorded once, and
// a game over takes no more moves.
func TestSoloAct(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "solo.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := time.UnixMilli(1_700_000_000_000)
	s := &Solo{Store: st, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	ctx := context.Background()
	shape := sudoku.Shape{BoxRows: 2, BoxCols: 2}
	puzzle, err := sudoku.ParseCellGrid(shape, toyPuzzle)
	if err != nil {
		t.Fatal(err)
	}
	fixed := make([]bool, 16)
	for i, v := range puzzle.Cells {
		fixed[i] = v != 0
	}
	gm, err := game.FromGrid(puzzle, fixed)
	if err != nil {
		t.Fatal(err)
	}
	state, _ := json.Marshal(toyState{Board: gm.Snapshot()})
	rec := store.Game{ID: "g1", Kind: store.KindSudoku, Player: "ada", Size: "4x4", Level: "easy", Puzzle: toyPuzzle,
		Solution: toySolution, State: state, Status: store.StatusPlaying, Created: clock, Updated: clock}
	if err := s.Create(ctx, rec, &Session{}); err != nil {
		t.Fatal(err)
	}
	ada := Actor{Player: "ada", Name: "Ada"}
	act := func(who Actor, action string, apply func(g *toy, now time.Time) error) (Done[*toy], error) {
		return Act(ctx, s, Request{ID: "g1", Action: action, Who: who}, loadToy(s), apply)
	}
	kind := func(err error) ErrorKind {
		var pe *Error
		if !errors.As(err, &pe) {
			t.Fatalf("error %v is not a *play.Error", err)
		}
		return pe.Kind
	}
	if _, err := act(Actor{Player: "bob"}, "move", func(g *toy, _ time.Time) error { return g.set(14, 2) }); kind(err) != Forbidden {
		t.Errorf("bob's move: %v", err)
	}
	if _, err := act(ada, "move", func(g *toy, _ time.Time) error { return g.set(0, 2) }); kind(err) != Conflict {
		t.Errorf("a move on a given: %v", err)
	}
	for k := range MaxHistory + 20 { // pencil toggles, far past the cap
		if _, err := act(ada, "mark", func(g *toy, _ time.Time) error { _, err := g.gm.ToggleMark(3, 3, 1+k%4); return err }); err != nil {
			t.Fatal(err)
		}
	}
	finish := func(g *toy, now time.Time) error {
		if err := g.set(15, 1); err != nil {
			return err
		}
		if Solved(g) {
			g.rec.Status = store.StatusSolved
			g.st.Finish(now, now.Sub(g.rec.Created).Milliseconds())
		}
		return nil
	}
	if _, err := act(ada, "move", func(g *toy, _ time.Time) error { return g.set(14, 2) }); err != nil {
		t.Fatal(err)
	}
	d, err := act(ada, "move", finish)
	if err != nil {
		t.Fatal(err)
	}
	if d.Result == nil || d.Result.Name != "Ada" || d.Result.Flag != "" || d.Game.rec.Status != store.StatusSolved {
		t.Fatalf("finish: result %+v, status %s", d.Result, d.Game.rec.Status)
	}
	if n := len(d.Game.st.Board.Moves); n != MaxHistory {
		t.Errorf("%d moves kept, want %d", n, MaxHistory)
	}
	if _, err := act(ada, "move", func(g *toy, _ time.Time) error { return g.set(15, 0) }); kind(err) != Conflict {
		t.Errorf("a move on a finished game: %v", err)
	}
	if _, err := act(ada, "name", func(g *toy, _ time.Time) error { return nil }); kind(err) != Conflict {
		t.Errorf("naming a named finish: %v", err)
	}
	if r := s.Rank(ctx, d.Game.rec, &d.Game.st.Session); r != 1 {
		t.Errorf("rank %d, want 1", r)
	}
	stats, err := st.PlayerStats(ctx, "ada", clock)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Streak != 1 {
		t.Errorf("stats %+v: the win is not counted", stats)
	}
}
