package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/rooms"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// The rooms over real WebSockets: what a browser or a hostile script
// sends reaches package rooms through /ws/rooms, and the socket closes
// with the reason the hub gives.

// eventTimeout is how long a test waits for a message or a condition
// before it calls it missing: long, as it only ends a test that has
// already failed, and a busy machine can be slow.
const eventTimeout = time.Minute

// roomsServer is a web Server with fast room timers on a loopback port.
func roomsServer(t *testing.T, rc rooms.Config) (*httptest.Server, *Server) {
	t.Helper()
	st, err := store.OpenSQLite(t.TempDir() + "/r.db")
	if err != nil {
		t.Fatal(err)
	}
	if rc.Countdown == 0 {
		rc.Countdown = 20 * time.Millisecond
	}
	if rc.Tick == 0 {
		rc.Tick = 10 * time.Millisecond
	}
	srv, err := New(Config{Store: st, Log: testLogger(t), Rooms: rc})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
		st.Close()
	})
	return hs, srv
}

// wsClient is one player's socket, reading into a list.
type wsClient struct {
	t      testing.TB
	name   string
	conn   *websocket.Conn
	mu     sync.Mutex
	msgs   []string
	next   int
	signal chan struct{}
	closed chan struct{}
	status websocket.StatusCode
	seq    int64
}

// dialRooms connects as the player whose cookie is player (32 hex digits).
func dialRooms(t testing.TB, url, player string) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/ws/rooms", &websocket.DialOptions{
		HTTPHeader: http.Header{"Cookie": {playerCookie + "=" + player}},
	})
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadLimit(1 << 20)
	c := &wsClient{t: t, name: player[len(player)-4:], conn: conn, signal: make(chan struct{}, 1), closed: make(chan struct{})}
	go func() {
		defer close(c.closed)
		for {
			_, b, err := conn.Read(context.Background())
			if err != nil {
				c.status = websocket.CloseStatus(err)
				return
			}
			c.mu.Lock()
			c.msgs = append(c.msgs, string(b))
			c.mu.Unlock()
			select {
			case c.signal <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() { conn.CloseNow() })
	c.expect("welcome", nil)
	return c
}

func playerID(k int) string { return fmt.Sprintf("%032x", k+1) }

func (c *wsClient) send(m map[string]any) int64 {
	c.t.Helper()
	c.seq++
	m["seq"] = c.seq
	b, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("%s: write: %v", c.name, err)
	}
	return c.seq
}

// expect waits for the next message of type typ for which ok holds.
func (c *wsClient) expect(typ string, ok func(string) bool) string {
	c.t.Helper()
	return c.match(typ, func(m string) bool { return strings.HasPrefix(m, `{"t":"`+typ+`"`) && (ok == nil || ok(m)) })
}

// match waits for the next message for which ok holds (what names it in
// a failure).
func (c *wsClient) match(what string, ok func(string) bool) string {
	c.t.Helper()
	typ := what
	deadline := time.After(eventTimeout)
	for {
		c.mu.Lock()
		for c.next < len(c.msgs) {
			m := c.msgs[c.next]
			c.next++
			if ok(m) {
				c.mu.Unlock()
				return m
			}
		}
		c.mu.Unlock()
		select {
		case <-c.signal:
		case <-c.closed:
			c.mu.Lock()
			left := c.next < len(c.msgs)
			c.mu.Unlock()
			if !left {
				c.t.Fatalf("%s: closed (%v) while waiting for %q", c.name, c.status, typ)
			}
		case <-deadline:
			c.t.Fatalf("%s: no %q in %v; last: %v", c.name, typ, eventTimeout, c.last(5))
		}
	}
}

func (c *wsClient) last(n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.msgs[max(0, len(c.msgs)-n):]
}

func (c *wsClient) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.msgs...)
}

// errorFor waits for the error answering seq and returns its code.
func (c *wsClient) errorFor(seq int64) string {
	c.t.Helper()
	var e rooms.Error
	json.Unmarshal([]byte(c.expect("error", func(m string) bool { return strings.Contains(m, fmt.Sprintf(`"seq":%d,`, seq)) })), &e)
	return e.Code
}

func (c *wsClient) state(ok func(rooms.State) bool) rooms.State {
	c.t.Helper()
	var st rooms.State
	c.expect("state", func(m string) bool {
		st = rooms.State{}
		return json.Unmarshal([]byte(m), &st) == nil && (ok == nil || ok(st))
	})
	return st
}

