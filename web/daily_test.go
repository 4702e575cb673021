package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// playServer is a server with a fake clock on a Monday (the daily puzzle
// is easy), no plausibility floor (the tests type faster than people) and
// rates high enough for them.
func playServer(t *testing.T) (*apiServer, *fakeClock) {
	clock := newFakeClock()
	clock.Add(24 * time.Hour) // 2025-06-02, a Monday
	a := newAPIServer(t, Config{Now: clock.Now, FloorPerStep: -1, Limits: Limits{Requests: Rate{PerMinute: 1_000_000, Burst: 1_000_000},
		NewGames: Rate{PerMinute: 1000, Burst: 1000}}})
	return a, clock
}

// solve plays the solution into game id, the last digit with name.
func solve(t *testing.T, p *peer, id, puzzle, solution, name string) map[string]any {
	t.Helper()
	var v map[string]any
	last := strings.LastIndex(puzzle, "0")
	for i := range puzzle {
		if puzzle[i] != '0' {
			continue
		}
		body := fmt.Sprintf(`{"cell":%d,"value":%c}`, i, solution[i])
		if i == last && name != "" {
			body = fmt.Sprintf(`{"cell":%d,"value":%c,"name":%q}`, i, solution[i], name)
		}
		var s int
		if s, v, _ = p.post("/api/games/"+id+"/move", body); s != 200 {
			t.Fatalf("move %d: %d %v", i, s, v)
		}
	}
	return v
}

