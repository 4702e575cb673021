package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Several nodes in one process: hubs sharing a MemJournal and a clock,
// each reaching the journal through a link the test can cut (a crash, or
// a network split: the node's goroutines run on, but nothing it writes
// arrives).

// cutJournal is a node's link to the shared journal: while cut, every
// call fails.
type cutJournal struct {
	Journal
	cut   atomic.Bool
	delay time.Duration // each Write takes this long (a slow database)
	// claims counts the Claim calls answered, failed writes the Write
	// calls refused while cut: events a test can wait for.
	claims, failed atomic.Int64
}

var errCut = errors.New("network cut")

func (c *cutJournal) Write(ctx context.Context, node string, batch []Record) (map[string]bool, error) {
	time.Sleep(c.delay)
	if c.cut.Load() {
		c.failed.Add(1)
		return nil, errCut
	}
	return c.Journal.Write(ctx, node, batch)
}

func (c *cutJournal) Claim(ctx context.Context, code, node string) (Claimed, bool, error) {
	defer c.claims.Add(1)
	if c.cut.Load() {
		return Claimed{}, false, errCut
	}
	return c.Journal.Claim(ctx, code, node)
}

func (c *cutJournal) Load(ctx context.Context, code string) ([]byte, [][]byte, error) {
	if c.cut.Load() {
		return nil, nil, errCut
	}
	return c.Journal.Load(ctx, code)
}

func (c *cutJournal) Hand(ctx context.Context, node string) error {
	if c.cut.Load() {
		return errCut
	}
	return c.Journal.Hand(ctx, node)
}

type testNodes struct {
	t     *testing.T
	clock *clock
	j     *MemJournal
	link  map[string]*cutJournal
	hub   map[string]*harness
	dead  map[string]bool
}

// newNodes starts one hub per name, sharing a journal and a clock.
func newJournalNodes(t *testing.T, names ...string) *testNodes {
	n := &testNodes{t: t, clock: &clock{}, link: map[string]*cutJournal{}, hub: map[string]*harness{}, dead: map[string]bool{}}
	n.j = NewMemJournal(n.clock.Now)
	for _, name := range names {
		link := &cutJournal{Journal: n.j}
		h := newHarness(t, func(c *Config) {
			c.Now, c.Journal, c.Node, c.URL = n.clock.Now, link, name, "http://"+name
		})
		h.clock = n.clock
		n.link[name], n.hub[name] = link, h
		n.j.Beat(name, n.clock.Now())
	}
	return n
}

// advance moves the clock on; the live nodes beat.
func (n *testNodes) advance(d time.Duration) {
	n.clock.Advance(d)
	for name := range n.hub {
		if !n.dead[name] {
			n.j.Beat(name, n.clock.Now())
		}
	}
}

// crash cuts node off the journal, drops its clients' sockets and lets
// 30 s pass: its heartbeat is stale.
func (n *testNodes) crash(name string, clients ...*client) {
	link := n.link[name]
	link.cut.Store(true)
	n.t.Cleanup(func() { link.cut.Store(false) }) // before the hub's Close: it writes, and is refused
	n.dead[name] = true
	for _, c := range clients {
		c.conn.Close()
	}
	n.advance(30 * time.Second)
}

// ackFor waits for the ack answering seq.
func ackFor(cl *client, seq int64) Move {
	cl.t.Helper()
	var m Move
	cl.expect("ack", func(m msg) bool { return m.Seq == seq }).decode(cl.t, &m)
	return m
}

// playRight has cl, at seat 0 of the race st, enter the solution in the
// first k empty cells, each move acknowledged before the next. It
// returns the solution and every empty cell of the puzzle, in order.
func playRight(t *testing.T, cl *client, st State, k int) (sol, empty []int) {
	t.Helper()
	sol, empty = solve(t, st), emptyCells(st.Puzzle)
	for _, i := range empty[:k] {
		ackFor(cl, cl.send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])}))
	}
	return sol, empty
}

// wantCells reports each of cells whose digit on st's board is not the
// solution's: an acknowledged move lost in what (a takeover, a handover).
func wantCells(t *testing.T, st State, sol, cells []int, what string) {
	t.Helper()
	for _, i := range cells {
		if int(st.Board.Cells[i]-'0') != sol[i] {
			t.Errorf("acknowledged move r%dc%d lost in the %s", i/9+1, i%9+1, what)
		}
	}
}

// coopMove waits for the broadcast of seat's co-op move seq.
func coopMove(cl *client, seat int, seq int64) {
	cl.t.Helper()
	cl.expect("move", func(m msg) bool {
		var mv Move
		return m.Seq == seq && json.Unmarshal(m.raw, &mv) == nil && mv.Seat == seat
	})
}

