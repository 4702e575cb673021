package rooms

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// The test harness: a hub with fast timers and a clock that tests can
// move forward, and clients that talk to it the way package web does
// (bytes in, bytes out) with no socket in between.

// clock is real time plus a jump the test controls.
type clock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// seededPuzzles makes the same puzzles every run (seed 1, 2, … per
// request), so a failure can be replayed.
type seededPuzzles struct {
	mu   sync.Mutex
	next int64
}

func (p *seededPuzzles) Puzzle(ctx context.Context, s sudoku.Shape, level logic.Level) (Puzzle, error) {
	p.mu.Lock()
	p.next++
	seed := p.next
	p.mu.Unlock()
	g, r, err := logic.GenerateContext(ctx, s, level, seed, true)
	if err != nil {
		return Puzzle{}, err
	}
	sol, err := sudoku.Solve(g)
	if err != nil {
		return Puzzle{}, err
	}
	return Puzzle{Givens: g, Solution: sol, Rating: r.SE, Level: r.Level}, nil
}

type harness struct {
	t     *testing.T
	hub   *Hub
	clock *clock
	store store.Store
}

// newHarness starts a hub; opt may change its config first.
func newHarness(t *testing.T, opt func(*Config)) *harness {
	t.Helper()
	h := &harness{t: t, clock: &clock{}}
	st, err := store.OpenSQLite(t.TempDir() + "/rooms.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h.store = st
	cfg := Config{
		Store: st, Puzzles: &seededPuzzles{}, Now: h.clock.Now, Tick: 5 * time.Millisecond,
		Countdown: 30 * time.Millisecond, Reconnect: 500 * time.Millisecond,
		QuickFill: 200 * time.Millisecond, QuickAlone: 600 * time.Millisecond,
		Rate: 1000, Burst: 1000, OutQueue: 1 << 14, // tests play fast; the rate test sets its own
		Log: testLogger(t),
	}
	if mode := os.Getenv("SUDOKUAR_ROOMS_JOURNAL"); mode == "mem" || mode == "slow" {
		// Every test through the journal's path: records before answers
		// ("slow": each write takes 5 ms, answers are held longer). The
		// node is alive for the whole test, however far its clock moves.
		j := NewMemJournal(h.clock.Now)
		j.Beat("test", time.Now().Add(1000*time.Hour))
		cfg.Journal, cfg.Node = j, "test"
		if mode == "slow" {
			cfg.Journal = &cutJournal{Journal: j, delay: 5 * time.Millisecond}
		}
	}
	if opt != nil {
		opt(&cfg)
	}
	h.store = cfg.Store
	h.hub = NewHub(cfg)
	t.Cleanup(h.hub.Close)
	return h
}

// client is one connection as a test sees it: every message it received,
// in order, decoded on demand.
type client struct {
	t      *testing.T
	name   string
	conn   *Conn
	mu     sync.Mutex
	msgs   [][]byte
	next   int // first message expect has not looked at
	signal chan struct{}
	seq    int64
	closed chan struct{}
}

func (h *harness) connect(player string) *client {
	h.t.Helper()
	c, err := h.hub.Connect(player)
	if err != nil {
		h.t.Fatal(err)
	}
	cl := &client{t: h.t, name: player, conn: c, signal: make(chan struct{}, 1), closed: make(chan struct{})}
	go func() {
		defer close(cl.closed)
		for {
			select {
			case b := <-c.Out():
				cl.mu.Lock()
				cl.msgs = append(cl.msgs, b)
				cl.mu.Unlock()
				select {
				case cl.signal <- struct{}{}:
				default:
				}
			case <-c.Done():
				// Drain what was queued before the end.
				for {
					select {
					case b := <-c.Out():
						cl.mu.Lock()
						cl.msgs = append(cl.msgs, b)
						cl.mu.Unlock()
					default:
						select {
						case cl.signal <- struct{}{}:
						default:
						}
						return
					}
				}
			}
		}
	}()
	cl.expect("welcome", nil)
	return cl
}

// send sends v (a struct or a map) as one message; seq is filled in when
// v is an In without one.
func (cl *client) send(v any) int64 {
	cl.t.Helper()
	if in, ok := v.(In); ok && in.Seq == 0 {
		cl.seq++
		in.Seq = cl.seq
		v = in
	}
	b, err := json.Marshal(v)
	if err != nil {
		cl.t.Fatal(err)
	}
	cl.conn.Receive(b)
	if in, ok := v.(In); ok {
		return in.Seq
	}
	return 0
}

// msg is any server message, with the fields tests look at.
type msg struct {
	T    string `json:"t"`
	Seq  int64  `json:"seq"`
	Code string `json:"code"`
	raw  []byte
}

func (m msg) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(m.raw, v); err != nil {
		t.Fatalf("decode %s: %v", m.raw, err)
	}
}

