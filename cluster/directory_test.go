package cluster

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sudokuar/sudokuar/internal/pgtest"
	"github.com/sudokuar/sudokuar/rooms"
)

// testDB returns the URL of a fresh schema of the throwaway PostgreSQL
// (`make test-pg` provides one), dropped after the test, and a pool on it.
func testDB(t *testing.T) (string, *pgxpool.Pool) {
	t.Helper()
	url := pgtest.Schema(t, "cluster")
	db, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return url, db
}

// open opens node name on url, closed after the test.
func open(t *testing.T, url, name string) *Directory {
	t.Helper()
	d, err := Open(context.Background(), url, Options{Node: name, URL: "http://" + name, Retry: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// keepAlive keeps ds alive as their hubs would, a heartbeat every 300 ms, so
// that a test taking longer than a node's 3 s of life does not see it
// die; stop returns once no beat can land any more.
func keepAlive(ds ...*Directory) (stop func()) {
	var mu sync.Mutex
	on := true
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			mu.Lock()
			if !on {
				mu.Unlock()
				return
			}
			for _, d := range ds {
				d.Beat(context.Background(), rooms.Load{})
			}
			mu.Unlock()
			time.Sleep(300 * time.Millisecond)
		}
	}()
	return func() {
		mu.Lock()
		on = false
		mu.Unlock()
		<-done
	}
}

// waitFor polls cond until it holds, failing after a minute (a bound for
// a hung test, not a speed check).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestPostgresDirectory checks the directory two nodes share: codes
// unique across nodes, a live name refused, one-time tokens, the public
// list, and nodes.
func TestPostgresDirectory(t *testing.T) {
	url, db := testDB(t)
	ctx := context.Background()
	a, b := open(t, url, "a"), open(t, url, "b")
	if _, err := Open(ctx, url, Options{Node: "a", URL: "http://elsewhere"}); err == nil || !strings.Contains(err.Error(), "alive") {
		t.Errorf("a second live node named a: %v", err)
	}
	if err := a.Claim(ctx, "AAAAAA"); err != nil {
		t.Fatal(err)
	}
	if err := b.Claim(ctx, "AAAAAA"); !errors.Is(err, rooms.ErrCodeTaken) {
		t.Errorf("b claiming a's code: %v", err)
	}
	if o, err := b.Lookup(ctx, "AAAAAA"); err != nil || o.Seen.IsZero() || (o != rooms.Owner{Node: "a", URL: "http://a", Live: true, Seen: o.Seen}) {
		t.Errorf("lookup: %+v %v", o, err)
	}
	if _, err := b.Lookup(ctx, "ZZZZZZ"); !errors.Is(err, rooms.ErrNoCode) {
		t.Errorf("lookup of no code: %v", err)
	}

	tok, err := a.Grant(ctx, rooms.Grant{Code: "AAAAAA", Player: "p1", Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Redeem(ctx, "BBBBBB", tok); !errors.Is(err, rooms.ErrBadToken) {
		t.Errorf("a token spent on another room: %v", err)
	}
	if g, err := b.Redeem(ctx, "AAAAAA", tok); err != nil || g != (rooms.Grant{Code: "AAAAAA", Player: "p1", Name: "Ada"}) {
		t.Errorf("redeem: %+v %v", g, err)
	}
	if _, err := b.Redeem(ctx, "AAAAAA", tok); !errors.Is(err, rooms.ErrBadToken) {
		t.Errorf("a token spent twice: %v", err)
	}
	many := []rooms.Grant{{Code: "AAAAAA", Player: "p3", Name: "Cy"}, {Code: "BBBBBB", Player: "p4"}, {Code: "AAAAAA", Player: "p5", Name: "Eve"}}
	toks, err := a.GrantAll(ctx, many)
	if err != nil || len(toks) != len(many) {
		t.Fatalf("grant all: %d tokens, %v", len(toks), err)
	}
	for i := len(many) - 1; i >= 0; i-- { // each token names its own grant
		if g, err := b.Redeem(ctx, many[i].Code, toks[i]); err != nil || g != many[i] {
			t.Errorf("redeem token %d of a batch: %+v %v, want %+v", i, g, err, many[i])
		}
	}
	old, _ := a.Grant(ctx, rooms.Grant{Code: "AAAAAA", Player: "p2"})
	db.Exec(ctx, `UPDATE move_tokens SET until = now() - interval '1 second' WHERE token = $1`, old)
	if _, err := b.Redeem(ctx, "AAAAAA", old); !errors.Is(err, rooms.ErrBadToken) {
		t.Errorf("an expired token: %v", err)
	}

	b.Claim(ctx, "BBBBBB")
	b.Claim(ctx, "CCCCCC")
	lobby := func(code string, n int) rooms.RoomInfo {
		return rooms.RoomInfo{Code: code, Mode: rooms.Race, Size: 9, Level: "easy", Players: n, Max: 4, Phase: rooms.PhaseLobby}
	}
	a.Publish(ctx, []rooms.Listing{{Code: "AAAAAA", Listed: true, Info: lobby("AAAAAA", 1)}})
	b.Publish(ctx, []rooms.Listing{{Code: "BBBBBB", Listed: true, Info: lobby("BBBBBB", 2)}, {Code: "CCCCCC", Listed: true, Info: lobby("CCCCCC", 4)}})
	b.Publish(ctx, []rooms.Listing{{Code: "AAAAAA", Listed: false}}) // not b's: nothing
	list, err := a.Public(ctx, 50)
	if err != nil || len(list) != 2 || list[0].Code != "BBBBBB" || list[1] != lobby("AAAAAA", 1) {
		t.Errorf("public list (fullest first, full rooms left out): %+v %v", list, err)
	}
	b.Publish(ctx, []rooms.Listing{{Code: "BBBBBB", Listed: false}})
	if err := a.Release(ctx, []string{"AAAAAA"}); err != nil {
		t.Fatal(err)
	}
	if list, _ := b.Public(ctx, 50); len(list) != 0 {
		t.Errorf("public list after unlisting and release: %+v", list)
	}
	if err := a.Beat(ctx, rooms.Load{Conns: 7, Rooms: 2}); err != nil {
		t.Fatal(err)
	}
	nodes, err := b.Nodes(ctx)
	if err != nil || len(nodes) != 2 || nodes[0] != (rooms.NodeInfo{Name: "a", URL: "http://a", Load: rooms.Load{Conns: 7, Rooms: 2}}) {
		t.Errorf("nodes: %+v %v", nodes, err)
	}
	// b dies (no heartbeat for 3 s): its rooms leave the list and its
	// name is free again; a restart hands its old rooms over.
	db.Exec(ctx, `UPDATE nodes SET seen = now() - interval '4 seconds' WHERE name = 'b'`)
	if o, _ := a.Lookup(ctx, "BBBBBB"); o.Live {
		t.Errorf("a dead node's room looks live: %+v", o)
	}
	b2, err := Open(ctx, url, Options{Node: "b", URL: "http://b2"})
	if err != nil {
		t.Fatalf("restarting b after its death: %v", err)
	}
	defer b2.Close()
	if o, _ := a.Lookup(ctx, "BBBBBB"); !o.Live || !o.Handing || o.URL != "http://b2" {
		t.Errorf("the room of b's last run: %+v, want live and handing", o)
	}
}

// TestPostgresMatchmaking checks the quick-match path: one leader among
// three nodes, tickets from any node, a match made once (its tickets
// taken atomically) and heard by the chosen node, the seated notice heard
// by the players' nodes, and the leader's failover when its session dies.
func TestPostgresMatchmaking(t *testing.T) {
	url, db := testDB(t)
	ctx := context.Background()
	ds := []*Directory{open(t, url, "n0"), open(t, url, "n1"), open(t, url, "n2")}
	leader := func() int {
		at := -1
		for i, d := range ds {
			if d != nil && d.Leading() {
				if at >= 0 {
					return -2 // two leaders
				}
				at = i
			}
		}
		return at
	}
	stopBeats := keepAlive(ds...)
	waitFor(t, "a leader", func() bool { return leader() >= 0 })
	// A notification sent before a node LISTENs is not heard: the match
	// below would be lost if its node were still connecting.
	waitFor(t, "every node listening", func() bool {
		return ds[0].listening.Load() && ds[1].listening.Load() && ds[2].listening.Load()
	})
	l := leader()
	// Drain the nudges so far.
	for _, d := range ds {
		for len(d.Events()) > 0 {
			<-d.Events()
		}
	}
	kind := func(id, node string) rooms.Ticket {
		return rooms.Ticket{ID: id, Player: "p-" + id, Name: "N " + id, Mode: rooms.Race, Size: 9, Level: "easy"}
	}
	ds[(l+1)%3].AddTicket(ctx, kind("t1", ""))
	ds[(l+2)%3].AddTicket(ctx, kind("t2", ""))
	var ts []rooms.Ticket
	waitFor(t, "two tickets", func() bool {
		ts, _ = ds[l].Tickets(ctx, 100)
		return len(ts) == 2
	})
	if ts[0].ID != "t1" || ts[0].Node != ds[(l+1)%3].node || ts[1].Player != "p-t2" || time.Since(ts[0].Since) < 0 {
		t.Errorf("tickets: %+v", ts)
	}
	if q, err := ds[(l+1)%3].Queued(ctx); err != nil || !slices.Equal(q, []string{"t1"}) {
		t.Errorf("queued of the node of t1: %v %v", q, err)
	}
	gotNudge := false
	for !gotNudge {
		select {
		case e := <-ds[l].Events():
			gotNudge = e.Nudge
		case <-time.After(time.Minute):
			t.Fatal("the leader heard of no ticket")
		}
	}
	target := ds[(l+1)%3]
	m := rooms.Match{Node: target.node, Tickets: ts}
	if err := ds[l].Match(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := ds[l].Match(ctx, m); !errors.Is(err, rooms.ErrTicketGone) {
		t.Errorf("a match made twice: %v", err)
	}
	// A node that missed the news sees its ticket gone from the queue.
	if q, err := ds[(l+2)%3].Queued(ctx); err != nil || len(q) != 0 {
		t.Errorf("queued of the node of t2 after the match: %v %v", q, err)
	}
	e := next(t, target, func(e rooms.Event) bool { return e.Match != nil })
	if len(e.Match.Tickets) != 2 || e.Match.Tickets[1].Name != "N t2" {
		t.Errorf("the match heard: %+v", e.Match)
	}
	target.Seated(ctx, rooms.Seated{Code: "QQQQQQ", Node: target.node, URL: target.url, Tickets: ts})
	other := ds[(l+2)%3]
	e = next(t, other, func(e rooms.Event) bool { return e.Seated != nil })
	if e.Seated.Code != "QQQQQQ" || len(e.Seated.Tickets) != 1 || e.Seated.Tickets[0].ID != "t2" {
		t.Errorf("seated, as the node of t2 heard it: %+v", e.Seated)
	}
	// Dropping a ticket; tickets of a dead node are not listed.
	other.AddTicket(ctx, kind("t3", ""))
	if q, _ := other.Queued(ctx); !slices.Equal(q, []string{"t3"}) {
		t.Errorf("queued after adding t3: %v", q)
	}
	other.DropTicket(ctx, "t3")
	target.AddTicket(ctx, kind("t4", ""))
	stopBeats()
	db.Exec(ctx, `UPDATE nodes SET seen = now() - interval '1 minute' WHERE name = $1`, target.node)
	if ts, _ := ds[l].Tickets(ctx, 100); len(ts) != 0 {
		t.Errorf("tickets left: %+v", ts)
	}
	target.Beat(ctx, rooms.Load{})

	// The leader's session dies: another node leads within a few tries.
	if _, err := db.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2::oid AND granted`, leaderLock, uint32(ds[l].space)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a new leader", func() bool { n := leader(); return n >= 0 && n != l })
	// And when its process ends (Close), too.
	l = leader()
	ds[l].Close()
	ds[l] = nil
	waitFor(t, "a third leader", func() bool { n := leader(); return n >= 0 && n != l })
}

// next waits for an event of d that ok accepts, skipping others.
func next(t *testing.T, d *Directory, ok func(rooms.Event) bool) rooms.Event {
	t.Helper()
	for {
		select {
		case e := <-d.Events():
			if ok(e) {
				return e
			}
		case <-time.After(time.Minute):
			t.Fatal("no event")
		}
	}
}
