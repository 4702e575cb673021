package cluster

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sudokuar/sudokuar/rooms"
	"github.com/sudokuar/sudokuar/rooms/journaltest"
	"github.com/sudokuar/sudokuar/sudoku"
)

// beat sets node's heartbeat ago in the past (0: now), as the directory
// of a live (or, long ago, a dead) node would have.
func beat(t *testing.T, db *pgxpool.Pool, node string, ago time.Duration) {
	t.Helper()
	if _, err := db.Exec(context.Background(), `INSERT INTO nodes (name, url, seen) VALUES ($1, 'http://'||$1, now() - $2::interval)
		ON CONFLICT (name) DO UPDATE SET seen = excluded.seen`, node, fmt.Sprintf("%d milliseconds", ago.Milliseconds())); err != nil {
		t.Fatal(err)
	}
}

// TestPostgresJournal runs the journal's checks on PostgreSQL, each on a
// fresh schema.
func TestPostgresJournal(t *testing.T) {
	journaltest.Run(t, journaltest.Env{
		New: func(t *testing.T) rooms.Journal {
			_, db := testDB(t)
			j, err := NewJournal(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			return j
		},
		Beat: func(t *testing.T, j rooms.Journal, node string, ago time.Duration) {
			beat(t, j.(*Journal).pool, node, ago)
		},
	})
}

// TestPostgresTakeover: a race on node h0, journaled in PostgreSQL; h0's
// heartbeat stops and its players' sockets drop; they reconnect to h1,
// which takes the room over with every acknowledged move; h0, still
// running, is refused and tells its watcher to reconnect. Then h1 hands
// the room over on shutdown and h2 takes it.
func TestPostgresTakeover(t *testing.T) {
	_, db := testDB(t)
	ctx := context.Background()
	j, err := NewJournal(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	hub := func(name string) *rooms.Hub {
		h := rooms.NewHub(rooms.Config{Node: name, URL: "http://" + name, Journal: j, Countdown: 10 * time.Millisecond})
		t.Cleanup(h.Close)
		beat(t, db, name, 0)
		return h
	}
	h0, h1, h2 := hub("h0"), hub("h1"), hub("h2")
	// The live nodes beat (as their directories would) until the test
	// ends; h0 stops when it "dies".
	var h0dead bool
	var beatMu sync.Mutex // a beat and h0's death do not interleave
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(300 * time.Millisecond):
			}
			beatMu.Lock()
			for _, n := range []string{"h0", "h1", "h2"} {
				if n != "h0" || !h0dead {
					db.Exec(context.Background(), `UPDATE nodes SET seen = now() WHERE name = $1`, n)
				}
			}
			beatMu.Unlock()
		}
	}()
	ada, bob, cy := connect(t, h0, "ada"), connect(t, h0, "bob"), connect(t, h0, "cy")
	ada.send(rooms.In{T: "create", Mode: rooms.Race, Name: "Ada"})
	st := ada.state(func(rooms.State) bool { return true })
	bob.send(rooms.In{T: "join", Code: st.Code, Name: "Bob"})
	bob.state(func(s rooms.State) bool { return s.You == 1 })
	ada.send(rooms.In{T: "ready", On: ptr(true)})
	bob.send(rooms.In{T: "ready", On: ptr(true)})
	sa := ada.state(func(s rooms.State) bool { return s.Phase == rooms.PhasePlaying && s.Board != nil })
	cy.send(rooms.In{T: "join", Code: st.Code, Watch: true})
	cy.state(func(s rooms.State) bool { return s.Phase == rooms.PhasePlaying })
	cells, err := sudoku.ParseCells(sa.Puzzle, 9)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sudoku.Solve(sudoku.Grid{Shape: sudoku.Shape{BoxRows: 3, BoxCols: 3}, Cells: cells})
	if err != nil {
		t.Fatal(err)
	}
	var empty []int
	for i, v := range cells {
		if v == 0 {
			empty = append(empty, i)
		}
	}
	for k, i := range empty[:20] {
		ada.send(rooms.In{T: "move", Seq: int64(k + 1), Cell: ptr(i), Value: ptr(sol.Cells[i])})
		var ack rooms.Move
		ada.expect("ack", &ack)
		if ack.Seq != int64(k+1) {
			t.Fatalf("ack %d for move %d", ack.Seq, k+1)
		}
	}

	// h0 "dies": its sockets drop, its heartbeat is 10 s old.
	ada.conn.Close()
	bob.conn.Close()
	beatMu.Lock()
	h0dead = true
	beat(t, db, "h0", 10*time.Second)
	beatMu.Unlock()
	ada1 := connect(t, h1, "ada")
	ada1.send(rooms.In{T: "join", Code: st.Code})
	s1 := ada1.state(func(s rooms.State) bool { return s.Code == st.Code })
	if s1.Phase != rooms.PhasePlaying || s1.You != 0 || s1.Board == nil {
		t.Fatalf("resumed on h1: %+v", s1)
	}
	for _, i := range empty[:20] {
		if int(s1.Board.Cells[i]-'0') != sol.Cells[i] {
			t.Errorf("r%dc%d lost in the takeover", i/9+1, i%9+1)
		}
	}
	if s1.Elapsed > sa.Elapsed+60_000 {
		t.Errorf("elapsed %d ms after the takeover: the time away was charged", s1.Elapsed)
	}
	// The zombie: bob's page reconnects to h0, still running (a network
	// split): h0 seats him and writes the room, is refused, and tells
	// everyone there to reconnect.
	// (If h0 wrote the room after the claim already, it has closed it,
	// and bob is told there is no such room: never a seat there.)
	bob0 := connect(t, h0, "bob")
	bob0.send(rooms.In{T: "join", Code: st.Code})
	var mv rooms.Moved
	cy.expect("moved", &mv)
	if mv.Code != st.Code {
		t.Errorf("zombie's moved: %+v", mv)
	}
	for {
		m, ok := bob0.next()
		if !ok || m.T == "state" {
			t.Fatalf("bob on the zombie: %+v", m)
		}
		if m.T == "moved" || m.T == "error" {
			break
		}
	}

	// h1 leaves cleanly: ada is sent on, h2 takes the room at her join.
	ada1.send(rooms.In{T: "move", Seq: 100, Cell: ptr(empty[20]), Value: ptr(sol.Cells[empty[20]])})
	var ack rooms.Move
	ada1.expect("ack", &ack)
	if err := h1.Handover(ctx, "http://h2"); err != nil {
		t.Fatal(err)
	}
	ada1.expect("moved", &mv)
	if mv.URL != "http://h2" {
		t.Errorf("handover moved: %+v", mv)
	}
	ada2 := connect(t, h2, "ada")
	ada2.send(rooms.In{T: "join", Code: st.Code})
	s2 := ada2.state(func(s rooms.State) bool { return s.Code == st.Code })
	for _, i := range empty[:21] {
		if s2.Board == nil || int(s2.Board.Cells[i]-'0') != sol.Cells[i] {
			t.Fatalf("r%dc%d lost in the handover", i/9+1, i%9+1)
		}
	}
	var node string
	var epoch int64
	if err := db.QueryRow(ctx, `SELECT node, epoch FROM room_codes WHERE code = $1`, st.Code).Scan(&node, &epoch); err != nil || node != "h2" || epoch != 3 {
		t.Errorf("room_codes: %s epoch %d, %v", node, epoch, err)
	}
}

func ptr[T any](v T) *T { return &v }
