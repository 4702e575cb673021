package rooms

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestReconnect drops a player mid-game: the seat waits, the other player
// sees them away, and a new connection of the same player finds the same
// seat and board. A player who stays away past the limit is out, and the
// game goes on without them.
func TestReconnect(t *testing.T) {
	h := newHarness(t, nil)
	ada, bob := h.connect("ada"), h.connect("bob")
	code, sa, _ := startRace(t, h, ada, bob)
	sol := solve(t, sa)
	empty := emptyCells(sa.Puzzle)
	for _, i := range empty[:5] {
		ada.send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])})
	}
	ada.send(In{T: "mark", Cell: &empty[6], Value: ptr(2)})
	before := ada.sync()
	ada.conn.Close() // the page reloads
	st := bob.state(func(s State) bool { return !s.Seats[0].Online })
	if st.Seats[0].AwayMs <= 0 || st.Phase != PhasePlaying {
		t.Errorf("bob sees %+v", st.Seats[0])
	}
	ada2 := h.connect("ada")
	back := ada2.join(code)
	if back.You != 0 || back.Board.Cells != before.Board.Cells || back.Board.Marks[empty[6]] != 1<<2 || !back.Board.CanUndo || back.Elapsed < before.Elapsed {
		t.Errorf("back: %+v\nbefore: %+v", back.Board, before.Board)
	}
	bob.state(func(s State) bool { return s.Seats[0].Online })
	// The old connection is not the seat any more, the new one plays.
	seq := ada2.send(In{T: "undo"})
	ada2.expect("ack", func(m msg) bool { return m.Seq == seq })

	// Bob goes and does not come back: out, and Ada plays on.
	bob.conn.Close()
	h.clock.Advance(time.Minute)
	st = ada2.state(func(s State) bool { return s.Seats[1].Out == "dropped" })
	if st.Phase != PhasePlaying {
		t.Errorf("the game ended when bob dropped: %s", st.Phase)
	}
	for _, i := range empty {
		ada2.send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])})
	}
	var over Over
	ada2.expect("over", nil).decode(t, &over)
	if over.Results[0].Place != 1 || over.Results[1].Out != "dropped" {
		t.Errorf("over: %+v", over)
	}
}

// TestNoHost has the room's creator leave: in the lobby the room goes on
// for the others, in a game too, and a room closes only when nobody is
// left.
func TestNoHost(t *testing.T) {
	h := newHarness(t, nil)
	a, b, c := h.connect("a"), h.connect("b"), h.connect("c")
	st := a.createRoom(Race, false)
	b.join(st.Code)
	c.join(st.Code)
	a.send(In{T: "leave"})
	a.expect("left", nil)
	// Two seats with c's: after a left (the lobby's state is sent again,
	// with the same two seats as b's join, when the puzzle's rating comes).
	got := b.state(func(s State) bool { return len(s.Seats) == 2 && s.Seats[1].Name == "c" })
	if got.Seats[0].Name != "b" || got.You != 1 {
		t.Errorf("after the creator left: %+v", got)
	}
	b.ready()
	c.ready()
	b.playing()
	c.playing()
	b.send(In{T: "leave"})
	st2 := c.state(func(s State) bool { return len(s.Seats) == 2 && s.Seats[0].Out == "left" })
	if st2.Phase != PhasePlaying {
		t.Errorf("a leaver ended the game: %+v", st2)
	}
	if h.hub.Stats().Rooms != 1 {
		t.Errorf("%d rooms open", h.hub.Stats().Rooms)
	}
	c.send(In{T: "leave"})
	waitFor(t, "the empty room closed", func() bool { return h.hub.Stats().Rooms == 0 })
	seq := a.send(In{T: "join", Code: st.Code})
	if e := a.errorFor(seq); e.Code != ErrNoRoom {
		t.Errorf("joining a closed room: %+v", e)
	}
}

