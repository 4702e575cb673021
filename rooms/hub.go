package rooms

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sudokuar/sudokuar/internal/limit"
	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// Config is what a Hub needs; the zero value works (with no store,
// finished matches are not kept).
type Config struct {
	// Store keeps finished matches and their results.
	Store store.Store
	// Puzzles makes each game's puzzle (default: a Pool over Generator
	// keeping 4 of each kind asked for).
	Puzzles PuzzleSource
	// Log receives errors (default: discard).
	Log *slog.Logger
	// Now is the server's clock (default time.Now); tests move it.
	Now func() time.Time
	// Tick is how often rooms look at their timers (default 100 ms).
	Tick time.Duration
	// Countdown is the pause between "everyone is ready" and the start
	// (default 3 s; quick-match rooms start without one).
	Countdown time.Duration
	// Reconnect is how long a seat waits for a dropped player (default 60 s).
	Reconnect time.Duration
	// QuickFill: a quick-match queue starts a room with the players it
	// has (two or more) once the first has waited this long (default 2 s);
	// four start at once.
	QuickFill time.Duration
	// QuickAlone: a player alone in a queue this long starts alone
	// (default 10 s).
	QuickAlone time.Duration
	// Rate and Burst are each connection's message budget (default 20 a
	// second, 40 at once).
	Rate  float64
	Burst int
	// MaxSeats is the most players in a room (default 4); MaxWatchers the
	// most spectators (default 16).
	MaxSeats, MaxWatchers int
	// MaxRooms caps the rooms open at once (default 20,000);
	// MaxRoomsPerAddress those created from one address (default 20) and
	// MaxRoomsPerConn those created by one connection (default 3) that
	// are still open (a connection is in one room at most, but a room it
	// made and left stays open while others are in it).
	MaxRooms, MaxRoomsPerAddress, MaxRoomsPerConn int
	// CreateRate and CreateBurst are each connection's budget of rooms
	// created (default 6 a minute, 3 at once): every room starts a
	// generation. An address has AddressShare times as much (default 4:
	// a household or a school shares one).
	CreateRate   float64 // per minute
	CreateBurst  int
	AddressShare float64
	// MaxConns caps the connections open at once (default 5,000, each
	// with its socket's buffers); MaxConnsPerAddress those
	// from one address (default 64). LobbyIdle closes a connection in no
	// room that has sent nothing for that long (default 10 minutes).
	MaxConns, MaxConnsPerAddress int
	LobbyIdle                    time.Duration
	// Work is the gate every generation and hint goes through, keyed by
	// the address of the player who asked (package web passes the one its
	// own engine calls go through; default: a gate of two places per core,
	// two per address).
	Work Gate
	// FloorPerStep sets the plausibility floor of a finish (see
	// Room.floorMs): a finish faster than it is flagged "too fast" and
	// kept off the leaderboards (default play.DefaultFloorPerStep;
	// negative: no floor).
	FloorPerStep time.Duration
	// OutQueue is how many messages may wait for a client that does not
	// read them before it is closed as too slow (default 256: at the
	// message budget of four players, seconds of play).
	OutQueue int

	// Node names this server in a cluster, URL is where other nodes send
	// its players (the base of its pages and /ws/rooms), and Directory is
	// what the nodes share (codes, public list, quick match, presence).
	// With no Directory the hub works alone, as one server.
	Node, URL string
	Directory Directory
	// Journal keeps every room's snapshot and moves, each written before
	// it is answered, so another node can take a room over when this one
	// dies or leaves (nil: none; a room ends with its node).
	Journal Journal
	// Gone tells, within a fraction of a second, whether the node at url
	// has stopped: true only on proof (its port refuses a connection),
	// never for a node merely slow to answer. With it, a join for a room
	// of a node that is gone takes the room over at once instead of after
	// DeadAfter (cluster.Gone; nil: wait for DeadAfter).
	Gone func(ctx context.Context, url string) bool
}

// Gate admits engine work: Enter waits for a place for key (an address;
// "" for the server's own work) and returns the function that gives it
// back, or refuses. *limit.Gate is one.
type Gate interface {
	Enter(ctx context.Context, key string) (func(), error)
}

