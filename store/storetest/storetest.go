// Package storetest checks that a store.Store keeps its promises. Every
// implementation (SQLite today, PostgreSQL later) runs the same Run from
// its own tests, so the web and rooms can swap one for the other.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/store"
)

// Open makes a fresh, empty store for one subtest. Reopen, if not nil,
// closes s and opens the same database again (to prove that nothing lives
// only in memory).
type Open struct {
	New    func(t *testing.T) store.Store
	Reopen func(t *testing.T, s store.Store) store.Store
}

// Run runs every check against stores made by o.
func Run(t *testing.T, o Open) {
	t.Run("GameRoundTrip", func(t *testing.T) { gameRoundTrip(t, o) })
	t.Run("FinishOnce", func(t *testing.T) { finishOnce(t, o) })
	t.Run("LeaderboardOrder", func(t *testing.T) { leaderboardOrder(t, o) })
	t.Run("History", func(t *testing.T) { history(t, o) })
	t.Run("Markup", func(t *testing.T) { markup(t, o) })
	t.Run("Concurrent", func(t *testing.T) { concurrent(t, o) })
	t.Run("Expire", func(t *testing.T) { expire(t, o) })
	if o.Reopen != nil {
		t.Run("Reopen", func(t *testing.T) { reopen(t, o) })
	}
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func game(id string) store.Game {
	return store.Game{
		ID: id, Kind: store.KindSudoku, Player: "p1", Size: "9x9", Level: "easy",
		Puzzle: "puzzle-" + id, Solution: "solution-" + id, State: []byte(`{"cells":"0"}`),
		Status: store.StatusPlaying, Created: t0, Updated: t0,
	}
}

func result(game string, ms int64) store.Result {
	return store.Result{Kind: store.KindSudoku, Size: "9x9", Level: "easy", Player: "p1", Name: "Ada", Millis: ms, Finished: t0.Add(time.Duration(ms) * time.Millisecond)}
}

func gameRoundTrip(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	g := game("g1")
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, g); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("second CreateGame: got %v, want ErrDuplicate", err)
	}
	got, err := s.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(g) {
		t.Errorf("Game = %+v, want %+v", got, g)
	}
	g.State, g.Status, g.Updated = []byte(`{"cells":"1"}`), store.StatusRevealed, t0.Add(time.Minute)
	g.Puzzle = "changed" // not stored: the puzzle of a game never changes
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Game(ctx, "g1")
	if string(got.State) != `{"cells":"1"}` || got.Status != store.StatusRevealed || !got.Updated.Equal(g.Updated) || got.Puzzle != "puzzle-g1" {
		t.Errorf("after update: %+v", got)
	}
	if _, err := s.Game(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game(nope): %v, want ErrNotFound", err)
	}
	if err := s.UpdateGame(ctx, game("nope")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateGame(nope): %v, want ErrNotFound", err)
	}
}

func finishOnce(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	g := game("g1")
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Status = store.StatusSolved
	r, err := s.FinishGame(ctx, g, result("g1", 90_000))
	if err != nil {
		t.Fatal(err)
	}
	if r.ID == 0 || r.GameID != "g1" {
		t.Errorf("FinishGame returned %+v", r)
	}
	if _, err := s.FinishGame(ctx, g, result("g1", 80_000)); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("second FinishGame: %v, want ErrDuplicate", err)
	}
	// The failed second finish must not have touched the game either.
	got, _ := s.Game(ctx, "g1")
	if got.Status != store.StatusSolved {
		t.Errorf("status %q", got.Status)
	}
	if _, err := s.FinishGame(ctx, game("missing"), result("missing", 1)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("FinishGame(missing): %v, want ErrNotFound", err)
	}
	board, _ := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 0)
	if len(board) != 1 || board[0].Millis != 90_000 {
		t.Errorf("leaderboard after one finish: %+v", board)
	}
}

func leaderboardOrder(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	add := func(id string, r store.Result) {
		t.Helper()
		g := game(id)
		g.Size, g.Level = r.Size, r.Level
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		g.Status = store.StatusSolved
		if _, err := s.FinishGame(ctx, g, r); err != nil {
			t.Fatal(err)
		}
	}
	r := func(ms int64, hints, mistakes int, name string) store.Result {
		x := result("", ms)
		x.Hints, x.Mistakes, x.Name = hints, mistakes, name
		return x
	}
	add("a", r(60_000, 0, 0, "slow"))
	add("b", r(30_000, 2, 0, "fast-hints"))
	add("c", r(30_000, 0, 1, "fast-mistake"))
	add("d", r(45_000, 0, 0, "middle"))
	other := r(1_000, 0, 0, "other board")
	other.Level = "hard"
	add("e", other)
	sixteen := r(1_000, 0, 0, "16x16")
	sixteen.Size = "16x16"
	add("f", sixteen)
	kak := r(1_000, 0, 0, "kakuro")
	kak.Kind = store.KindKakuro
	add("g", kak)

	got, err := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range got {
		names = append(names, x.Name)
	}
	want := "[fast-mistake fast-hints middle slow]"
	if fmt.Sprint(names) != want {
		t.Errorf("leaderboard = %v, want %s", names, want)
	}
	top, _ := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 2)
	if len(top) != 2 {
		t.Errorf("limit 2 gave %d", len(top))
	}
}

