package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/sudoku"
)

// Room is one room: its loop owns everything below the channels, and
// nothing else touches it.
type Room struct {
	hub   *Hub
	code  string
	set   Settings
	inbox chan envelope
	done  chan struct{}
	info  atomic.Pointer[RoomInfo] // a summary for the public list, written by the loop
	addr  string                   // the address of whoever made it ("": none known), for the bounds
	by    *Conn                    // the connection that made it (nil: the matchmaker)

	// Owned by the loop.
	ctx      context.Context // cancelled when the room closes: stops its generation
	cancel   context.CancelFunc
	phase    string
	seats    []*seat // MaxSeats slots; nil is a free seat
	watchers map[*Conn]bool
	bans     map[string]bool // players voted out
	puzzle   *Puzzle         // the next or current game's; nil while generating
	gen      int             // puzzle requests made, so a late answer is recognised
	genErr   string          // why the last generation failed
	fixed    []bool
	games    int       // games started here
	startAt  time.Time // the countdown's end
	started  time.Time // the game's start, by the server's clock
	ended    time.Time
	shared   *game.Game // co-op: the board everyone plays
	version  int64      // co-op: moves applied to shared
	finishes int        // race: players finished so far
	results  []Placing
	closed   bool

	// The journal (nil log: the hub keeps none).
	log       *roomLog
	replaying bool        // replaying the journal: nothing is recorded, saved or sent
	replayAt  time.Time   // the time of the entry being replayed
	lastSeq   int64       // the last record replayed
	lastAt    time.Time   // and its time
	handing   atomic.Bool // handed over or taken by another node: messages get no answer here
}

// seat is one player's place in the room, kept while they are away.
type seat struct {
	player    string
	name      string
	conn      *Conn     // nil while away
	awaySince time.Time // when conn was lost
	ready     bool
	votes     map[string]bool // players voting to remove this seat

	// the current game
	board    *game.Game   // race: their own board
	marks    []game.Marks // co-op: their private pencil marks
	version  int64        // race: moves applied to board
	hints    int
	hintBusy bool
	// The hint whose next stages are free until the seat's next move,
	// and the stages shown over all hints.
	openHint   *logic.Advice
	hintStages int
	mistakes   int
	flag       string // why the finish is not ranked (too fast)
	place      int    // 1.. once finished
	ms         int64  // their time, once finished
	out        string
	played     bool // sat at the current game from its start
}

// envelope is one thing for the room to handle: a client's message, or
// news from the hub, a connection, or the room's own helpers. It is kept
// small (the rare parts behind aside) since every room's queue holds
// inboxSize of them.
type envelope struct {
	kind  int
	conn  *Conn
	in    In
	at    time.Time
	aside *aside
}

// aside carries what joins and the work done beside the loop report.
type aside struct {
	join joinReq

	gen     int
	puzzle  Puzzle
	err     error
	seat    int
	player  string
	step    logic.Advice
	seq     int64
	gameNum int
	busy    bool // a hint the engine gate refused: no work done, not spent

	hand *handTally // evHandover
}

const (
	evMsg      = iota // a client's message (in)
	evJoin            // a connection asks for a seat or to watch (join)
	evLeave           // a connection left for another room
	evGone            // a connection closed
	evPuzzle          // a generated puzzle (gen, puzzle, err)
	evHint            // a hint found (seat, player, step, seq, err, gameNum)
	evShutdown        // the server is stopping
	evHandover        // the node is leaving: record the room and stop (hand)
	evStale           // another node has taken the room over
)

// joinReq is a connection asking for a place in the room.
type joinReq struct {
	conn *Conn // nil: a seat kept for a player on their way from another node
	// player is whose seat this is: the connection's own player, or the
	// one a "moved" token named (another node's id for them).
	player string
	name   string
	watch  bool
	quick  bool  // seated by the matchmaker: ready at once
	seq    int64 // the join message's, for an error
	ask    int64 // the connection's request number (Conn.asked) when it asked
}

// inboxSize is how many messages a room queues: at four players' message
// budget, seconds of backlog.
const inboxSize = 128