// Hub is the multiplayer server: the rooms by code, the quick-match
// queues, and the connections. Make one with NewHub and Close it when the
// transport has stopped.
type Hub struct {
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	puzzles PuzzleSource
	pool    *Pool // the default source, closed with the hub
	mm      *matchmaker
	cl      *clusterSide // nil: a hub alone

	gate    Gate
	creates *limit.Buckets // rooms created per address

	mu      sync.Mutex
	rooms   map[string]*Room
	conns   map[*Conn]struct{}
	byAddr  map[string]*addrCount // connections and rooms per address
	closing bool
	quit    chan struct{}  // closed by Close: stops the idle sweep
	down    chan struct{}  // closed when Close has finished
	work    sync.WaitGroup // room loops, hints, generations and saves

	writer   *writer                  // the journal's (nil: none)
	resuming map[string]chan struct{} // rooms being taken over, by code
	resumers chan struct{}            // places for takeovers running at once
	resumed  atomic.Int64             // rooms taken over

	moves   atomic.Int64 // moves applied, every room
	dropped atomic.Int64 // messages dropped over a budget
	matches atomic.Int64 // matches stored
	lat     latency      // moves: from the socket to the answer queued
}

// latency is a histogram of durations, safe for concurrent use: 50 µs
// steps up to 100 ms (where a healthy server's moves are), then 10 ms
// steps up to 10 s (where a starved one's tail is: a figure clamped at
// 100 ms would hide it), then one bucket for the rest.
type latency struct {
	buckets [latFine + latCoarse + 1]atomic.Int64
	max     atomic.Int64 // µs
}

const (
	latFine   = 2000 // 50 µs buckets: 0..100 ms
	latCoarse = 990  // 10 ms buckets: 100 ms..10 s
)

// latBucket is the bucket of a duration of us µs.
func latBucket(us int64) int {
	if us < latFine*50 {
		return int(max(us, 0) / 50)
	}
	return latFine + int(min((us-latFine*50)/10_000, latCoarse))
}

// latEdge is the upper edge of bucket i in µs (the last has none: -1).
func latEdge(i int) int64 {
	switch {
	case i < latFine:
		return int64(i+1) * 50
	case i < latFine+latCoarse:
		return latFine*50 + int64(i-latFine+1)*10_000
	}
	return -1
}

func (l *latency) add(d time.Duration) {
	us := d.Microseconds()
	l.buckets[latBucket(us)].Add(1)
	for {
		m := l.max.Load()
		if us <= m || l.max.CompareAndSwap(m, us) {
			return
		}
	}
}

// quantiles returns the count and the p50, p99 (upper edges of their
// buckets: to the next 50 µs below 100 ms, the next 10 ms above; the
// max beyond 10 s) and max in µs.
func (l *latency) quantiles() (n, p50, p99, max int64) {
	var counts [len(l.buckets)]int64
	for i := range l.buckets {
		counts[i] = l.buckets[i].Load()
		n += counts[i]
	}
	mx := l.max.Load()
	at := func(q float64) int64 {
		want := int64(q*float64(n) + 0.5)
		var sum int64
		for i, c := range counts {
			if sum += c; sum >= want && c > 0 {
				if e := latEdge(i); e >= 0 {
					return min(e, mx)
				}
				return mx
			}
		}
		return 0
	}
	if n == 0 {
		return 0, 0, 0, 0
	}
	return n, at(0.5), at(0.99), mx
}

