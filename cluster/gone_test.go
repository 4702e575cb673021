package cluster

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/rooms"
)

// TestGone: a port that listens (even one never accepting: a node too
// busy to answer) is no proof of death; a closed port is; a URL with no
// host is not probed.
func TestGone(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ctx := context.Background()
	if Gone(ctx, url) {
		t.Errorf("a listening port (never accepting) taken for a node gone")
	}
	ln.Close()
	if !Gone(ctx, url) {
		t.Errorf("a closed port (%s) not taken for a node gone", url)
	}
	for _, bad := range []string{"", "http://", "::nonsense", "http://127.0.0.1:99999"} {
		if Gone(ctx, bad) {
			t.Errorf("Gone(%q) = true", bad)
		}
	}
}

// TestPostgresDown: a node declared down by a peer that saw its last
// heartbeat is dead at once (not live in Lookup, its rooms claimable);
// a declaration naming an older heartbeat does nothing, and the node's
// next heartbeat undoes one.
func TestPostgresDown(t *testing.T) {
	url, db := testDB(t)
	ctx := context.Background()
	a, b := open(t, url, "a"), open(t, url, "b")
	j, err := NewJournal(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	const code = "DWNA22"
	if err := a.Claim(ctx, code); err != nil {
		t.Fatal(err)
	}
	old, err := b.Lookup(ctx, code)
	if err != nil || !old.Live || old.Seen.IsZero() {
		t.Fatalf("lookup: %+v, %v", old, err)
	}
	time.Sleep(5 * time.Millisecond) // the next heartbeat's time differs
	if err := a.Beat(ctx, rooms.Load{}); err != nil {
		t.Fatal(err)
	}
	if down, err := b.Down(ctx, "a", old.Seen); err != nil || down {
		t.Fatalf("down with an old heartbeat: %v, %v (want no)", down, err)
	}
	if _, ok, err := j.Claim(ctx, code, "b"); err != nil || ok {
		t.Fatalf("claimed from a live node: %v, %v", ok, err)
	}
	cur, err := b.Lookup(ctx, code)
	if err != nil || !cur.Live || cur.Seen.Equal(old.Seen) {
		t.Fatalf("lookup after a beat: %+v, %v", cur, err)
	}
	if down, err := b.Down(ctx, "a", cur.Seen); err != nil || !down {
		t.Fatalf("down with the last heartbeat: %v, %v (want yes)", down, err)
	}
	if o, err := b.Lookup(ctx, code); err != nil || o.Live {
		t.Errorf("lookup of a node down: %+v, %v", o, err)
	}
	if nodes, err := b.Nodes(ctx); err != nil || len(nodes) != 1 || nodes[0].Name != "b" {
		t.Errorf("nodes with a down: %+v, %v", nodes, err)
	}
	c, ok, err := j.Claim(ctx, code, "b")
	if err != nil || !ok || c.Epoch != 2 {
		t.Fatalf("claim from a node down: %+v, %v, %v", c, ok, err)
	}
	if c.Away < 0 || c.Away > time.Minute {
		t.Errorf("away %v: from the last heartbeat", c.Away)
	}
	if err := a.Beat(ctx, rooms.Load{}); err != nil {
		t.Fatal(err)
	}
	if nodes, err := b.Nodes(ctx); err != nil || len(nodes) != 2 {
		t.Errorf("nodes after the down node beat again: %+v, %v", nodes, err)
	}
}