func history(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	for i, p := range []string{"p1", "p2", "p1", "p1"} {
		id := fmt.Sprintf("h%d", i)
		g := game(id)
		g.Player = p
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		r := result(id, int64(1000*(i+1)))
		r.Player = p
		r.Finished = t0.Add(time.Duration(i) * time.Hour)
		g.Status = store.StatusSolved
		if _, err := s.FinishGame(ctx, g, r); err != nil {
			t.Fatal(err)
		}
	}
	h, err := s.History(ctx, "p1", 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range h {
		ids = append(ids, r.GameID)
	}
	if fmt.Sprint(ids) != "[h3 h2 h0]" {
		t.Errorf("history of p1 = %v, want newest first [h3 h2 h0]", ids)
	}
	if h, _ := s.History(ctx, "nobody", 0); len(h) != 0 {
		t.Errorf("history of nobody: %v", h)
	}
}

// markup checks that names and ids full of SQL and HTML are stored as the
// plain strings they are: statements are parameterised.
func markup(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	id := `x'); DROP TABLE results; --`
	g := game(id)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	r := result(id, 5000)
	r.Name = `<script>alert(1)</script>'"`
	g.Status = store.StatusSolved
	if _, err := s.FinishGame(ctx, g, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 0)
	if err != nil || len(got) != 1 || got[0].Name != r.Name || got[0].GameID != id {
		t.Errorf("leaderboard = %+v, %v", got, err)
	}
}

// expire checks ExpireGames on a store that has it: unsolved games idle
// too long go (and those never played, sooner); solved games, their
// results and recent games stay.
func expire(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	ex, ok := s.(store.Expirer)
	if !ok {
		t.Skipf("%T does not implement store.Expirer", s)
	}
	day := 24 * time.Hour
	now := t0.Add(100 * day)
	add := func(id, status string, created, updated time.Time) {
		t.Helper()
		g := game(id)
		g.Created, g.Updated = created, created
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		g.Status, g.Updated = status, updated
		if status == store.StatusSolved {
			if _, err := s.FinishGame(ctx, g, result(id, 1000)); err != nil {
				t.Fatal(err)
			}
		} else if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	old, recent := now.Add(-40*day), now.Add(-10*day)
	add("idle", store.StatusPlaying, old, old.Add(time.Hour))                   // played, then left 40 days: goes
	add("revealed", store.StatusRevealed, old, old.Add(time.Hour))              // solution shown 40 days ago: goes
	add("unplayed", store.StatusPlaying, now.Add(-2*day), now.Add(-2*day))      // started 2 days ago, never played: goes
	add("fresh", store.StatusPlaying, now.Add(-time.Hour), now.Add(-time.Hour)) // started an hour ago: stays
	add("playing", store.StatusPlaying, old, recent)                            // played 10 days ago: stays
	add("solved", store.StatusSolved, old.Add(-100*day), old)                   // solved long ago: stays, with its result
	n, err := ex.ExpireGames(ctx, now.Add(-30*day), now.Add(-day))
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("ExpireGames deleted %d games, want 3", n)
	}
	for id, want := range map[string]bool{"idle": false, "revealed": false, "unplayed": false, "fresh": true, "playing": true, "solved": true} {
		_, err := s.Game(ctx, id)
		if got := err == nil; got != want {
			t.Errorf("game %s kept: %v, want %v (%v)", id, got, want, err)
		}
	}
	if b, _ := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 0); len(b) != 1 || b[0].GameID != "solved" {
		t.Errorf("leaderboard after expiry: %+v", b)
	}
	if n, err := ex.ExpireGames(ctx, now.Add(-30*day), now.Add(-day)); err != nil || n != 0 {
		t.Errorf("second ExpireGames: %d, %v; want 0", n, err)
	}
}

// concurrent runs four readers beside two writers: no "database is locked"
// may reach a caller.
func concurrent(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	for i := range 8 {
		if err := s.CreateGame(ctx, game(fmt.Sprint("c", i))); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				g := game(fmt.Sprint("c", (i+w)%8))
				g.State = []byte(fmt.Sprintf(`{"move":%d}`, i))
				if err := s.UpdateGame(ctx, g); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				if _, err := s.Game(ctx, fmt.Sprint("c", i%8)); err != nil {
					errs <- err
					return
				}
				if _, err := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 0); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func reopen(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	g := game("r1")
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.State = []byte(`{"after":"move"}`)
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g2 := game("r2")
	if err := s.CreateGame(ctx, g2); err != nil {
		t.Fatal(err)
	}
	g2.Status = store.StatusSolved
	if _, err := s.FinishGame(ctx, g2, result("r2", 1234)); err != nil {
		t.Fatal(err)
	}
	s = o.Reopen(t, s)
	got, err := s.Game(ctx, "r1")
	if err != nil || string(got.State) != `{"after":"move"}` {
		t.Errorf("after reopening: %+v, %v", got, err)
	}
	board, err := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 0)
	if err != nil || len(board) != 1 || board[0].Millis != 1234 {
		t.Errorf("leaderboard after reopening: %+v, %v", board, err)
	}
}
