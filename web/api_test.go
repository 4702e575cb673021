package web

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sudokuar/sudokuar/store"
)

const (
	classic         = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
	classicSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
	// hex16 is the first puzzle of testdata/puzzles/zoo-16.txt.
	hex16         = "1.E..GA.6...3.9B...C..9.A...D..G6B.9.21...3........F6......9..A....B54...9..GF7.....B.29.1.E...6.E...8..3.4F52.....83..DGC6.......167....4..2...2.F..B.4...C...........67..3..E.C975...G..E..B...432...5.7F.CG...D..G...92B68A3......C4......EDF..B......EA..5.."
	hex16Solution = "15E4CGAF68D2379B738C459EAF1BD62G6BA9D218EG37F45CD2GF673B45C9E8A131DB546C298AGF7EFC5GBA29D17E43869E6A18G73B4F52CD47283EFDGC6591BAE81673CAB49G2DF52AF38BE41D5C69G7BG4DF9567A231CE8C97521DGF6E8AB43A432E6B587FDCG195DCEGF7192B68A348697AC4253G1BEDFGFB19D83CEA47562"
)

// apiServer is the web app over a fresh database, served by httptest.
type apiServer struct {
	*httptest.Server
	t     testing.TB
	store *store.SQLite
	web   *Server
}

func newAPIServer(t testing.TB, cfg Config) *apiServer {
	t.Helper()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "api.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = st
	if cfg.Log == nil {
		cfg.Log = testLogger(t)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	// One browser: its cookie owns the games it starts.
	hs.Client().Jar, _ = cookiejar.New(nil)
	t.Cleanup(func() { hs.Close(); srv.Close(); st.Close() })
	return &apiServer{Server: hs, t: t, store: st, web: srv}
}

// call sends a request and decodes the JSON answer into a map.
func (a *apiServer) call(method, path, ctype, body string) (int, map[string]any) {
	a.t.Helper()
	req, err := http.NewRequest(method, a.URL+path, strings.NewReader(body))
	if err != nil {
		a.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	res, err := a.Client().Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		var list []any
		if json.Unmarshal(raw, &list) == nil {
			return res.StatusCode, map[string]any{"list": list}
		}
		a.t.Fatalf("%s %s: answer is not JSON (%d): %s", method, path, res.StatusCode, raw)
	}
	if res.StatusCode >= 400 {
		if _, ok := v["error"].(string); !ok {
			a.t.Errorf("%s %s: a %d without an \"error\": %s", method, path, res.StatusCode, raw)
		}
	}
	return res.StatusCode, v
}

func (a *apiServer) post(path, body string) (int, map[string]any) {
	return a.call("POST", path, "application/json", body)
}

type apiCase struct {
	name, method, path, ctype, body string
	status                          int
	errHas                          string         // part of the error message
	fields                          map[string]any // fields the answer must have
}

func runCases(t *testing.T, a *apiServer, cases []apiCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.method == "" {
				c.method = "POST"
			}
			if c.ctype == "" && c.method == "POST" {
				c.ctype = "application/json"
			}
			status, v := a.call(c.method, c.path, c.ctype, c.body)
			if status != c.status {
				t.Errorf("status %d, want %d: %v", status, c.status, v)
			}
			if c.errHas != "" && !strings.Contains(fmt.Sprint(v["error"]), c.errHas) {
				t.Errorf("error %q does not say %q", v["error"], c.errHas)
			}
			for k, want := range c.fields {
				if fmt.Sprint(v[k]) != fmt.Sprint(want) {
					t.Errorf("%s = %v, want %v", k, v[k], want)
				}
			}
		})
	}
}