// NewHub starts a hub with cfg (defaults filled in).
func NewHub(cfg Config) *Hub {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.Tick, 100*time.Millisecond)
	def(&cfg.Countdown, 3*time.Second)
	def(&cfg.Reconnect, 60*time.Second)
	def(&cfg.QuickFill, 2*time.Second)
	def(&cfg.QuickAlone, 10*time.Second)
	if cfg.Rate <= 0 {
		cfg.Rate = 20
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 40
	}
	if cfg.MaxSeats <= 0 {
		cfg.MaxSeats = 4
	}
	if cfg.MaxWatchers <= 0 {
		cfg.MaxWatchers = 16
	}
	defInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt(&cfg.MaxRooms, 20_000)
	defInt(&cfg.MaxRoomsPerAddress, 20)
	defInt(&cfg.MaxRoomsPerConn, 3)
	defInt(&cfg.CreateBurst, 3)
	defInt(&cfg.MaxConns, 5_000)
	defInt(&cfg.MaxConnsPerAddress, 64)
	if cfg.CreateRate <= 0 {
		cfg.CreateRate = 6
	}
	if cfg.AddressShare <= 0 {
		cfg.AddressShare = 4
	}
	def(&cfg.LobbyIdle, 10*time.Minute)
	if cfg.Work == nil {
		cfg.Work = limit.NewGate(2*runtime.GOMAXPROCS(0), 2, 10*time.Second)
	}
	cfg.FloorPerStep = play.PerStep(cfg.FloorPerStep)
	if cfg.OutQueue <= 0 {
		cfg.OutQueue = 256
	}
	h := &Hub{cfg: cfg, log: cfg.Log, now: cfg.Now, gate: cfg.Work, rooms: map[string]*Room{}, conns: map[*Conn]struct{}{},
		byAddr: map[string]*addrCount{}, quit: make(chan struct{}), down: make(chan struct{}), resuming: map[string]chan struct{}{},
		resumers: make(chan struct{}, maxResuming),
		creates:  limit.NewBuckets(cfg.CreateRate*cfg.AddressShare/60, float64(cfg.CreateBurst)*cfg.AddressShare)}
	// Every generation goes through the gate, keyed by the address of
	// the room that asked (the pool's own refills are the server's).
	if cfg.Puzzles == nil {
		h.pool = NewPool(gatedSource{Generator{}, h.gate}, 4)
		h.puzzles = h.pool
	} else {
		h.puzzles = gatedSource{cfg.Puzzles, h.gate}
	}
	if cfg.Journal != nil {
		h.writer = newWriter(h, cfg.Journal, cfg.Node)
	}
	h.mm = newMatchmaker(h)
	if cfg.Directory != nil {
		h.cl = newClusterSide(h, cfg.Directory)
		h.cl.start()
	}
	go h.sweepIdle()
	return h
}

// addrCount is what one address holds: connections, and rooms created.
type addrCount struct{ conns, rooms int }

// gatedSource makes puzzles through a Gate, keyed by workKey(ctx).
type gatedSource struct {
	src  PuzzleSource
	gate Gate
}

func (g gatedSource) Puzzle(ctx context.Context, s sudoku.Shape, level logic.Level) (Puzzle, error) {
	done, err := g.gate.Enter(ctx, workKey(ctx))
	if err != nil {
		return Puzzle{}, fmt.Errorf("the server is busy making other puzzles: %w", err)
	}
	defer done()
	return g.src.Puzzle(ctx, s, level)
}

// workKeyType keys the address work is done for in a context.
type workKeyType struct{}

// withWorkKey returns ctx carrying key, the address the work is for.
func withWorkKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, workKeyType{}, key)
}

// workKey returns the address ctx's work is for, or "".
func workKey(ctx context.Context) string {
	k, _ := ctx.Value(workKeyType{}).(string)
	return k
}

// sweepIdle closes, every LobbyIdle/4, the connections that are in no
// room and have sent nothing for LobbyIdle: an open socket costs memory,
// and a lobby page left open reconnects when its user comes back.
func (h *Hub) sweepIdle() {
	t := time.NewTicker(max(time.Second, h.cfg.LobbyIdle/4))
	defer t.Stop()
	for {
		select {
		case <-h.quit:
			return
		case <-t.C:
		}
		cut := h.now().Add(-h.cfg.LobbyIdle).UnixNano()
		var idle []*Conn
		h.mu.Lock()
		for c := range h.conns {
			if c.room.Load() == nil && c.lastMsg.Load() < cut {
				idle = append(idle, c)
			}
		}
		h.mu.Unlock()
		for _, c := range idle {
			c.end(ClosePolicy, fmt.Sprintf("idle: nothing sent for %v outside a room", h.cfg.LobbyIdle))
		}
	}
}

// Connect opens a connection for player (a non-empty id the transport
// vouches for: the same id finds its seat again after a reconnect). The
// first message on Out is the Welcome.
func (h *Hub) Connect(player string) (*Conn, error) { return h.ConnectFrom(player, "") }

