package rooms

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sudokuar/sudokuar/internal/limit"
	"github.com/sudokuar/sudokuar/store"
)

// MaxMessageBytes is the largest message a client may send: a 16×16
// finish grid is 256 characters, so 2 KiB leaves room and no more.
const MaxMessageBytes = 2048

// Why a connection was closed, for the transport to pass on (package web
// maps them to WebSocket close codes).
const (
	CloseNormal   = iota // the client went away, or the server is done with it
	CloseTooBig          // a message over MaxMessageBytes
	ClosePolicy          // flooding, or too slow to read its messages
	CloseShutdown        // the server is shutting down
)

// Conn is one client connection. The transport calls Receive with each
// message read, in order, from one goroutine; writes every message of Out
// to the client; and calls Close when the client is gone. Done is closed
// when the server ends the connection; Reason says why.
type Conn struct {
	hub    *Hub
	player string // the player's id (a browser cookie): their seat's key

	out  chan []byte
	done chan struct{}
	once sync.Once

	closeCode   int
	closeReason string

	room atomic.Pointer[Room] // the room this connection is in, set by the room
	// seatMu orders the three moves that change which room holds the
	// connection: asking for a new room (ask), a room seating it (attach)
	// and the connection ending (end). Without it, two rooms seating the
	// same connection at once could leave c.room pointing at neither while
	// one of them kept the seat: a room never told the connection closed.
	seatMu sync.Mutex
	ended  bool // end has run (seatMu)
	// asked counts the rooms this connection has asked for (create, join,
	// quick), so that a room seating it after it has asked for another
	// lets it go at once: a connection is in at most one room.
	asked atomic.Int64
	// lastMsg is when the client last sent a message (Unix ns), for
	// closing connections idle outside any room.
	lastMsg atomic.Int64

	addr    string // the client's address (a key for the bounds per address), or ""
	created int    // rooms made by this connection still open (hub.mu)

	// With a journal, the messages waiting for their room's records to
	// be durable, in the order they were sent (see journal.go): nothing
	// overtakes them.
	holdMu sync.Mutex
	held   []heldMsg
	// broken: a message could not be queued (too slow): nothing after it
	// may go, or the client would see a gap (a version skipped); the
	// connection is being ended.
	broken bool

	// read side: used only by the goroutine that calls Receive.
	name    string
	limit   limit.Bucket // messages
	creates limit.Bucket // rooms created
	dropped int          // messages dropped in the current window
	window  time.Time    // start of the window
	warned  time.Time    // last rate error sent
}

// Out is the stream of encoded messages for the client.
func (c *Conn) Out() <-chan []byte { return c.out }

// Done is closed when the server has ended the connection.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Reason returns why the server ended the connection (after Done).
func (c *Conn) Reason() (code int, reason string) { return c.closeCode, c.closeReason }

// Player returns the id the connection was opened with.
func (c *Conn) Player() string { return c.player }

// Close tells the server the client is gone: its seat waits for it to
// come back, its place in a queue is given up.
func (c *Conn) Close() { c.end(CloseNormal, "") }

// end closes the connection once, with a code and reason for the
// transport, and tells its room and the matchmaker.
func (c *Conn) end(code int, reason string) {
	c.once.Do(func() {
		c.closeCode, c.closeReason = code, reason
		close(c.done)
		c.seatMu.Lock()
		c.ended = true
		r := c.room.Load()
		c.seatMu.Unlock()
		if r != nil {
			r.post(envelope{kind: evGone, conn: c})
		}
		c.hub.mm.cancel(c)
		c.hub.dropConn(c)
	})
}

// send queues an encoded message for the client. A client that lets
// Config.OutQueue messages pile up is too slow to play: it is closed
// rather than allowed to hold the room's memory.
//
// With a journal, a message waits while the connection's room has a
// record not yet durable (the room records before it answers), or while
// earlier messages wait: the writer releases them in order.
func (c *Conn) send(b []byte) {
	if c == nil { // a seat being replayed from the journal: nobody to tell
		return
	}
	select {
	case <-c.done:
		return
	default:
	}
	if c.hub.writer == nil {
		c.push(b)
		return
	}
	var l *roomLog
	var seq int64
	if r := c.room.Load(); r != nil && r.log != nil && !r.log.stale.Load() {
		l, seq = r.log, r.log.seq.Load()
	}
	c.holdMu.Lock()
	if c.broken {
		c.holdMu.Unlock()
		return
	}
	if len(c.held) == 0 && l.ready(seq) {
		full := !c.push(b)
		c.broken = full
		c.holdMu.Unlock()
		if full {
			c.tooSlow()
		}
		return
	}
	if len(c.held) >= cap(c.out) { // as many as the queue holds: the journal is that far behind
		c.broken = true
		c.held = nil
		c.holdMu.Unlock()
		c.tooSlow()
		return
	}
	c.held = append(c.held, heldMsg{b, l, seq})
	c.holdMu.Unlock()
	c.release()
}