func TestAPISolveAndAnalyze(t *testing.T) {
	a := newAPIServer(t, Config{})
	several := "000000000000000000000000000000000000000000000000000000000000000000000000000000123"
	conflict := "550070000600195000098000060800060003400803001700020006060000280000419005000080079"
	noSolution := "123456780000000009000000000000000000000000000000000000000000000000000000000000000"
	sixBy := "120000000010000000000000000000000000" // 6x6, boxes 2x3 by default
	runCases(t, a, []apiCase{
		{name: "ok", path: "/api/solve", body: `{"puzzle":"` + classic + `"}`, status: 200,
			fields: map[string]any{"solution": classicSolution, "status": "solved", "solver": "dlx", "givens": 30, "level": "easy"}},
		// The Enter page solves without rating again (rating waits up to
		// rateTimeout on a hard puzzle; the solver takes microseconds).
		{name: "ok, unrated", path: "/api/solve", body: `{"puzzle":"` + classic + `","rate":false}`, status: 200,
			fields: map[string]any{"solution": classicSolution, "status": "solved", "rating": nil, "level": nil}},
		{name: "dots and lines", path: "/api/solve", body: `{"puzzle":"53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79","solver":"dlx"}`, status: 200,
			fields: map[string]any{"solution": classicSolution}},
		{name: "grid file", path: "/api/analyze", body: `{"puzzle":"2 2\n1. 0 0 0\n0 0 3. 0\n0 4. 0 0\n0 0 0 2."}`, status: 200, fields: map[string]any{"status": "solved", "size": 4}},
		{name: "ilp", path: "/api/solve", body: `{"puzzle":"` + classic + `","solver":"ilp"}`, status: 200,
			fields: map[string]any{"solution": classicSolution, "status": "solved", "solver": "ilp"}},
		{name: "ilp 16x16", path: "/api/solve", body: `{"puzzle":"` + hex16 + `","solver":"ilp"}`, status: 200,
			fields: map[string]any{"solution": hex16Solution, "status": "solved", "solver": "ilp"}},
		{name: "ilp conflict", path: "/api/solve", body: `{"puzzle":"` + conflict + `","solver":"ilp"}`, status: 200,
			fields: map[string]any{"status": "no solution", "solution": ""}},
		{name: "6x6", path: "/api/solve", body: `{"puzzle":"` + sixBy + `"}`, status: 200, fields: map[string]any{"status": "several solutions", "box": []any{2.0, 3.0}}},
		{name: "conflict", path: "/api/solve", body: `{"puzzle":"` + conflict + `"}`, status: 200,
			fields: map[string]any{"status": "no solution", "conflicts": []any{0.0, 1.0}, "solution": ""}},
		{name: "no solution", path: "/api/analyze", body: `{"puzzle":"` + noSolution + `"}`, status: 200, fields: map[string]any{"status": "no solution"}},
		{name: "several", path: "/api/solve", body: `{"puzzle":"` + several + `"}`, status: 200, fields: map[string]any{"status": "several solutions", "solution": ""}},
		{name: "analyze hides the solution", path: "/api/analyze", body: `{"puzzle":"` + classic + `"}`, status: 200, fields: map[string]any{"solution": nil, "status": "solved"}},
		{name: "short", path: "/api/solve", body: `{"puzzle":"123"}`, status: 400, errHas: "3 characters"},
		{name: "bad char", path: "/api/solve", body: `{"puzzle":"` + strings.Replace(classic, "7", "x", 1) + `"}`, status: 400, errHas: "char"},
		{name: "empty puzzle", path: "/api/solve", body: `{"puzzle":""}`, status: 400, errHas: "no puzzle"},
		{name: "bad box", path: "/api/solve", body: `{"puzzle":"` + classic + `","box":"2x2"}`, status: 400},
		{name: "unknown solver", path: "/api/solve", body: `{"puzzle":"` + classic + `","solver":"magic"}`, status: 400, errHas: "unknown solver"},
		{name: "unknown field", path: "/api/solve", body: `{"puzle":"` + classic + `"}`, status: 400, errHas: `unknown field "puzle"`},
		{name: "wrong type", path: "/api/solve", body: `{"puzzle":81}`, status: 400, errHas: `"puzzle" must be a string`},
		{name: "malformed", path: "/api/solve", body: `{"puzzle":`, status: 400},
		{name: "not an object", path: "/api/solve", body: `[1,2]`, status: 400},
		{name: "two objects", path: "/api/solve", body: `{"puzzle":"x"}{}`, status: 400, errHas: "more after"},
		{name: "empty body", path: "/api/solve", body: ``, status: 400, errHas: "empty"},
		{name: "form post", path: "/api/solve", ctype: "application/x-www-form-urlencoded", body: `puzzle=1`, status: 415},
		{name: "huge body", path: "/api/solve", body: `{"puzzle":"` + strings.Repeat("1", 100<<10) + `"}`, status: 413},
		{name: "long puzzle text", path: "/api/solve", body: `{"puzzle":"` + strings.Repeat("1", 9000) + `"}`, status: 400, errHas: "at most"},
		{name: "GET", method: "GET", path: "/api/solve", status: 405},
		{name: "no endpoint", method: "GET", path: "/api/nothing", status: 404, errHas: "no API endpoint"},
		{name: "solvers", method: "GET", path: "/api/solvers", status: 200},
		{name: "health", method: "GET", path: "/api/health", status: 200, fields: map[string]any{"status": "ok"}},
	})
}