// TestDaily plays the daily puzzle as two players would, and the ways a
// player could try to learn its solution from the server while the day
// lasts.
func TestDaily(t *testing.T) {
	a, clock := playServer(t)
	p, q := a.peer(t, "127.0.0.2"), a.peer(t, "127.0.0.3")
	p.visit()
	q.visit()
	if s, v, _ := p.do("GET", "/api/daily", "", nil); s != 200 || v["day"] != "2025-06-02" || v["level"] != "easy" || v["played"] != false {
		t.Fatalf("about today: %d %v", s, v)
	}
	s, v, _ := p.post("/api/daily", `{}`)
	if s != 201 || v["daily"] != "2025-06-02" || v["level"] != "easy" || v["solution"] != nil || v["replay"] != nil {
		t.Fatalf("today's puzzle: %d %v", s, v)
	}
	id := v["id"].(string)
	if s, v2, _ := p.post("/api/daily", `{}`); s != 200 || v2["id"] != id {
		t.Errorf("asked again: %d %v, want the same game back", s, v2["id"])
	}
	s, w, _ := q.post("/api/daily", `{}`)
	if s != 201 || w["puzzle"] != v["puzzle"] || w["id"] == id {
		t.Fatalf("another player's daily: %d %v", s, w)
	}
	rec, _ := a.store.Game(context.Background(), id)
	puzzle, sol := rec.Puzzle, rec.Solution
	empty := strings.Index(puzzle, "0")
	wrong := int(sol[empty]-'0')%9 + 1
	g := "/api/games/" + id + "/"
	runPeerCases(t, p, []apiCase{
		{name: "check refused", path: g + "check", body: `{}`, status: 409, errHas: "daily puzzle"},
		{name: "show mistakes refused", path: g + "errors", body: `{"on":true}`, status: 409, errHas: "daily puzzle"},
		{name: "a wrong digit tells nothing", path: g + "move", body: fmt.Sprintf(`{"cell":%d,"value":%d}`, empty, wrong), status: 200,
			fields: map[string]any{"mistakes": nil, "wrong": []any{}}},
		{name: "candidates allowed, telling nothing", path: g + "candidates", body: `{}`, status: 200,
			fields: map[string]any{"assisted": true, "mistakes": nil, "wrong": []any{}}},
		{name: "give up: no solution today", path: g + "solution", body: `{}`, status: 200, fields: map[string]any{"status": "revealed", "solution": nil}},
		{name: "nor when read again", method: "GET", path: "/api/games/" + id, status: 200, fields: map[string]any{"status": "revealed", "solution": nil}},
		{name: "a second game of the day is a replay", path: "/api/daily", body: `{}`, status: 201, fields: map[string]any{"replay": true, "solution": nil}},
		{name: "a forged day is an unknown field", path: "/api/daily", body: `{"day":"2025-06-01"}`, status: 400, errHas: "unknown field"},
		{name: "not a form", path: "/api/daily", ctype: "text/plain", body: `{}`, status: 415},
		{name: "a huge body", path: "/api/daily", body: `{"x":"` + strings.Repeat("a", 100<<10) + `"}`, status: 413},
		{name: "the day of a new game cannot be forged either", path: "/api/games", body: `{"size":"9","level":"easy","daily":"2025-06-02"}`, status: 400, errHas: "unknown field"},
		{name: "a bad day's leaderboard", method: "GET", path: "/api/leaderboard?daily=2025-13-01", status: 400, errHas: "day"},
		{name: "a day's leaderboard of words", method: "GET", path: "/api/leaderboard?daily=yesterday", status: 400},
	})
	// What reached p's browser never held the solution.
	if _, v, _ := p.do("GET", "/api/games/"+id, "", nil); strings.Contains(fmt.Sprint(v), sol) {
		t.Errorf("the daily solution reached the client: %v", v)
	}

	// q solves it: ranked, first on the day's board, on no other.
	fin := solve(t, q, w["id"].(string), puzzle, sol, "Quinn")
	if fin["status"] != "solved" || fin["rank"] != 1.0 || fin["flag"] != nil || fin["solution"] != sol {
		t.Errorf("q's finish: %v", fin)
	}
	_, lb := a.call("GET", "/api/leaderboard?daily=today", "", "")
	if list := lb["list"].([]any); len(list) != 1 || list[0].(map[string]any)["name"] != "Quinn" || list[0].(map[string]any)["daily"] != "2025-06-02" {
		t.Errorf("today's board: %v", lb)
	}
	if _, lb := a.call("GET", "/api/leaderboard?size=9&level=easy", "", ""); len(lb["list"].([]any)) != 0 {
		t.Errorf("the daily result on the 9×9 easy board: %v", lb)
	}
	if res, err := p.http.Get(a.URL + "/leaderboard?daily=2025-06-02"); err != nil || res.StatusCode != 200 {
		t.Errorf("the daily leaderboard page: %v %v", res, err)
	} else {
		res.Body.Close()
	}

	// The next day the solution of p's game shows, and q's streak counts.
	clock.Add(24 * time.Hour)
	if _, v, _ := p.do("GET", "/api/games/"+id, "", nil); v["solution"] != sol {
		t.Errorf("the day after, the solution: %v", v["solution"])
	}
	_, st, _ := q.do("GET", "/api/stats", "", nil)
	if st["started"] != 1.0 || st["won"] != 1.0 || st["dailySolved"] != 1.0 || st["dailyStreak"] != 1.0 {
		t.Errorf("q's statistics: %v", st)
	}
	_, st, _ = p.do("GET", "/api/stats", "", nil)
	if st["started"] != 2.0 || st["won"] != 0.0 || st["dailySolved"] != 0.0 {
		t.Errorf("p's statistics: %v", st)
	}
	if b := st["boards"].([]any); len(b) != 1 || b[0].(map[string]any)["lost"] != 1.0 {
		t.Errorf("p's boards: %v", b)
	}
	if s, v, _ := p.do("GET", "/api/daily", "", nil); s != 200 || v["day"] != "2025-06-03" || v["level"] != "medium" || v["played"] != false {
		t.Errorf("about the next day: %d %v", s, v)
	}
}

// runPeerCases runs cases as peer p (a browser of its own).
func runPeerCases(t *testing.T, p *peer, cases []apiCase) {
	t.Helper()
	for _, c := range cases {
		method := c.method
		if method == "" {
			method = "POST"
		}
		ctype := c.ctype
		if ctype == "" && method == "POST" {
			ctype = "application/json"
		}
		s, v, _ := p.do(method, c.path, ctype, strings.NewReader(c.body))
		if s != c.status {
			t.Errorf("%s: status %d, want %d: %v", c.name, s, c.status, v)
			continue
		}
		if c.errHas != "" && !strings.Contains(fmt.Sprint(v["error"]), c.errHas) {
			t.Errorf("%s: error %q does not say %q", c.name, v["error"], c.errHas)
		}
		for k, want := range c.fields {
			got, ok := v[k]
			if want == nil {
				if ok {
					t.Errorf("%s: %s = %v, want it absent", c.name, k, got)
				}
				continue
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %s = %v, want %v", c.name, k, got, want)
			}
		}
	}
}

