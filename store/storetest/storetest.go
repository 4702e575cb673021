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
	t.Run("Matches", func(t *testing.T) { matches(t, o) })
	t.Run("ModesApart", func(t *testing.T) { modesApart(t, o) })
	t.Run("Expire", func(t *testing.T) { expire(t, o) })
	t.Run("Dailies", func(t *testing.T) { dailies(t, o) })
	t.Run("DailyBoard", func(t *testing.T) { dailyBoard(t, o) })
	t.Run("Stats", func(t *testing.T) { stats(t, o) })
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

	// Two servers change the game from the same version: the first
	// wins, the second is told to read it again; a finish too.
	base := got.Updated
	a, b := got, got
	a.Base, a.Updated, a.State = base, base.Add(time.Millisecond), []byte(`{"by":"a"}`)
	b.Base, b.Updated, b.State = base, base.Add(time.Millisecond), []byte(`{"by":"b"}`)
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatalf("the first conditional update: %v", err)
	}
	if err := s.UpdateGame(ctx, b); !errors.Is(err, store.ErrConflict) {
		t.Errorf("the second from the same base: %v, want ErrConflict", err)
	}
	if _, err := s.FinishGame(ctx, b, result("g1", 1000)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a finish from a stale base: %v, want ErrConflict", err)
	}
	if got, _ = s.Game(ctx, "g1"); string(got.State) != `{"by":"a"}` {
		t.Errorf("after the conflict the game holds %s", got.State)
	}
	if r, err := s.History(ctx, "p1", 0); err != nil || len(r) != 0 {
		t.Errorf("the refused finish left results: %+v %v", r, err)
	}
	nope := game("nope")
	nope.Base, nope.Updated = base, base.Add(time.Millisecond)
	if err := s.UpdateGame(ctx, nope); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a conditional UpdateGame(nope): %v, want ErrNotFound", err)
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
	// Flagged results (too fast, assisted) stay off the leaderboard.
	tooFast := r(500, 0, 0, "too fast")
	tooFast.Flag = store.FlagTooFast
	add("h", tooFast)
	assisted := r(700, 0, 0, "assisted")
	assisted.Flag = store.FlagAssists
	add("i", assisted)

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
		if i == 2 {
			r.Flag = store.FlagTooFast // flagged results stay in the history
		}
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
	if len(h) == 3 && h[1].Flag != store.FlagTooFast {
		t.Errorf("history h2 flag = %q, want %q", h[1].Flag, store.FlagTooFast)
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
	m := match("m1", t0)
	if _, err := s.SaveMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	s = o.Reopen(t, s)
	if got, err := s.Match(ctx, "m1"); err != nil || len(got.Seats) != 3 {
		t.Errorf("match after reopening: %+v, %v", got, err)
	}
	got, err := s.Game(ctx, "r1")
	if err != nil || string(got.State) != `{"after":"move"}` {
		t.Errorf("after reopening: %+v, %v", got, err)
	}
	board, err := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 0)
	if err != nil || len(board) != 1 || board[0].Millis != 1234 {
		t.Errorf("leaderboard after reopening: %+v, %v", board, err)
	}
}

// match is a three-seat race: Ada won, Bob came second, Cy left.
func match(id string, started time.Time) store.Match {
	return store.Match{
		ID: id, Mode: store.ModeRace, Kind: store.KindSudoku, Size: "9x9", Level: "easy",
		Puzzle: "puzzle-" + id, Room: "ABC234", Started: started, Ended: started.Add(3 * time.Minute),
		Seats: []store.Seat{
			{Player: "pa", Name: "Ada", Placing: 1, Millis: 100_000, Filled: 81, Mistakes: 1, Hints: 2, State: []byte(`{"moves":["a"]}`)},
			{Player: "pb", Name: "<b>Bob</b>", Placing: 2, Millis: 150_000, Filled: 81, Hints: 5, State: []byte(`{"moves":["b"]}`)},
			{Player: "pc", Name: "Cy", Placing: 0, Filled: 40, Mistakes: 3, State: []byte(`{"moves":["c"]}`)},
		},
	}
}