// TestTakeoverRace: node A dies in the middle of a race; the players'
// pages reconnect to node B, which takes the room over from the journal:
// every move A acknowledged is there (with the marks and the undo), the
// move A never acknowledged is not, the 30 s without a node are not on
// the clock, and the race goes on to its result. A, still running (cut
// off, not dead), can no longer write: its room closes and tells its
// last watcher to reconnect.
func TestTakeoverRace(t *testing.T) {
	n := newJournalNodes(t, "A", "B")
	a, b := n.hub["A"], n.hub["B"]
	ada, bob, cy := a.connect("ada"), a.connect("bob"), a.connect("cy")
	code, sa, _ := startRace(t, a, ada, bob)
	cy.send(In{T: "join", Code: code, Watch: true})
	cy.state(func(s State) bool { return s.Phase == PhasePlaying })
	sol := solve(t, sa)
	empty := emptyCells(sa.Puzzle)
	n.advance(2 * time.Minute)

	acked := map[int]int{}
	for _, i := range empty[:len(empty)/2] {
		seq := ada.send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])})
		for _, ch := range ackFor(ada, seq).Changes {
			acked[ch.Cell] = ch.Value
		}
	}
	// Bob: a mark, a wrong digit, the digit undone.
	bc := empty[len(empty)-1]
	ackFor(bob, bob.send(In{T: "mark", Cell: ptr(empty[len(empty)-2]), Value: ptr(3)}))
	ackFor(bob, bob.send(In{T: "move", Cell: ptr(bc), Value: ptr(sol[bc]%9 + 1)}))
	ackFor(bob, bob.send(In{T: "undo"}))
	before := ada.sync().Elapsed

	// Cut off, A journals nothing, so it answers nothing.
	n.link["A"].cut.Store(true)
	lost := empty[len(empty)/2]
	failed := n.link["A"].failed.Load()
	seq := ada.send(In{T: "move", Cell: ptr(lost), Value: ptr(sol[lost])})
	waitFor(t, "A's record of the move refused by the cut link", func() bool { return n.link["A"].failed.Load() > failed })
	if m, ok := ada.wait("ack", func(m msg) bool { return m.Seq == seq }, 0); ok {
		t.Fatalf("a move acknowledged while it could not be journaled: %s", m.raw)
	}
	n.crash("A", ada, bob)

	ada2, bob2 := b.connect("ada"), b.connect("bob")
	st := ada2.join(code)
	if st.Phase != PhasePlaying || st.You != 0 || st.Board == nil {
		t.Fatalf("resumed on B: %+v", st)
	}
	for cell, v := range acked {
		if got := int(st.Board.Cells[cell] - '0'); got != v {
			t.Errorf("acknowledged move r%dc%d=%d is %d after the takeover", cell/9+1, cell%9+1, v, got)
		}
	}
	if st.Board.Cells[lost] != '0' {
		t.Errorf("the move never acknowledged is on the board: %c", st.Board.Cells[lost])
	}
	if away := st.Elapsed - before; away < -1_000 || away > 5_000 {
		t.Errorf("elapsed %d ms before the crash, %d after 30 s without a node: the time away was charged", before, st.Elapsed)
	}
	sb := bob2.join(code)
	if sb.You != 1 || sb.Board == nil || sb.Board.Cells[bc] != '0' || sb.Board.Marks[empty[len(empty)-2]] != 1<<3 || !sb.Board.CanRedo {
		t.Errorf("bob's board after the takeover: %+v", sb.Board)
	}
	if s := b.hub.Stats(); s.Resumed != 1 {
		t.Errorf("B's stats: %+v", s)
	}

	// The zombie: A's link is back, its records are refused.
	n.link["A"].cut.Store(false)
	cy.expect("moved", func(m msg) bool { return m.Code == code })
	waitFor(t, "A's room closed", func() bool { return len(a.hub.Open()) == 0 })
	if node, epoch := n.j.Owner(code); node != "B" || epoch != 2 {
		t.Errorf("the room is %s's at epoch %d", node, epoch)
	}

	// The race goes on on B: bob redoes his digit, ada finishes first.
	n.advance(5 * time.Minute)
	ackFor(bob2, bob2.send(In{T: "redo"}))
	for _, i := range empty {
		if _, ok := acked[i]; !ok {
			ada2.send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])})
		}
	}
	var fin Finish
	ada2.expect("finish", nil).decode(t, &fin)
	if fin.Place != 1 || fin.Seat != 0 {
		t.Errorf("finish: %+v", fin)
	}
	bob2.send(In{T: "forfeit"})
	bob2.expect("over", nil)
	waitFor(t, "the match stored on B", func() bool { return b.hub.Stats().Matches == 1 })
	if s := a.hub.Stats(); s.Matches != 0 {
		t.Errorf("the zombie stored a match: %+v", s)
	}
}