// TestMistakeLimit: mistakes shown as they happen, the game lost at its
// limit; the limit's bounds and form refused.
func TestMistakeLimit(t *testing.T) {
	a, _ := playServer(t)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	runPeerCases(t, p, []apiCase{
		{name: "limit -1", path: "/api/games", body: `{"size":"9","level":"easy","mistakeLimit":-1}`, status: 400, errHas: "mistake limit"},
		{name: "limit 10", path: "/api/games", body: `{"size":"9","level":"easy","mistakeLimit":10}`, status: 400, errHas: "mistake limit"},
		{name: "limit huge", path: "/api/games", body: `{"size":"9","level":"easy","mistakeLimit":1e30}`, status: 400},
		{name: "limit text", path: "/api/games", body: `{"size":"9","level":"easy","mistakeLimit":"3"}`, status: 400, errHas: "mistakeLimit"},
	})
	s, v, _ := p.post("/api/games", `{"size":"9","level":"easy","mistakeLimit":3}`)
	if s != 201 || v["showErrors"] != true || v["assisted"] != true || v["mistakeLimit"] != 3.0 || v["mistakes"] != 0.0 {
		t.Fatalf("a game with a limit of 3: %d %v", s, v)
	}
	id := v["id"].(string)
	rec, _ := a.store.Game(context.Background(), id)
	empty := strings.Index(rec.Puzzle, "0")
	var wrongs []int
	for d := 1; d <= 9 && len(wrongs) < 3; d++ {
		if d != int(rec.Solution[empty]-'0') {
			wrongs = append(wrongs, d)
		}
	}
	g := "/api/games/" + id + "/"
	runPeerCases(t, p, []apiCase{
		{name: "errors stay on", path: g + "errors", body: `{"on":false}`, status: 409, errHas: "mistake limit"},
		{name: "mistake 1, shown", path: g + "move", body: fmt.Sprintf(`{"cell":%d,"value":%d}`, empty, wrongs[0]), status: 200,
			fields: map[string]any{"mistakes": 1, "wrong": fmt.Sprintf("[%d]", empty), "status": "playing"}},
		{name: "undone: still counted", path: g + "undo", body: `{}`, status: 200, fields: map[string]any{"mistakes": 1}},
		{name: "mistake 2", path: g + "move", body: fmt.Sprintf(`{"cell":%d,"value":%d}`, empty, wrongs[1]), status: 200, fields: map[string]any{"mistakes": 2}},
		{name: "mistake 3 ends the game", path: g + "move", body: fmt.Sprintf(`{"cell":%d,"value":%d}`, empty, wrongs[2]), status: 200,
			fields: map[string]any{"mistakes": 3, "status": "lost", "solution": rec.Solution}},
		{name: "over", path: g + "move", body: fmt.Sprintf(`{"cell":%d,"value":1}`, empty), status: 409, errHas: "over"},
	})
	if got, _ := a.store.Game(context.Background(), id); got.Status != store.StatusLost {
		t.Errorf("stored status %q", got.Status)
	}
	_, st, _ := p.do("GET", "/api/stats", "", nil)
	if b := st["boards"].([]any); len(b) != 1 || b[0].(map[string]any)["lost"] != 1.0 || b[0].(map[string]any)["started"] != 1.0 {
		t.Errorf("statistics after the loss: %v", st)
	}
}

