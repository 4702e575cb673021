package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// The hostile-client suite for fair play (issue 19, findings 1–5, 11,
// 12): each test plays an attack seen against `sudokuar serve` and checks
// that no attacker reaches a leaderboard with a time under the
// plausibility floor or with hidden assists, while an innocent player on
// another address keeps playing (their requests all answered; their
// latency is logged, never asserted: the machine may be loaded).

// fairServer is a server with a fake clock (so "fast" is exact) and rates
// high enough for the floods below.
func fairServer(t *testing.T) (*apiServer, *fakeClock) {
	clock := newFakeClock()
	a := newAPIServer(t, Config{Now: clock.Now, Limits: Limits{Requests: Rate{PerMinute: 1_000_000, Burst: 1_000_000}}})
	return a, clock
}

// newSolo starts an easy 9×9 for p and returns its id, puzzle and (from
// the store, as /api/solve would give it) solution.
func newSolo(t *testing.T, p *peer) (id, puzzle, solution string) {
	t.Helper()
	s, v, _ := p.post("/api/games", `{"size":"9","level":"easy"}`)
	if s != 201 {
		t.Fatalf("new game: %d %v", s, v)
	}
	id = v["id"].(string)
	rec, err := p.a.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return id, rec.Puzzle, rec.Solution
}

// innocent plays moves (a digit and its erasure, over and over) on its
// own game from another address until stop is closed, and reports how
// many it sent, the failures and the slowest answer.
type innocent struct {
	stop chan struct{}
	done chan struct{}
	halt func()
	n    int
	bad  []string
	lat  []time.Duration
}

func startInnocent(t *testing.T, a *apiServer) *innocent {
	p := a.peer(t, "127.0.0.9")
	p.visit()
	id, puzzle, _ := newSolo(t, p)
	cell := strings.Index(puzzle, "0")
	in := &innocent{stop: make(chan struct{}), done: make(chan struct{})}
	var once sync.Once
	in.halt = func() { once.Do(func() { close(in.stop); <-in.done }) }
	t.Cleanup(in.halt) // also when the test stops early
	go func() {
		defer close(in.done)
		for k := 0; ; k++ {
			select {
			case <-in.stop:
				return
			default:
			}
			// Not p.post: its t.Fatal must not run on this goroutine.
			start := time.Now()
			body := strings.NewReader(fmt.Sprintf(`{"cell":%d,"value":%d}`, cell, k%2))
			res, err := p.http.Post(a.URL+"/api/games/"+id+"/move", "application/json", body)
			in.lat = append(in.lat, time.Since(start))
			in.n++
			switch {
			case err != nil:
				in.bad = append(in.bad, err.Error())
			case res.StatusCode != 200:
				in.bad = append(in.bad, res.Status)
			}
			if err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		}
	}()
	return in
}

// finish stops the innocent player and checks every request was answered.
func (in *innocent) finish(t *testing.T) {
	t.Helper()
	in.halt()
	if len(in.bad) > 0 {
		t.Errorf("the innocent player was refused %d of %d moves: %v", len(in.bad), in.n, in.bad[0])
	}
	slices.Sort(in.lat)
	if len(in.lat) > 0 {
		t.Logf("innocent: %d moves meanwhile, p50 %v, p99 %v", in.n, in.lat[len(in.lat)/2], in.lat[len(in.lat)*99/100])
	}
}

// noRanked checks that nothing reached the 9×9 easy leaderboard.
func noRanked(t *testing.T, a *apiServer, kind string) {
	t.Helper()
	b := store.Board{Kind: kind, Size: "9x9", Level: "easy"}
	if kind == store.KindKakuro {
		b.Size = "5x5"
	}
	if list, _ := a.store.Leaderboard(context.Background(), b, 0); len(list) != 0 {
		t.Errorf("an attacker is on the leaderboard: %+v", list)
	}
}