// startRoom seats the clients in a new room of mode and starts the game.
func startRoom(t testing.TB, mode string, cs ...*wsClient) []rooms.State {
	t.Helper()
	cs[0].send(map[string]any{"t": "create", "mode": mode, "size": 9, "level": "easy", "name": "p0"})
	code := cs[0].state(nil).Code
	for k, c := range cs[1:] {
		c.send(map[string]any{"t": "join", "code": code, "name": fmt.Sprint("p", k+1)})
		c.state(nil)
	}
	for _, c := range cs {
		c.send(map[string]any{"t": "ready", "on": true})
	}
	var out []rooms.State
	for _, c := range cs {
		out = append(out, c.state(func(s rooms.State) bool { return s.Phase == rooms.PhasePlaying }))
	}
	return out
}

func solution(t *testing.T, st rooms.State) string {
	t.Helper()
	cells := make([]int, len(st.Puzzle))
	for i, c := range st.Puzzle {
		cells[i] = int(c - '0')
	}
	sol, err := sudoku.Solve(sudoku.Grid{Shape: sudoku.Shape{BoxRows: st.Box[0], BoxCols: st.Box[1]}, Cells: cells})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, v := range sol.Cells {
		b.WriteByte(byte('0' + v))
	}
	return b.String()
}

// TestRoomsCoopSockets: three players on one co-op board write on the
// same cells at once over their sockets; each applies the broadcasts as
// they come and ends on the server's board. The 300 moves come as one
// burst, and each socket gets all 300 broadcasts: its queue holds them
// all (OutQueue 512; the default 256 would close a socket whose server
// side writer a loaded machine has not run yet as too slow).
func TestRoomsCoopSockets(t *testing.T) {
	hs, _ := roomsServer(t, rooms.Config{Rate: 1000, Burst: 1000, OutQueue: 512})
	cs := []*wsClient{dialRooms(t, hs.URL, playerID(0)), dialRooms(t, hs.URL, playerID(1)), dialRooms(t, hs.URL, playerID(2))}
	states := startRoom(t, rooms.Coop, cs...)
	var hot []int
	for i, c := range states[0].Puzzle {
		if c == '0' && len(hot) < 3 {
			hot = append(hot, i)
		}
	}
	var wg sync.WaitGroup
	for k, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(k), 1))
			for range 100 {
				b, _ := json.Marshal(map[string]any{"t": "move", "cell": hot[rng.IntN(len(hot))], "value": rng.IntN(10)})
				c.conn.Write(context.Background(), websocket.MessageText, b)
			}
		}()
	}
	wg.Wait()
	// Every move is answered: a broadcast naming its mover, or an ack for
	// one that changed nothing. Once all are in, the board is final.
	for k, c := range cs {
		mine := fmt.Sprintf(`"seat":%d,`, states[k].You)
		for n := 0; n < 100; n++ {
			c.match("an answer", func(m string) bool {
				return strings.HasPrefix(m, `{"t":"ack"`) || strings.HasPrefix(m, `{"t":"move"`) && strings.Contains(m, mine)
			})
		}
		c.next = 0
	}
	seq := cs[0].send(map[string]any{"t": "sync"})
	server := cs[0].state(func(s rooms.State) bool { return s.Seq == seq })
	for _, c := range cs {
		seq := c.send(map[string]any{"t": "sync"})
		c.state(func(s rooms.State) bool { return s.Seq == seq })
		board := []byte(states[0].Puzzle)
		var v int64
		for _, m := range c.all() {
			if !strings.HasPrefix(m, `{"t":"move"`) {
				continue
			}
			var mv rooms.Move
			json.Unmarshal([]byte(m), &mv)
			if mv.V != v+1 {
				t.Errorf("%s: version %d after %d", c.name, mv.V, v)
			}
			v = mv.V
			for _, ch := range mv.Changes {
				board[ch.Cell] = byte('0' + ch.Value)
			}
		}
		if string(board) != server.Board.Cells || v != server.Board.V {
			t.Errorf("%s ends on %s v%d; the server on %s v%d", c.name, board, v, server.Board.Cells, server.Board.V)
		}
	}
	t.Logf("%d conflicting moves changed the board; all three clients agree with the server", server.Board.V)
}

