package rooms

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

// startCoop seats players in a new co-op room and starts it.
func startCoop(t *testing.T, h *harness, players ...*client) (string, []State) {
	t.Helper()
	st := players[0].createRoom(Coop, false)
	for _, p := range players[1:] {
		p.join(st.Code)
	}
	for _, p := range players {
		p.ready()
	}
	var states []State
	for _, p := range players {
		states = append(states, p.playing())
	}
	return st.Code, states
}

// TestCoopConflictingMoves has three players write on the same few cells
// of one board at once, as fast as they can. Every player applies the
// server's broadcasts in the order they come and must end on the
// server's board, with versions that never skip or go back.
func TestCoopConflictingMoves(t *testing.T) {
	h := newHarness(t, nil)
	cls := []*client{h.connect("p0"), h.connect("p1"), h.connect("p2")}
	_, states := startCoop(t, h, cls...)
	start := states[0]
	var empty []int
	for i, c := range start.Puzzle {
		if c == '0' {
			empty = append(empty, i)
		}
	}
	hot := empty[:4] // everyone fights over these
	const perPlayer = 150
	var wg sync.WaitGroup
	for k, cl := range cls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(k), 7))
			for range perPlayer {
				cell := hot[rng.IntN(len(hot))]
				v := rng.IntN(10)
				b, _ := json.Marshal(In{T: "move", Cell: &cell, Value: &v})
				cl.conn.Receive(b)
			}
		}()
	}
	wg.Wait()
	final := cls[0].sync() // the room has handled every move before this
	for _, cl := range cls {
		// The sync answer is queued behind every broadcast this client was
		// sent, so once it is in, cl.all() holds all of them; read before
		// it, a broadcast still in the channel was missed under load.
		st := cl.sync()
		board := []byte(start.Puzzle)
		var v int64
		acks := 0
		for _, raw := range cl.all() {
			var m Move
			if !strings.HasPrefix(raw, `{"t":"move"`) && !strings.HasPrefix(raw, `{"t":"ack"`) {
				continue
			}
			if err := json.Unmarshal([]byte(raw), &m); err != nil {
				t.Fatal(err)
			}
			if m.T == "ack" {
				acks++ // a move that changed nothing: answered, not broadcast
				if m.V != v {
					t.Errorf("%s: an ack at version %d while the board is at %d", cl.name, m.V, v)
				}
				continue
			}
			if m.V != v+1 {
				t.Errorf("%s: move version %d after %d", cl.name, m.V, v)
			}
			v = m.V
			for _, ch := range m.Changes {
				board[ch.Cell] = sudoku.CellSymbol(ch.Value)
			}
		}
		if string(board) != st.Board.Cells || st.Board.Cells != final.Board.Cells || v != st.Board.V {
			t.Errorf("%s ends on %s (v%d), the server on %s (v%d)", cl.name, board, v, st.Board.Cells, st.Board.V)
		}
		_ = acks
	}
	if got := h.hub.Stats().Moves; got != final.Board.V {
		t.Errorf("hub counted %d moves, the board is at version %d", got, final.Board.V)
	}
	if final.Board.V < 100 {
		t.Errorf("only %d of %d moves changed the board", final.Board.V, 3*perPlayer)
	}
}

// TestCoopPlay fills a shared board together: marks stay private, undo is
// refused, a wrong digit counts against its writer, and the last right
// digit wins the game for everyone still playing.
func TestCoopPlay(t *testing.T) {
	h := newHarness(t, nil)
	a, b := h.connect("a"), h.connect("b")
	code, states := startCoop(t, h, a, b)
	sol := solve(t, states[0])
	var empty []int
	for i, c := range states[0].Puzzle {
		if c == '0' {
			empty = append(empty, i)
		}
	}
	// A pencil mark is A's alone.
	seq := a.send(In{T: "mark", Cell: &empty[0], Value: ptr(3)})
	var ack Move
	a.expect("ack", func(m msg) bool { return m.Seq == seq }).decode(t, &ack)
	if len(ack.Changes) != 1 || ack.Changes[0].Marks != 1<<3 {
		t.Errorf("mark ack: %+v", ack)
	}
	if st := b.sync(); st.Board.Marks[empty[0]] != 0 {
		t.Errorf("b sees a's marks: %v", st.Board.Marks[empty[0]])
	}
	if st := a.sync(); st.Board.Marks[empty[0]] != 1<<3 {
		t.Errorf("a lost its mark: %v", st.Board.Marks[empty[0]])
	}
	seq = a.send(In{T: "undo"})
	if e := a.errorFor(seq); e.Code != ErrNotNow {
		t.Errorf("undo in co-op: %+v", e)
	}
	// B writes a wrong digit: B's mistake, counted, but told to nobody
	// while the game is on.
	wrong := sol[empty[1]]%9 + 1
	b.send(In{T: "move", Cell: &empty[1], Value: &wrong})
	var mv Move
	a.expect("move", nil).decode(t, &mv)
	if mv.Seat != 1 || len(mv.Wrong) != 0 {
		t.Errorf("a sees b's wrong move as %+v", mv)
	}
	// They fill the board between them, B correcting its own digit.
	for k, i := range empty {
		cl := a
		if k%2 == 1 {
			cl = b
		}
		cl.send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])})
	}
	var fin Finish
	b.expect("finish", nil).decode(t, &fin)
	if fin.Seat != -1 || fin.Place != 1 {
		t.Errorf("finish: %+v", fin)
	}
	var over Over
	a.expect("over", nil).decode(t, &over)
	if len(over.Results) != 2 || over.Results[0].Place != 1 || over.Results[1].Place != 1 || over.Results[0].Ms != over.Results[1].Ms {
		t.Errorf("over: %+v", over)
	}
	mistakes := map[string]int{}
	for _, r := range over.Results {
		mistakes[r.Name] = r.Mistakes
	}
	if fmt.Sprint(mistakes) != "map[a:0 b:1]" {
		t.Errorf("mistakes %v", mistakes)
	}
	waitFor(t, "the match stored", func() bool { return h.hub.Stats().Matches == 1 })
	_ = code
}