// TestFairSolveAndFastFinish: the attacker reads the puzzle, gets its
// solution from /api/solve (public, and fine), and plays every digit at
// once. The last digit ends the game, flagged "too fast": in the
// history, not on the leaderboard. A player who takes plausible time on
// the same kind of puzzle is ranked #1.
func TestFairSolveAndFastFinish(t *testing.T) {
	a, clock := fairServer(t)
	in := startInnocent(t, a)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	id, puzzle, _ := newSolo(t, p)
	s, sv, _ := p.post("/api/solve", `{"puzzle":"`+puzzle+`"}`)
	if s != 200 {
		t.Fatalf("solve: %d %v", s, sv)
	}
	solution := sv["solution"].(string)
	var last map[string]any
	for i := range puzzle {
		if puzzle[i] == '0' {
			_, last, _ = p.post("/api/games/"+id+"/move", fmt.Sprintf(`{"cell":%d,"value":%c,"name":"Mallory"}`, i, solution[i]))
		}
	}
	if last["status"] != "solved" || last["flag"] != store.FlagTooFast || last["rank"] != nil {
		t.Errorf("the instant finish: status %v, flag %v, rank %v; want solved, flagged too fast, unranked", last["status"], last["flag"], last["rank"])
	}
	noRanked(t, a, store.KindSudoku)
	rec, _ := a.store.Game(context.Background(), id)
	if h, _ := a.store.History(context.Background(), rec.Player, 0); len(h) != 1 || h[0].Flag != store.FlagTooFast {
		t.Errorf("history %+v: want the flagged result kept", h)
	}

	// An honest player: a plausible pace (the floor is per step).
	q := a.peer(t, "127.0.0.3")
	q.visit()
	id2, puzzle2, sol2 := newSolo(t, q)
	var fin map[string]any
	for i := range puzzle2 {
		if puzzle2[i] == '0' {
			clock.Add(2 * time.Second)
			_, fin, _ = q.post("/api/games/"+id2+"/move", fmt.Sprintf(`{"cell":%d,"value":%c,"name":"Ada"}`, i, sol2[i]))
		}
	}
	if fin["status"] != "solved" || fin["flag"] != nil || fin["rank"] != 1.0 || fin["result"] == nil {
		t.Errorf("the honest finish: %v", fin)
	}
	in.finish(t)
}

// TestFairProbing: the attacker tries every digit in every cell and reads
// each answer for a sign of right or wrong. A ranked game answers a right
// and a wrong digit the same way (besides the rules' conflicts); the
// "show mistakes" assist and check do tell, and the game is then
// unranked whatever its time.
func TestFairProbing(t *testing.T) {
	a, clock := fairServer(t)
	in := startInnocent(t, a)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	id, puzzle, solution := newSolo(t, p)
	cell := strings.Index(puzzle, "0")
	signal := func(v map[string]any) string {
		for _, k := range []string{"wrong", "checked", "mistakes", "solution", "hint"} {
			if x, ok := v[k]; ok && fmt.Sprint(x) != "[]" {
				return fmt.Sprintf("%s=%v", k, x)
			}
		}
		return ""
	}
	for d := 1; d <= 9; d++ {
		s, v, _ := p.post("/api/games/"+id+"/move", fmt.Sprintf(`{"cell":%d,"value":%d}`, cell, d))
		if s != 200 {
			t.Fatalf("probe %d: %d %v", d, s, v)
		}
		if sig := signal(v); sig != "" {
			t.Errorf("probing digit %d of r%dc%d: the answer tells %s", d, cell/9+1, cell%9+1, sig)
		}
	}
	s, v, _ := p.do("GET", "/api/games/"+id, "", nil)
	if sig := signal(v); s != 200 || sig != "" {
		t.Errorf("GET after probing tells %s", sig)
	}
	// Submit on a full wrong grid says only that it is not solved.
	for i := range puzzle {
		if puzzle[i] == '0' {
			d := solution[i]
			if i == cell {
				d = '0' + byte((int(solution[i]-'0'))%9+1)
			}
			p.post("/api/games/"+id+"/move", fmt.Sprintf(`{"cell":%d,"value":%c}`, i, d))
		}
	}
	s, v, _ = p.post("/api/games/"+id+"/submit", `{"name":"Mallory"}`)
	if s != 409 || signal(v) != "" || strings.Contains(fmt.Sprint(v["error"]), fmt.Sprintf("r%dc%d", cell/9+1, cell%9+1)) {
		t.Errorf("submit of a wrong grid: %d %v", s, v)
	}
	// Check tells, and the game is assisted from then on.
	s, v, _ = p.post("/api/games/"+id+"/check", `{}`)
	if s != 200 || fmt.Sprint(v["checked"]) != fmt.Sprintf("[%d]", cell) || v["assisted"] != true {
		t.Errorf("check: %d %v", s, v)
	}
	clock.Add(time.Hour) // however slow: assisted is unranked
	s, v, _ = p.post("/api/games/"+id+"/move", fmt.Sprintf(`{"cell":%d,"value":%c,"name":"Mallory"}`, cell, solution[cell]))
	if s != 200 || v["status"] != "solved" || v["flag"] != store.FlagAssists {
		t.Errorf("finish after check: %d %v", s, v)
	}
	noRanked(t, a, store.KindSudoku)
	in.finish(t)
}