func TestAPIGames(t *testing.T) {
	a := newAPIServer(t, Config{})
	runCases(t, a, []apiCase{
		{name: "generate bad size", method: "GET", path: "/api/generate?size=7", status: 400, errHas: "4, 6, 9 or 16"},
		{name: "generate bad level", method: "GET", path: "/api/generate?size=9&level=insane", status: 400, errHas: "level"},
		{name: "new game bad size", path: "/api/games", body: `{"size":"99","level":"easy"}`, status: 400},
		{name: "own puzzle, several", path: "/api/games", body: `{"puzzle":"` + strings.Repeat("0", 81) + `"}`, status: 422, errHas: "several solutions"},
		{name: "own puzzle, conflict", path: "/api/games", body: `{"puzzle":"55` + strings.Repeat("0", 79) + `"}`, status: 422, errHas: "twice"},
		{name: "own puzzle, malformed", path: "/api/games", body: `{"puzzle":"12"}`, status: 400},
		{name: "game bad id", method: "GET", path: "/api/games/..%2F..%2Fetc%2Fpasswd", status: 404},
		{name: "game unknown id", method: "GET", path: "/api/games/0123456789abcdef0123456789abcdef", status: 404},
		{name: "action on unknown game", path: "/api/games/0123456789abcdef0123456789abcdef/move", body: `{"cell":1,"value":1}`, status: 404},
		{name: "leaderboard bad size", method: "GET", path: "/api/leaderboard?size=5&level=easy", status: 400},
		{name: "leaderboard bad level", method: "GET", path: "/api/leaderboard?size=9&level=", status: 400},
		{name: "leaderboard bad limit", method: "GET", path: "/api/leaderboard?size=9&level=easy&limit=0", status: 400},
		{name: "leaderboard", method: "GET", path: "/api/leaderboard?size=9&level=easy", status: 200},
		{name: "history, no cookie", method: "GET", path: "/api/history", status: 200},
	})

	// A whole game through the API, with every refusal on the way.
	status, v := a.call("GET", "/api/generate?size=9&level=easy", "", "")
	if status != 201 {
		t.Fatalf("generate: %d %v", status, v)
	}
	if _, ok := v["solution"]; ok {
		t.Fatalf("generate returned the solution: %v", v)
	}
	id := v["id"].(string)
	rec, err := a.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	puzzle, sol := rec.Puzzle, rec.Solution
	given := strings.IndexFunc(puzzle, func(r rune) bool { return r != '0' })
	empty := strings.Index(puzzle, "0")
	wrong := int(sol[empty]-'0')%9 + 1
	act := "/api/games/" + id + "/"
	runCases(t, a, []apiCase{
		{name: "no action", path: act + "fly", body: `{}`, status: 404, errHas: "no action"},
		{name: "move without cell", path: act + "move", body: `{"value":1}`, status: 400, errHas: "cell"},
		{name: "move off the board", path: act + "move", body: `{"cell":81,"value":1}`, status: 400, errHas: "off the board"},
		{name: "move negative cell", path: act + "move", body: `{"cell":-1,"value":1}`, status: 400},
		{name: "move bad value", path: act + "move", body: fmt.Sprintf(`{"cell":%d,"value":10}`, empty), status: 400, errHas: "not 0..9"},
		{name: "move on a given", path: act + "move", body: fmt.Sprintf(`{"cell":%d,"value":1}`, given), status: 409, errHas: "given"},
		{name: "its own digit on a given", path: act + "move", body: fmt.Sprintf(`{"cell":%d,"value":%c}`, given, puzzle[given]), status: 409, errHas: "given"},
		{name: "mark on a given", path: act + "mark", body: fmt.Sprintf(`{"cell":%d,"value":2}`, given), status: 409, errHas: "given"},
		{name: "move float", path: act + "move", body: `{"cell":1.5,"value":1}`, status: 400},
		{name: "undo nothing", path: act + "undo", body: ``, status: 409, errHas: "nothing to undo"},
		{name: "errors without on", path: act + "errors", body: `{}`, status: 400},
		{name: "submit too early", path: act + "submit", body: `{"name":"x"}`, status: 409, errHas: "still empty"},
		{name: "name too early", path: act + "name", body: `{"name":"x"}`, status: 409, errHas: "not finished"},
		// A ranked game says nothing of right and wrong: no list, no counter.
		{name: "wrong digit", path: act + "move", body: fmt.Sprintf(`{"cell":%d,"value":%d}`, empty, wrong), status: 200,
			fields: map[string]any{"mistakes": nil, "wrong": []any{}, "assisted": nil}},
		{name: "same wrong digit again", path: act + "move", body: fmt.Sprintf(`{"cell":%d,"value":%d}`, empty, wrong), status: 200, fields: map[string]any{"mistakes": nil}},
		{name: "show mistakes", path: act + "errors", body: `{"on":true}`, status: 200,
			fields: map[string]any{"mistakes": 1, "wrong": []any{float64(empty)}, "assisted": true}},
		{name: "errors off hides it", path: act + "errors", body: `{"on":false}`, status: 200, fields: map[string]any{"wrong": []any{}, "assisted": true}},
		{name: "check finds it", path: act + "check", body: `{}`, status: 200, fields: map[string]any{"checked": []any{float64(empty)}}},
		{name: "undo", path: act + "undo", body: `{}`, status: 200, fields: map[string]any{"canRedo": true}},
		{name: "mark", path: act + "mark", body: fmt.Sprintf(`{"cell":%d,"value":3}`, empty), status: 200},
		{name: "mark 0", path: act + "mark", body: fmt.Sprintf(`{"cell":%d,"value":0}`, empty), status: 400},
		{name: "pause", path: act + "pause", body: ``, status: 200, fields: map[string]any{"paused": true, "puzzle": "", "cells": ""}},
		{name: "move while paused", path: act + "move", body: fmt.Sprintf(`{"cell":%d,"value":1}`, empty), status: 409, errHas: "paused"},
		{name: "text/plain refused", path: act + "pause", ctype: "text/plain;charset=UTF-8", body: ``, status: 415},
		{name: "form refused", path: act + "resume", ctype: "application/x-www-form-urlencoded", body: `on=true`, status: 415},
		{name: "resume", path: act + "resume", body: `{}`, status: 200, fields: map[string]any{"paused": false}},
		{name: "hint", path: act + "hint", body: `{}`, status: 200, fields: map[string]any{"hints": 1, "hintStages": 1}},
		{name: "hint pattern", path: act + "hint", body: `{"stage":2}`, status: 200, fields: map[string]any{"hints": 1, "hintStages": 2, "hintStage": 2}},
		{name: "hint answer", path: act + "hint", body: `{"stage":3}`, status: 200, fields: map[string]any{"hints": 1, "hintStages": 3, "hintStage": nil}},
		{name: "hint answer twice", path: act + "hint", body: `{"stage":3}`, status: 409, errHas: "no hint open"},
		{name: "hint stage 4", path: act + "hint", body: `{"stage":4}`, status: 400, errHas: "stage"},
		{name: "second hint", path: act + "hint", body: `{"stage":1}`, status: 200, fields: map[string]any{"hints": 2, "hintStages": 4}},
		{name: "a move closes it", path: act + "move", body: fmt.Sprintf(`{"cell":%d,"value":0}`, empty), status: 200},
		{name: "hint pattern after a move", path: act + "hint", body: `{"stage":2}`, status: 409, errHas: "no hint open"},
	})
	// Fill in the solution: the last digit ends the game, which then
	// waits for a name (none is remembered yet).
	last := strings.LastIndex(puzzle, "0")
	for i := range puzzle {
		if puzzle[i] == '0' && i != last {
			if s, v := a.post(act+"move", fmt.Sprintf(`{"cell":%d,"value":%c}`, i, sol[i])); s != 200 || v["status"] != "playing" {
				t.Fatalf("move %d: %d %v", i, s, v)
			}
		}
	}
	runCases(t, a, []apiCase{
		{name: "last digit finishes", path: act + "move", body: fmt.Sprintf(`{"cell":%d,"value":%c}`, last, sol[last]), status: 200,
			fields: map[string]any{"status": "solved", "solution": sol, "needName": true, "flag": "assists", "mistakes": 1}},
		{name: "move after the end", path: act + "move", body: fmt.Sprintf(`{"cell":%d,"value":1}`, empty), status: 409, errHas: "over"},
		{name: "name empty", path: act + "name", body: `{"name":"  "}`, status: 400, errHas: "empty"},
		{name: "name long", path: act + "name", body: `{"name":"` + strings.Repeat("n", 33) + `"}`, status: 400, errHas: "longer than 32"},
		{name: "name control char", path: act + "name", body: `{"name":"a\u0007b"}`, status: 400, errHas: "control"},
		{name: "name", path: act + "name", body: `{"name":"<b>Ada</b>"}`, status: 200, fields: map[string]any{"status": "solved", "needName": nil}},
		{name: "name twice", path: act + "name", body: `{"name":"Ada"}`, status: 409},
		{name: "submit after", path: act + "submit", body: `{"name":"Ada"}`, status: 409},
	})
	// Mistakes were shown: the result is in the history, marked, and on
	// no leaderboard.
	status, v = a.call("GET", "/api/leaderboard?size=9&level=easy", "", "")
	if list, _ := v["list"].([]any); status != 200 || len(list) != 0 {
		t.Errorf("leaderboard: %d %v, want an assisted game kept off it", status, v)
	}
	status, v = a.call("GET", "/api/history", "", "")
	list, _ := v["list"].([]any)
	if status != 200 || len(list) != 1 || list[0].(map[string]any)["name"] != "<b>Ada</b>" || list[0].(map[string]any)["flag"] != "assists" {
		t.Errorf("history: %d %v", status, v)
	}
	if strings.Contains(fmt.Sprint(list), rec.Player) {
		t.Errorf("the history shows a player's browser id: %v", list)
	}
}