// ConnectFrom is Connect for a client at address addr (its IP, or the
// /64 of an IPv6 one; "" for none): the bounds per address (connections,
// rooms created, engine work) count by it.
func (h *Hub) ConnectFrom(player, addr string) (*Conn, error) {
	if player == "" {
		return nil, errors.New("rooms: a connection needs a player id")
	}
	c := &Conn{
		hub: h, player: player, addr: addr,
		out: make(chan []byte, h.cfg.OutQueue), done: make(chan struct{}),
		limit:   limit.NewBucket(h.cfg.Rate, float64(h.cfg.Burst)),
		creates: limit.NewBucket(h.cfg.CreateRate/60, float64(h.cfg.CreateBurst)),
	}
	c.lastMsg.Store(h.now().UnixNano())
	h.mu.Lock()
	switch {
	case h.closing:
		h.mu.Unlock()
		return nil, errors.New("rooms: the server is shutting down")
	case len(h.conns) >= h.cfg.MaxConns:
		h.mu.Unlock()
		return nil, fmt.Errorf("rooms: the server has %d connections open, the most it takes: try again soon", h.cfg.MaxConns)
	case addr != "" && h.byAddr[addr] != nil && h.byAddr[addr].conns >= h.cfg.MaxConnsPerAddress:
		h.mu.Unlock()
		return nil, fmt.Errorf("rooms: %d connections are open from your address, the most it may have: close some", h.cfg.MaxConnsPerAddress)
	}
	h.conns[c] = struct{}{}
	h.count(addr).conns++
	h.mu.Unlock()
	c.sendJSON(Welcome{
		T: "welcome", Rate: h.cfg.Rate, Burst: h.cfg.Burst, MaxBytes: MaxMessageBytes, MaxHints: play.MaxHints,
		ReconnectMs: h.cfg.Reconnect.Milliseconds(), MaxSeats: h.cfg.MaxSeats,
	})
	return c, nil
}

func (h *Hub) dropConn(c *Conn) {
	h.mu.Lock()
	if _, ok := h.conns[c]; ok {
		delete(h.conns, c)
		h.uncount(c.addr, -1, 0)
	}
	h.mu.Unlock()
}

// count returns addr's counts, made on first use (h.mu held); for "" a
// scratch one that is not kept.
func (h *Hub) count(addr string) *addrCount {
	if addr == "" {
		return &addrCount{}
	}
	a := h.byAddr[addr]
	if a == nil {
		a = &addrCount{}
		h.byAddr[addr] = a
	}
	return a
}

// uncount adds conns and rooms (negative) to addr's counts and forgets
// an address with nothing left (h.mu held).
func (h *Hub) uncount(addr string, conns, rooms int) {
	a := h.byAddr[addr]
	if a == nil {
		return
	}
	a.conns += conns
	a.rooms += rooms
	if a.conns <= 0 && a.rooms <= 0 {
		delete(h.byAddr, addr)
	}
}

// Settings are what a room is created with; they do not change (there is
// no host to change them).
type Settings struct {
	Mode   string // Race or Coop
	Shape  sudoku.Shape
	Level  logic.Level
	Public bool // listed for anyone to join; otherwise by code or link only
	Quick  bool // made by quick match: starts as soon as its puzzle is ready
}

// settingsFrom checks a create or quick message.
func settingsFrom(in In) (Settings, error) {
	var s Settings
	switch in.Mode {
	case Race, Coop:
		s.Mode = in.Mode
	case "":
		s.Mode = Race
	default:
		return s, fmt.Errorf("mode %q: want %q or %q", in.Mode, Race, Coop)
	}
	if in.Size == 0 {
		in.Size = 9
	}
	shape, err := shapeFor(in.Size)
	if err != nil {
		return s, err
	}
	s.Shape = shape
	s.Level = logic.Easy
	if in.Level != "" {
		l, err := logic.ParseLevel(in.Level)
		if err != nil || in.Level != strings.ToLower(in.Level) {
			return s, fmt.Errorf("level %q: want one of easy, medium, hard, expert, extreme", in.Level)
		}
		s.Level = l
	}
	if max := MaxLevel(in.Size); s.Level > max {
		return s, fmt.Errorf("no %s puzzles at %dx%d: the hardest there is %s", s.Level, in.Size, in.Size, max)
	}
	s.Public = in.Public
	return s, nil
}

// codeAlphabet has no 0/O or 1/I, so a code read aloud is typed right.
const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// CodeLength is the length of a room's join code (32^6, about a billion
// codes: guessing one is hopeless at the message budget).
const CodeLength = 6

func newCode() string {
	var b [CodeLength]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b[:])
}