// TestFairPausedHidesBoard: a paused game's answers hold neither the
// puzzle nor the board, so the clock cannot be stopped to study it.
func TestFairPausedHidesBoard(t *testing.T) {
	a, _ := fairServer(t)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	id, puzzle, _ := newSolo(t, p)
	s, v, _ := p.post("/api/games/"+id+"/pause", `{}`)
	if s != 200 || v["paused"] != true {
		t.Fatalf("pause: %d %v", s, v)
	}
	_, g, _ := p.do("GET", "/api/games/"+id, "", nil)
	for _, x := range []map[string]any{v, g} {
		raw, _ := json.Marshal(x)
		if x["puzzle"] != "" || x["cells"] != "" || strings.Contains(string(raw), puzzle[:20]) {
			t.Errorf("a paused game shows its board: %s", raw)
		}
	}
	if _, v, _ := p.post("/api/games/"+id+"/resume", `{}`); v["puzzle"] != puzzle {
		t.Errorf("resumed: puzzle %v", v["puzzle"])
	}
}

// TestFairStolenLink: a shared /play/ID link lets another browser watch,
// never act; a request without a cookie acts on nothing; a cross-site
// form (text/plain, form-encoded) is refused before anything happens.
func TestFairStolenLink(t *testing.T) {
	a, _ := fairServer(t)
	in := startInnocent(t, a)
	owner := a.peer(t, "127.0.0.2")
	owner.visit()
	id, puzzle, solution := newSolo(t, owner)
	thief := a.peer(t, "127.0.0.3")
	thief.visit()
	cell := strings.Index(puzzle, "0")
	move := fmt.Sprintf(`{"cell":%d,"value":%c,"name":"Mallory"}`, cell, solution[cell])
	for _, action := range []string{"move", "hint", "check", "errors", "pause", "solution", "name", "submit", "undo"} {
		s, v, _ := thief.post("/api/games/"+id+"/"+action, move)
		if s != 403 {
			t.Errorf("another browser's %s: %d %v, want 403", action, s, v)
		}
	}
	s, v, _ := thief.do("GET", "/api/games/"+id, "", nil)
	if s != 200 || v["watching"] != true || v["solution"] != nil {
		t.Errorf("another browser's view: %d %v, want a watcher's", s, v)
	}
	if s, v, _ := owner.do("GET", "/api/games/"+id, "", nil); v["watching"] != nil {
		t.Errorf("the owner's view: %d %v", s, v)
	}
	anon := a.peer(t, "127.0.0.4")
	if s, _, _ := anon.post("/api/games/"+id+"/move", move); s != 403 {
		t.Errorf("no cookie: %d, want 403", s)
	}
	for _, ct := range []string{"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
		if s, _, _ := owner.do("POST", "/api/games/"+id+"/move", ct, strings.NewReader(move)); s != 415 {
			t.Errorf("the owner's move as %q: %d, want 415", ct, s)
		}
		if s, _, _ := owner.do("POST", "/api/games/"+id+"/solution", ct, strings.NewReader("")); s != 415 {
			t.Errorf("a cross-site solution as %q: %d, want 415", ct, s)
		}
	}
	rec, _ := a.store.Game(context.Background(), id)
	var sess session
	json.Unmarshal(rec.State, &sess)
	if rec.Status != store.StatusPlaying || sess.Hints != 0 || len(sess.Board.Moves) != 0 {
		t.Errorf("the game changed: status %s, %d hints, %d moves", rec.Status, sess.Hints, len(sess.Board.Moves))
	}
	in.finish(t)
}