// push queues b for the transport; false when the queue is full.
func (c *Conn) push(b []byte) bool {
	select {
	case c.out <- b:
		return true
	default:
		if c.hub.writer == nil {
			c.tooSlow()
		}
		return false
	}
}

// tooSlow closes a connection whose client does not read.
func (c *Conn) tooSlow() {
	c.end(ClosePolicy, fmt.Sprintf("too slow: %d messages waiting", cap(c.out)))
}

// release sends the held messages whose records are durable, in order,
// and waits on the log of the first that is not. A message held for a
// room another node has taken is dropped: its record was refused.
func (c *Conn) release() {
	full := false
	c.holdMu.Lock()
	for len(c.held) > 0 && !full {
		m := c.held[0]
		if !m.log.ready(m.seq) {
			m.log.wait(c)
			if !m.log.ready(m.seq) { // the writer may have moved on meanwhile
				break
			}
		}
		c.held[0] = heldMsg{}
		c.held = c.held[1:]
		if m.log != nil && m.log.stale.Load() && m.log.durable.Load() < m.seq {
			continue
		}
		full = !c.push(m.b)
	}
	if full { // m is lost: the rest may not go past it
		c.broken = true
		c.held = nil
	}
	if len(c.held) == 0 {
		c.held = nil
	}
	c.holdMu.Unlock()
	if full {
		go c.tooSlow() // not on the writer's goroutine: end may wait for a room
	}
}

// sendJSON encodes v and sends it.
func (c *Conn) sendJSON(v any) {
	if c == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		c.hub.log.Error("rooms: encode", "err", err)
		return
	}
	c.send(b)
}