func newRoom(h *Hub, code string, set Settings) *Room {
	ctx, cancel := context.WithCancel(context.Background())
	r := &Room{
		hub: h, code: code, set: set, inbox: make(chan envelope, inboxSize), done: make(chan struct{}),
		ctx: ctx, cancel: cancel, phase: PhaseLobby,
		seats: make([]*seat, h.cfg.MaxSeats), watchers: map[*Conn]bool{}, bans: map[string]bool{},
	}
	if h.writer != nil {
		r.log = &roomLog{code: code, epoch: 1}
	}
	r.publish()
	return r
}

// offerWait is how long a client's message waits for room in a full
// queue. Waiting holds back only that client's reader (and so its socket):
// the others' messages and the room go on.
const offerWait = 2 * time.Second

// offer queues a client's message, waiting up to offerWait while the
// queue is full; false means it was not taken.
func (r *Room) offer(e envelope) bool {
	select {
	case r.inbox <- e:
		return true
	case <-r.done:
		r.closedFor(e)
		return true
	default:
	}
	t := time.NewTimer(offerWait)
	defer t.Stop()
	select {
	case r.inbox <- e:
		return true
	case <-r.done:
		r.closedFor(e)
		return true
	case <-t.C:
		return false
	}
}

// closedFor answers a client's message that came after the room closed;
// a room that moved to another node answers nothing (its players are
// told to reconnect).
func (r *Room) closedFor(e envelope) {
	if !r.handing.Load() {
		e.conn.sendError(e.in.Seq, ErrNoRoom, "the room has closed")
	}
}

// post queues news the room must not miss, waiting for room in the queue
// (never past the room's end).
func (r *Room) post(e envelope) {
	select {
	case r.inbox <- e:
	case <-r.done:
		switch {
		case e.kind == evJoin && !r.handing.Load():
			e.conn.sendError(e.aside.join.seq, ErrNoRoom, "the room has closed")
		case e.kind == evHandover:
			e.aside.hand.wg.Done()
		}
	}
}

func (r *Room) run() {
	defer func() {
		if !r.handing.Load() {
			r.record(RecDrop, nil) // the room has ended: nothing to take over
		}
		r.cancel()
		r.hub.removeRoom(r)
		close(r.done)
	}()
	if r.puzzle == nil {
		r.requestPuzzle()
	}
	t := time.NewTicker(r.hub.cfg.Tick)
	defer t.Stop()
	for !r.closed {
		select {
		case e := <-r.inbox:
			r.handle(e)
		case <-t.C:
			r.tick()
		}
	}
}

// now is the server's clock; while the journal is replayed, the time of
// the entry being replayed.
func (r *Room) now() time.Time {
	if r.replaying && !r.replayAt.IsZero() {
		return r.replayAt
	}
	return r.hub.now()
}

func (r *Room) handle(e envelope) {
	switch e.kind {
	case evMsg:
		r.message(e.conn, e.in)
		if e.in.T == "move" {
			r.hub.lat.add(r.now().Sub(e.at))
		}
	case evJoin:
		r.join(e.aside.join)
	case evLeave:
		r.leave(e.conn, "left")
		e.conn.room.CompareAndSwap(r, nil)
	case evGone:
		r.gone(e.conn)
	case evPuzzle:
		r.gotPuzzle(e.aside)
	case evHint:
		r.gotHint(e.aside)
	case evShutdown:
		r.broadcast(Notice{T: "closed", Msg: "the server is shutting down"})
		r.close()
		return
	case evHandover:
		r.handOver(e.aside.hand)
		return
	case evStale:
		r.goneStale()
		return
	}
	r.checkEmpty()
	r.publish()
}

// tick runs the room's timers: the countdown, the seats waiting for their
// players, and closing when nobody is left.
func (r *Room) tick() {
	now := r.now()
	changed := false
	for i, s := range r.seats {
		if s == nil || s.conn != nil || s.out != "" || s.place > 0 || now.Sub(s.awaySince) < r.hub.cfg.Reconnect {
			continue
		}
		// The player did not come back in time.
		changed = true
		switch r.phase {
		case PhasePlaying:
			s.out = "dropped"
			r.broadcastFinishIfOver()
		default:
			r.seats[i] = nil
		}
	}
	if r.phase == PhaseCountdown && !now.Before(r.startAt) {
		r.start() // which tells everyone
	}
	if changed {
		if r.phase == PhaseLobby {
			r.maybeCountdown()
		}
		r.broadcastState()
	}
	r.checkEmpty()
	r.publish()
}