// matches saves multiplayer matches and reads them back every way the
// pages do: the match with its seats, a player's matches, the finishers'
// results in their history and on the race leaderboard.
func matches(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	m := match("m1", t0)
	saved := saveMatchOnce(t, s, m)
	readMatchBack(t, s, m, saved)
	// A later co-op match Ada played alone with Bob.
	co := match("m2", t0.Add(time.Hour))
	co.Mode = store.ModeCoop
	co.Seats = co.Seats[:2]
	co.Seats[1].Placing, co.Seats[1].Millis = 1, 100_000
	if _, err := s.SaveMatch(ctx, co); err != nil {
		t.Fatal(err)
	}
	playerMatches(t, s)
	finishersResults(t, s)
}

// saveMatchOnce saves m, then checks that it cannot be saved twice and
// that a match without an id or of an unknown mode is refused.
func saveMatchOnce(t *testing.T, s store.Store, m store.Match) store.Match {
	t.Helper()
	ctx := context.Background()
	saved, err := s.SaveMatch(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range saved.Seats {
		if st.GameID == "" {
			t.Errorf("seat %d has no game id", i)
		}
	}
	if _, err := s.SaveMatch(ctx, m); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("second SaveMatch: %v, want ErrDuplicate", err)
	}
	bad := match("", t0)
	if _, err := s.SaveMatch(ctx, bad); err == nil {
		t.Error("a match without an id was saved")
	}
	bad = match("m-bad", t0)
	bad.Mode = "chess"
	if _, err := s.SaveMatch(ctx, bad); err == nil {
		t.Error("a match of mode chess was saved")
	}
	return saved
}

// readMatchBack reads match m (saved as saved) back with its seats, and
// each seat's game.
func readMatchBack(t *testing.T, s store.Store, m, saved store.Match) {
	t.Helper()
	ctx := context.Background()
	got, err := s.Match(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Mode != store.ModeRace || got.Room != "ABC234" || !got.Started.Equal(t0) || !got.Ended.Equal(t0.Add(3*time.Minute)) || len(got.Seats) != 3 {
		t.Fatalf("Match = %+v", got)
	}
	for i, st := range got.Seats {
		want := m.Seats[i]
		want.GameID = saved.Seats[i].GameID
		if fmt.Sprint(st) != fmt.Sprint(want) {
			t.Errorf("seat %d = %+v, want %+v", i, st, want)
		}
	}
	// Each seat's board is a game of its player, finished or not.
	if g, err := s.Game(ctx, saved.Seats[2].GameID); err != nil || g.Status != store.StatusUnfinished || g.Player != "pc" || string(g.State) != `{"moves":["c"]}` {
		t.Errorf("unfinished seat's game: %+v, %v", g, err)
	}
	if g, err := s.Game(ctx, saved.Seats[0].GameID); err != nil || g.Status != store.StatusSolved {
		t.Errorf("winner's game: %+v, %v", g, err)
	}
	if _, err := s.Match(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Match(nope): %v, want ErrNotFound", err)
	}
}

// playerMatches lists the two matches by player: newest first, without
// the seats' states, within the limit.
func playerMatches(t *testing.T, s store.Store) {
	t.Helper()
	ctx := context.Background()
	list, err := s.PlayerMatches(ctx, "pa", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "m2" || list[1].ID != "m1" || len(list[1].Seats) != 3 || list[1].Seats[1].Name != "<b>Bob</b>" {
		t.Fatalf("PlayerMatches(pa) = %+v", list)
	}
	if list[1].Seats[0].State != nil {
		t.Errorf("PlayerMatches carries states: %q", list[1].Seats[0].State)
	}
	if l, _ := s.PlayerMatches(ctx, "pc", 0); len(l) != 1 || l[0].ID != "m1" {
		t.Errorf("PlayerMatches(pc) = %+v", l)
	}
	if l, _ := s.PlayerMatches(ctx, "pa", 1); len(l) != 1 {
		t.Errorf("limit 1 gave %d", len(l))
	}
	if l, err := s.PlayerMatches(ctx, "nobody", 0); err != nil || len(l) != 0 {
		t.Errorf("PlayerMatches(nobody) = %+v, %v", l, err)
	}
}

// finishersResults: finishers have results, in their history with where
// they placed and on their mode's leaderboard, never on the solo one.
func finishersResults(t *testing.T, s store.Store) {
	t.Helper()
	ctx := context.Background()
	h, err := s.History(ctx, "pb", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].Mode != store.ModeCoop || h[1].Mode != store.ModeRace || h[1].Placing != 2 || h[1].Players != 3 || h[1].Match != "m1" || h[1].Hints != 5 {
		t.Errorf("History(pb) = %+v", h)
	}
	if h, _ := s.History(ctx, "pc", 0); len(h) != 0 {
		t.Errorf("a player who did not finish has results: %+v", h)
	}
	race, err := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy", Mode: store.ModeRace}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(race) != 2 || race[0].Name != "Ada" || race[0].Millis != 100_000 || race[0].Placing != 1 || race[1].Name != "<b>Bob</b>" {
		t.Errorf("race leaderboard = %+v", race)
	}
	if solo, _ := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 0); len(solo) != 0 {
		t.Errorf("solo leaderboard has multiplayer results: %+v", solo)
	}
	if coop, _ := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy", Mode: store.ModeCoop}, 0); len(coop) != 2 {
		t.Errorf("co-op leaderboard = %+v", coop)
	}
}