func (c *Conn) sendError(seq int64, code, format string, args ...any) {
	c.sendJSON(Error{T: "error", Seq: seq, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// sendNoRoom tells the client that no room has the code it asked to join.
func (c *Conn) sendNoRoom(in In) {
	c.sendError(in.Seq, ErrNoRoom, "no room %q: check the code, or the game may have ended", in.Code)
}

// Receive takes one message from the client: it checks the size, the
// message budget and the JSON, then hands it to the hub (rooms, queues)
// or to the connection's room. When the room's queue is full it waits a
// little (holding back this client only), then answers "busy".
func (c *Conn) Receive(data []byte) {
	select {
	case <-c.done:
		return
	default:
	}
	if len(data) > MaxMessageBytes {
		c.end(CloseTooBig, fmt.Sprintf("message of %d bytes: the most is %d", len(data), MaxMessageBytes))
		return
	}
	now := c.hub.now()
	c.lastMsg.Store(now.UnixNano())
	if ok, _ := c.limit.Take(now); !ok {
		c.overBudget(now)
		return
	}
	var in In
	if err := json.Unmarshal(data, &in); err != nil {
		c.sendError(0, ErrBad, "not a JSON message: %v", err)
		return
	}
	if in.Name != "" {
		name, err := store.CleanName(in.Name)
		if err != nil {
			c.sendError(in.Seq, ErrBad, "%v", err)
			return
		}
		c.name = name
	}
	h := c.hub
	switch in.T {
	case "list":
		c.sendJSON(RoomList{T: "rooms", Rooms: h.PublicRooms()})
	case "create":
		set, err := settingsFrom(in)
		if err != nil {
			c.sendError(in.Seq, ErrBad, "%v", err)
			return
		}
		ok, wait := c.creates.Take(now)
		if ok && c.addr != "" {
			ok, wait = h.creates.Take(c.addr, now)
		}
		if !ok {
			c.sendError(in.Seq, ErrRate, "too many rooms created: wait %.0f s and try again", math.Ceil(wait.Seconds()))
			return
		}
		ask := c.ask()
		h.mm.cancel(c)
		if _, err := h.create(set, []joinReq{{conn: c, name: c.displayName(), ask: ask}}, c); err != nil {
			c.sendError(in.Seq, ErrClosing, "%v", err)
		}
	case "join":
		c.join(in)
	case "quick":
		set, err := settingsFrom(in)
		if err != nil {
			c.sendError(in.Seq, ErrBad, "%v", err)
			return
		}
		if h.cl != nil && !h.cl.allow(c, in.Seq) {
			return // each ticket is a row and a notification: budgeted
		}
		h.mm.enqueue(c, c.displayName(), set, c.ask())
	case "cancel":
		h.mm.cancel(c)
	case "ready", "sit", "leave", "kick", "move", "mark", "undo", "redo", "hint", "finish", "forfeit", "again", "sync":
		r := c.room.Load()
		if r == nil {
			if h.isClosing() {
				// Handing over: the rooms have stopped and their players
				// are being told where to go next ("moved"); a message
				// late for its room gets no answer, never an error.
				return
			}
			c.sendError(in.Seq, ErrNoRoom, "you are not in a room")
			return
		}
		if !r.offer(envelope{kind: evMsg, conn: c, in: in, at: now}) {
			c.sendError(in.Seq, ErrBusy, "the room is busy: try again")
		}
	default:
		c.sendError(in.Seq, ErrBad, "unknown message type %q", in.T)
	}
}

// join handles a "join": a room here, a room taken over from a dead or
// leaving node (the journal), or in a cluster "moved" to the node that
// holds it; a token of a "moved" seats the player it names.
func (c *Conn) join(in In) {
	h := c.hub
	code := strings.ToUpper(strings.TrimSpace(in.Code))
	r := h.room(code)
	if r == nil && h.cl != nil && ValidCode(code) && !h.cl.allow(c, in.Seq) {
		return // a code not here costs the directory a query or more: budgeted
	}
	if r == nil {
		r = h.resume(code) // a room whose node died or left, kept in the journal
	}
	if r == nil && h.cl != nil && ValidCode(code) {
		if r = h.cl.elsewhere(c, in, code); r == nil {
			return
		}
	}
	if r == nil {
		c.sendNoRoom(in)
		return
	}
	j := joinReq{conn: c, name: c.displayName(), watch: in.Watch, seq: in.Seq}
	if in.Token != "" && h.cl != nil {
		if !h.cl.allow(c, in.Seq) {
			return
		}
		g, err := h.cl.redeem(code, in.Token)
		if err != nil {
			c.sendError(in.Seq, ErrBad, "the token of this move is spent, expired or not for room %s: join by its code", code)
			return
		}
		j.player = g.Player
		if in.Name == "" && g.Name != "" {
			c.name, j.name = g.Name, g.Name
		}
	}
	var ask int64
	if cur := c.room.Load(); cur != r {
		ask = c.ask()
	} else {
		ask = c.asked.Load() // a watcher taking a seat stays
	}
	h.mm.cancel(c)
	j.ask = ask
	r.post(envelope{kind: evJoin, conn: c, aside: &aside{join: j}})
}

// ask notes that the connection asks for a new room and takes it out of
// the one it is in. A room seating the connection for an earlier request
// sees the new count in attach (both under seatMu) and lets it go.
func (c *Conn) ask() int64 {
	c.seatMu.Lock()
	n := c.asked.Add(1)
	r := c.room.Swap(nil)
	c.seatMu.Unlock()
	if r != nil {
		r.post(envelope{kind: evLeave, conn: c}) // outside seatMu: post may wait for the room
	}
	return n
}

// displayName is the name the player gave, or a stand-in.
func (c *Conn) displayName() string {
	if c.name != "" {
		return c.name
	}
	return "Player " + strings.ToUpper(c.player[:min(4, len(c.player))])
}

// overBudget handles a message over the budget: it is dropped, the client
// is told at most once a second, and a client that keeps flooding (more
// than floodLimit drops in floodWindow) is closed.
func (c *Conn) overBudget(now time.Time) {
	if now.Sub(c.window) > floodWindow {
		c.window, c.dropped = now, 0
	}
	c.dropped++
	c.hub.dropped.Add(1)
	if c.dropped > floodLimit {
		c.end(ClosePolicy, fmt.Sprintf("too many messages: over %d beyond the limit of %.0f a second", floodLimit, c.limit.PerSecond))
		return
	}
	if now.Sub(c.warned) >= time.Second {
		c.warned = now
		c.sendError(0, ErrRate, "too many messages: at most %.0f a second (burst %d); this one was dropped", c.limit.PerSecond, int(c.limit.Burst))
	}
}

// Flood limits: a client may overrun its budget now and then (a key held
// down); one that drops floodLimit messages within floodWindow is not
// playing.
const (
	floodLimit  = 200
	floodWindow = 5 * time.Second
)
