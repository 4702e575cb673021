package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/sudokuar/sudokuar/rooms"
	"github.com/sudokuar/sudokuar/sudoku"
)

// This file is one simulated player of `sudokuar dev loadgen`: its socket,
// which it follows to another node when told "moved" and reopens when it
// drops (to the same node, or the next one when that refuses), its moves
// and what the server answered, and the check after every return to the
// room that the board still holds every move the server acknowledged.

// lgPlayer is one simulated player.
type lgPlayer struct {
	id     int
	cookie string       // the player's id, the same on every node
	client *http.Client // its source address; nil: the default
	addrs  []string     // every node's base URL, to reconnect to
	wmu    sync.Mutex   // one writer at a time; guards conn and base
	conn   *websocket.Conn
	base   string // the node this player is connected to now

	in      chan []byte // messages read, for the setup phase and syncs
	playing *atomic.Bool
	stop    atomic.Bool // the run is over: a closed socket is no drop

	mu        sync.Mutex
	seat      int
	mode      string
	puzzle    string
	code      string    // the room, once in one
	quickMsg  *rooms.In // quick mode: what to send again after a drop while queued
	room      *lgRoom   // co-op: the versions every player of the room saw
	board     []byte    // the board as this player's messages built it
	v         int64     // the board's version as last seen
	sent      map[int64]lgSent
	inflight  map[int64]lgSent // sent, unanswered when the socket dropped
	lastAcked int64
	acked     int // moves the server acknowledged to this player
	rtts      []lgRTT
	lost      int
	misorder  int
	moves     int
	over      bool

	away       bool      // dropped or moved: not back in the room yet
	awaySince  time.Time // when it dropped
	rejoinSeq  int64     // the seq of the join sent to come back
	drops      []time.Time
	reconnects int       // sockets reopened (drops and moves)
	resumes    int       // returns to the room checked against the acked moves
	back       []float64 // ms from each drop to the room's state
	errs       int       // errors the server sent during play (rate, busy, closing, refused)
	errText    []string  // the first few of them
	unanswered int       // moves in flight when the socket dropped
	stranded   bool      // never came back (the room was gone, or no node took it)
	why        string    // what the server said when it refused the return
}

// lgSent is a move sent and not yet answered.
type lgSent struct {
	at          time.Time
	cell, value int
}

// lgRTT is one move's round trip (ms) and when it was sent.
type lgRTT struct {
	at time.Time
	ms float64
}

// lgRoom is what the players of one co-op room saw, shared: each
// version's changes (the first report wins), to tell a version the
// server numbered twice (its first move lost) and to check a returning
// player's board, and the versions already counted as lost.
type lgRoom struct {
	mu     sync.Mutex
	seen   map[int64][]rooms.Change
	lostVs map[int64]bool
}

func newLgRoom() *lgRoom {
	return &lgRoom{seen: map[int64][]rooms.Change{}, lostVs: map[int64]bool{}}
}

// note records version v's changes; it reports false when v was seen
// before with other changes (the first is gone), counting it once.
func (r *lgRoom) note(v int64, ch []rooms.Change) (fresh bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, ok := r.seen[v]
	if !ok {
		r.seen[v] = ch
		return true
	}
	if sameChanges(old, ch) || r.lostVs[v] {
		return true
	}
	r.lostVs[v] = true
	return false
}

// lose counts versions lo+1..hi as lost, each once over the room; it
// returns how many were new.
func (r *lgRoom) lose(lo, hi int64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for v := lo + 1; v <= hi; v++ {
		if !r.lostVs[v] {
			r.lostVs[v] = true
			n++
		}
	}
	return n
}

// between returns the changes of versions lo+1..hi that some player saw,
// and how many of those versions nobody saw.
func (r *lgRoom) between(lo, hi int64) (known [][]rooms.Change, unknown int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for v := lo + 1; v <= hi; v++ {
		if ch, ok := r.seen[v]; ok {
			known = append(known, ch)
		} else {
			unknown++
		}
	}
	return known, unknown
}