// checkEmpty closes a room with nobody in it: no watcher, and no seat
// kept for a player who is there or may come back.
func (r *Room) checkEmpty() {
	if r.closed || len(r.watchers) > 0 {
		return
	}
	now := r.now()
	for _, s := range r.seats {
		if s != nil && r.keeps(s, now) {
			return
		}
	}
	r.close()
}

// keeps reports whether seat s keeps the room open.
func (r *Room) keeps(s *seat, now time.Time) bool {
	switch {
	case s.conn != nil:
		return true
	case s.out != "":
		return false
	case r.phase == PhasePlaying && s.place > 0:
		return false // finished, then went
	}
	return now.Sub(s.awaySince) < r.hub.cfg.Reconnect
}

func (r *Room) close() {
	if r.closed {
		return
	}
	r.closed = true
	for _, s := range r.seats {
		if s != nil && s.conn != nil {
			s.conn.room.CompareAndSwap(r, nil)
		}
	}
	for c := range r.watchers {
		c.room.CompareAndSwap(r, nil)
	}
}

// publish updates the summary the hub lists public rooms from, when it
// has changed.
func (r *Room) publish() {
	n := 0
	for _, s := range r.seats {
		if s != nil && s.out == "" {
			n++
		}
	}
	if old := r.info.Load(); old != nil && old.Players == n && old.Phase == r.phase {
		return
	}
	r.info.Store(&RoomInfo{Code: r.code, Mode: r.set.Mode, Size: r.set.Shape.N(), Level: r.set.Level.String(), Players: n, Max: len(r.seats), Phase: r.phase})
}

// requestPuzzle asks for the next game's puzzle beside the loop.
func (r *Room) requestPuzzle() {
	r.gen++
	r.puzzle, r.genErr = nil, ""
	gen, set, ctx := r.gen, r.set, withWorkKey(r.ctx, r.addr)
	r.hub.goWork(func() {
		cctx, cancel := context.WithTimeout(ctx, generateTimeout)
		defer cancel()
		p, err := r.hub.puzzles.Puzzle(cctx, set.Shape, set.Level)
		r.post(envelope{kind: evPuzzle, aside: &aside{gen: gen, puzzle: p, err: err}})
	})
}

func (r *Room) gotPuzzle(e *aside) {
	if e.gen != r.gen {
		return // an answer for a game that is no longer coming
	}
	if e.err != nil {
		r.hub.log.Error("rooms: puzzle", "room", r.code, "err", e.err)
		r.genErr = "no puzzle could be made: " + e.err.Error()
		r.broadcast(Error{T: "error", Code: ErrNotNow, Msg: r.genErr + " (the room tries again)"})
		r.requestPuzzle()
		return
	}
	p := e.puzzle
	r.puzzle = &p
	r.maybeCountdown()
	r.broadcastState()
}

// seatOf returns the seat index of a connection's player, or -1.
func (r *Room) seatOf(c *Conn) int {
	for i, s := range r.seats {
		if s != nil && s.conn == c {
			return i
		}
	}
	return -1
}

// seatOfPlayer returns the seat index a player holds, or -1.
func (r *Room) seatOfPlayer(player string) int {
	for i, s := range r.seats {
		if s != nil && s.player == player {
			return i
		}
	}
	return -1
}

func (r *Room) join(j joinReq) {
	c := j.conn
	player := j.player
	if player == "" {
		player = c.player
	}
	if c == nil {
		r.reserve(j)
		return
	}
	if r.bans[player] {
		c.sendError(j.seq, ErrBanned, "you were voted out of room %s", r.code)
		return
	}
	// A player coming back (a reload, a new connection) gets their seat.
	if i := r.seatOfPlayer(player); i >= 0 && !j.watch {
		s := r.seats[i]
		if s.out == "" || r.phase == PhasePlaying || r.phase == PhaseOver {
			if old := s.conn; old != nil && old != c {
				old.room.CompareAndSwap(r, nil)
				old.sendJSON(Notice{T: "replaced", Msg: "this seat was taken over by another window"})
			}
			delete(r.watchers, c)
			s.conn, s.name = c, j.name
			if r.attach(c, j.ask) {
				if r.set.Quick && r.games == 0 {
					r.maybeCountdown() // the last of a quick match's players has come
				}
				r.broadcastState()
			}
			return
		}
	}
	if !j.watch && (r.phase == PhaseLobby || r.phase == PhaseCountdown) {
		for i, s := range r.seats {
			if s != nil {
				continue
			}
			delete(r.watchers, c)
			r.seats[i] = &seat{player: player, name: j.name, conn: c, ready: j.quick}
			if !r.attach(c, j.ask) {
				return
			}
			if r.phase == PhaseCountdown {
				r.phase = PhaseLobby // a newcomer must get ready too
			}
			r.maybeCountdown()
			r.broadcastState()
			return
		}
	}
	if len(r.watchers) >= r.hub.cfg.MaxWatchers && !r.watchers[c] {
		c.sendError(j.seq, ErrFull, "room %s is full: every seat is taken and %d are watching", r.code, len(r.watchers))
		return
	}
	r.watchers[c] = true
	if r.attach(c, j.ask) {
		r.broadcastState()
	}
}

