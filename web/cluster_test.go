package web

import (
	"context"
	"fmt"
	"net/http/cookiejar"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/sudokuar/sudokuar/internal/pgtest"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestPostgresTwoServersOneGame: two servers (nodes) on one PostgreSQL
// database (`make test-pg`) take moves on one solo game at once, half
// through each, as a player behind a load balancer would send them. The
// lock per game is each process's own, so without the store's
// conditional update one node would write over the other's move; every
// move must be in the game afterwards, seen from either node.
func TestPostgresTwoServersOneGame(t *testing.T) {
	url := pgtest.Schema(t, "web")
	ctx := context.Background()
	nodes := make([]*apiServer, 2)
	jar, _ := cookiejar.New(nil) // one browser: cookies go by host, not port
	for i := range nodes {
		pg, err := store.OpenPostgres(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := New(Config{Store: pg, Log: testLogger(t), Limits: Limits{Off: true}})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(srv.Handler())
		hs.Client().Jar = jar
		t.Cleanup(func() { hs.Close(); srv.Close(); pg.Close() })
		nodes[i] = &apiServer{Server: hs, t: t, web: srv}
	}
	puzzle := "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	status, g := nodes[0].post("/api/games", `{"puzzle":"`+puzzle+`"}`)
	if status != 201 && status != 200 {
		t.Fatalf("new game: %d %v", status, g)
	}
	id := g["id"].(string)
	cells, _ := sudoku.ParseCells(puzzle, 9)
	sol, err := sudoku.Solve(sudoku.Grid{Shape: sudoku.Shape{BoxRows: 3, BoxCols: 3}, Cells: cells})
	if err != nil {
		t.Fatal(err)
	}
	var empty []int
	for i, v := range cells {
		if v == 0 && len(empty) < 40 { // not all: the last would end the game
			empty = append(empty, i)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, len(empty))
	for k, cell := range empty {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, v := nodes[k%2].post("/api/games/"+id+"/move", fmt.Sprintf(`{"cell":%d,"value":%d}`, cell, sol.Cells[cell]))
			if status != 200 {
				errs <- fmt.Sprintf("move %d through node %d: %d %v", cell, k%2, status, v)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for i, n := range nodes {
		_, v := n.call("GET", "/api/games/"+id, "", "")
		got := v["cells"].(string)
		for _, cell := range empty {
			if want := byte('0' + sol.Cells[cell]); got[cell] != want {
				t.Errorf("node %d: cell %d is %c, want %c: a move was lost", i, cell, got[cell], want)
			}
		}
	}
}