func sameChanges(a, b []rooms.Change) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Cell != b[i].Cell || a[i].Value != b[i].Value {
			return false
		}
	}
	return true
}

// Reconnection: each attempt waits for its dial this long, attempts are
// reconnectStep apart (doubling up to a second), and a player that is not
// back in its room after reconnectPatience (the time a seat waits for its
// player) gives up (stranded).
const (
	dialTimeout       = 5 * time.Second
	reconnectStep     = 100 * time.Millisecond
	reconnectPatience = 60 * time.Second
)

// rejoinSeqBase numbers the joins sent to come back (far from any move's).
const rejoinSeqBase = 1 << 41

// newLgPlayer makes player id, connecting to the node addrs[id%len].
func newLgPlayer(c loadConfig, id int, playing *atomic.Bool) *lgPlayer {
	p := &lgPlayer{id: id, cookie: newPlayerID(), addrs: c.addrs, base: c.addrs[id%len(c.addrs)],
		in: make(chan []byte, 256), playing: playing, seat: -1,
		sent: map[int64]lgSent{}, inflight: map[int64]lgSent{}}
	if len(c.clients) > 0 {
		p.client = c.clients[id%len(c.clients)]
	}
	return p
}

// dialOnce opens a socket to base once. It returns the HTTP answer of a
// refused upgrade (nil when the node did not answer at all).
func (p *lgPlayer) dialOnce(ctx context.Context, base string) (*websocket.Conn, *http.Response, error) {
	ws := "ws" + strings.TrimPrefix(base, "http") + "/ws/rooms"
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	conn, res, err := websocket.Dial(dctx, ws, &websocket.DialOptions{
		HTTPHeader: http.Header{"Cookie": {"sudokuar_player=" + p.cookie}}, HTTPClient: p.client})
	if err != nil {
		return nil, res, err
	}
	conn.SetReadLimit(1 << 20)
	return conn, res, nil
}