// reserve keeps a seat of a quick match for a player who is on their way
// from another node: they have reserveWait to come (their seat is
// counted away from when it would have timed out sooner).
func (r *Room) reserve(j joinReq) {
	for i, s := range r.seats {
		if s == nil {
			away := r.now().Add(min(0, reserveWait-r.hub.cfg.Reconnect))
			r.seats[i] = &seat{player: j.player, name: j.name, awaySince: away, ready: true}
			return
		}
	}
}

// reserveWait is how long a quick-match seat waits for a player sent from
// another node before the others start without them.
const reserveWait = 10 * time.Second

// attach makes c's messages come here. A connection that closed on its
// way in is away at once; one that has asked for another room since it
// asked for this one (ask is no longer its latest request) leaves at once,
// so a connection is never kept in two rooms (see Conn.ask). It reports
// whether c stays.
func (r *Room) attach(c *Conn, ask int64) bool {
	c.seatMu.Lock()
	if c.asked.Load() != ask {
		c.seatMu.Unlock()
		r.leave(c, "left")
		return false
	}
	c.room.Store(r)
	ended := c.ended
	c.seatMu.Unlock()
	if ended {
		r.gone(c) // it closed before this room could tell it anything
	}
	return true
}

// gone: a connection closed. Its seat waits for the player.
func (r *Room) gone(c *Conn) {
	delete(r.watchers, c)
	if i := r.seatOf(c); i >= 0 {
		s := r.seats[i]
		s.conn, s.awaySince = nil, r.now()
		if r.phase == PhaseCountdown {
			r.phase = PhaseLobby
		}
		r.broadcastState()
	}
}

// leave takes a connection out of the room for good (why: "left", "voted
// out"). In a game its seat stays, marked out, until the game is over.
func (r *Room) leave(c *Conn, why string) {
	if r.watchers[c] {
		delete(r.watchers, c)
		r.broadcastState()
		return
	}
	i := r.seatOf(c)
	if i < 0 {
		return
	}
	r.vacate(i, why)
}

func (r *Room) vacate(i int, why string) {
	s := r.seats[i]
	if s.conn != nil {
		s.conn.room.CompareAndSwap(r, nil)
	}
	s.conn = nil
	if r.phase == PhasePlaying && s.played {
		if s.out == "" && s.place == 0 {
			s.out = why
		}
		s.awaySince = r.now().Add(-r.hub.cfg.Reconnect) // no waiting for a player who chose to go
		r.broadcastFinishIfOver()
	} else {
		r.seats[i] = nil
		if r.phase == PhaseCountdown {
			r.phase = PhaseLobby
		}
		r.maybeCountdown()
	}
	for _, o := range r.seats {
		if o != nil {
			delete(o.votes, s.player)
		}
	}
	r.broadcastState()
}

