package rooms

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestMemoryDirectory checks the one-process directory the way the hubs
// use it: codes unique across nodes, one-time tokens, the public list of
// live nodes, and a match taking its tickets out of the queue once.
func TestMemoryDirectory(t *testing.T) {
	ctx := context.Background()
	clock := time.Unix(1_700_000_000, 0)
	mc := NewMemoryCluster(func() time.Time { return clock })
	a, err := mc.NewDirectory("a", "http://a")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := mc.NewDirectory("b", "http://b")
	if _, err := mc.NewDirectory("a", "http://a2"); err == nil {
		t.Error("a second node named a was let in")
	}
	if err := a.Claim(ctx, "AAAAAA"); err != nil {
		t.Fatal(err)
	}
	if err := b.Claim(ctx, "AAAAAA"); !errors.Is(err, ErrCodeTaken) {
		t.Errorf("b claiming a's code: %v, want ErrCodeTaken", err)
	}
	if o, err := b.Lookup(ctx, "AAAAAA"); err != nil || o.Node != "a" || o.URL != "http://a" || !o.Live {
		t.Errorf("lookup: %+v %v", o, err)
	}
	if _, err := b.Lookup(ctx, "BBBBBB"); !errors.Is(err, ErrNoCode) {
		t.Errorf("lookup of no code: %v", err)
	}
	tok, _ := b.Grant(ctx, Grant{Code: "AAAAAA", Player: "p1", Name: "Ada"})
	if _, err := a.Redeem(ctx, "BBBBBB", tok); !errors.Is(err, ErrBadToken) {
		t.Errorf("a token spent on another room: %v", err)
	}
	if g, err := a.Redeem(ctx, "AAAAAA", tok); err != nil || g.Player != "p1" {
		t.Errorf("redeem: %+v %v", g, err)
	}
	if _, err := a.Redeem(ctx, "AAAAAA", tok); !errors.Is(err, ErrBadToken) {
		t.Errorf("a token spent twice: %v", err)
	}
	info := RoomInfo{Code: "AAAAAA", Mode: Race, Size: 9, Level: "easy", Players: 1, Max: 4, Phase: PhaseLobby}
	a.Publish(ctx, []Listing{{Code: "AAAAAA", Listed: true, Info: info}})
	b.Publish(ctx, []Listing{{Code: "AAAAAA", Listed: false}}) // not b's room: ignored
	if l, _ := b.Public(ctx, 50); len(l) != 1 || l[0] != info {
		t.Errorf("public list: %+v", l)
	}
	if !a.Leading() || b.Leading() {
		t.Errorf("leading: a %v b %v, want the oldest node", a.Leading(), b.Leading())
	}
	b.Beat(ctx, Load{Conns: 1})
	clock = clock.Add(DeadAfter)
	b.Beat(ctx, Load{Conns: 2})
	if l, _ := b.Public(ctx, 50); len(l) != 0 {
		t.Errorf("the list shows a dead node's room: %+v", l)
	}
	if a.Leading() || !b.Leading() {
		t.Errorf("after a's death: a leads %v, b %v", a.Leading(), b.Leading())
	}
	if n, _ := b.Nodes(ctx); len(n) != 1 || n[0].Name != "b" || n[0].Conns != 2 {
		t.Errorf("live nodes: %+v", n)
	}
	t1 := Ticket{ID: "t1", Player: "p1", Mode: Race, Size: 9, Level: "easy", Since: clock}
	a.AddTicket(ctx, t1)
	if ts, _ := b.Tickets(ctx, 10); len(ts) != 1 || ts[0].Node != "a" {
		t.Fatalf("tickets: %+v", ts)
	}
	if e := <-b.Events(); !e.Nudge {
		t.Errorf("the leader was not nudged: %+v", e)
	}
	m := Match{Node: "a", Tickets: []Ticket{{ID: "t1", Node: "a"}}}
	if err := b.Match(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := b.Match(ctx, m); !errors.Is(err, ErrTicketGone) {
		t.Errorf("a ticket matched twice: %v", err)
	}
	if e := <-a.Events(); e.Match == nil || e.Match.Tickets[0].ID != "t1" {
		t.Errorf("a was not told to make the room: %+v", e)
	}
}