// TestLobby covers the lobby's rules: the countdown waits for everyone,
// a newcomer or an "unready" stops it, a full room takes watchers, a
// watcher can sit when a seat frees, and public rooms are listed while
// they have room.
func TestLobby(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Countdown = time.Hour })
	a := h.connect("a")
	a.createRoom(Coop, true)
	a.ready()
	st := a.state(func(s State) bool { return s.Seats[0].Ready })
	if st.Phase != PhaseLobby {
		t.Errorf("one player started a room: %s", st.Phase)
	}
	var list RoomList
	lister := h.connect("l")
	lister.send(In{T: "list"})
	lister.expect("rooms", nil).decode(t, &list)
	if len(list.Rooms) != 1 || list.Rooms[0].Code != st.Code || list.Rooms[0].Players != 1 || list.Rooms[0].Mode != Coop {
		t.Errorf("list: %+v", list)
	}
	players := []*client{a}
	for _, name := range []string{"b", "c", "d"} {
		p := h.connect(name)
		p.join(st.Code)
		players = append(players, p)
	}
	for _, p := range players[1:] {
		p.ready()
	}
	a.state(func(s State) bool { return s.Phase == PhaseCountdown && s.StartsIn > 0 })
	lister.send(In{T: "list"})
	lister.expect("rooms", nil).decode(t, &list)
	if len(list.Rooms) != 0 {
		t.Errorf("a full room in countdown is listed: %+v", list)
	}
	// A fifth is a watcher.
	e := h.connect("e")
	if w := e.join(st.Code); w.You != -1 || w.Watchers != 1 {
		t.Errorf("the fifth: you %d, watchers %d", w.You, w.Watchers)
	}
	seq := e.send(In{T: "sit"})
	if er := e.errorFor(seq); er.Code != ErrFull {
		t.Errorf("sit in a full room: %+v", er)
	}
	// d changes its mind: the countdown stops.
	players[3].send(In{T: "ready", On: ptr(false)})
	a.state(func(s State) bool { return s.Phase == PhaseLobby })
	// d leaves; the watcher sits, and must get ready.
	players[3].send(In{T: "leave"})
	e.send(In{T: "sit"})
	got := e.state(func(s State) bool { return s.You >= 0 })
	if got.Seats[got.You].Ready || got.Watchers != 0 {
		t.Errorf("after sitting: %+v", got)
	}
	e.ready()
	st = a.state(func(s State) bool { return s.Phase == PhaseCountdown && len(s.Seats) == 4 && s.Seats[3].Ready })
	h.clock.Advance(2 * time.Hour)
	a.playing()
	// During the game a newcomer watches; a watcher of co-op sees the board.
	f := h.connect("f")
	if w := f.join(st.Code); w.You != -1 || w.Board == nil || w.Board.Cells != w.Puzzle {
		t.Errorf("a co-op watcher sees %+v", w.Board)
	}
}

// TestRaceWatcher: a watcher of a race sees every player's counts and no
// board at all.
func TestRaceWatcher(t *testing.T) {
	h := newHarness(t, nil)
	ada, bob := h.connect("ada"), h.connect("bob")
	code, sa, _ := startRace(t, h, ada, bob)
	w := h.connect("w")
	st := w.join(code)
	if st.Board != nil || st.You != -1 {
		t.Errorf("a race watcher got a board: %+v", st.Board)
	}
	sol := solve(t, sa)
	i := emptyCells(sa.Puzzle)[0]
	ada.send(In{T: "move", Cell: &i, Value: ptr(sol[i])})
	var p Progress
	w.expect("progress", nil).decode(t, &p)
	if p.Seat != 0 || p.Filled != sa.Board.Filled+1 {
		t.Errorf("the watcher sees %+v", p)
	}
	for _, m := range w.all() {
		if strings.Contains(m, `"changes"`) {
			t.Errorf("the watcher got a move: %s", m)
		}
	}
}

// TestKickVote: two of three players vote the third out; it is gone from
// the room and cannot come back.
func TestKickVote(t *testing.T) {
	h := newHarness(t, nil)
	a, b, c := h.connect("a"), h.connect("b"), h.connect("c")
	st := a.createRoom(Race, false)
	b.join(st.Code)
	c.join(st.Code)
	a.send(In{T: "kick", Seat: ptr(2)})
	var v Vote
	b.expect("vote", nil).decode(t, &v)
	if v.Seat != 2 || v.Votes != 1 || v.Need != 2 {
		t.Errorf("vote: %+v", v)
	}
	b.send(In{T: "kick", Seat: ptr(2)})
	c.expect("kicked", nil)
	got := a.state(func(s State) bool { return len(s.Seats) == 2 })
	for _, s := range got.Seats {
		if s.Name == "c" {
			t.Errorf("c still seated: %+v", got.Seats)
		}
	}
	seq := c.send(In{T: "join", Code: st.Code})
	if e := c.errorFor(seq); e.Code != ErrBanned {
		t.Errorf("c coming back: %+v", e)
	}
}