// message handles one client message from a connection in the room.
func (r *Room) message(c *Conn, in In) {
	i := r.seatOf(c)
	if i < 0 && !r.watchers[c] {
		c.sendError(in.Seq, ErrNoRoom, "you are not in room %s", r.code)
		return
	}
	switch in.T {
	case "sync":
		st := r.stateFor(c)
		st.Seq = in.Seq
		c.sendJSON(st)
		return
	case "leave":
		r.leave(c, "left")
		c.sendJSON(Notice{T: "left", Msg: "you left room " + r.code})
		return
	case "sit":
		r.sit(c, in)
		return
	}
	if i < 0 {
		c.sendError(in.Seq, ErrNotYours, "you are watching: watchers cannot play")
		return
	}
	s := r.seats[i]
	switch in.T {
	case "ready":
		r.ready(i, in)
	case "kick":
		r.kick(i, in)
	case "again":
		r.again(i, in)
	case "move", "mark", "undo", "redo", "hint", "finish", "forfeit":
		if r.phase != PhasePlaying {
			if r.phase == PhaseOver {
				c.sendError(in.Seq, ErrOver, "the game is over: no more %ss", in.T)
			} else {
				c.sendError(in.Seq, ErrNotNow, "the game has not started")
			}
			return
		}
		if !s.played {
			c.sendError(in.Seq, ErrNotYours, "you joined after the start: you can watch this game")
			return
		}
		if s.place > 0 && in.T == "finish" {
			r.confirm(i, in)
			return
		}
		if s.place > 0 {
			c.sendError(in.Seq, ErrOver, "you have finished this game (place %d)", s.place)
			return
		}
		if s.out != "" {
			c.sendError(in.Seq, ErrOver, "you are out of this game (%s)", s.out)
			return
		}
		r.play(i, in)
	}
}

func (r *Room) sit(c *Conn, in In) {
	if !r.watchers[c] {
		c.sendError(in.Seq, ErrNotNow, "you already have a seat")
		return
	}
	if r.phase != PhaseLobby && r.phase != PhaseCountdown && r.phase != PhaseOver {
		c.sendError(in.Seq, ErrNotNow, "wait for this game to end to take a seat")
		return
	}
	if r.seatOfPlayer(c.player) >= 0 {
		c.sendError(in.Seq, ErrNotNow, "you already have a seat in this room (another window)")
		return
	}
	for i, s := range r.seats {
		if s == nil {
			delete(r.watchers, c)
			r.seats[i] = &seat{player: c.player, name: c.displayName(), conn: c}
			if r.phase == PhaseCountdown {
				r.phase = PhaseLobby
			}
			r.broadcastState()
			return
		}
	}
	c.sendError(in.Seq, ErrFull, "every seat is taken")
}

func (r *Room) ready(i int, in In) {
	if r.phase != PhaseLobby && r.phase != PhaseCountdown {
		r.seats[i].conn.sendError(in.Seq, ErrNotNow, "ready is for the lobby")
		return
	}
	on := in.On == nil || *in.On
	r.seats[i].ready = on
	if !on && r.phase == PhaseCountdown {
		r.phase = PhaseLobby
	}
	r.maybeCountdown()
	r.broadcastState()
}

// minPlayers is how many seated players a lobby needs to start: two, but
// a quick-match room starts with whoever the matchmaker sent.
func (r *Room) minPlayers() int {
	if r.set.Quick {
		return 1
	}
	return 2
}

// maybeCountdown starts the countdown when every seated player is
// ready, there are enough of them, and the puzzle is there.
func (r *Room) maybeCountdown() {
	if r.phase != PhaseLobby || r.puzzle == nil {
		return
	}
	n := 0
	for _, s := range r.seats {
		if s == nil {
			continue
		}
		if !s.ready || s.conn == nil {
			return
		}
		n++
	}
	if n < r.minPlayers() {
		return
	}
	if r.set.Quick && r.games == 0 {
		r.start() // the matchmaker has kept them waiting enough
		return
	}
	r.phase = PhaseCountdown
	r.startAt = r.now().Add(r.hub.cfg.Countdown)
}

// start begins a game: fresh boards from the puzzle, the clock running.
func (r *Room) start() {
	p := r.puzzle
	n := r.set.Shape.N()
	r.fixed = make([]bool, n*n)
	for i, v := range p.Givens.Cells {
		r.fixed[i] = v != 0
	}
	r.phase, r.started, r.games = PhasePlaying, r.now(), r.games+1
	r.finishes, r.version, r.results = 0, 0, nil
	if r.set.Mode == Coop {
		r.shared = mustBoard(p.Givens, r.fixed)
	}
	for _, s := range r.seats {
		if s == nil {
			continue
		}
		*s = seat{player: s.player, name: s.name, conn: s.conn, awaySince: s.awaySince, played: true}
		if r.set.Mode == Race {
			s.board = mustBoard(p.Givens, r.fixed)
		} else {
			s.marks = make([]game.Marks, n*n)
		}
	}
	r.broadcastState()
}