// TestFairHints: every hint that reaches the engine is counted, failed
// ones included; the sixth, and any on a finished game, is refused before
// the engine.
func TestFairHints(t *testing.T) {
	a, _ := fairServer(t)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	id, puzzle, solution := newSolo(t, p)
	for k := 1; k <= play.MaxHints; k++ {
		s, v, _ := p.post("/api/games/"+id+"/hint", `{}`)
		if s != 200 || v["hints"] != float64(k) || v["hint"] == nil {
			t.Fatalf("hint %d: %d %v", k, s, v)
		}
	}
	if s, v, _ := p.post("/api/games/"+id+"/hint", `{}`); s != 409 || !strings.Contains(fmt.Sprint(v["error"]), "no hints left") {
		t.Errorf("sixth hint: %d %v", s, v)
	}
	for i := range puzzle {
		if puzzle[i] == '0' {
			p.post("/api/games/"+id+"/move", fmt.Sprintf(`{"cell":%d,"value":%c}`, i, solution[i]))
		}
	}
	if s, v, _ := p.post("/api/games/"+id+"/hint", `{}`); s != 409 || !strings.Contains(fmt.Sprint(v["error"]), "over") {
		t.Errorf("a hint on a finished game: %d %v", s, v)
	}
	// A hint the engine fails to give still counts (it cost the engine
	// its work), and the engine runs outside the game's lock: another
	// action on the game goes through while it works.
	id2, _, _ := newSolo(t, p)
	rec, _ := a.store.Game(context.Background(), id2)
	who := play.Actor{Player: rec.Player}
	working := make(chan struct{})
	release := make(chan struct{})
	failing := func(ctx context.Context, puzzle, cur sudoku.Grid) (logic.Advice, error) {
		close(working)
		<-release
		return logic.Advice{}, errors.New("the logic engine found no step in time")
	}
	errc := make(chan error, 1)
	go func() {
		_, err := a.web.games.act(context.Background(), id2, "hint", who, Action{}, failing)
		errc <- err
	}()
	<-working
	if _, err := a.web.games.act(context.Background(), id2, "pause", who, Action{}, nil); err != nil {
		t.Errorf("an action while the engine works on a hint: %v", err)
	}
	close(release)
	var pe *play.Error
	if err := <-errc; !errors.As(err, &pe) || pe.Kind != play.Conflict || !strings.Contains(pe.Msg, "still counts") {
		t.Errorf("a failed hint: %v", err)
	}
	_, g, _ := p.do("GET", "/api/games/"+id2, "", nil)
	if g["hints"] != 1.0 {
		t.Errorf("after one failed hint: %v hints counted, want 1", g["hints"])
	}
}