// TestRoomsCheatingSockets: a hostile client in a race, over its socket.
// Every cheat is refused; a 1 MB message and a flood of 10,000 messages a
// second close only the sender, while the other player's moves keep
// being answered at once.
func TestRoomsCheatingSockets(t *testing.T) {
	hs, srv := roomsServer(t, rooms.Config{Reconnect: time.Minute, Rate: 50, Burst: 100})
	eve, bob := dialRooms(t, hs.URL, playerID(10)), dialRooms(t, hs.URL, playerID(11))
	states := startRoom(t, rooms.Race, eve, bob)
	st := states[0]
	sol := solution(t, st)
	given := strings.IndexFunc(st.Puzzle, func(r rune) bool { return r != '0' })
	var empty []int
	for i, c := range st.Puzzle {
		if c == '0' {
			empty = append(empty, i)
		}
	}
	for _, c := range []struct {
		what string
		msg  map[string]any
		code string
	}{
		{"a forged move on a given", map[string]any{"t": "move", "cell": given, "value": int(sol[given]-'0')%9 + 1}, rooms.ErrFixed},
		{"a move on bob's board", map[string]any{"t": "move", "seat": 1, "cell": empty[0], "value": int(sol[empty[0]] - '0')}, rooms.ErrNotYours},
		{"a finish with a grid not played", map[string]any{"t": "finish", "grid": sol}, rooms.ErrNotPlayed},
	} {
		if got := eve.errorFor(eve.send(c.msg)); got != c.code {
			t.Errorf("%s: %s, want %s", c.what, got, c.code)
		}
	}
	for k := 0; k < play.MaxHints; k++ {
		seq := eve.send(map[string]any{"t": "hint"})
		eve.expect("hint", func(m string) bool { return strings.Contains(m, fmt.Sprintf(`"seq":%d,`, seq)) })
	}
	if got := eve.errorFor(eve.send(map[string]any{"t": "hint"})); got != rooms.ErrNoHints {
		t.Errorf("a 6th hint: %s", got)
	}
	bseq := bob.send(map[string]any{"t": "sync"})
	if bs := bob.state(func(s rooms.State) bool { return s.Seq == bseq }); bs.Board.Cells != st.Puzzle {
		t.Errorf("bob's board changed: %s", bs.Board.Cells)
	}

	// A 1 MB message: closed with 1009, the room unharmed.
	mallory := dialRooms(t, hs.URL, playerID(12))
	mallory.send(map[string]any{"t": "join", "code": st.Code, "watch": true})
	mallory.state(nil)
	big := bytes.Repeat([]byte(" "), 1<<20)
	copy(big, `{"t":"sync"}`)
	mallory.conn.Write(context.Background(), websocket.MessageText, big)
	<-mallory.closed
	if mallory.status != websocket.StatusMessageTooBig {
		t.Errorf("1 MB message: closed with %v", mallory.status)
	}

	// A flood from Eve at 10,000 messages a second; Bob plays on.
	flood, _ := json.Marshal(map[string]any{"t": "move", "cell": empty[0], "value": 1})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for k := 0; k < 10_000; k++ {
			if eve.conn.Write(context.Background(), websocket.MessageText, flood) != nil {
				return // closed by the server
			}
			if k%100 == 99 {
				time.Sleep(10 * time.Millisecond)
			}
		}
	}()
	var worst time.Duration
	for k := 0; k < 10; k++ {
		t0 := time.Now()
		seq := bob.send(map[string]any{"t": "move", "cell": empty[1], "value": k%9 + 1})
		bob.expect("ack", func(m string) bool { return strings.Contains(m, fmt.Sprintf(`"seq":%d,`, seq)) })
		worst = max(worst, time.Since(t0))
		time.Sleep(40 * time.Millisecond)
	}
	<-done
	<-eve.closed
	if eve.status != websocket.StatusPolicyViolation {
		t.Errorf("the flood: closed with %v", eve.status)
	}
	// How long Bob waited is logged, not asserted: on a busy machine it
	// says nothing of the server (the load generator measures it).
	t.Logf("flood: eve closed with %v after %d dropped; bob's slowest answer %v", eve.status, srv.Rooms().Stats().Dropped, worst)

	// Eve is away; Bob finishes; the game is over; nothing more is taken.
	for _, i := range empty { // one at a time, well within Bob's burst of 100
		seq := bob.send(map[string]any{"t": "move", "cell": i, "value": int(sol[i] - '0')})
		bob.expect("ack", func(m string) bool { return strings.Contains(m, fmt.Sprintf(`"seq":%d,`, seq)) })
	}
	bob.expect("finish", nil)
	eve2 := dialRooms(t, hs.URL, playerID(10))
	eve2.send(map[string]any{"t": "join", "code": st.Code})
	eve2.state(nil)
	eve2.send(map[string]any{"t": "forfeit"})
	bob.expect("over", nil)
	for _, m := range []map[string]any{{"t": "move", "cell": empty[2], "value": 1}, {"t": "hint"}, {"t": "finish", "grid": sol}} {
		if got := eve2.errorFor(eve2.send(m)); got != rooms.ErrOver {
			t.Errorf("%v after the end: %s", m["t"], got)
		}
	}
	// Binary messages are not the protocol.
	eve2.conn.Write(context.Background(), websocket.MessageBinary, []byte{1, 2, 3})
	<-eve2.closed
	if eve2.status != websocket.StatusUnsupportedData {
		t.Errorf("a binary message: closed with %v", eve2.status)
	}
}