// mustBoard makes a board from a puzzle the generator made: it cannot
// fail, short of a bug.
func mustBoard(g sudoku.Grid, fixed []bool) *game.Game {
	b, err := game.FromGrid(g, fixed)
	if err != nil {
		panic("rooms: a generated puzzle is not a board: " + err.Error())
	}
	return b
}

// kick is a vote to remove a seat; a majority of the other players
// removes it and bars its player from the room.
func (r *Room) kick(i int, in In) {
	c := r.seats[i].conn
	if in.Seat == nil || *in.Seat < 0 || *in.Seat >= len(r.seats) || r.seats[*in.Seat] == nil || *in.Seat == i {
		c.sendError(in.Seq, ErrBad, "kick needs \"seat\": another player's seat")
		return
	}
	t := r.seats[*in.Seat]
	if t.out != "" {
		c.sendError(in.Seq, ErrNotNow, "%s is already out", t.name)
		return
	}
	if t.votes == nil {
		t.votes = map[string]bool{}
	}
	t.votes[r.seats[i].player] = true
	others := 0
	for j, s := range r.seats {
		if s != nil && j != *in.Seat && s.out == "" {
			others++
		}
	}
	need := others/2 + 1
	if len(t.votes) < need {
		r.broadcast(Vote{T: "vote", Seat: *in.Seat, Votes: len(t.votes), Need: need})
		r.broadcastState()
		return
	}
	r.bans[t.player] = true
	if t.conn != nil {
		t.conn.sendJSON(Notice{T: "kicked", Msg: "the other players voted you out of room " + r.code})
	}
	r.vacate(*in.Seat, "voted out")
}

// again, after a game: back to the lobby with a new puzzle; the player
// who asked is ready.
func (r *Room) again(i int, in In) {
	if r.phase != PhaseOver {
		r.seats[i].conn.sendError(in.Seq, ErrNotNow, "the game is not over")
		return
	}
	for j, s := range r.seats {
		if s != nil && s.conn == nil && (s.out != "" || r.now().Sub(s.awaySince) >= r.hub.cfg.Reconnect) {
			r.seats[j] = nil
		}
	}
	for _, s := range r.seats {
		if s != nil {
			*s = seat{player: s.player, name: s.name, conn: s.conn, awaySince: s.awaySince}
		}
	}
	r.seats[i].ready = true
	r.phase, r.shared, r.results = PhaseLobby, nil, nil
	r.requestPuzzle()
	r.broadcastState()
}

// encode marshals v once for many recipients.
func (r *Room) encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		r.hub.log.Error("rooms: encode", "err", err)
		return nil
	}
	return b
}

// broadcast sends v to every connection in the room.
func (r *Room) broadcast(v any) {
	b := r.encode(v)
	if b == nil {
		return
	}
	for _, s := range r.seats {
		if s != nil && s.conn != nil {
			s.conn.send(b)
		}
	}
	for c := range r.watchers {
		c.send(b)
	}
}

// broadcastOthers sends v to everyone but seat skip.
func (r *Room) broadcastOthers(skip int, v any) {
	b := r.encode(v)
	if b == nil {
		return
	}
	for i, s := range r.seats {
		if i != skip && s != nil && s.conn != nil {
			s.conn.send(b)
		}
	}
	for c := range r.watchers {
		c.send(b)
	}
}

// broadcastState sends each connection the room as it may see it, after
// recording the room in the journal.
func (r *Room) broadcastState() {
	r.snapshot()
	for _, s := range r.seats {
		if s != nil && s.conn != nil {
			s.conn.sendJSON(r.stateFor(s.conn))
		}
	}
	if len(r.watchers) > 0 {
		b := r.encode(r.stateFor(nil)) // watchers all see the same
		for c := range r.watchers {
			c.send(b)
		}
	}
}

