package cluster

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sudokuar/sudokuar/rooms"
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

// TestPostgresJournalClaimRace: eight live nodes race to claim dead A's
// room, 20 times: one wins each time, A's records are refused after it,
// the winner's are taken, and Load gives the last snapshot with the
// entries after it.
func TestPostgresJournalClaimRace(t *testing.T) {
	_, db := testDB(t)
	ctx := context.Background()
	j, err := NewJournal(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	beat(t, db, "A", 10*time.Second)
	for g := range 8 {
		beat(t, db, fmt.Sprintf("N%d", g), 0)
	}
	for k := range 20 {
		code := fmt.Sprintf("RACE%02d", k)
		ref, err := j.Write(ctx, "A", []rooms.Record{
			{Code: code, Epoch: 1, Seq: 1, Kind: rooms.RecSnapshot, Open: true, Data: []byte("s1")},
			{Code: code, Epoch: 1, Seq: 2, Kind: rooms.RecEntry, Data: []byte("e2")},
		})
		if err != nil || ref[code] {
			t.Fatalf("A's first records: %v %v", ref, err)
		}
		var wins atomic.Int32
		var winner atomic.Value
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, ok, err := j.Claim(ctx, code, fmt.Sprintf("N%d", g))
				if err != nil {
					t.Error(err)
				}
				if ok {
					wins.Add(1)
					winner.Store(fmt.Sprintf("N%d/%d/%v", g, c.Epoch, c.Away >= 9*time.Second))
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("room %s: %d winners", code, wins.Load())
		}
		var name string
		var epoch int64
		var away bool
		fmt.Sscanf(winner.Load().(string), "%2s/%d/%t", &name, &epoch, &away)
		if epoch != 2 || !away {
			t.Errorf("the claim: %s", winner.Load())
		}
		if ref, err := j.Write(ctx, "A", []rooms.Record{{Code: code, Epoch: 1, Seq: 3, Kind: rooms.RecEntry, Data: []byte("zombie")}}); err != nil || !ref[code] {
			t.Fatalf("the zombie's record: refused %v, %v", ref, err)
		}
		if ref, err := j.Write(ctx, name, []rooms.Record{{Code: code, Epoch: 2, Seq: 3, Kind: rooms.RecEntry, Data: []byte("e3")}}); err != nil || ref[code] {
			t.Fatalf("the winner's record: refused %v, %v", ref, err)
		}
		snap, entries, err := j.Load(ctx, code)
		if err != nil || string(snap) != "s1" || len(entries) != 2 || string(entries[0]) != "e2" || string(entries[1]) != "e3" {
			t.Fatalf("loaded %q %q %v", snap, entries, err)
		}
		if _, ok, _ := j.Claim(ctx, code, "N0"); ok && name != "N0" {
			t.Fatal("a live node's room was claimed")
		}
	}
	// A snapshot replaces the entries it covers; a drop forgets the room.
	ref, err := j.Write(ctx, "A", []rooms.Record{
		{Code: "SNAP01", Epoch: 1, Seq: 1, Kind: rooms.RecSnapshot, Open: true, Data: []byte("s1")},
		{Code: "SNAP01", Epoch: 1, Seq: 2, Kind: rooms.RecEntry, Data: []byte("e2")},
	})
	if err != nil || ref["SNAP01"] {
		t.Fatal(ref, err)
	}
	if _, err := j.Write(ctx, "A", []rooms.Record{
		{Code: "SNAP01", Epoch: 1, Seq: 3, Kind: rooms.RecSnapshot, Data: []byte("s3")},
		{Code: "SNAP01", Epoch: 1, Seq: 4, Kind: rooms.RecEntry, Data: []byte("e4")},
	}); err != nil {
		t.Fatal(err)
	}
	if snap, entries, _ := j.Load(ctx, "SNAP01"); string(snap) != "s3" || len(entries) != 1 || string(entries[0]) != "e4" {
		t.Errorf("after a second snapshot: %q %q", snap, entries)
	}
	if _, err := j.Write(ctx, "A", []rooms.Record{{Code: "SNAP01", Epoch: 1, Seq: 5, Kind: rooms.RecDrop}}); err != nil {
		t.Fatal(err)
	}
	if snap, entries, _ := j.Load(ctx, "SNAP01"); snap != nil || entries != nil {
		t.Errorf("after a drop: %q %q", snap, entries)
	}
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
	beat(t, db, "h0", 10*time.Second)
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
	bob0 := connect(t, h0, "bob")
	bob0.send(rooms.In{T: "join", Code: st.Code})
	var mv rooms.Moved
	bob0.expect("moved", &mv)
	cy.expect("moved", &mv)
	if mv.Code != st.Code {
		t.Errorf("zombie's moved: %+v", mv)
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
