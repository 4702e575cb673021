package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/store"
)

// FuzzAPI sends arbitrary bodies to every JSON endpoint that reads one:
// the server must answer (never panic, never 5xx) with JSON.
func FuzzAPI(f *testing.F) {
	st, err := store.OpenSQLite(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer st.Close()
	srv, err := New(Config{Store: st})
	if err != nil {
		f.Fatal(err)
	}
	defer srv.Close()
	h := srv.Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"puzzle":"`+classic+`"}`)))
	var g View
	if err := json.Unmarshal(rec.Body.Bytes(), &g); err != nil || g.ID == "" {
		f.Fatalf("new game: %d %s", rec.Code, rec.Body)
	}
	paths := []string{"/api/solve", "/api/analyze", "/api/games", "/api/games/" + g.ID + "/move",
		"/api/games/" + g.ID + "/mark", "/api/games/" + g.ID + "/errors", "/api/games/" + g.ID + "/submit",
		"/api/games/" + g.ID + "/undo"}
	for _, seed := range []string{
		`{"puzzle":"` + classic + `"}`, `{"puzzle":"` + classic + `","solver":"dlx","box":"3x3"}`,
		`{"cell":2,"value":4}`, `{"cell":-9999999999,"value":1e400}`, `{"on":true}`, `{"name":"x"}`,
		`{"size":"16","level":"easy"}`, `{"puzzle":"2 3\n1. 0"}`, `{"puzzle":null}`, `[]`, `{"cell":"1"}`, "\x00\xff",
	} {
		for i := range paths {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		path := paths[int(which)%len(paths)]
		if path == "/api/games" && strings.Contains(body, "16") {
			return // generating 16×16 grids at fuzzing speed tells nothing new
		}
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusNotImplemented {
			t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body)
		}
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatalf("%s %q: answer is not a JSON object: %s", path, body, rec.Body)
		}
		if rec.Code >= 400 && v["error"] == nil {
			t.Fatalf("%s %q: %d without an error: %s", path, body, rec.Code, rec.Body)
		}
	})
}

// FuzzParsePuzzle feeds parsePuzzle arbitrary text: an error or a grid of
// a valid shape, never a panic.
func FuzzParsePuzzle(f *testing.F) {
	for _, s := range []string{classic, "2 2\n1. 0 0 0\n0 0 3. 0\n0 4. 0 0\n0 0 0 2.", "53..7....\n6..195...", "|1 2|\n--+--", "9 9\n", "#\n1234", ""} {
		f.Add(s, "")
		f.Add(s, "2x3")
	}
	f.Fuzz(func(t *testing.T, text, box string) {
		g, err := parsePuzzle(text, box)
		if err != nil {
			return
		}
		if !g.Shape.Valid() || len(g.Cells) != g.N()*g.N() {
			t.Fatalf("parsePuzzle(%q, %q) gave shape %v with %d cells", text, box, g.Shape, len(g.Cells))
		}
		for _, v := range g.Cells {
			if v < 0 || v > g.N() {
				t.Fatalf("parsePuzzle(%q) gave value %d", text, v)
			}
		}
	})
}
