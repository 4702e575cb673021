package rooms

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// newNodes starts n hubs sharing one MemoryCluster, as nodes "n0", "n1"…
// at URLs "http://n0"…; opt may change each config.
func newNodes(t *testing.T, n int, opt func(*Config)) (*MemoryCluster, []*harness) {
	t.Helper()
	mc := NewMemoryCluster(nil)
	hs := make([]*harness, n)
	for i := range hs {
		name := "n" + string(rune('0'+i))
		d, err := mc.NewDirectory(name, "http://"+name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		hs[i] = newHarness(t, func(c *Config) {
			c.Node, c.URL, c.Directory = name, "http://"+name, d
			if opt != nil {
				opt(c)
			}
		})
	}
	return mc, hs
}

// follow has a client of node to (a new connection, as a page on another
// origin would open, with its own player id) join with a moved message's
// token, and returns it with its first state.
func follow(t *testing.T, to *harness, player string, mv Moved) (*client, State) {
	t.Helper()
	c := to.connect(player)
	c.send(In{T: "join", Code: mv.Code, Token: mv.Token})
	return c, c.state(func(s State) bool { return s.Code == mv.Code })
}

// TestClusterJoinElsewhere: a room made on one node is joined through
// another, which answers "moved" with a token that seats the player, on
// the room's node, under the id the first node knew them by; a spent
// token does not work twice, and a code no node holds is refused.
func TestClusterJoinElsewhere(t *testing.T) {
	_, hs := newNodes(t, 2, nil)
	ada := hs[0].connect("ada")
	st := ada.createRoom(Race, true)
	bob := hs[1].connect("bob")
	seq := bob.send(In{T: "join", Code: st.Code, Name: "Bob"})
	var mv Moved
	bob.expect("moved", func(m msg) bool { return m.Seq == seq }).decode(t, &mv)
	if mv.Code != st.Code || mv.URL != "http://n0" || len(mv.Token) != 32 {
		t.Fatalf("moved: %+v", mv)
	}
	if s0, s1 := hs[0].hub.Stats(), hs[1].hub.Stats(); s0.Node != "n0" || !s0.Leader || s1.Node != "n1" || s1.Leader {
		t.Errorf("stats: node %q leader %v, node %q leader %v; want n0 leading", s0.Node, s0.Leader, s1.Node, s1.Leader)
	}
	bob2, st2 := follow(t, hs[0], "bob-on-n0", mv)
	if st2.You < 0 || st2.Seats[st2.You].Name != "Bob" {
		t.Fatalf("bob's seat on n0: you %d, seats %+v", st2.You, st2.Seats)
	}
	// The seat is bob's (n1's id): his n1 connection's token finds it again.
	if i := slices.IndexFunc(hs[0].hub.rooms[st.Code].seats, func(s *seat) bool { return s != nil && s.player == "bob" }); i != st2.You {
		t.Errorf("the seat is not bob's: %d, want %d", i, st2.You)
	}
	eve := hs[0].connect("eve")
	seq = eve.send(In{T: "join", Code: st.Code, Token: mv.Token})
	if e := eve.errorFor(seq); e.Code != ErrBad {
		t.Errorf("a spent token: %+v", e)
	}
	seq = bob.send(In{T: "join", Code: "ZZZZZZ"})
	if e := bob.errorFor(seq); e.Code != ErrNoRoom {
		t.Errorf("a code nobody holds: %+v", e)
	}
	// The public list on n1 shows n0's room, with its two players.
	waitFor(t, "n0's room listed on n1", func() bool {
		l := hs[1].hub.PublicRooms()
		return len(l) == 1 && l[0].Code == st.Code && l[0].Players == 2
	})
	bob2.send(In{T: "leave"})
	ada.send(In{T: "leave"})
	waitFor(t, "the room's code released", func() bool {
		_, err := hs[1].hub.cfg.Directory.Lookup(t.Context(), st.Code)
		return err != nil
	})
}

// TestClusterQuickMatch: three players queue on three nodes; the leader
// matches them into one room on one node, whose own player is seated at
// once while the others are sent there, and the game starts once they
// have come.
func TestClusterQuickMatch(t *testing.T) {
	_, hs := newNodes(t, 3, func(c *Config) { c.Reconnect = 30 * time.Second })
	cs := []*client{hs[0].connect("p0"), hs[1].connect("p1"), hs[2].connect("p2")}
	for i, c := range cs {
		c.send(In{T: "quick", Mode: Race, Size: 9, Level: "easy", Name: "P" + string(rune('0'+i))})
	}
	at := -1
	waitFor(t, "the matched room", func() bool {
		for i, h := range hs {
			if len(h.hub.Open()) > 0 {
				at = i
			}
		}
		return at >= 0
	})
	for i, c := range cs {
		if i == at {
			continue
		}
		var mv Moved
		c.expect("moved", nil).decode(t, &mv)
		if mv.URL != "http://n"+string(rune('0'+at)) {
			t.Errorf("%s was sent to %s, want n%d", c.name, mv.URL, at)
		}
		to := hs[mv.URL[len("http://n")]-'0']
		cs[i], _ = follow(t, to, "again-"+c.name, mv)
	}
	for i, c := range cs {
		st := c.playing()
		if st.Seats[st.You].Name != "P"+string(rune('0'+i)) || len(st.Seats) != 3 {
			t.Errorf("%s sits as %q; seats %+v", c.name, st.Seats[st.You].Name, st.Seats)
		}
	}
}

// TestClusterRequeue: a match takes a player's ticket for a room that is
// never made: its node dies before making it, or the news is lost on the
// way to the player's node (its listener was reconnecting), the Taken of
// a room to be made elsewhere or the Match of a room to make on the node
// itself. The player's node hears, or learns from the queue, that its
// ticket was taken, waits requeueAfter for the room, then queues the
// ticket again, so the player is not left waiting for ever.
func TestClusterRequeue(t *testing.T) {
	for _, tc := range []struct {
		name string
		host string // the node the match sends the room to
		lost func(Event) bool
	}{
		{"room-node-dies", "ghost", func(Event) bool { return false }},
		{"taken-lost", "ghost", func(e Event) bool { return e.Taken != nil }},
		{"match-lost", "n0", func(e Event) bool { return e.Match != nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mc, hs := newNodes(t, 1, func(c *Config) {
				c.QuickAlone = time.Hour
				c.Directory = newDeafDir(c.Directory, tc.lost)
			})
			ghost, _ := mc.NewDirectory("ghost", "http://ghost")
			defer ghost.Close()
			p := hs[0].connect("p")
			p.send(In{T: "quick", Mode: Race, Size: 9, Level: "easy"})
			p.expect("queued", nil)
			dir := hs[0].hub.cfg.Directory
			var ts []Ticket
			waitFor(t, "the ticket", func() bool { ts, _ = dir.Tickets(t.Context(), 10); return len(ts) == 1 })
			if err := ghost.Match(t.Context(), Match{Node: tc.host, Tickets: ts}); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the taken ticket noted", func() bool {
				hs[0].hub.cl.mu.Lock()
				defer hs[0].hub.cl.mu.Unlock()
				return !hs[0].hub.cl.tickets[ts[0].ID].taken.IsZero()
			})
			if again, _ := dir.Tickets(t.Context(), 10); len(again) != 0 {
				t.Fatalf("the match left the ticket queued: %+v", again)
			}
			hs[0].clock.Advance(requeueAfter)
			waitFor(t, "the ticket queued again", func() bool {
				again, _ := dir.Tickets(t.Context(), 10)
				return len(again) == 1 && again[0].ID == ts[0].ID
			})
		})
	}
}