// ValidCode reports whether s has a join code's form.
func ValidCode(s string) bool {
	if len(s) != CodeLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(codeAlphabet, rune(s[i])) {
			return false
		}
	}
	return true
}

func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// create opens a room with set and seats the first players in it (a
// joinReq with no conn keeps a seat for a player coming from another
// node); by is the connection that asked (nil: the matchmaker), whose
// address and own count of open rooms are bounded. It returns the room's
// code. In a cluster the code is claimed in the directory first, so no
// two nodes use it.
func (h *Hub) create(set Settings, first []joinReq, by *Conn) (string, error) {
	addr := ""
	if by != nil {
		addr = by.addr
	} else if len(first) > 0 && first[0].conn != nil {
		addr = first[0].conn.addr
	}
	code := ""
	if h.cl != nil {
		if err := h.canCreate(by, addr); err != nil {
			return "", err
		}
		var err error
		if code, err = h.cl.claim(); err != nil {
			return "", err
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.canCreateLocked(by, addr); err != nil {
		if code != "" {
			h.cl.closed(code)
		}
		return "", err
	}
	if code == "" {
		code = newCode()
		for h.rooms[code] != nil {
			code = newCode()
		}
	}
	r := newRoom(h, code, set)
	r.addr, r.by = addr, by
	if by != nil {
		by.created++
	}
	h.count(addr).rooms++
	h.rooms[code] = r
	h.work.Add(1)
	// The first joins are queued before the loop starts, so a new room is
	// never seen empty and closed.
	for _, j := range first {
		r.inbox <- envelope{kind: evJoin, conn: j.conn, aside: &aside{join: j}}
	}
	go func() {
		defer h.work.Done()
		r.run()
	}()
	return code, nil
}

// canCreate checks the bounds on rooms before a code is claimed.
func (h *Hub) canCreate(by *Conn, addr string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.canCreateLocked(by, addr)
}

// canCreateLocked checks the bounds on rooms (h.mu held).
func (h *Hub) canCreateLocked(by *Conn, addr string) error {
	switch {
	case h.closing:
		return errors.New("the server is shutting down")
	case len(h.rooms) >= h.cfg.MaxRooms:
		return fmt.Errorf("the server has %d rooms open, the most it takes: try again soon", h.cfg.MaxRooms)
	case by != nil && addr != "" && h.byAddr[addr] != nil && h.byAddr[addr].rooms >= h.cfg.MaxRoomsPerAddress:
		return fmt.Errorf("%d rooms made from your address are open, the most it may have: play in one of them, or wait for one to close", h.cfg.MaxRoomsPerAddress)
	case by != nil && by.created >= h.cfg.MaxRoomsPerConn:
		return fmt.Errorf("%d rooms you made are still open, the most one connection may have: play in one of them", h.cfg.MaxRoomsPerConn)
	}
	return nil
}

// room returns the open room with this code, or nil.
func (h *Hub) room(code string) *Room {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rooms[code]
}

// removeRoom forgets a room that has closed.
func (h *Hub) removeRoom(r *Room) {
	h.mu.Lock()
	if h.rooms[r.code] == r {
		delete(h.rooms, r.code)
		h.uncount(r.addr, 0, -1)
		if r.by != nil {
			r.by.created--
		}
		if h.cl != nil && !r.handing.Load() { // a room handed over keeps its code for the node taking it
			h.releaseAfterDrop(r)
		}
	}
	h.mu.Unlock()
}

// PublicRooms lists the public rooms whose lobby has a free seat, fullest
// first, at most 50: in a cluster those of every live node.
func (h *Hub) PublicRooms() []RoomInfo {
	if h.cl != nil {
		return h.cl.public()
	}
	return h.localPublic()
}

// localPublic is PublicRooms of this hub's own rooms.
func (h *Hub) localPublic() []RoomInfo {
	h.mu.Lock()
	list := make([]RoomInfo, 0)
	for _, r := range h.rooms {
		if info := r.info.Load(); info != nil && r.set.Public && info.Phase == PhaseLobby && info.Players < info.Max {
			list = append(list, *info)
		}
	}
	h.mu.Unlock()
	SortPublic(list)
	if len(list) > publicLimit {
		list = list[:publicLimit]
	}
	return list
}

// Open lists the summaries of every open room, public or not (for
// monitoring and tests; PublicRooms is what players see).
func (h *Hub) Open() []RoomInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := make([]RoomInfo, 0, len(h.rooms))
	for _, r := range h.rooms {
		if info := r.info.Load(); info != nil {
			list = append(list, *info)
		}
	}
	return list
}

// Stats are the hub's counters, for monitoring and the load generator.
type Stats struct {
	Rooms   int   `json:"rooms"`   // open rooms
	Playing int   `json:"playing"` // rooms with a game on
	Conns   int   `json:"conns"`   // connections
	Queued  int   `json:"queued"`  // players waiting for a quick match
	Moves   int64 `json:"moves"`   // moves applied since the start
	Dropped int64 `json:"dropped"` // messages dropped over a budget
	Matches int64 `json:"matches"` // finished matches stored
	// The server's own share of a move's round trip, since the start:
	// from the message read off the socket to the answer queued for
	// writing (p50 and p99 to the next 50 µs below 100 ms, 10 ms above).
	MoveCount int64 `json:"moveCount"`
	MoveP50Us int64 `json:"moveP50Us"`
	MoveP99Us int64 `json:"moveP99Us"`
	MoveMaxUs int64 `json:"moveMaxUs"`
	// In a cluster: this node's name, and whether it runs the cluster's
	// matchmaker now (false without a Directory).
	Node   string `json:"node,omitempty"`
	Leader bool   `json:"leader"`
	// The journal: rooms taken over from other nodes, and the writer's
	// group commits and the records they wrote.
	Resumed        int64 `json:"resumed"`
	JournalCommits int64 `json:"journalCommits"`
	JournalRecords int64 `json:"journalRecords"`
}

// Stats returns the counters now.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	s := Stats{Rooms: len(h.rooms), Conns: len(h.conns)}
	for _, r := range h.rooms {
		if info := r.info.Load(); info != nil && (info.Phase == PhasePlaying || info.Phase == PhaseCountdown) {
			s.Playing++
		}
	}
	h.mu.Unlock()
	s.Queued = h.mm.waiting()
	s.Moves, s.Dropped, s.Matches = h.moves.Load(), h.dropped.Load(), h.matches.Load()
	s.MoveCount, s.MoveP50Us, s.MoveP99Us, s.MoveMaxUs = h.lat.quantiles()
	s.Node = h.cfg.Node
	if h.cl != nil {
		s.Leader = h.cl.dir.Leading()
	}
	s.Resumed = h.resumed.Load()
	if h.writer != nil {
		s.JournalCommits, s.JournalRecords = h.writer.commits.Load(), h.writer.records.Load()
	}
	return s
}