// pngHeader is a PNG signature and IHDR claiming w×h pixels, with nothing
// after it: enough for DecodeConfig, not for decoding.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func multipartBody(t testing.TB, field, name string, data []byte) (string, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, err := w.CreateFormFile(field, name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	w.Close()
	return w.FormDataContentType(), b.String()
}

func TestAPIScanBadInput(t *testing.T) {
	a := newAPIServer(t, Config{MaxUploadBytes: 200 << 10, MaxUploadPixels: 4_000_000})
	small := image.NewRGBA(image.Rect(0, 0, 10, 10))
	var smallPNG bytes.Buffer
	png.Encode(&smallPNG, small)
	blank := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for i := range blank.Pix {
		blank.Pix[i] = 255
	}
	blank.Set(3, 3, color.Black)
	var blankPNG bytes.Buffer
	png.Encode(&blankPNG, blank)
	mp := func(field, name string, data []byte) (string, string) { return multipartBody(t, field, name, data) }
	var cases []apiCase
	add := func(name string, status int, errHas string, ctype, body string) {
		cases = append(cases, apiCase{name: name, path: "/api/scan", ctype: ctype, body: body, status: status, errHas: errHas})
	}
	ct, body := mp("photo", "x.txt", []byte("hello, not an image"))
	add("text file", 415, "not an image", ct, body)
	ct, body = mp("photo", "x.jpg", []byte("\xff\xd8\xff\xe0 truncated"))
	add("truncated JPEG", 415, "cannot be read", ct, body)
	ct, body = mp("photo", "big.png", pngHeader(100000, 100000))
	add("too many pixels", 413, "megapixels", ct, body)
	ct, body = mp("photo", "huge.bin", bytes.Repeat([]byte{0xff}, 300<<10))
	add("too many bytes", 413, "larger than", ct, body)
	ct, body = mp("photo", "tiny.png", smallPNG.Bytes())
	add("too small", 422, "too small", ct, body)
	ct, body = mp("image", "x.png", blankPNG.Bytes())
	add("wrong field", 400, `no field "photo"`, ct, body)
	ct, body = mp("photo", "x.png", nil)
	add("empty photo", 400, "empty", ct, body)
	add("not multipart", 415, "multipart", "application/json", `{}`)
	add("broken multipart", 400, "multipart", "multipart/form-data; boundary=xyz", "--xyz\r\nbroken")
	runCases(t, a, cases)

	// A real picture without a grid is not an error: the status says so.
	ct, body = mp("photo", "../../blank.png", blankPNG.Bytes())
	status, v := a.call("POST", "/api/scan", ct, body)
	if status != 200 || v["found"] != false || v["status"] != "no grid" || v["file"] != "blank.png" {
		t.Errorf("blank page: %d %v", status, v)
	}
}