// modesApart checks that a solo result reads back as ModeSolo and that
// Board's zero Mode is the solo board.
func modesApart(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	g := game("solo1")
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Status = store.StatusSolved
	r, err := s.FinishGame(ctx, g, result("solo1", 5000))
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != store.ModeSolo {
		t.Errorf("FinishGame returned mode %q", r.Mode)
	}
	for _, mode := range []string{"", store.ModeSolo} {
		b, err := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy", Mode: mode}, 0)
		if err != nil || len(b) != 1 || b[0].Mode != store.ModeSolo || b[0].Placing != 0 || b[0].Match != "" {
			t.Errorf("mode %q: %+v, %v", mode, b, err)
		}
	}
	if b, _ := s.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy", Mode: store.ModeRace}, 0); len(b) != 0 {
		t.Errorf("race board has the solo result: %+v", b)
	}
}

// dailies: the first puzzle written for a day stays, whoever writes next;
// kinds and days are apart.
func dailies(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	if _, err := s.Daily(ctx, "2025-03-01", store.KindSudoku); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no daily yet: %v, want ErrNotFound", err)
	}
	first := store.Daily{Day: "2025-03-01", Kind: store.KindSudoku, Size: "9x9", Level: "medium", Puzzle: "p1", Solution: "s1",
		Info: []byte(`{"rating":2.5}`), Created: t0}
	got, err := s.SaveDaily(ctx, first)
	if err != nil || got.Puzzle != "p1" || string(got.Info) != `{"rating":2.5}` || !got.Created.Equal(t0) {
		t.Fatalf("save: %+v, %v", got, err)
	}
	second := first
	second.Puzzle, second.Solution = "p2", "s2"
	if got, err = s.SaveDaily(ctx, second); err != nil || got.Puzzle != "p1" || got.Solution != "s1" {
		t.Errorf("a second save of the day: %+v, %v; want the first kept", got, err)
	}
	other := first
	other.Day, other.Puzzle = "2025-03-02", "p3"
	if got, err = s.SaveDaily(ctx, other); err != nil || got.Puzzle != "p3" {
		t.Errorf("the next day: %+v, %v", got, err)
	}
	if got, err = s.Daily(ctx, "2025-03-01", store.KindSudoku); err != nil || got.Puzzle != "p1" {
		t.Errorf("read back: %+v, %v", got, err)
	}
	if _, err := s.Daily(ctx, "2025-03-01", store.KindKakuro); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another kind: %v", err)
	}
	// Concurrent saves of one day agree.
	var wg sync.WaitGroup
	seen := make(chan string, 8)
	for k := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := first
			d.Day, d.Puzzle = "2025-04-01", fmt.Sprint("c", k)
			if got, err := s.SaveDaily(ctx, d); err == nil {
				seen <- got.Puzzle
			} else {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	close(seen)
	one := ""
	for p := range seen {
		if one == "" {
			one = p
		}
		if p != one {
			t.Errorf("concurrent saves of a day read back %q and %q", one, p)
		}
	}
}

// dailyBoard: a daily result is on its day's board only, and the daily
// board never holds the other games'.
func dailyBoard(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	for k, day := range []string{"", "2025-03-01", "2025-03-01", "2025-03-02"} {
		g := game(fmt.Sprint("d", k))
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		g.Status = store.StatusSolved
		r := result(g.ID, int64(1000*(k+1)))
		r.Daily = day
		if _, err := s.FinishGame(ctx, g, r); err != nil {
			t.Fatal(err)
		}
	}
	b := store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}
	if list, _ := s.Leaderboard(ctx, b, 0); len(list) != 1 || list[0].Daily != "" {
		t.Errorf("the 9x9 easy board: %+v", list)
	}
	b.Daily = "2025-03-01"
	list, err := s.Leaderboard(ctx, b, 0)
	if err != nil || len(list) != 2 || list[0].Millis != 2000 || list[0].Daily != "2025-03-01" {
		t.Errorf("the daily board: %+v, %v", list, err)
	}
	if h, _ := s.History(ctx, "p1", 0); len(h) != 4 {
		t.Errorf("history has %d results, want all 4", len(h))
	}
}