// TestRoomsAPI checks the JSON around the rooms: the public list, the
// counters with the process's memory and CPU, a player's matches, the
// leaderboard's mode, and the pages.
func TestRoomsAPI(t *testing.T) {
	hs, _ := roomsServer(t, rooms.Config{})
	get := func(path string, cookie string) (int, string) {
		req, _ := http.NewRequest("GET", hs.URL+path, nil)
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: playerCookie, Value: cookie})
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		return res.StatusCode, b.String()
	}
	a := dialRooms(t, hs.URL, playerID(20))
	a.send(map[string]any{"t": "create", "mode": "coop", "public": true, "name": "Ann"})
	code := a.state(nil).Code
	if st, body := get("/api/rooms", ""); st != 200 || !strings.Contains(body, code) {
		t.Errorf("/api/rooms: %d %s", st, body)
	}
	st, body := get("/api/rooms/stats", "")
	var stats roomsStats
	if err := json.Unmarshal([]byte(body), &stats); st != 200 || err != nil || stats.Rooms != 1 || stats.Conns != 1 || stats.HeapBytes == 0 || stats.CPUSeconds <= 0 {
		t.Errorf("/api/rooms/stats: %d %s", st, body)
	}
	for path, want := range map[string]int{
		"/rooms": 200, "/rooms/" + code: 200, "/rooms/" + strings.ToLower(code): 200, "/rooms/nope": 404, "/rooms/ABCDE1": 404,
		"/api/matches": 200, "/api/matches?limit=0": 400, "/api/leaderboard?size=9&level=easy&mode=race": 200,
		"/api/leaderboard?size=9&level=easy&mode=chess": 400, "/leaderboard?mode=coop": 200, "/leaderboard?mode=x": 400,
	} {
		if got, body := get(path, playerID(20)); got != want {
			t.Errorf("GET %s: %d, want %d (%.100s)", path, got, want, body)
		}
	}
	if _, body := get("/api/matches", playerID(20)); body != "[]\n" {
		t.Errorf("matches of a player with none: %q", body)
	}
	// A request that is not a WebSocket upgrade gets an error, not a hang.
	if got, _ := get("/ws/rooms", ""); got == 200 || got >= 500 {
		t.Errorf("GET /ws/rooms without an upgrade: %d", got)
	}
	// A page from another origin cannot open the socket.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws/rooms", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}})
	if err == nil || res == nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("a cross-origin socket: %v, %v", err, res)
	}
	_ = errors.New
}

// TestRoomsBinaryRefused sends a binary message on many sockets at once:
// each is closed as unsupported data, never with the normal closure the
// hub's side of the connection would give (the reader and the writer
// both closing the socket raced on a busy machine).
func TestRoomsBinaryRefused(t *testing.T) {
	hs, _ := roomsServer(t, rooms.Config{Reconnect: time.Minute})
	cs := make([]*wsClient, 40)
	for k := range cs {
		cs[k] = dialRooms(t, hs.URL, playerID(100+k))
	}
	for _, c := range cs {
		c.conn.Write(context.Background(), websocket.MessageBinary, []byte{1, 2, 3})
	}
	for k, c := range cs {
		<-c.closed
		if c.status != websocket.StatusUnsupportedData {
			t.Errorf("socket %d: a binary message closed it with %v", k, c.status)
		}
	}
}