// TestNoFileSystemPaths asks for files outside the embedded set in every
// way a path can be spelled: none is served.
func TestNoFileSystemPaths(t *testing.T) {
	a := newAPIServer(t, Config{})
	for _, p := range []string{
		"/static/../go.mod", "/static/%2e%2e/server.go", "/static/..%2fserver.go", "/static/css/../../server.go",
		"/static/", "/static/templates/layout.html", "/static//etc/passwd", "/static/css", "/../../etc/passwd",
		"/static/%00", "/play/..%2f..%2fetc%2fpasswd",
	} {
		req, _ := http.NewRequest("GET", a.URL+p, nil)
		req.URL.Opaque = p // send the path exactly as written
		res, err := a.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if strings.Contains(string(body), "package web") || strings.Contains(string(body), "root:") || strings.Contains(string(body), "module github.com") {
			t.Errorf("GET %s served a file from disk: %.80q", p, body)
		}
		if p != "/play/..%2f..%2fetc%2fpasswd" && res.StatusCode != 404 && res.StatusCode != 400 {
			t.Errorf("GET %s: %d, want 404", p, res.StatusCode)
		}
	}
	// The real files are there, with their hashes for caching.
	res, err := a.Client().Get(a.URL + "/static/css/app.css")
	if err != nil || res.StatusCode != 200 || res.Header.Get("ETag") == "" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/css") {
		t.Errorf("app.css: %v %v", res, err)
	}
}