// connect opens the player's first socket. All players come from one
// address (or a few), which the server's per-address request budget lets
// through in bursts: a refusal (429, or 503 when busy) is waited out as
// its Retry-After says, as a browser's reconnect would, for up to
// dialPatience.
//
// A node that does not answer (dead) is passed over for the next one.
func (p *lgPlayer) connect(ctx context.Context) error {
	deadline := time.Now().Add(dialPatience)
	order := p.nodeOrder(nil)
	for k := 0; ; {
		conn, res, err := p.dialOnce(ctx, order[k%len(order)])
		if err == nil {
			p.wmu.Lock()
			p.conn, p.base = conn, order[k%len(order)]
			p.wmu.Unlock()
			return nil
		}
		if res == nil && k+1 < len(order) {
			k++ // refused, or no answer: the next node
			continue
		}
		if res == nil || (res.StatusCode != http.StatusTooManyRequests && res.StatusCode != http.StatusServiceUnavailable) || time.Now().After(deadline) {
			return err
		}
		wait := time.Second
		if secs, perr := strconv.Atoi(res.Header.Get("Retry-After")); perr == nil && secs > 0 {
			wait = time.Duration(secs) * time.Second
		}
		// Spread the retries so they do not come back as one burst.
		wait += time.Duration(mrand.Int64N(int64(wait)))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// current returns the socket now in use.
func (p *lgPlayer) current() *websocket.Conn {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	return p.conn
}

func (p *lgPlayer) send(ctx context.Context, m any) error {
	b, _ := json.Marshal(m)
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.conn == nil {
		return errors.New("not connected")
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return p.conn.Write(wctx, websocket.MessageText, b)
}

// close ends the player's socket for good.
func (p *lgPlayer) close() {
	p.stop.Store(true)
	if c := p.current(); c != nil {
		c.Close(websocket.StatusNormalClosure, "done")
	}
}

// await reads setup messages until one of type typ that ok accepts.
func (p *lgPlayer) await(ctx context.Context, typ string, ok func([]byte) bool) ([]byte, error) {
	for {
		select {
		case b, open := <-p.in:
			if !open {
				return nil, fmt.Errorf("player %d: connection closed", p.id)
			}
			var h struct {
				T   string `json:"t"`
				Msg string `json:"msg"`
			}
			if err := json.Unmarshal(b, &h); err != nil {
				return nil, fmt.Errorf("player %d: a message that is not JSON: %w", p.id, err)
			}
			if h.T == "error" && typ != "error" {
				return nil, fmt.Errorf("player %d: the server said: %s", p.id, h.Msg)
			}
			if h.T == typ && (ok == nil || ok(b)) {
				return b, nil
			}
		case <-ctx.Done():
			return nil, fmt.Errorf("player %d waiting for %q: %w", p.id, typ, ctx.Err())
		}
	}
}

// readLoop reads the player's socket until the run stops: setup messages
// go to p.in, messages during play to handle. A "moved" is followed at
// once; a socket that drops is reopened and the room joined again.
func (p *lgPlayer) readLoop() {
	defer close(p.in)
	for {
		conn := p.current()
		_, b, err := conn.Read(context.Background())
		if err != nil {
			if p.stop.Load() || !p.reconnect(nil) {
				return
			}
			continue
		}
		if bytesHasType(b, "moved") {
			var m rooms.Moved
			if json.Unmarshal(b, &m) == nil && m.URL != "" {
				conn.Close(websocket.StatusNormalClosure, "moved")
				if p.stop.Load() || !p.reconnect(&m) {
					return
				}
				continue
			}
		}
		if p.playing.Load() {
			p.handle(b)
			continue
		}
		select {
		case p.in <- b:
		default: // setup chatter nobody waits for
		}
	}
}

// bytesHasType reports whether message b is of type t, cheaply.
func bytesHasType(b []byte, t string) bool {
	return strings.HasPrefix(string(b), `{"t":"`+t+`"`)
}

// reconnect reopens the player's socket after a drop (m nil: to the same
// node first, then the others in turn while they refuse) or to the node a
// "moved" names, and asks for the room again (or the quick-match queue).
// It reports false when it gave up.
func (p *lgPlayer) reconnect(m *rooms.Moved) bool {
	now := time.Now()
	playing := p.playing.Load()
	p.mu.Lock()
	// During play a drop or a move takes the player out of its room until
	// the state it comes back to is checked; before (setting rooms up,
	// quick match) a move is the normal way in and not counted.
	// One way back counts once, however many nodes answer "moved" or
	// refuse on the way.
	if playing && !p.away {
		p.away, p.awaySince = true, now
		p.drops = append(p.drops, now)
		for seq, s := range p.sent {
			p.inflight[seq] = s
			p.unanswered++
		}
		clear(p.sent)
		p.reconnects++
	} else if !playing && m == nil {
		p.reconnects++
	}
	code, quick := p.code, p.quickMsg
	p.mu.Unlock()
	order := p.nodeOrder(m)
	wait := reconnectStep
	for attempt := 0; time.Since(now) < reconnectPatience; attempt++ {
		if p.stop.Load() {
			return false
		}
		base := order[attempt%len(order)]
		conn, _, err := p.dialOnce(context.Background(), base)
		if err != nil {
			time.Sleep(wait + time.Duration(mrand.Int64N(int64(wait))))
			wait = min(2*wait, time.Second)
			continue
		}
		p.wmu.Lock()
		p.conn, p.base = conn, base
		p.wmu.Unlock()
		var msg any
		switch {
		case m != nil && m.Code != "" && attempt == 0:
			msg = rooms.In{T: "join", Seq: p.nextRejoin(), Code: m.Code, Token: m.Token, Name: fmt.Sprint("load", p.id)}
		case m != nil && m.Code != "":
			msg = rooms.In{T: "join", Seq: p.nextRejoin(), Code: m.Code, Name: fmt.Sprint("load", p.id)}
		case code != "":
			msg = rooms.In{T: "join", Seq: p.nextRejoin(), Code: code, Name: fmt.Sprint("load", p.id)}
		case quick != nil:
			msg = *quick
		default:
			return true // in no room and no queue: nothing to ask for
		}
		if p.send(context.Background(), msg) == nil {
			return true
		}
	}
	p.mu.Lock()
	p.stranded = true
	p.why = fmt.Sprintf("no node let it back in within %v", reconnectPatience)
	p.mu.Unlock()
	return false
}

// retryable reports whether an error answering a join says to try again:
// the room's node is down and no other has taken the room over yet (it
// may only once the node has missed its heartbeats), or the server is
// busy.
func retryable(e rooms.Error) bool {
	return e.Code == rooms.ErrBusy || (e.Code == rooms.ErrNoRoom && strings.Contains(e.Msg, "try again"))
}

// rejoinLater asks for the room again after a pause.
func (p *lgPlayer) rejoinLater() {
	time.Sleep(250*time.Millisecond + time.Duration(mrand.Int64N(int64(250*time.Millisecond))))
	p.mu.Lock()
	code := p.code
	p.mu.Unlock()
	if p.stop.Load() || code == "" {
		return
	}
	_ = p.send(context.Background(), rooms.In{T: "join", Seq: p.nextRejoin(), Code: code, Name: fmt.Sprint("load", p.id)})
}

// nextRejoin numbers a join sent to come back.
func (p *lgPlayer) nextRejoin() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rejoinSeq++
	return rejoinSeqBase + p.rejoinSeq
}

// nodeOrder lists the nodes to try: the moved-to node or else the
// current one first, then the others in their order (a "moved" may name
// a node that has just died: its heartbeat is not old enough yet for
// another node to take the room over).
func (p *lgPlayer) nodeOrder(m *rooms.Moved) []string {
	p.wmu.Lock()
	base := p.base
	p.wmu.Unlock()
	order := []string{base}
	if m != nil {
		order[0] = strings.TrimSuffix(m.URL, "/")
	}
	start := 0
	for i, a := range p.addrs {
		if a == base {
			start = i + 1
		}
	}
	for k := range p.addrs {
		if a := p.addrs[(start+k)%len(p.addrs)]; a != order[0] {
			order = append(order, a)
		}
	}
	return order
}

// handle checks one message during play.
func (p *lgPlayer) handle(b []byte) {
	now := time.Now()
	var m rooms.Move
	if err := json.Unmarshal(b, &m); err != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch m.T {
	case "ack", "move":
		p.moveAnswer(m, now)
	case "error":
		var e rooms.Error
		if json.Unmarshal(b, &e) != nil {
			return // not an error this player can match to a move
		}
		if p.away && e.Seq > rejoinSeqBase && retryable(e) && time.Since(p.awaySince) < reconnectPatience {
			go p.rejoinLater() // the room's node is down and not yet taken over
			return
		}
		if p.away && e.Seq > rejoinSeqBase {
			// Coming back failed: the room is gone, and with it every
			// move the server had acknowledged to this player.
			p.lost += p.acked
			p.acked = 0
			p.stranded = true
			p.why = e.Code + ": " + e.Msg
			return
		}
		p.noteErr(e.Code + ": " + e.Msg)
		if _, ok := p.sent[e.Seq]; ok {
			delete(p.sent, e.Seq)
			p.lost++ // refused
		}
	case "closed":
		p.noteErr("closed: " + string(b)) // "the server is shutting down": a player reads it as an error
	case "over":
		p.over = true
	case "state":
		if p.away {
			p.resume(b, now)
			return
		}
		select {
		case p.in <- b: // a sync's answer
		default:
		}
	}
}

// noteErr counts an error seen during play (p.mu held).
func (p *lgPlayer) noteErr(text string) {
	p.errs++
	if len(p.errText) < 3 {
		p.errText = append(p.errText, text)
	}
}

// moveAnswer takes an ack (race) or a move broadcast (co-op) (p.mu held).
func (p *lgPlayer) moveAnswer(m rooms.Move, now time.Time) {
	mine := m.T == "ack" || m.Seat == p.seat
	if m.T == "move" {
		if m.V != p.v+1 {
			p.misorder++
		}
		if p.room != nil && !p.room.note(m.V, m.Changes) {
			p.lost++ // this version was acknowledged before with another move
		}
	} else if p.mode == rooms.Coop && m.V != p.v {
		p.misorder++ // a co-op ack changes nothing: the version stays
	} else if p.mode == rooms.Race && len(m.Changes) > 0 && m.V != p.v+1 {
		p.misorder++
	}
	p.v = m.V
	for _, c := range m.Changes {
		if c.Cell >= 0 && c.Cell < len(p.board) {
			p.board[c.Cell] = sudoku.CellSymbol(c.Value)
		}
	}
	if mine && m.Seq > 0 {
		if s, ok := p.sent[m.Seq]; ok {
			p.rtts = append(p.rtts, lgRTT{at: s.at, ms: float64(now.Sub(s.at).Microseconds()) / 1000})
			delete(p.sent, m.Seq)
			p.acked++
		}
		if m.Seq <= p.lastAcked {
			p.misorder++
		}
		p.lastAcked = m.Seq
	}
}

// resume checks the room's state after a reconnection against what the
// server had acknowledged (p.mu held), then plays on. No board's version may
// go back. Race: a cell that differs from the board the acks built must be
// one a move in flight at the drop wrote. Co-op: the cells must be the board
// this player saw plus the versions others saw since (missing versions are
// lost, counted once a room), each version nobody saw accounting for at
// most one cell.
func (p *lgPlayer) resume(b []byte, now time.Time) {
	var st rooms.State
	if json.Unmarshal(b, &st) != nil || st.Board == nil || st.Phase != rooms.PhasePlaying {
		if st.Phase == rooms.PhaseOver {
			p.away, p.over = false, true
		}
		return // a lobby or a watcher's view: wait for the game's state
	}
	if len(st.Board.Cells) != len(p.board) {
		p.lost += p.acked
		p.acked = 0
	} else {
		p.lost += p.missing(st)
	}
	p.board, p.v = []byte(st.Board.Cells), st.Board.V
	p.seat = st.You
	clear(p.inflight)
	p.away = false
	p.resumes++
	p.back = append(p.back, float64(now.Sub(p.awaySince).Microseconds())/1000)
}

// missing counts the acknowledged moves st lacks (p.mu held).
func (p *lgPlayer) missing(st rooms.State) int {
	v := st.Board.V
	want := append([]byte(nil), p.board...)
	free := 0 // cells that may differ without a move lost
	inflight := map[int]bool{}
	for _, s := range p.inflight {
		inflight[s.cell] = true
	}
	lost := 0
	if p.mode == rooms.Coop && p.room != nil {
		if v < p.v {
			return p.room.lose(v, p.v)
		}
		known, unknown := p.room.between(p.v, v)
		for _, ch := range known {
			for _, c := range ch {
				if c.Cell >= 0 && c.Cell < len(want) {
					want[c.Cell] = sudoku.CellSymbol(c.Value)
				}
			}
		}
		free = unknown
		inflight = nil
	} else if v < p.v {
		return int(p.v - v)
	}
	for i := range want {
		if want[i] == st.Board.Cells[i] || inflight[i] {
			continue
		}
		if free > 0 {
			free--
			continue
		}
		lost++
	}
	return lost
}

// sendMove sends one move, unless the player is away (then it skips
// this turn, as a person would wait for the page to come back).
func (p *lgPlayer) sendMove(seq int64, cell, value int) {
	p.mu.Lock()
	if p.away || p.over || p.stranded {
		p.mu.Unlock()
		return
	}
	p.sent[seq] = lgSent{at: time.Now(), cell: cell, value: value}
	p.moves++
	p.mu.Unlock()
	if err := p.send(context.Background(), rooms.In{T: "move", Seq: seq, Cell: &cell, Value: &value}); err != nil {
		p.mu.Lock()
		if _, ok := p.sent[seq]; ok { // not sent after all: the socket is going
			delete(p.sent, seq)
			p.moves--
		}
		p.mu.Unlock()
	}
}