// eventTimeout is how long a test waits for a message or a condition
// before it calls it missing: long, as it only ends a test that has
// already failed, and a busy machine can be slow.
const eventTimeout = time.Minute

// expect waits for the next message of type typ that ok accepts (nil:
// any), skipping others, and returns it.
func (cl *client) expect(typ string, ok func(m msg) bool) msg {
	cl.t.Helper()
	m, found := cl.wait(typ, ok, eventTimeout)
	if !found {
		cl.t.Fatalf("%s: no %q message in %v; got %s", cl.name, typ, eventTimeout, cl.dump())
	}
	return m
}

// wait is expect for a message that may not come: false after timeout.
// typ "" is any type.
func (cl *client) wait(typ string, ok func(m msg) bool, timeout time.Duration) (msg, bool) {
	deadline := time.After(timeout)
	for {
		cl.mu.Lock()
		for cl.next < len(cl.msgs) {
			b := cl.msgs[cl.next]
			cl.next++
			var m msg
			if err := json.Unmarshal(b, &m); err != nil {
				cl.mu.Unlock()
				cl.t.Fatalf("%s: a message that is not JSON: %q", cl.name, b)
			}
			m.raw = b
			if (typ == "" || m.T == typ) && (ok == nil || ok(m)) {
				cl.mu.Unlock()
				return m, true
			}
		}
		cl.mu.Unlock()
		select {
		case <-cl.signal:
		case <-deadline:
			return msg{}, false
		}
	}
}

// errorFor waits for the error answering seq.
func (cl *client) errorFor(seq int64) Error {
	cl.t.Helper()
	var e Error
	cl.expect("error", func(m msg) bool { return m.Seq == seq }).decode(cl.t, &e)
	return e
}

// state waits for a state message that ok accepts.
func (cl *client) state(ok func(State) bool) State {
	cl.t.Helper()
	var st State
	cl.expect("state", func(m msg) bool {
		st = State{}
		if json.Unmarshal(m.raw, &st) != nil {
			return false
		}
		return ok == nil || ok(st)
	})
	return st
}

// sync asks for the whole state and returns it.
func (cl *client) sync() State {
	cl.t.Helper()
	seq := cl.send(In{T: "sync"})
	return cl.state(func(s State) bool { return s.Seq == seq })
}

// all returns every message received so far.
func (cl *client) all() []string {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	out := make([]string, len(cl.msgs))
	for i, b := range cl.msgs {
		out[i] = string(b)
	}
	return out
}

func (cl *client) dump() string {
	all := cl.all()
	if len(all) > 12 {
		all = append([]string{fmt.Sprintf("… %d earlier", len(all)-12)}, all[len(all)-12:]...)
	}
	return strings.Join(all, "\n  ")
}

// createRoom has cl create a room and returns its first state.
func (cl *client) createRoom(mode string, public bool) State {
	cl.t.Helper()
	cl.send(In{T: "create", Mode: mode, Size: 9, Level: "easy", Public: public, Name: cl.name})
	return cl.state(nil)
}

// join has cl join the room with code.
func (cl *client) join(code string) State {
	cl.t.Helper()
	cl.send(In{T: "join", Code: code, Name: cl.name})
	return cl.state(func(s State) bool { return s.Code == code })
}

func (cl *client) ready() { cl.send(In{T: "ready", On: ptr(true)}) }

// playing waits for the state that starts the game.
func (cl *client) playing() State {
	cl.t.Helper()
	return cl.state(func(s State) bool { return s.Phase == PhasePlaying && s.Board != nil })
}

func ptr[T any](v T) *T { return &v }

// solve solves the puzzle a state shows, as any client could: knowing
// the solution is not what the server guards, playing it is.
func solve(t *testing.T, st State) []int {
	t.Helper()
	shape := sudoku.Shape{BoxRows: st.Box[0], BoxCols: st.Box[1]}
	cells, err := sudoku.ParseCells(st.Puzzle, st.Size)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sudoku.Solve(sudoku.Grid{Shape: shape, Cells: cells})
	if err != nil {
		t.Fatal(err)
	}
	return sol.Cells
}

// testLogger sends the hub's log to the test's.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// gridOf is a state's board shape with cells.
func gridOf(st State, cells []int) sudoku.Grid {
	return sudoku.Grid{Shape: sudoku.Shape{BoxRows: st.Box[0], BoxCols: st.Box[1]}, Cells: cells}
}