// TestTakeoverCoop: the same for a co-op game: both players' moves on
// the shared board survive A's death, and they finish it on B.
func TestTakeoverCoop(t *testing.T) {
	n := newJournalNodes(t, "A", "B")
	a, b := n.hub["A"], n.hub["B"]
	ada, bob := a.connect("ada"), a.connect("bob")
	code, states := startCoop(t, a, ada, bob)
	sol := solve(t, states[0])
	empty := emptyCells(states[0].Puzzle)
	n.advance(3 * time.Minute)
	half := empty[:len(empty)/2]
	for k, i := range half {
		p := []*client{ada, bob}[k%2]
		coopMove(p, k%2, p.send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])}))
	}
	ackFor(ada, ada.send(In{T: "mark", Cell: ptr(empty[len(empty)-1]), Value: ptr(2)}))
	n.crash("A", ada, bob)

	ada2, bob2 := b.connect("ada"), b.connect("bob")
	st := ada2.join(code)
	bob2.join(code)
	if st.Phase != PhasePlaying || st.Board == nil || st.Board.V != int64(len(half)) {
		t.Fatalf("resumed on B: %+v", st)
	}
	wantCells(t, st, sol, half, "takeover")
	if st.Board.Marks[empty[len(empty)-1]] != 1<<2 {
		t.Errorf("ada's private mark lost: %v", st.Board.Marks[empty[len(empty)-1]])
	}
	for k, i := range empty[len(half):] {
		[]*client{ada2, bob2}[k%2].send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])})
	}
	var over Over
	bob2.expect("over", nil).decode(t, &over)
	if len(over.Results) != 2 || over.Results[0].Place != 1 || over.Results[1].Place != 1 {
		t.Errorf("co-op result: %+v", over)
	}
	waitFor(t, "the match stored on B", func() bool { return b.hub.Stats().Matches == 1 })
}

// TestHandover: SIGTERM on A (Hub.Handover): every player is told to move
// to B with no error, and B takes the rooms over at the first join with
// every move and no time charged.
func TestHandover(t *testing.T) {
	n := newJournalNodes(t, "A", "B")
	a, b := n.hub["A"], n.hub["B"]
	ada, bob := a.connect("ada"), a.connect("bob")
	code, sa, _ := startRace(t, a, ada, bob)
	n.advance(time.Minute)
	sol, empty := playRight(t, ada, sa, 10)
	before := ada.sync().Elapsed
	ada.send(In{T: "move", Cell: ptr(empty[10]), Value: ptr(sol[empty[10]])}) // in flight at the handover
	if err := a.hub.Handover(context.Background(), "http://B"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*client{ada, bob} {
		var mv Moved
		c.expect("moved", nil).decode(t, &mv)
		if mv.Code != code || mv.URL != "http://B" {
			t.Errorf("%s: %+v", c.name, mv)
		}
		<-c.conn.Done()
		for _, m := range c.all() {
			if strings.Contains(m, `"t":"error"`) {
				t.Errorf("%s saw an error in the handover: %s", c.name, m)
			}
		}
	}
	ada2 := b.connect("ada")
	st := ada2.join(code)
	wantCells(t, st, sol, empty[:10], "handover")
	if st.Elapsed-before > 5_000 || st.Elapsed < before {
		t.Errorf("elapsed %d before the handover, %d after", before, st.Elapsed)
	}
}

// TestClaimRaceHubs: node A dies; joins for its room reach B and C at
// once: only one of them runs the room. (journaltest's ClaimRace races
// the claims themselves.)
func TestClaimRaceHubs(t *testing.T) {
	n := newJournalNodes(t, "A", "B", "C")
	ada, bob := n.hub["A"].connect("ada"), n.hub["A"].connect("bob")
	code, _, _ := startRace(t, n.hub["A"], ada, bob)
	n.crash("A", ada, bob)
	var wg sync.WaitGroup
	for _, name := range []string{"B", "C"} {
		for _, p := range []string{"ada", "bob"} {
			c := n.hub[name].connect(p)
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.send(In{T: "join", Code: code})
			}()
		}
	}
	wg.Wait()
	// Both nodes have asked the journal and neither is still taking the
	// room over: whatever they decided is final.
	waitFor(t, "both claims decided", func() bool {
		return n.link["B"].claims.Load() > 0 && n.link["C"].claims.Load() > 0 &&
			!n.hub["B"].hub.resumingRoom(code) && !n.hub["C"].hub.resumingRoom(code)
	})
	if b, c := len(n.hub["B"].hub.Open()), len(n.hub["C"].hub.Open()); b+c != 1 {
		t.Errorf("rooms on B %d, on C %d", b, c)
	}
}

