package rooms

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// killable is a node's directory whose heartbeats stop when the node is
// "killed", and whose Down also tells the journal (a MemoryCluster and a
// MemJournal keep their nodes apart; the database has them in one table).
type killable struct {
	Directory
	j      *MemJournal
	killed atomic.Bool
}

func (k *killable) Beat(ctx context.Context, l Load) error {
	if k.killed.Load() {
		return nil
	}
	return k.Directory.Beat(ctx, l)
}

func (k *killable) Down(ctx context.Context, node string, seen time.Time) (bool, error) {
	down, err := k.Directory.Down(ctx, node, seen)
	if down {
		k.j.Down(node)
	}
	return down, err
}

// prober is a Config.Gone that counts its probes: a node named in gone
// has stopped; hold, when set, keeps every probe waiting until closed.
type prober struct {
	mu    sync.Mutex
	gone  map[string]bool
	calls int
	hold  chan struct{}
}

func (p *prober) probe(ctx context.Context, url string) bool {
	p.mu.Lock()
	p.calls++
	hold := p.hold
	p.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gone[url]
}

func (p *prober) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

// failoverNodes starts two nodes of a cluster sharing a journal that takes
// both for alive for an hour: no takeover can come from a heartbeat
// growing old, only from a node declared down.
func failoverNodes(t *testing.T, p *prober) ([]*harness, []*killable, *MemJournal) {
	t.Helper()
	j := NewMemJournal(nil)
	mc := NewMemoryCluster(nil)
	var hs []*harness
	var ds []*killable
	for _, name := range []string{"n0", "n1"} {
		d, err := mc.NewDirectory(name, "http://"+name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		k := &killable{Directory: d, j: j}
		j.Beat(name, time.Now().Add(time.Hour))
		ds = append(ds, k)
		hs = append(hs, newHarness(t, func(c *Config) {
			c.Node, c.URL, c.Directory, c.Journal, c.Gone = name, "http://"+name, k, j, p.probe
		}))
	}
	return hs, ds, j
}

// TestFailoverKilledOwner: node n0 is killed (its heartbeat, still fresh,
// stops; its port refuses connections) in the middle of a race. The
// players' joins on n1 find n0 gone, declare it down and take the room
// over at once, long before DeadAfter: every acknowledged move is there.
// Joins waiting on one probe share it.
func TestFailoverKilledOwner(t *testing.T) {
	p := &prober{gone: map[string]bool{}, hold: make(chan struct{})}
	hs, ds, j := failoverNodes(t, p)
	ada, bob := hs[0].connect("ada"), hs[0].connect("bob")
	code, sa, _ := startRace(t, hs[0], ada, bob)
	sol, empty := playRight(t, ada, sa, 4)

	ds[0].killed.Store(true)
	p.gone["http://n0"] = true
	ada.conn.Close()
	bob.conn.Close()
	ada2, bob2 := hs[1].connect("ada"), hs[1].connect("bob")
	ada2.send(In{T: "join", Code: code})
	bob2.send(In{T: "join", Code: code})
	for p.count() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(p.hold) // both joins are in: one probes, the other waits for it

	st := ada2.state(func(s State) bool { return s.Code == code })
	if st.Phase != PhasePlaying || st.You != 0 || st.Board == nil {
		t.Fatalf("ada on n1: %+v", st)
	}
	wantCells(t, st, sol, empty[:4], "takeover")
	if sb := bob2.state(func(s State) bool { return s.Code == code }); sb.You != 1 {
		t.Errorf("bob on n1: seat %d", sb.You)
	}
	if node, epoch := j.Owner(code); node != "n1" || epoch != 2 {
		t.Errorf("the room's owner is %s at epoch %d, want n1 at 2", node, epoch)
	}
	if n := p.count(); n != 1 {
		t.Errorf("%d probes for two joins: want one shared", n)
	}
	if s := hs[1].hub.Stats(); s.Resumed != 1 {
		t.Errorf("n1 resumed %d rooms, want 1", s.Resumed)
	}
}

// TestFailoverSlowOwner: a live owner that is merely slow (its port
// accepts: the probe finds no proof) is not declared down: a join on the
// other node is sent to it, the room stays its own, and a stranger's
// repeated joins do not make a probe each.
func TestFailoverSlowOwner(t *testing.T) {
	p := &prober{gone: map[string]bool{}}
	hs, _, j := failoverNodes(t, p)
	ada := hs[0].connect("ada")
	st := ada.createRoom(Race, false)
	eve := hs[1].connect("eve")
	for range 4 {
		seq := eve.send(In{T: "join", Code: st.Code})
		var mv Moved
		eve.expect("moved", func(m msg) bool { return m.Seq == seq }).decode(t, &mv)
		if mv.URL != "http://n0" {
			t.Fatalf("moved: %+v", mv)
		}
	}
	if node, epoch := j.Owner(st.Code); node != "n0" || epoch != 1 {
		t.Errorf("the room's owner is %s at epoch %d, want n0 at 1", node, epoch)
	}
	if n := p.count(); n != 1 {
		t.Errorf("%d probes for 4 joins within probeTTL (the hub's clock stands still): want one", n)
	}
}

// TestHandoverSpread: a node of three closing with two rooms sends each
// room's players to another live node, one room each, every player with
// a token of its own.
func TestHandoverSpread(t *testing.T) {
	j := NewMemJournal(nil)
	_, hs := newNodes(t, 3, func(c *Config) { c.Journal = j })
	ada, bob, cy, dan := hs[0].connect("ada"), hs[0].connect("bob"), hs[0].connect("cy"), hs[0].connect("dan")
	code1, _, _ := startRace(t, hs[0], ada, bob)
	code2, _, _ := startRace(t, hs[0], cy, dan)
	hs[0].hub.Close()
	urls := map[string]string{}
	toks := map[string]bool{}
	for _, c := range []*client{ada, bob, cy, dan} {
		var mv Moved
		c.expect("moved", nil).decode(t, &mv)
		if u, ok := urls[mv.Code]; ok && u != mv.URL {
			t.Errorf("room %s's players sent to %s and %s", mv.Code, u, mv.URL)
		}
		urls[mv.Code] = mv.URL
		if mv.Token == "" || toks[mv.Token] {
			t.Errorf("%s's token %q: empty or shared", c.name, mv.Token)
		}
		toks[mv.Token] = true
	}
	if urls[code1] == urls[code2] || urls[code1] == "http://n0" || urls[code2] == "http://n0" {
		t.Errorf("two rooms handed over to %s and %s: want n1 and n2, one each", urls[code1], urls[code2])
	}
}