// TestFairLongHistory: thousands of pencil toggles keep the stored game
// bounded (play.MaxHistory moves), so each action's load-and-rewrite stays
// small; undo still works back to the oldest kept move.
func TestFairLongHistory(t *testing.T) {
	a, _ := fairServer(t)
	in := startInnocent(t, a)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	id, puzzle, _ := newSolo(t, p)
	cell := strings.Index(puzzle, "0")
	const toggles = play.MaxHistory + 100
	for k := range toggles {
		if s, v, _ := p.post("/api/games/"+id+"/mark", fmt.Sprintf(`{"cell":%d,"value":%d}`, cell, 1+k%9)); s != 200 {
			t.Fatalf("toggle %d: %d %v", k, s, v)
		}
	}
	rec, _ := a.store.Game(context.Background(), id)
	var sess session
	if err := json.Unmarshal(rec.State, &sess); err != nil {
		t.Fatal(err)
	}
	if len(sess.Board.Moves) != play.MaxHistory {
		t.Errorf("%d moves kept after %d toggles, want %d", len(sess.Board.Moves), toggles, play.MaxHistory)
	}
	t.Logf("stored state after %d toggles: %d bytes (%d moves kept)", toggles, len(rec.State), len(sess.Board.Moves))
	if sess.Board.Position != play.MaxHistory {
		t.Errorf("position %d, want %d: every kept move undoable", sess.Board.Position, play.MaxHistory)
	}
	if s, v, _ := p.post("/api/games/"+id+"/undo", `{}`); s != 200 || v["canUndo"] != true {
		t.Errorf("undo after trimming: %d %v", s, v)
	}
	in.finish(t)
}

// TestFairKakuro: the whole-board submit is refused; entries are moves;
// the instant finish is flagged; Kakuro games are owned too.
func TestFairKakuro(t *testing.T) {
	a, clock := fairServer(t)
	in := startInnocent(t, a)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	s, v, _ := p.post("/api/kakuro/games", `{"size":"5","level":"easy"}`)
	if s != 201 {
		t.Fatalf("new kakuro: %d %v", s, v)
	}
	id := v["id"].(string)
	rec, _ := a.store.Game(context.Background(), id)
	sol, _ := kakuroSolution(rec)
	g := "/api/kakuro/games/" + id
	whole, _ := json.Marshal(map[string]any{"entries": sol, "name": "Mallory"})
	for _, action := range []string{"submit", "save", "move", "check"} {
		if s, _, _ := p.post(g+"/"+action, string(whole)); s != 400 && s != 404 {
			t.Errorf("whole board via %s: %d, want refused", action, s)
		}
	}
	thief := a.peer(t, "127.0.0.3")
	thief.visit()
	if s, _, _ := thief.post(g+"/move", `{"cell":0,"value":1}`); s != 403 {
		t.Errorf("another browser's Kakuro move: %d, want 403", s)
	}
	if s, _, _ := p.do("POST", g+"/move", "text/plain", strings.NewReader(`{"cell":0,"value":1}`)); s != 415 {
		t.Errorf("text/plain Kakuro move: %d, want 415", s)
	}
	var last map[string]any
	for c, d := range sol {
		_, last, _ = p.post(g+"/move", fmt.Sprintf(`{"cell":%d,"value":%d,"name":"Mallory"}`, c, d))
	}
	if last["status"] != "solved" || last["flag"] != store.FlagTooFast {
		t.Errorf("instant Kakuro finish: %v", last)
	}
	noRanked(t, a, store.KindKakuro)

	// At a plausible pace: ranked.
	_, v, _ = p.post("/api/kakuro/games", `{"size":"5","level":"easy"}`)
	id2 := v["id"].(string)
	rec2, _ := a.store.Game(context.Background(), id2)
	sol2, _ := kakuroSolution(rec2)
	for c, d := range sol2 {
		clock.Add(2 * time.Second)
		_, last, _ = p.post("/api/kakuro/games/"+id2+"/move", fmt.Sprintf(`{"cell":%d,"value":%d,"name":"Ada"}`, c, d))
	}
	if last["status"] != "solved" || last["flag"] != nil || last["rank"] != 1.0 {
		t.Errorf("plausible Kakuro finish: %v", last)
	}
	in.finish(t)
}
