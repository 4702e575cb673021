package rooms

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/internal/limit"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestCheating tries what a hostile client would, in a race: every
// attempt is refused with its reason and changes nothing.
func TestCheating(t *testing.T) {
	h := newHarness(t, nil)
	ada, bob := h.connect("ada"), h.connect("bob")
	_, sa, _ := startRace(t, h, ada, bob)
	sol := solve(t, sa)
	n := sa.Size
	given := strings.IndexFunc(sa.Puzzle, func(r rune) bool { return r != '0' })
	empty := strings.Index(sa.Puzzle, "0")

	cases := []struct {
		name string
		in   In
		code string
	}{
		{"a forged move on a given", In{T: "move", Cell: &given, Value: ptr(sol[given]%n + 1)}, ErrFixed},
		{"erasing a given", In{T: "move", Cell: &given, Value: ptr(0)}, ErrFixed},
		{"a mark on a given", In{T: "mark", Cell: &given, Value: ptr(1)}, ErrFixed},
		{"a move on the other player's board", In{T: "move", Seat: ptr(1), Cell: &empty, Value: ptr(sol[empty])}, ErrNotYours},
		{"a move off the board", In{T: "move", Cell: ptr(n * n), Value: ptr(1)}, ErrBad},
		{"a negative cell", In{T: "move", Cell: ptr(-1), Value: ptr(1)}, ErrBad},
		{"a value above the size", In{T: "move", Cell: &empty, Value: ptr(n + 1)}, ErrBad},
		{"a move without a value", In{T: "move", Cell: &empty}, ErrBad},
		{"a finish with the solution, not played", In{T: "finish", Grid: sudoku.CellString(sol)}, ErrNotPlayed},
		{"a finish with a short grid", In{T: "finish", Grid: "123"}, ErrBad},
		{"a finish with the board played, unsolved", In{T: "finish", Grid: sa.Puzzle}, ErrNotSolved},
		{"a kick of oneself", In{T: "kick", Seat: ptr(0)}, ErrBad},
		{"ready during the game", In{T: "ready", On: ptr(true)}, ErrNotNow},
		{"again during the game", In{T: "again"}, ErrNotNow},
	}
	for _, c := range cases {
		seq := ada.send(c.in)
		if e := ada.errorFor(seq); e.Code != c.code {
			t.Errorf("%s: got %+v, want code %s", c.name, e, c.code)
		} else {
			t.Logf("%s: %s", c.name, e.Msg)
		}
	}
	if st := bob.sync(); st.Board.Cells != sa.Puzzle || st.Seats[0].Filled != sa.Board.Filled {
		t.Errorf("after the attempts bob's board is %s, ada filled %d", st.Board.Cells, st.Seats[0].Filled)
	}

	// Hints: five, then no more (the server counts, the client cannot).
	for k := 1; k <= play.MaxHints; k++ {
		seq := ada.send(In{T: "hint"})
		var hm HintMsg
		ada.expect("hint", func(m msg) bool { return m.Seq == seq }).decode(t, &hm)
		if hm.Used != k || hm.Step.Sentence == "" {
			t.Errorf("hint %d: %+v", k, hm)
		}
	}
	seq := ada.send(In{T: "hint"})
	if e := ada.errorFor(seq); e.Code != ErrNoHints {
		t.Errorf("a 6th hint: %+v", e)
	}
	// The open hint's later stages cost no hint but count as stages; the
	// answer is played, and then the hint is closed.
	seq = ada.send(In{T: "hint", Stage: 2})
	var hm HintMsg
	ada.expect("hint", func(m msg) bool { return m.Seq == seq }).decode(t, &hm)
	if hm.Stage != 2 || hm.Used != play.MaxHints || hm.Stages != play.MaxHints+1 || hm.Step.Nudge == "" {
		t.Errorf("stage 2: %+v", hm)
	}
	seq = ada.send(In{T: "hint", Stage: 3})
	ada.expect("hint", func(m msg) bool { return m.Seq == seq }).decode(t, &hm)
	if hm.Stage != 3 || hm.Stages != play.MaxHints+2 || len(hm.Step.Placements)+len(hm.Step.Wrong) == 0 {
		t.Errorf("stage 3: %+v", hm)
	}
	ada.expect("ack", func(m msg) bool { return true })
	for _, c := range []struct {
		stage int
		code  string
	}{{3, ErrNotNow}, {2, ErrNotNow}, {4, ErrBad}} {
		seq = ada.send(In{T: "hint", Stage: c.stage})
		if e := ada.errorFor(seq); e.Code != c.code {
			t.Errorf("stage %d after the answer: %+v, want %s", c.stage, e, c.code)
		}
	}
	if st := bob.sync(); st.Seats[0].Hints != play.MaxHints {
		t.Errorf("bob sees ada's hints as %d", st.Seats[0].Hints)
	}

	// A watcher cannot play.
	eve := h.connect("eve")
	eve.send(In{T: "join", Code: sa.Code, Name: "eve"})
	eve.state(func(s State) bool { return s.You == -1 })
	seq = eve.send(In{T: "move", Cell: &empty, Value: ptr(sol[empty])})
	if e := eve.errorFor(seq); e.Code != ErrNotYours {
		t.Errorf("a watcher's move: %+v", e)
	}

	// After the end, nothing more is taken.
	for _, i := range emptyCells(sa.Puzzle) {
		ada.send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])})
	}
	bob.send(In{T: "forfeit"})
	ada.expect("over", nil)
	for _, in := range []In{
		{T: "move", Cell: &empty, Value: ptr(1)}, {T: "hint"}, {T: "mark", Cell: &empty, Value: ptr(1)},
		{T: "undo"}, {T: "forfeit"},
	} {
		seq := bob.send(in)
		if e := bob.errorFor(seq); e.Code != ErrOver {
			t.Errorf("%s after the end: %+v", in.T, e)
		}
	}
}