// TestSolutionAndSecurityHeaders reveals a game's solution (no result is
// stored) and checks the headers every answer carries.
func TestSolutionAndSecurityHeaders(t *testing.T) {
	a := newAPIServer(t, Config{})
	s, v := a.post("/api/games", `{"puzzle":"`+classic+`"}`)
	if s != 201 || v["level"] == "" || v["rating"] == nil {
		t.Fatalf("new game of an entered puzzle: %d %v", s, v)
	}
	id := v["id"].(string)
	s, v = a.post("/api/games/"+id+"/solution", ``)
	if s != 200 || v["status"] != "revealed" || v["solution"] != classicSolution {
		t.Errorf("solution: %d %v", s, v)
	}
	if s, _ := a.post("/api/games/"+id+"/hint", ``); s != 409 {
		t.Errorf("hint after the solution: %d, want 409", s)
	}
	list, _ := a.store.History(context.Background(), "anyone", 0)
	if len(list) != 0 {
		t.Errorf("a revealed game was scored: %v", list)
	}
	res, err := a.Client().Get(a.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for h, want := range map[string]string{
		"Content-Security-Policy": "script-src 'self'", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
	} {
		if !strings.Contains(res.Header.Get(h), want) {
			t.Errorf("%s = %q, want %q in it", h, res.Header.Get(h), want)
		}
	}
}

// TestGenerateOfferedLevels generates the hardest level the play page
// offers for every size, and checks that the next one is refused.
func TestGenerateOfferedLevels(t *testing.T) {
	a := newAPIServer(t, Config{})
	for _, n := range []int{4, 6, 9, 16} {
		top := maxLevel(n)
		s, v := a.call("GET", fmt.Sprintf("/api/generate?size=%d&level=%s", n, top), "", "")
		if s != 201 || len(v["puzzle"].(string)) != n*n || v["level"] != top {
			t.Errorf("%dx%d %s: %d %v", n, n, top, s, v["error"])
		}
		for i, l := range levels {
			if l == top && i+1 < len(levels) {
				if s, v := a.call("GET", fmt.Sprintf("/api/generate?size=%d&level=%s", n, levels[i+1]), "", ""); s != 400 {
					t.Errorf("%dx%d %s: %d %v, want 400", n, n, levels[i+1], s, v)
				}
			}
		}
	}
}

// TestOwnPuzzleUnranked finishes a puzzle the player typed in: it goes to
// their history, not to the leaderboard (they may know its solution).
func TestOwnPuzzleUnranked(t *testing.T) {
	a := newAPIServer(t, Config{})
	s, v := a.post("/api/games", `{"puzzle":"`+classic+`"}`)
	if s != 201 || v["own"] != true {
		t.Fatalf("new game: %d %v", s, v)
	}
	id := v["id"].(string)
	for i := range classic {
		if classic[i] == '0' {
			a.post("/api/games/"+id+"/move", fmt.Sprintf(`{"cell":%d,"value":%c}`, i, classicSolution[i]))
		}
	}
	if s, v := a.post("/api/games/"+id+"/name", `{"name":"Ada"}`); s != 200 || v["status"] != "solved" || v["flag"] != store.FlagOwn {
		t.Fatalf("name: %d %v", s, v)
	}
	rec, _ := a.store.Game(context.Background(), id)
	hist, _ := a.store.History(context.Background(), rec.Player, 0)
	if len(hist) != 1 || hist[0].Flag != store.FlagOwn {
		t.Errorf("history: %+v, want one unranked result", hist)
	}
	for _, l := range levels {
		if b, _ := a.store.Leaderboard(context.Background(), store.Board{Kind: store.KindSudoku, Size: "9x9", Level: l}, 0); len(b) != 0 {
			t.Errorf("an own puzzle is on the %s leaderboard: %+v", l, b)
		}
	}
}

// TestConcurrentMoves sends moves to one game from many goroutines at
// once (a double tap, two tabs): each is applied exactly once.
func TestConcurrentMoves(t *testing.T) {
	a := newAPIServer(t, Config{})
	_, v := a.post("/api/games", `{"puzzle":"`+classic+`"}`)
	id := v["id"].(string)
	var empties []int
	for i := range classic {
		if classic[i] == '0' {
			empties = append(empties, i)
		}
	}
	last := empties[len(empties)-1]
	empties = empties[:len(empties)-1] // the last digit would end the game
	var wg sync.WaitGroup
	for _, i := range empties {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.post("/api/games/"+id+"/move", fmt.Sprintf(`{"cell":%d,"value":%c}`, i, classicSolution[i]))
		}()
	}
	wg.Wait()
	s, v := a.call("GET", "/api/games/"+id, "", "")
	if want := classicSolution[:last] + "0" + classicSolution[last+1:]; s != 200 || v["cells"] != want || v["filled"] != 80.0 {
		t.Errorf("after %d concurrent moves: %v", len(empties), v)
	}
	// Undo as many times as there were moves: back to the puzzle.
	for range empties {
		a.post("/api/games/"+id+"/undo", ``)
	}
	if _, v := a.call("GET", "/api/games/"+id, "", ""); v["cells"] != classic || v["canUndo"] != false {
		t.Errorf("after undoing every move: %v", v["cells"])
	}
}

