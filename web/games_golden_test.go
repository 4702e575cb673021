package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/golden"
	"github.com/sudokuar/sudokuar/kakuro"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestGamesGolden pins the solo game API byte for byte: whole Sudoku and
// Kakuro games played through it with a fake clock, every answer (the
// status and the body, the game's id written ID) one line of
// testdata/golden/games.txt. The games cover each action and its
// refusals: a slip mended, marks, undo and redo, candidates, check,
// mistakes shown and hidden, pause, the hint's three stages, a finish
// named, a game lost at its mistake limit, one given up, and a watcher.
func TestGamesGolden(t *testing.T) {
	const puzzle = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
	const solution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
	clock := newFakeClock()
	a := newAPIServer(t, Config{Now: clock.Now, FloorPerStep: -1})
	g := &goldenGames{t: t, a: a, clock: clock}
	player := g.player()
	grid := func(s string) sudoku.Grid {
		gr, err := sudoku.ParseCellGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3}, s)
		if err != nil {
			t.Fatal(err)
		}
		return gr
	}
	gen := Generated{Puzzle: grid(puzzle), Solution: grid(solution), Rating: 2.3, Level: "easy", Steps: 40}
	ctx := context.Background()
	newSudoku := func(opt gameOptions) string {
		v, err := a.web.games.newGame(ctx, player, gen, opt)
		if err != nil {
			t.Fatal(err)
		}
		return v.ID
	}
	move := func(cell, v int) string { return fmt.Sprintf(`{"cell":%d,"value":%d}`, cell, v) }
	digit := func(cell int) int { return int(solution[cell] - '0') }
	wrong := func(cell int) int { return digit(cell)%9 + 1 }

	// A game played to its named finish.
	id := newSudoku(gameOptions{})
	s := "/api/games/" + id
	g.do("GET", s, "")
	for _, c := range []struct{ action, body string }{
		{"fly", `{}`}, {"move", `{"value":1}`}, {"move", move(81, 1)}, {"move", move(2, 10)},
		{"move", move(0, 1)}, {"mark", move(0, 2)}, {"undo", ``}, {"redo", ``}, {"errors", `{}`},
		{"submit", `{"name":"x"}`}, {"name", `{"name":"x"}`}, {"hint", `{"stage":2}`}, {"hint", `{"stage":4}`},
		{"move", move(2, wrong(2))}, {"move", move(2, wrong(2))}, {"move", move(2, digit(2))},
		{"move", move(3, wrong(3))}, {"mark", move(5, 4)}, {"mark", move(5, 6)}, {"mark", move(5, 0)},
		{"undo", ``}, {"undo", ``}, {"redo", ``}, {"redo", ``}, {"check", `{}`},
		{"errors", `{"on":true}`}, {"errors", `{"on":false}`}, {"move", move(3, 0)},
		{"pause", ``}, {"move", move(3, 1)}, {"resume", `{}`},
		{"hint", `{}`}, {"hint", `{"stage":2}`}, {"hint", `{"stage":3}`}, {"hint", `{"stage":3}`},
		{"hint", `{}`}, {"move", move(3, digit(3))}, {"hint", `{"stage":2}`}, {"candidates", `{}`},
	} {
		g.act(s, c.action, c.body)
	}
	g.fill(s, puzzle, func(cell int) string { return move(cell, digit(cell)) }, "move")
	g.act(s, "move", move(2, 1))
	g.act(s, "name", `{"name":""}`)
	g.act(s, "name", `{"name":"Ada"}`)
	g.act(s, "name", `{"name":"Bob"}`)
	g.do("GET", s, "")
	g.watch("GET", s)

	// A game lost at its mistake limit, and one given up.
	s = "/api/games/" + newSudoku(gameOptions{MistakeLimit: 2})
	g.act(s, "errors", `{"on":false}`)
	g.act(s, "move", move(2, wrong(2)))
	g.act(s, "move", move(3, wrong(3)))
	g.act(s, "move", move(4, 1))
	s = "/api/games/" + newSudoku(gameOptions{ShowMistakes: true, Entries: append([]int{0, 0, 1}, make([]int, 78)...)})
	g.act(s, "move", move(3, wrong(3)))
	g.act(s, "solution", `{}`)
	g.act(s, "undo", `{}`)

	// Kakuro: the same refusals and the same finish.
	sol, _, err := kakuro.GenerateContext(ctx, kakuro.GenerateOptions{Rows: 5, Cols: 5, Level: kakuro.Easy, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	newKakuro := func() (string, []int) {
		v, err := a.web.games.newKakuro(ctx, player, sol.Blank(), sol, "5x5", "easy")
		if err != nil {
			t.Fatal(err)
		}
		rec, err := a.store.Game(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		digits, err := kakuroSolution(rec)
		if err != nil {
			t.Fatal(err)
		}
		return v.ID, digits
	}
	id, ks := newKakuro()
	k := "/api/kakuro/games/" + id
	kwrong := func(c int) int { return ks[c]%9 + 1 }
	g.do("GET", k, "")
	for _, c := range []struct{ action, body string }{
		{"fly", `{}`}, {"move", `{"value":1}`}, {"move", move(len(ks), 1)}, {"move", move(0, 10)}, {"mark", move(0, 0)},
		{"move", `{"entries":[1,2]}`}, {"undo", `{}`}, {"name", `{"name":"x"}`}, {"submit", `{"name":"x"}`},
		{"move", move(0, kwrong(0))}, {"move", move(0, kwrong(0))}, {"move", move(0, ks[0])},
		{"move", move(1, kwrong(1))}, {"mark", move(2, 3)}, {"mark", move(2, 5)}, {"undo", `{}`}, {"redo", `{}`},
		{"redo", `{}`}, {"move", move(1, 0)}, {"undo", `{}`}, {"redo", `{}`}, {"move", move(1, kwrong(1))},
		{"check", `{}`}, {"hint", `{}`}, {"candidates", `{}`}, {"move", fmt.Sprintf(`{"cell":3,"value":%d,"clear":true}`, ks[3])},
	} {
		g.act(k, c.action, c.body)
	}
	g.fillKakuro(k, ks)
	g.act(k, "move", move(0, 1))
	g.act(k, "name", `{"name":"Ada"}`)
	g.do("GET", k, "")
	g.watch("GET", k)
	id, _ = newKakuro()
	k = "/api/kakuro/games/" + id
	g.act(k, "solution", `{}`)
	g.act(k, "move", move(0, 1))

	golden.Check(t, "games.txt", g.out.Bytes(), *update)
}

// goldenGames plays games through the API for TestGamesGolden and keeps
// each answer; the clock moves 1.5 s before every request.
type goldenGames struct {
	t     *testing.T
	a     *apiServer
	clock *fakeClock
	out   bytes.Buffer
}

// player is the id of the browser a.Client() is (a visit gives it one).
func (g *goldenGames) player() string {
	res, err := g.a.Client().Get(g.a.URL + "/play")
	if err != nil {
		g.t.Fatal(err)
	}
	res.Body.Close()
	u, _ := url.Parse(g.a.URL)
	for _, c := range g.a.Client().Jar.Cookies(u) {
		if c.Name == playerCookie {
			return c.Value
		}
	}
	g.t.Fatal("no player cookie after a visit")
	return ""
}

func (g *goldenGames) act(game, action, body string) { g.do("POST", game+"/"+action, body) }

// do sends one request from the player's browser and writes its answer.
func (g *goldenGames) do(method, path, body string) { g.send(g.a.Client(), method, path, body) }

// watch sends a request from another browser.
func (g *goldenGames) watch(method, path string) { g.send(&http.Client{}, method, path, "") }

func (g *goldenGames) send(c *http.Client, method, path, body string) {
	g.t.Helper()
	g.clock.Add(1500 * time.Millisecond)
	req, err := http.NewRequest(method, g.a.URL+path, strings.NewReader(body))
	if err != nil {
		g.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		g.t.Fatal(err)
	}
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		g.t.Fatal(err)
	}
	id := strings.Split(strings.TrimPrefix(strings.TrimPrefix(path, "/api/kakuro/games/"), "/api/games/"), "/")[0]
	where := strings.ReplaceAll(path, id, "ID")
	fmt.Fprintf(&g.out, "%s %s %s\n%d %s\n", method, where, body, res.StatusCode, bytes.ReplaceAll(bytes.TrimSpace(raw), []byte(id), []byte("ID")))
}

// fill plays the solution's digit in every empty cell of puzzle, in
// order, with the action body each cell's move gives.
func (g *goldenGames) fill(game, puzzle string, body func(cell int) string, action string) {
	for i := range puzzle {
		if puzzle[i] == '0' {
			g.act(game, action, body(i))
		}
	}
}

// fillKakuro plays the solution's digit in every white cell.
func (g *goldenGames) fillKakuro(game string, digits []int) {
	for c, d := range digits {
		g.act(game, "move", fmt.Sprintf(`{"cell":%d,"value":%d}`, c, d))
	}
}