// Close shuts the hub down: no new connections or rooms, every room tells
// its players the server is going away and closes, results being saved
// are written, and every connection ends with CloseShutdown. With a
// journal it hands the rooms over (Handover, to the least loaded other
// node, else Config.URL). A second Close waits for the first.
func (h *Hub) Close() {
	if !h.startClosing() {
		<-h.down
		return
	}
	if h.writer != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.handover(ctx, h.handoverURLs(ctx)) //nolint:errcheck // logged there; Close has no one to tell
		return
	}
	h.shutdown()
}

// isClosing reports whether Close has begun.
func (h *Hub) isClosing() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closing
}

// startClosing marks the hub closing; false if it already was.
func (h *Hub) startClosing() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return false
	}
	h.closing = true
	return true
}

// shutdown ends the rooms, the work beside them and the connections.
func (h *Hub) shutdown() {
	h.mu.Lock()
	close(h.quit)
	rooms := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rooms = append(rooms, r)
	}
	h.mu.Unlock()
	h.mm.stop()
	for _, r := range rooms {
		r.post(envelope{kind: evShutdown})
	}
	h.work.Wait()
	h.mu.Lock()
	conns := make([]*Conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.end(CloseShutdown, "the server is shutting down")
	}
	if h.cl != nil {
		h.cl.stop()
	}
	if h.pool != nil {
		h.pool.Close()
	}
	if h.writer != nil {
		h.writer.close()
	}
	close(h.down)
}

// goWork runs f beside the rooms, counted so Close waits for it.
func (h *Hub) goWork(f func()) {
	h.work.Add(1)
	go func() {
		defer h.work.Done()
		f()
	}()
}