// TestAPIMoveClearsMarks: a move with "clear" takes the digit out of its
// peers' pencil marks, and one undo brings them back, across a reload.
func TestAPIMoveClearsMarks(t *testing.T) {
	a := newAPIServer(t, Config{})
	status, v := a.call("GET", "/api/generate?size=9&level=easy", "", "")
	if status != 201 {
		t.Fatalf("generate: %d %v", status, v)
	}
	id := v["id"].(string)
	rec, err := a.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	// Two empty cells of one row: mark the first's digit in the second.
	x, y := -1, -1
	for r := 0; r < 9 && y < 0; r++ {
		x = -1
		for c := 0; c < 9; c++ {
			if rec.Puzzle[r*9+c] == '0' {
				if x < 0 {
					x = r*9 + c
				} else {
					y = r*9 + c
					break
				}
			}
		}
	}
	d := rec.Solution[x]
	act := "/api/games/" + id + "/"
	marks := func(v map[string]any) string { return fmt.Sprint(v["marks"].([]any)[y]) }
	if s, v := a.post(act+"mark", fmt.Sprintf(`{"cell":%d,"value":%c}`, y, d)); s != 200 || marks(v) == "0" {
		t.Fatalf("mark: %d %v", s, v)
	}
	if s, v := a.post(act+"move", fmt.Sprintf(`{"cell":%d,"value":%c,"clear":true}`, x, d)); s != 200 || marks(v) != "0" {
		t.Fatalf("move with clear: %d, marks of the peer %v", s, marks(v))
	}
	if s, v := a.call("GET", "/api/games/"+id, "", ""); s != 200 || marks(v) != "0" {
		t.Fatalf("reload: %d, marks %v", s, marks(v))
	}
	if s, v := a.post(act+"undo", `{}`); s != 200 || marks(v) == "0" || v["cells"].(string)[x] != '0' {
		t.Fatalf("undo: %d, marks %v, cell %c", s, marks(v), v["cells"].(string)[x])
	}
}