// TestSlips: in a ranked game a wrong digit taken back at once is not a
// mistake; one left while playing on is.
func TestSlips(t *testing.T) {
	a, _ := playServer(t)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	for _, tc := range []struct {
		name string
		then func(g string, empty, other int, sol string)
		want float64
	}{
		{"undone at once", func(g string, _, _ int, _ string) { p.post(g+"undo", `{}`) }, 0},
		{"erased at once", func(g string, empty, _ int, _ string) { p.post(g+"move", fmt.Sprintf(`{"cell":%d,"value":0}`, empty)) }, 0},
		{"left while playing on", func(g string, _, other int, sol string) {
			p.post(g+"move", fmt.Sprintf(`{"cell":%d,"value":%c}`, other, sol[other]))
		}, 1},
	} {
		id, puzzle, sol := newSolo(t, p)
		g := "/api/games/" + id + "/"
		empty := strings.Index(puzzle, "0")
		other := strings.Index(puzzle[empty+1:], "0") + empty + 1
		if s, v, _ := p.post(g+"move", fmt.Sprintf(`{"cell":%d,"value":%d}`, empty, int(sol[empty]-'0')%9+1)); s != 200 || v["mistakes"] != nil {
			t.Fatalf("%s: the wrong digit: %d %v", tc.name, s, v)
		}
		tc.then(g, empty, other, sol)
		if _, v, _ := p.post(g+"solution", `{}`); v["mistakes"] != tc.want {
			t.Errorf("%s: %v mistakes at the end, want %v", tc.name, v["mistakes"], tc.want)
		}
	}
}

// TestCandidates: the candidates assist pencils in every empty cell's
// legal digits, as one move, and unranks the game without telling right
// from wrong.
func TestCandidates(t *testing.T) {
	a, _ := playServer(t)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	id, puzzle, sol := newSolo(t, p)
	s, v, _ := p.post("/api/games/"+id+"/candidates", `{}`)
	if s != 200 || v["assisted"] != true || fmt.Sprint(v["used"]) != "[candidates]" || v["mistakes"] != nil || v["canUndo"] != true {
		t.Fatalf("candidates: %d %v", s, v)
	}
	g, _ := sudoku.ParseCellGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3}, puzzle)
	gm, _ := game.FromGrid(g, nil)
	marks := v["marks"].([]any)
	for i := range 81 {
		want := game.Marks(0)
		if puzzle[i] == '0' {
			want = gm.Legal(i/9, i%9)
		}
		if game.Marks(marks[i].(float64)) != want {
			t.Fatalf("r%dc%d: marks %v, want %v", i/9+1, i%9+1, game.Marks(marks[i].(float64)).Values(), want.Values())
		}
		if puzzle[i] == '0' && !want.Has(int(sol[i]-'0')) {
			t.Fatalf("r%dc%d: the solution's digit is not a candidate", i/9+1, i%9+1)
		}
	}
	if _, v, _ := p.post("/api/games/"+id+"/undo", `{}`); fmt.Sprint(v["marks"]) != fmt.Sprint(make([]any, 0)) && strings.Trim(fmt.Sprint(v["marks"]), "[0 ]") != "" {
		t.Errorf("undo leaves marks: %v", v["marks"])
	}
	if fin := solve(t, p, id, puzzle, sol, "Ada"); fin["flag"] != store.FlagAssists {
		t.Errorf("finish after candidates: flag %v", fin["flag"])
	}
}