// stats: plays start, end once, and sum up per board, with streaks of
// games won and of daily puzzles solved.
func stats(t *testing.T, o Open) {
	ctx := context.Background()
	s := o.New(t)
	at := t0
	play := func(id, level, daily string) store.Play {
		at = at.Add(time.Minute)
		p := store.Play{GameID: id, Player: "p1", Kind: store.KindSudoku, Size: "9x9", Level: level, Daily: daily,
			Outcome: store.OutcomePlaying, Started: at}
		if err := s.RecordPlay(ctx, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	end := func(p store.Play, outcome string, ms int64) {
		at = at.Add(time.Minute)
		p.Outcome, p.Millis, p.Ended = outcome, ms, at
		if err := s.RecordPlay(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	// easy: won 60 s, won 40 s, lost, won 50 s, one left unfinished.
	e1, e2, e3, e4 := play("e1", "easy", ""), play("e2", "easy", ""), play("e3", "easy", ""), play("e4", "easy", "")
	play("e5", "easy", "")
	end(e1, store.OutcomeWon, 60000)
	end(e2, store.OutcomeWon, 40000)
	end(e3, store.OutcomeLost, 0)
	end(e4, store.OutcomeWon, 50000)
	end(e4, store.OutcomeLost, 1) // an end written twice counts once, the first
	// hard: won. Daily puzzles solved on three days in a row, one missed,
	// then today and yesterday.
	end(play("h1", "hard", ""), store.OutcomeWon, 300000)
	for _, day := range []string{"2025-02-20", "2025-02-21", "2025-02-22", "2025-02-27", "2025-02-28"} {
		end(play("d"+day, "medium", day), store.OutcomeWon, 90000)
	}
	end(play("dlost", "medium", "2025-02-26"), store.OutcomeLost, 0)
	if err := s.RecordPlay(ctx, store.Play{GameID: "x", Player: "p1", Outcome: "maybe"}); err == nil {
		t.Error("a play with an unknown outcome was recorded")
	}
	st, err := s.PlayerStats(ctx, "p1", time.Date(2025, 2, 28, 23, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var easy store.Stat
	for _, b := range st.Boards {
		if b.Level == "easy" {
			easy = b
		}
	}
	want := store.Stat{Kind: store.KindSudoku, Size: "9x9", Level: "easy", Started: 5, Won: 3, Lost: 1, BestMillis: 40000, TotalMillis: 150000, Streak: 1, BestStreak: 2}
	if easy != want {
		t.Errorf("easy: %+v\nwant  %+v", easy, want)
	}
	if len(st.Boards) != 3 {
		t.Errorf("%d boards, want easy, hard and medium: %+v", len(st.Boards), st.Boards)
	}
	// Over all: e1 e2 (2), e3 lost, e4 h1 and six dailies but one lost
	// (the lost one ended last).
	if st.BestStreak != 7 || st.Streak != 0 {
		t.Errorf("streak %d, best %d; want 0 and 7", st.Streak, st.BestStreak)
	}
	if st.DailySolved != 5 || st.DailyStreak != 2 || st.BestDailyStreak != 3 {
		t.Errorf("daily: solved %d, streak %d, best %d; want 5, 2, 3", st.DailySolved, st.DailyStreak, st.BestDailyStreak)
	}
	if st, _ := s.PlayerStats(ctx, "p1", time.Date(2025, 3, 5, 0, 0, 0, 0, time.UTC)); st.DailyStreak != 0 {
		t.Errorf("days later the daily streak is %d, want 0", st.DailyStreak)
	}
	ps, err := s.DailyPlays(ctx, "p1", "2025-02-27")
	if err != nil || len(ps) != 1 || ps[0].GameID != "d2025-02-27" || ps[0].Outcome != store.OutcomeWon || ps[0].Ended.IsZero() {
		t.Errorf("daily plays: %+v, %v", ps, err)
	}
	if st, _ := s.PlayerStats(ctx, "nobody", at); len(st.Boards) != 0 || st.Streak != 0 {
		t.Errorf("a stranger's statistics: %+v", st)
	}
}