// TestHeldInOrder: with a slow journal, an ack waits for its record, and
// nothing the room sends the connection after it (a state) overtakes it.
// (An error for a message that never reaches the room, bad JSON here,
// is answered at once, as without a journal.)
func TestHeldInOrder(t *testing.T) {
	n := newJournalNodes(t, "A")
	a := n.hub["A"]
	n.link["A"].delay = 20 * time.Millisecond
	ada, bob := a.connect("ada"), a.connect("bob")
	_, sa, _ := startRace(t, a, ada, bob)
	sol := solve(t, sa)
	empty := emptyCells(sa.Puzzle)
	start := len(ada.all())
	var seqs []int64
	for _, i := range empty[:5] {
		seqs = append(seqs, ada.send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])}))
		seqs = append(seqs, ada.send(In{T: "sync"}))
		ada.conn.Receive([]byte("{not json"))
	}
	ackFor(ada, seqs[len(seqs)-2])
	ada.expect("state", func(m msg) bool { return m.Seq == seqs[len(seqs)-1] })
	waitFor(t, "the last error", func() bool { return len(ada.all()) >= start+15 })
	var got []string
	for _, raw := range ada.all()[start:] {
		var m msg
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatal(err)
		}
		if m.T == "error" {
			continue
		}
		got = append(got, m.T)
		if !slices.Contains(seqs, m.Seq) {
			t.Errorf("unexpected message %s", raw)
		}
	}
	want := slices.Repeat([]string{"ack", "state"}, 5)
	if !slices.Equal(got, want) {
		t.Errorf("messages in the order %v, want %v", got, want)
	}
	s := a.hub.Stats()
	t.Logf("journal: %d records in %d commits", s.JournalRecords, s.JournalCommits)
}

// TestHandoverCluster: a node of a cluster (directory and journal) closes
// under a race: its players are sent to the other live node with a token,
// and the token seats them there, on their boards, under the ids the
// first node knew them by.
func TestHandoverCluster(t *testing.T) {
	j := NewMemJournal(nil)
	_, hs := newNodes(t, 2, func(c *Config) { c.Journal = j })
	ada, bob := hs[0].connect("ada"), hs[0].connect("bob")
	code, sa, _ := startRace(t, hs[0], ada, bob)
	sol, empty := playRight(t, ada, sa, 5)
	hs[0].hub.Close()
	var mv Moved
	ada.expect("moved", nil).decode(t, &mv)
	if mv.Code != code || mv.URL != "http://n1" || mv.Token == "" {
		t.Fatalf("moved: %+v", mv)
	}
	_, st := follow(t, hs[1], "ada-on-n1", mv)
	if st.You != 0 || st.Phase != PhasePlaying || st.Board == nil {
		t.Fatalf("on n1: %+v", st)
	}
	wantCells(t, st, sol, empty[:5], "handover")
}

// TestHeldNoGap: a connection whose queue overflows while its held
// answers are released (a journal far behind, a client slow to read)
// loses the answer that did not fit, and so must get nothing after it:
// a later message delivered past the gap is a version skipped on the
// client's board (loadgen's "misordered"). It is ended instead.
func TestHeldNoGap(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		j := NewMemJournal(nil)
		c.Journal, c.Node, c.OutQueue = j, "test", 4
	})
	c, err := h.hub.Connect("bob")
	if err != nil {
		t.Fatal(err)
	}
	l := &roomLog{code: "ABCDEF"}
	l.seq.Store(1)                                                                        // record 1 not durable yet: the room's answers wait
	c.room.Store(&Room{log: l, inbox: make(chan envelope, 8), done: make(chan struct{})}) // a room that only takes mail
	msg := func(k int) []byte { return fmt.Appendf(nil, `{"t":"move","v":%d}`, k) }
	for len(c.Out()) > 0 {
		<-c.Out() // the welcome
	}
	c.push(msg(1)) // two answers already in the queue, not read yet
	c.push(msg(2))
	for k := 3; k <= 6; k++ {
		c.send(msg(k)) // held behind record 1
	}
	l.durable.Store(1)
	l.wake()  // 3 and 4 fit, 5 does not: dropped; 6 still held
	<-c.Out() // the client reads one: there is room again
	c.send(msg(7))
	var got []string
	for more := true; more; {
		select {
		case b := <-c.Out():
			got = append(got, string(b))
		default:
			more = false
		}
	}
	for k, b := range got {
		if want := string(msg(k + 2)); b != want {
			t.Fatalf("after the overflow the client read %q, want %s..%s and nothing past the lost one", got, msg(2), msg(4))
		}
	}
	if len(got) > 3 {
		t.Fatalf("the client read %q: messages past the one lost to the full queue", got)
	}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the connection whose queue overflowed was not ended")
	}
	if code, reason := c.Reason(); code != ClosePolicy {
		t.Errorf("ended with %d %q, want ClosePolicy (too slow)", code, reason)
	}
}

// resumingRoom says whether h is taking room code over right now.
func (h *Hub) resumingRoom(code string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.resuming[code]
	return ok
}
