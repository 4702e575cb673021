package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// BenchmarkLongHistoryMark times one pencil-mark action over HTTP on a
// game whose stored move list was made 5,751 moves long (issue 19,
// finding 12: each action then loaded and rewrote 440 KB). It reports the
// stored state's size after the actions.
//
//	GOMAXPROCS=1 go test ./web -run '^$' -bench LongHistoryMark -benchtime 200x
func BenchmarkLongHistoryMark(b *testing.B) {
	st, err := store.OpenSQLite(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	srv, err := New(Config{Store: st, Limits: Limits{Requests: Rate{PerMinute: 1 << 30, Burst: 1 << 30}}})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	b.Cleanup(func() { hs.Close(); srv.Close(); st.Close() })
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Jar: jar}
	post := func(path, body string) map[string]any {
		res, err := cl.Post(hs.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		var v map[string]any
		json.NewDecoder(res.Body).Decode(&v)
		if res.StatusCode >= 300 {
			b.Fatalf("%s: %d %v", path, res.StatusCode, v)
		}
		return v
	}
	id := post("/api/games", `{"puzzle":"`+classic+`"}`)["id"].(string)
	cell := strings.Index(classic, "0")

	// The long history, written straight into the stored state.
	ctx := context.Background()
	rec, err := st.Game(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	g, err := sudoku.ParseCellGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3}, classic)
	if err != nil {
		b.Fatal(err)
	}
	fixed := make([]bool, 81)
	for i, v := range g.Cells {
		fixed[i] = v != 0
	}
	gm, err := game.FromGrid(g, fixed)
	if err != nil {
		b.Fatal(err)
	}
	for k := range 5751 {
		if _, err := gm.ToggleMark(cell/9, cell%9, 1+k%9); err != nil {
			b.Fatal(err)
		}
	}
	var state map[string]any
	json.Unmarshal(rec.State, &state)
	state["board"] = gm.Snapshot()
	if rec.State, err = json.Marshal(state); err != nil {
		b.Fatal(err)
	}
	if err := st.UpdateGame(ctx, rec); err != nil {
		b.Fatal(err)
	}
	start := len(rec.State)
	b.ResetTimer()
	for k := range b.N {
		post("/api/games/"+id+"/mark", fmt.Sprintf(`{"cell":%d,"value":%d}`, cell, 1+k%9))
	}
	b.StopTimer()
	rec, _ = st.Game(ctx, id)
	b.ReportMetric(float64(start), "start-bytes")
	b.ReportMetric(float64(len(rec.State)), "end-bytes")
}