// deafDir is a Directory whose node never hears the events lost says.
type deafDir struct {
	Directory
	events chan Event
}

func newDeafDir(d Directory, lost func(Event) bool) *deafDir {
	dd := &deafDir{Directory: d, events: make(chan Event, 16)}
	go func() {
		defer close(dd.events)
		for e := range d.Events() {
			if !lost(e) {
				dd.events <- e
			}
		}
	}()
	return dd
}

func (d *deafDir) Events() <-chan Event { return d.events }

// countingDir counts the directory's lookups and redeems.
type countingDir struct {
	Directory
	mu    sync.Mutex
	calls int
}

func (d *countingDir) Lookup(ctx context.Context, code string) (Owner, error) {
	d.mu.Lock()
	d.calls++
	d.mu.Unlock()
	return d.Directory.Lookup(ctx, code)
}

func (d *countingDir) Redeem(ctx context.Context, code, token string) (Grant, error) {
	d.mu.Lock()
	d.calls++
	d.mu.Unlock()
	return d.Directory.Redeem(ctx, code, token)
}

// TestClusterDirectoryFlood: a client sending joins for codes that are
// not here (each a directory query) and made-up tokens gets its budget of
// them and then rate errors, without a query each; meanwhile an innocent
// player joins through the same node and is moved at once.
func TestClusterDirectoryFlood(t *testing.T) {
	mc := NewMemoryCluster(nil)
	d0, _ := mc.NewDirectory("n0", "http://n0")
	d1, _ := mc.NewDirectory("n1", "http://n1")
	defer d0.Close()
	defer d1.Close()
	counted := &countingDir{Directory: d1}
	h0 := newHarness(t, func(c *Config) { c.Node, c.URL, c.Directory = "n0", "http://n0", d0 })
	h1 := newHarness(t, func(c *Config) { c.Node, c.URL, c.Directory = "n1", "http://n1", counted })
	st := h0.connect("ada").createRoom(Race, false)

	bad := h1.connect("mallory")
	began := time.Now()
	rated := 0
	for i := range 200 {
		code := []byte("AAAAAA")
		code[i%6] = codeAlphabet[i%len(codeAlphabet)]
		seq := bad.send(In{T: "join", Code: string(code)})
		if e := bad.errorFor(seq); e.Code == ErrRate {
			rated++
		}
	}
	seq := bad.send(In{T: "join", Code: st.Code, Token: "0123456789abcdef0123456789abcdef"})
	if e := bad.errorFor(seq); e.Code != ErrRate {
		t.Errorf("a made-up token after the flood: %+v, want a rate error", e)
	}
	counted.mu.Lock()
	calls := counted.calls
	counted.mu.Unlock()
	// The budget refills at dirRate: a loaded machine taking seconds
	// over this gets a call more per second.
	most := dirBurst + 1 + int(time.Since(began).Seconds()*dirRate)
	if calls > most || rated < 200-most {
		t.Errorf("200 joins for codes not here: %d directory calls, %d rate errors; want at most %d calls", calls, rated, most)
	}
	bob := h1.connect("bob")
	seq = bob.send(In{T: "join", Code: st.Code})
	var mv Moved
	bob.expect("moved", func(m msg) bool { return m.Seq == seq }).decode(t, &mv)
	if mv.URL != "http://n0" {
		t.Errorf("the innocent player's moved: %+v", mv)
	}
}