func emptyCells(puzzle string) []int {
	var out []int
	for i, c := range puzzle {
		if c == '0' {
			out = append(out, i)
		}
	}
	return out
}

// TestMalformed sends what is not the protocol: each gets an error and
// the connection lives on; a message over the limit closes it.
func TestMalformed(t *testing.T) {
	h := newHarness(t, nil)
	c := h.connect("x")
	for _, raw := range []string{
		``, `not json`, `[]`, `{"t":}`, `{"t":"dance"}`, `{"t":"move","cell":"a"}`,
		`{"t":"create","mode":"chess"}`, `{"t":"create","size":7}`, `{"t":"create","size":4,"level":"hard"}`,
		`{"t":"create","level":"Hard"}`, `{"t":"join","code":"NOPE00"}`, `{"t":"move","cell":1,"value":1}`,
		`{"t":"create","name":"` + strings.Repeat("x", 40) + `"}`, `{"t":"create","name":"a\u0000b"}`,
	} {
		c.conn.Receive([]byte(raw))
		var e Error
		c.expect("error", nil).decode(t, &e)
		if e.Msg == "" {
			t.Errorf("%q: empty error", raw)
		}
		t.Logf("%-40q -> %s: %s", raw, e.Code, e.Msg)
	}
	select {
	case <-c.conn.Done():
		t.Fatal("a malformed message closed the connection")
	default:
	}
	c.conn.Receive(bytes.Repeat([]byte("x"), 1<<20))
	<-c.conn.Done()
	if code, reason := c.conn.Reason(); code != CloseTooBig || !strings.Contains(reason, "1048576 bytes") {
		t.Errorf("1 MB message: closed with %d %q", code, reason)
	}
}

// TestFlood sends 10,000 messages in about a second from one client in a
// room: they are dropped beyond the budget and the client is closed,
// while the other player's moves are all answered. How long Bob waits is
// logged, not asserted: on a busy machine it says nothing of the hub (the
// load generator measures it).
func TestFlood(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Rate, c.Burst, c.OutQueue, c.Reconnect = 20, 40, 256, time.Minute })
	ada, bob := h.connect("ada"), h.connect("bob")
	_, sa, _ := startRace(t, h, ada, bob)
	empty := emptyCells(sa.Puzzle)
	flood, _ := json.Marshal(In{T: "move", Cell: &empty[0], Value: ptr(1)})
	var wg sync.WaitGroup
	wg.Add(1)
	start := time.Now()
	go func() {
		defer wg.Done()
		for k := range 10_000 {
			ada.conn.Receive(flood)
			if k%100 == 99 {
				time.Sleep(10 * time.Millisecond) // 10,000 a second
			}
		}
	}()
	// Bob plays on, one move every 50 ms, and measures each answer.
	var worst time.Duration
	for k := 0; k < 15; k++ {
		v := k%9 + 1
		t0 := time.Now()
		seq := bob.send(In{T: "move", Cell: &empty[1], Value: &v})
		bob.expect("ack", func(m msg) bool { return m.Seq == seq })
		worst = max(worst, time.Since(t0))
		time.Sleep(50 * time.Millisecond)
	}
	wg.Wait()
	<-ada.conn.Done()
	code, reason := ada.conn.Reason()
	if code != ClosePolicy {
		t.Errorf("the flooder was closed with %d %q", code, reason)
	}
	acks, rateErrors := 0, 0
	for _, m := range ada.all() {
		switch {
		case strings.HasPrefix(m, `{"t":"ack"`):
			acks++
		case strings.Contains(m, `"code":"rate"`):
			rateErrors++
		}
	}
	// The budget: a burst of 40 (create and ready took two), then 20 a
	// second until it was closed.
	if max := 40 + int(20*time.Since(start).Seconds()) + 1; acks > max || acks < 35 {
		t.Errorf("the flooder got %d moves answered, want 35..%d", acks, max)
	}
	// One rate error a second at most: the bound grows with the time the
	// flood took, so a slow machine cannot fail it.
	if most := 1 + int(time.Since(start).Seconds()); rateErrors < 1 || rateErrors > most {
		t.Errorf("%d rate errors, want 1..%d (one a second at most)", rateErrors, most)
	}
	t.Logf("flooder: %d answered, then closed (%s); bob's slowest answer %v; hub dropped %d",
		acks, reason, worst, h.hub.Stats().Dropped)
	// Bob's room is unharmed, and Ada's seat waits for her.
	st := bob.sync()
	if st.Phase != PhasePlaying || st.Seats[0].Online || st.Seats[0].AwayMs == 0 {
		t.Errorf("after the flood: %+v", st.Seats)
	}
}

