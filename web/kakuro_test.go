package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/store"
)

// kakuroUnique is a small unique Kakuro (from our generator), its
// solution's digits by white cell, and versions that break.
const (
	kakuroUnique     = "5 5\n# 21\\ 12\\ # #\n\\9 . . 11\\ 15\\\n\\29 . . . .\n\\10 . . . .\n# # \\11 . ."
	kakuroTwoWays    = "3 3\n# 3\\ 3\\\n\\3 . .\n\\3 . ."
	kakuroNoSolution = "3 3\n# 3\\ 3\\\n\\3 . .\n\\5 . ."
)

// TestAPIKakuro plays Kakuro through the API: a new game, the bad
// requests around it (sizes, levels, entries, actions), check, hint,
// submit with wrong and then right digits, the leaderboard, and the
// solver endpoint with good, malformed, non-unique and unsolvable boards.
func TestAPIKakuro(t *testing.T) {
	a := newAPIServer(t, Config{})
	status, v := a.post("/api/kakuro/games", `{"size": "5", "level": "easy"}`)
	if status != 201 {
		t.Fatalf("new game: %d %v", status, v)
	}
	id := v["id"].(string)
	n := len(v["entries"].([]any))
	if v["solution"] != nil || v["status"] != "playing" || v["level"] != "easy" {
		t.Fatalf("new game view: %v", v)
	}
	rec, err := a.store.Game(context.Background(), id)
	if err != nil || rec.Kind != store.KindKakuro {
		t.Fatalf("stored game %v, %v", rec.Kind, err)
	}
	sol, err := kakuroSolution(rec)
	if err != nil || len(sol) != n {
		t.Fatalf("solution %v (%v), %d white cells", sol, err, n)
	}
	move := func(c, d int) string { return fmt.Sprintf(`{"cell": %d, "value": %d}`, c, d) }
	wrong0 := sol[0]%9 + 1
	g := "/api/kakuro/games/" + id
	runCases(t, a, []apiCase{
		{name: "bad size", path: "/api/kakuro/games", body: `{"size": "6", "level": "easy"}`, status: 400, errHas: "size"},
		{name: "bad level", path: "/api/kakuro/games", body: `{"size": "5", "level": "extreme"}`, status: 400, errHas: "level"},
		{name: "unknown field", path: "/api/kakuro/games", body: `{"size": "5", "rows": 3}`, status: 400, errHas: "unknown field"},
		{name: "no game", method: "GET", path: "/api/kakuro/games/0123456789abcdef0123456789abcdef", status: 404},
		{name: "bad id", method: "GET", path: "/api/kakuro/games/x", status: 404},
		{name: "unknown action", path: g + "/pause", body: `{}`, status: 404, errHas: "move, mark, undo"},
		{name: "the old save", path: g + "/save", body: `{}`, status: 404},
		{name: "whole board refused", path: g + "/move", body: `{"entries": [1, 2]}`, status: 400, errHas: "one cell per move"},
		{name: "text/plain refused", path: g + "/move", ctype: "text/plain", body: move(0, 1), status: 415},
		{name: "digit 10", path: g + "/move", body: move(0, 10), status: 400, errHas: "value 10"},
		{name: "cell off", path: g + "/move", body: move(n, 1), status: 400, errHas: "white cell"},
		{name: "move without cell", path: g + "/move", body: `{"value": 1}`, status: 400, errHas: "cell"},
		// A ranked game says nothing of right and wrong.
		{name: "a wrong digit", path: g + "/move", body: move(0, wrong0), status: 200, fields: map[string]any{"wrong": nil, "mistakes": nil}},
		{name: "reload keeps it", method: "GET", path: g, status: 200, fields: map[string]any{"entries": fmt.Sprint(toAny(append([]int{wrong0}, make([]int, n-1)...)))}},
		{name: "name too early", path: g + "/name", body: `{"name": "Kim"}`, status: 409, errHas: "not finished"},
		{name: "check finds the wrong digit", path: g + "/check", body: `{}`, status: 200, fields: map[string]any{"wrong": "[0]", "mistakes": 1, "assisted": true}},
		{name: "hint mends it", path: g + "/hint", body: `{}`, status: 200, fields: map[string]any{"hint": fmt.Sprintf("map[cell:0 digit:%d]", sol[0]), "hints": 1}},
	})
	for c := 1; c < n-1; c++ {
		if st, v := a.post(g+"/move", move(c, sol[c])); st != 200 || v["status"] != "playing" {
			t.Fatalf("move %d: %d %v", c, st, v)
		}
	}
	runCases(t, a, []apiCase{
		{name: "last digit finishes", path: g + "/move", body: move(n-1, sol[n-1]), status: 200,
			fields: map[string]any{"status": "solved", "solution": fmt.Sprint(toAny(sol)), "needName": true, "flag": store.FlagAssists}},
		{name: "name", path: g + "/name", body: `{"name": "<b>Kim</b>"}`, status: 200, fields: map[string]any{"needName": nil}},
		{name: "over", path: g + "/hint", body: `{}`, status: 409, errHas: "over"},
		{name: "leaderboard", method: "GET", path: "/api/kakuro/leaderboard?size=5x5&level=easy", status: 200},
		{name: "leaderboard bad size", method: "GET", path: "/api/kakuro/leaderboard?size=41&level=easy", status: 400},
		{name: "solve", path: "/api/kakuro/solve", body: jsonPuzzle(kakuroUnique), status: 200,
			fields: map[string]any{"solution": "5 5\n# 21\\ 12\\ # #\n\\9 8 1 11\\ 15\\\n\\29 9 8 7 5\n\\10 4 3 1 2\n# # \\11 3 8\n"}},
		{name: "solve bad token", path: "/api/kakuro/solve", body: jsonPuzzle(strings.Replace(kakuroUnique, "\\29 .", "\\29 x", 1)), status: 400, errHas: "line 4"},
		{name: "solve two ways", path: "/api/kakuro/solve", body: jsonPuzzle(kakuroTwoWays), status: 422, errHas: "solution"},
		{name: "solve none", path: "/api/kakuro/solve", body: jsonPuzzle(kakuroNoSolution), status: 422},
		{name: "solve empty", path: "/api/kakuro/solve", body: `{"puzzle": ""}`, status: 400},
		{name: "solve an open 9x9 (every line 45)", path: "/api/kakuro/solve", body: jsonPuzzle(openKakuro()), status: 422, errHas: "solution"},
	})
	// Check was used: the result is in the history, marked, not ranked.
	_, lb := a.call("GET", "/api/kakuro/leaderboard?size=5&level=easy", "", "")
	if list := lb["list"].([]any); len(list) != 0 {
		t.Errorf("leaderboard %v, want the checked game kept off it", list)
	}
	_, h := a.call("GET", "/api/history", "", "")
	list := h["list"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["name"] != "<b>Kim</b>" || list[0].(map[string]any)["hints"].(float64) != 1 || list[0].(map[string]any)["flag"] != store.FlagAssists {
		t.Errorf("history %v", list)
	}
	// Kakuro results never reach the Sudoku leaderboard.
	if _, sl := a.call("GET", "/api/leaderboard?size=9&level=easy", "", ""); len(sl["list"].([]any)) != 0 {
		t.Errorf("sudoku leaderboard %v", sl)
	}
}

// openKakuro is a 9x9 play area without blocks, every run summing to 45:
// any Sudoku-like Latin square solves it.
func openKakuro() string {
	var b strings.Builder
	b.WriteString("10 10\n#" + strings.Repeat(" 45\\", 9) + "\n")
	for r := 0; r < 9; r++ {
		b.WriteString("\\45" + strings.Repeat(" .", 9) + "\n")
	}
	return b.String()
}

func toAny(ds []int) []any {
	out := make([]any, len(ds))
	for i, d := range ds {
		out[i] = float64(d)
	}
	return out
}

func jsonPuzzle(s string) string {
	b, _ := json.Marshal(map[string]string{"puzzle": s})
	return string(b)
}