// TestQuickMatch queues players: four make a room at once, two wait for
// QuickFill and start together, one alone starts after QuickAlone; each
// room starts playing without a ready check. Other kinds of game never
// mix.
func TestQuickMatch(t *testing.T) {
	h := newHarness(t, nil)
	quick := func(name, mode string, size int) *client {
		c := h.connect(name)
		c.send(In{T: "quick", Mode: mode, Size: size, Level: "easy", Name: name})
		return c
	}
	var four []*client
	t0 := time.Now()
	for k := range 4 {
		four = append(four, quick(fmt.Sprint("r", k), Race, 9))
	}
	codes := map[string]bool{}
	for _, c := range four {
		st := c.playing()
		codes[st.Code] = true
		if len(st.Seats) != 4 || !st.Quick || st.Public {
			t.Errorf("%s: %+v", c.name, st)
		}
	}
	if len(codes) != 1 {
		t.Errorf("four players in %d rooms", len(codes))
	}
	t.Logf("four: playing after %v", time.Since(t0))

	t0 = time.Now()
	x, y := quick("x", Coop, 9), quick("y", Coop, 9)
	z := quick("z", Coop, 6) // another size: another queue
	x.expect("queued", nil)
	sx, sy := x.playing(), y.playing()
	if sx.Code != sy.Code || len(sx.Seats) != 2 || sx.Mode != Coop {
		t.Errorf("two: %+v / %+v", sx, sy)
	}
	if d := time.Since(t0); d < 150*time.Millisecond {
		t.Errorf("two started after %v, before QuickFill", d)
	}
	sz := z.playing()
	if len(sz.Seats) != 1 || sz.Size != 6 {
		t.Errorf("alone: %+v", sz)
	}
	if d := time.Since(t0); d < 550*time.Millisecond {
		t.Errorf("one alone started after %v, before QuickAlone", d)
	}

	// A player who leaves the queue is not matched.
	g := quick("g", Race, 4)
	g.send(In{T: "cancel"})
	waitFor(t, "the queue empty", func() bool { return h.hub.Stats().Queued == 0 })
	gone := quick("gone", Race, 4)
	gone.conn.Close()
	waitFor(t, "the queue empty again", func() bool { return h.hub.Stats().Queued == 0 })
}

// TestShutdown closes the hub under a game: players are told, every
// connection ends as going away, and nothing is left running.
func TestShutdown(t *testing.T) {
	h := newHarness(t, nil)
	a, b := h.connect("a"), h.connect("b")
	startRace(t, h, a, b)
	w := h.connect("w")
	w.send(In{T: "quick", Size: 9})
	h.hub.Close()
	for _, c := range []*client{a, b, w} {
		<-c.conn.Done()
		if code, _ := c.conn.Reason(); code != CloseShutdown {
			t.Errorf("%s closed with %d", c.name, code)
		}
	}
	if h.hub.cfg.Journal != nil {
		a.expect("moved", nil) // with a journal, Close hands the rooms over
	} else {
		a.expect("closed", nil)
	}
	if s := h.hub.Stats(); s.Rooms != 0 || s.Conns != 0 {
		t.Errorf("after Close: %+v", s)
	}
	if _, err := h.hub.Connect("late"); err == nil {
		t.Error("a connection after Close")
	}
}

// TestLatencyHistogram checks the server-share histogram's quantiles.
func TestLatencyHistogram(t *testing.T) {
	var l latency
	if n, p50, p99, mx := l.quantiles(); n != 0 || p50 != 0 || p99 != 0 || mx != 0 {
		t.Errorf("empty: %d %d %d %d", n, p50, p99, mx)
	}
	for i := range 100 {
		l.add(time.Duration(i*100) * time.Microsecond) // 0 .. 9.9 ms
	}
	l.add(time.Second)
	n, p50, p99, mx := l.quantiles()
	if n != 101 || p50 != 5050 || p99 != 9950 || mx != 1_000_000 {
		t.Errorf("n %d p50 %d p99 %d max %d", n, p50, p99, mx)
	}
	// A starved server's tail is measured, not clamped at 100 ms.
	var slow latency
	for i := range 100 {
		slow.add(time.Duration(i) * 5 * time.Millisecond) // 0 .. 495 ms: p50 250 ms, p99 495 ms, to the next 10 ms
	}
	slow.add(20 * time.Second)
	if n, p50, p99, mx := slow.quantiles(); n != 101 || p50 != 260_000 || p99 != 500_000 || mx != 20_000_000 {
		t.Errorf("slow: n %d p50 %d p99 %d max %d", n, p50, p99, mx)
	}
	var huge latency
	huge.add(30 * time.Second)
	if _, p50, _, mx := huge.quantiles(); p50 != mx || mx != 30_000_000 {
		t.Errorf("beyond 10 s: p50 %d max %d", p50, mx)
	}
}