// TestReplayRefusesForgeries feeds replayMoves records that a client
// could forge: each is refused.
func TestReplayRefusesForgeries(t *testing.T) {
	shape := sudoku.Shape{BoxRows: 2, BoxCols: 2}
	givens := sudoku.Grid{Shape: shape, Cells: []int{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4}}
	fixed := make([]bool, 16)
	fixed[0], fixed[15] = true, true
	set := func(row, col, from, to int) game.Move {
		return game.Move{Kind: game.KindSet, Changes: []game.Change{{Row: row, Col: col, From: from, To: to}}}
	}
	// record is what a client could claim: its moves, and the board they
	// would lead to if each change's From were believed.
	record := func(moves []game.Move, pos int) game.Snapshot {
		values := append([]int(nil), givens.Cells...)
		for _, m := range moves[:min(pos, len(moves))] {
			for _, c := range m.Changes {
				if c.Row >= 0 && c.Row < 4 && c.Col >= 0 && c.Col < 4 {
					values[c.Row*4+c.Col] = c.To
				}
			}
		}
		return game.Snapshot{BoxRows: 2, BoxCols: 2, Values: values, Fixed: fixed, Moves: moves, Position: pos}
	}
	ok := record([]game.Move{set(0, 1, 0, 2), set(0, 1, 2, 3)}, 2)
	end, err := replayMoves(givens, fixed, ok)
	if err != nil || end.Cells[1] != 3 {
		t.Fatalf("an honest record: %v, %v", end.Cells, err)
	}
	for name, snap := range map[string]game.Snapshot{
		"a given changed":      record([]game.Move{set(0, 0, 1, 2)}, 1),
		"a from that is wrong": record([]game.Move{set(0, 1, 3, 2)}, 1),
		"off the board":        record([]game.Move{set(4, 0, 0, 2)}, 1),
		"a value too high":     record([]game.Move{set(0, 1, 0, 9)}, 1),
		"an autofill":          record([]game.Move{{Kind: game.KindAutofill, Changes: []game.Change{{Row: 0, Col: 1, To: 2}}}}, 1),
		"a position too far":   record([]game.Move{set(0, 1, 0, 2)}, 2),
		"another start":        {BoxRows: 2, BoxCols: 2, Values: make([]int, 16), Fixed: make([]bool, 16)},
	} {
		if _, err := replayMoves(givens, fixed, snap); err == nil {
			t.Errorf("%s: replayed", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// FuzzReceive sends anything as a message, in and out of a room: the hub
// answers or closes, never panics.
func FuzzReceive(f *testing.F) {
	for _, s := range []string{`{"t":"create"}`, `{"t":"move","cell":3,"value":2}`, `{"t":"join","code":"ABCDEF"}`,
		`{"t":"kick","seat":9}`, `{"t":"finish","grid":"12"}`, `{"t":"quick","size":4}`, `{"t":"ready","on":false}`} {
		f.Add([]byte(s))
	}
	hub := NewHub(Config{Puzzles: &seededPuzzles{}, Tick: 5 * time.Millisecond, Rate: 1e6, Burst: 1e6})
	f.Cleanup(hub.Close)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := hub.Connect("fuzz")
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for {
				select {
				case <-c.Out():
				case <-c.Done():
					return
				}
			}
		}()
		c.Receive([]byte(`{"t":"create","size":4}`))
		c.Receive(data)
		c.Receive([]byte(`{"t":"sync"}`))
		c.Close()
	})
}

// TestHintBusyGate: hints go through the engine gate; one the gate
// refuses (every place taken) is answered "busy" and not spent.
func TestHintBusyGate(t *testing.T) {
	gate := limit.NewGate(1, 0, 50*time.Millisecond)
	h := newHarness(t, func(c *Config) { c.Work = gate })
	ada, bob := h.connect("ada"), h.connect("bob")
	startRace(t, h, ada, bob)
	hold, err := gate.Enter(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	seq := ada.send(In{T: "hint"})
	if e := ada.errorFor(seq); e.Code != ErrBusy {
		t.Errorf("a hint with the gate full: %+v, want %q", e, ErrBusy)
	}
	hold()
	if st := bob.sync(); st.Seats[0].Hints != 0 {
		t.Errorf("the refused hint was spent: ada has used %d", st.Seats[0].Hints)
	}
	seq = ada.send(In{T: "hint"})
	var hm HintMsg
	ada.expect("hint", func(m msg) bool { return m.Seq == seq }).decode(t, &hm)
	if hm.Used != 1 {
		t.Errorf("the next hint: %+v, want the first one used", hm)
	}
}