// stateFor is the room as c sees it (nil: a watcher).
func (r *Room) stateFor(c *Conn) State {
	now := r.now()
	n := r.set.Shape.N()
	st := State{
		T: "state", Code: r.code, Mode: r.set.Mode, Size: n, Box: [2]int{r.set.Shape.BoxRows, r.set.Shape.BoxCols},
		Level: r.set.Level.String(), Public: r.set.Public, Quick: r.set.Quick, Phase: r.phase, You: -1,
		Watchers: len(r.watchers), MaxHints: play.MaxHints, Game: r.games, Seats: []SeatView{},
	}
	if c != nil {
		st.You = r.seatOf(c)
	}
	if r.phase == PhaseCountdown {
		st.StartsIn = max(0, r.startAt.Sub(now).Milliseconds())
	}
	switch r.phase {
	case PhasePlaying:
		st.Elapsed = now.Sub(r.started).Milliseconds()
	case PhaseOver:
		st.Elapsed = r.ended.Sub(r.started).Milliseconds()
	}
	for i, s := range r.seats {
		if s == nil {
			continue
		}
		v := SeatView{Seat: i, Name: s.name, Ready: s.ready, Online: s.conn != nil, Hints: s.hints,
			Place: s.place, Ms: s.ms, Out: s.out, Votes: len(s.votes)}
		if r.phase == PhaseOver {
			m := s.mistakes
			v.Mistakes = &m
		}
		if s.conn == nil && s.out == "" {
			v.AwayMs = max(0, (r.hub.cfg.Reconnect - now.Sub(s.awaySince)).Milliseconds())
		}
		if s.board != nil {
			v.Filled = n*n - s.board.EmptyCells()
		} else if r.shared != nil {
			v.Filled = n*n - r.shared.EmptyCells()
		}
		st.Seats = append(st.Seats, v)
	}
	if r.puzzle != nil {
		st.Rating = r.puzzle.Rating
	}
	if (r.phase == PhasePlaying || r.phase == PhaseOver) && r.puzzle != nil {
		st.Puzzle = sudoku.CellString(r.puzzle.Givens.Cells)
		var b *game.Game
		var marks []game.Marks
		var v int64
		if r.set.Mode == Coop {
			b, v = r.shared, r.version
			if st.You >= 0 {
				marks = r.seats[st.You].marks
			}
		} else if st.You >= 0 {
			s := r.seats[st.You]
			b, v = s.board, s.version
		}
		if b != nil {
			st.Board = r.boardView(b, marks, v)
		}
	}
	if r.phase == PhaseOver {
		st.Results = r.results
		st.Solution = sudoku.CellString(r.puzzle.Solution.Cells)
	}
	return st
}

// boardView is a board with what the server says of it; marks are the
// co-op player's own (a race board keeps its marks itself).
func (r *Room) boardView(b *game.Game, marks []game.Marks, v int64) *BoardView {
	n := b.N()
	g := b.Grid()
	bv := &BoardView{V: v, Cells: sudoku.CellString(g.Cells), Marks: make([]game.Marks, n*n), Filled: n*n - b.EmptyCells(), Total: n * n,
		CanUndo: r.set.Mode == Race && b.CanUndo(), CanRedo: r.set.Mode == Race && b.CanRedo()}
	for i := range bv.Marks {
		if g.Cells[i] != 0 {
			continue
		}
		if marks != nil {
			bv.Marks[i] = marks[i]
		} else {
			bv.Marks[i] = b.Marks(i/n, i%n)
		}
	}
	bv.Wrong, bv.Conflicts = r.judge(b)
	if r.phase != PhaseOver {
		bv.Wrong = []int{} // a game on tells nothing of right and wrong
	}
	return bv
}

// judge lists a board's wrong entries (against the solution) and the
// cells in conflict (the game's rule).
func (r *Room) judge(b *game.Game) (wrong, conflicts []int) {
	n := b.N()
	wrong, conflicts = []int{}, []int{}
	sol := r.puzzle.Solution.Cells
	for i := range n * n {
		v := b.Value(i/n, i%n)
		if v == 0 || r.fixed[i] {
			continue
		}
		if v != sol[i] {
			wrong = append(wrong, i)
		}
		if b.Conflict(i/n, i%n) {
			conflicts = append(conflicts, i)
		}
	}
	return wrong, conflicts
}

// errorText words an error of the game package for a player.
func errorText(err error) string {
	var re *game.RangeError
	switch {
	case errors.As(err, &re):
		return fmt.Sprintf("%s %d is not %d..%d", re.What, re.Value, re.Min, re.Max)
	case errors.Is(err, game.ErrNoUndo):
		return "nothing to undo"
	case errors.Is(err, game.ErrNoRedo):
		return "nothing to redo"
	}
	return err.Error()
}