// TestKakuroMarks: a Kakuro game takes pencil marks, candidates within
// its runs' sums, undo and redo, through the same game code as Sudoku;
// forged cells and values are refused.
func TestKakuroMarks(t *testing.T) {
	a, _ := playServer(t)
	p := a.peer(t, "127.0.0.2")
	p.visit()
	s, v, _ := p.post("/api/kakuro/games", `{"size":"5","level":"easy"}`)
	if s != 201 {
		t.Fatalf("new kakuro: %d %v", s, v)
	}
	id := v["id"].(string)
	n := len(v["entries"].([]any))
	rec, _ := a.store.Game(context.Background(), id)
	sol, _ := kakuroSolution(rec)
	g := "/api/kakuro/games/" + id + "/"
	mark := func(c, d int) string { return fmt.Sprintf(`{"cell":%d,"value":%d}`, c, d) }
	runPeerCases(t, p, []apiCase{
		{name: "mark 3 and 5", path: g + "mark", body: mark(0, 3), status: 200, fields: map[string]any{"canUndo": true}},
		{name: "mark 5", path: g + "mark", body: mark(0, 5), status: 200},
		{name: "mark 0", path: g + "mark", body: mark(0, 0), status: 400, errHas: "value 0"},
		{name: "mark 10", path: g + "mark", body: mark(0, 10), status: 400, errHas: "value 10"},
		{name: "mark off the board", path: g + "mark", body: mark(n, 1), status: 400, errHas: "white cell"},
		{name: "mark a negative cell", path: g + "mark", body: mark(-1, 1), status: 400, errHas: "white cell"},
		{name: "undo the 5", path: g + "undo", body: `{}`, status: 200, fields: map[string]any{"canRedo": true}},
		{name: "redo it", path: g + "redo", body: `{}`, status: 200, fields: map[string]any{"canRedo": false}},
		{name: "redo nothing", path: g + "redo", body: `{}`, status: 409, errHas: "nothing to redo"},
	})
	_, v, _ = p.do("GET", "/api/kakuro/games/"+id, "", nil)
	if m := game.Marks(v["marks"].([]any)[0].(float64)); m != 1<<3|1<<5 {
		t.Errorf("cell 0's marks %v, want 3 and 5", m.Values())
	}
	_, v, _ = p.post(g+"candidates", `{}`)
	for k, x := range v["marks"].([]any) {
		if m := game.Marks(x.(float64)); !m.Has(sol[k]) || m.Count() == 0 {
			t.Fatalf("cell %d: candidates %v miss the solution's %d", k, m.Values(), sol[k])
		}
	}
	if v["assisted"] != true || v["mistakes"] != nil {
		t.Errorf("candidates: assisted %v, mistakes %v", v["assisted"], v["mistakes"])
	}
	// A digit placed with clear takes itself from its runs' marks, and
	// one undo brings them back.
	_, v, _ = p.post(g+"move", fmt.Sprintf(`{"cell":0,"value":%d,"clear":true}`, sol[0]))
	for k, x := range v["marks"].([]any) {
		if k != 0 && game.Marks(x.(float64)).Has(sol[0]) && sharesRun(t, rec, 0, k) {
			t.Errorf("cell %d keeps %d after it was placed in cell 0 of its run", k, sol[0])
		}
	}
	if _, v, _ = p.post(g+"undo", `{}`); v["entries"].([]any)[0] != 0.0 {
		t.Errorf("undo: cell 0 holds %v", v["entries"].([]any)[0])
	}
}

// sharesRun reports whether white cells a and b of rec's puzzle share a
// run.
func sharesRun(t *testing.T, rec store.Game, a, b int) bool {
	p, err := kakuroOf(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.puzzle.Runs() {
		in := 0
		for _, c := range r.Cells {
			if c == p.whites[a] || c == p.whites[b] {
				in++
			}
		}
		if in == 2 {
			return true
		}
	}
	return false
}

// TestDailyFlood: one address starting the daily puzzle over and over,
// each time as a new browser, is held to the new games' rate; another
// address still gets its game.
func TestDailyFlood(t *testing.T) {
	clock := newFakeClock()
	clock.Add(24 * time.Hour)
	a := newAPIServer(t, Config{Now: clock.Now})
	p := a.peer(t, "127.0.0.2")
	made, refused := 0, 0
	for range 60 {
		p.forget() // a fresh cookie each time: no game of its own to resume
		switch s, v, _ := p.post("/api/daily", `{}`); s {
		case 201:
			made++
		case 429:
			refused++
		default:
			t.Fatalf("daily: %d %v", s, v)
		}
	}
	if refused == 0 || made > 45 {
		t.Errorf("60 daily games from one address: %d made, %d refused; want the rate to hold", made, refused)
	}
	q := a.peer(t, "127.0.0.3")
	if s, v, _ := q.post("/api/daily", `{}`); s != 201 {
		t.Errorf("another address during the flood: %d %v", s, v)
	}
	t.Logf("flood: %d made, %d refused", made, refused)
}
