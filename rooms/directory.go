package rooms

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Directory is what a cluster's nodes share so any node answers any player:
// which node holds which room code, every node's public rooms, live nodes
// and their load, one-time tokens that move a player, and the quick-match
// tickets with the leader that matches them; never a room's play. A Hub
// without one works alone. MemoryDirectory is the one-process one, package
// cluster the PostgreSQL one. Safe for concurrent use; ctx bounds each call.
type Directory interface {
	// Beat says this node is alive, with its load; a node that has not
	// beaten for DeadAfter is dead. The hub beats every second.
	Beat(ctx context.Context, load Load) error

	// Claim records code as a room of this node. It returns
	// ErrCodeTaken when any node holds the code already.
	Claim(ctx context.Context, code string) error
	// Lookup returns who holds code, or ErrNoCode.
	Lookup(ctx context.Context, code string) (Owner, error)
	// Down declares node dead before its DeadAfter, on proof that its
	// process is gone (its port refused a connection): only if its last
	// heartbeat is still seen (the Owner.Seen read), so a live node's next
	// heartbeat wins and undoes it. It reports whether the node is down.
	Down(ctx context.Context, node string, seen time.Time) (bool, error)
	// Publish sets the public summaries of some of this node's rooms:
	// an entry with Listed false takes its room off the list.
	Publish(ctx context.Context, rooms []Listing) error
	// Release forgets codes (their rooms have closed).
	Release(ctx context.Context, codes []string) error
	// Public lists the listed rooms of every live node with a free seat
	// in their lobby, fullest first, at most limit of them.
	Public(ctx context.Context, limit int) ([]RoomInfo, error)

	// Grant stores a one-time token that seats its bearer as g.Player
	// in room g.Code on whichever node holds it, for TokenLife.
	Grant(ctx context.Context, g Grant) (token string, err error)
	// GrantAll is Grant for many players in one step (a node handing its
	// rooms over): their tokens in order.
	GrantAll(ctx context.Context, gs []Grant) (tokens []string, err error)
	// Redeem spends a token for code: the grant it was made for, or
	// ErrBadToken (unknown, spent, expired, or for another room).
	Redeem(ctx context.Context, code, token string) (Grant, error)

	// AddTicket queues a player of this node for a quick match;
	// DropTicket takes it out (gone already is no error).
	AddTicket(ctx context.Context, t Ticket) error
	DropTicket(ctx context.Context, id string) error
	// Queued lists the ids of this node's tickets still in the queue: a
	// node whose news was lost (its listener reconnecting) learns from it
	// which of its tickets a match took.
	Queued(ctx context.Context) ([]string, error)
	// Leading reports whether this node is the cluster's matchmaker now.
	Leading() bool
	// Tickets lists the queue (the leader reads it), oldest first, at
	// most limit.
	Tickets(ctx context.Context, limit int) ([]Ticket, error)
	// Match takes m's tickets out of the queue and tells m.Node to make
	// the room, all at once: ErrTicketGone (and nothing done) if one of
	// them is no longer queued.
	Match(ctx context.Context, m Match) error
	// Seated tells the nodes holding s's tickets that their room is made.
	Seated(ctx context.Context, s Seated) error
	// Events delivers what this node must act on: a Match to make here,
	// tickets of this node Taken by a match elsewhere, a Seated naming
	// tickets of this node, and Nudge (the queue changed: the leader
	// looks again). It is closed by Close.
	Events() <-chan Event
	// Nodes lists the live nodes with their load.
	Nodes(ctx context.Context) ([]NodeInfo, error)

	// Close ends this node's membership (its heartbeats stop; the rows it
	// leaves are the next holder's to clean).
	Close() error
}

// Timings of a cluster.
const (
	// BeatEvery is how often a hub says it is alive; DeadAfter the
	// silence after which its node counts as dead.
	BeatEvery = time.Second
	DeadAfter = 3 * time.Second
	// TokenLife is how long a token of a "moved" message can be spent.
	TokenLife = 60 * time.Second
)

// Errors of a Directory.
var (
	ErrCodeTaken  = errors.New("rooms: the room code is taken")
	ErrNoCode     = errors.New("rooms: no room has that code")
	ErrBadToken   = errors.New("rooms: the token is unknown, spent, expired or for another room")
	ErrTicketGone = errors.New("rooms: a ticket of the match has left the queue")
)

// Load is a node's load, sent with its heartbeat.
type Load struct{ Conns, Rooms int }

// NodeInfo is a live node.
type NodeInfo struct {
	Name, URL string
	Load
}

// Owner is who holds a code: the node's name and URL, whether the node is
// alive, and whether it is handing the room over (its node is leaving).
type Owner struct {
	Node, URL string
	Live      bool
	Handing   bool
	Seen      time.Time // the node's last heartbeat, as the directory has it
}

// Listing is one room's entry in the public list.
type Listing struct {
	Code   string
	Listed bool     // false: not listed (or no longer)
	Info   RoomInfo // the summary, while listed
}

// Grant is what a token names: the player (their id on the node that
// granted it) and name, and the room.
type Grant struct {
	Code, Player, Name string
}

// Ticket is one player of a node waiting for a quick match.
type Ticket struct {
	ID     string // random, made by the player's node
	Node   string // the player's node
	Player string // the player's id there
	Name   string
	Mode   string
	Size   int
	Level  string
	Since  time.Time
}

// kind is the queue a ticket waits in.
func (t Ticket) kind() string { return t.Mode + "/" + t.Level + "/" + strconv.Itoa(t.Size) }

// Match is a quick-match group: Node makes room Code with these tickets'
// players seated, under Settings of the tickets' kind.
type Match struct {
	Node    string
	Tickets []Ticket
}

// Seated tells the players' nodes where their quick-match room is.
type Seated struct {
	Code, Node, URL string
	Tickets         []Ticket
}

// Event is news for a node from the directory.
type Event struct {
	Match  *Match  // a room to make on this node
	Seated *Seated // tickets of this node seated in a room
	Nudge  bool    // the queue changed
	// Taken names tickets of this node that a match took for a room on
	// another node: their Seated should follow, and if it does not (that
	// node died first) the hub queues them again.
	Taken []string
}

// MemoryCluster is the shared state of several hubs in one process, a
// cluster without a database: NewDirectory gives each hub its own
// node's view. The first node made leads the matchmaking.
type MemoryCluster struct {
	mu      sync.Mutex
	now     func() time.Time
	nodes   map[string]*memNode
	order   []string // nodes by age: the oldest live one leads
	codes   map[string]memCode
	tokens  map[string]memToken
	tickets map[string]Ticket
}

type memNode struct {
	url    string
	load   Load
	seen   time.Time
	closed bool
	down   bool // declared dead (Down) since its last heartbeat
	events chan Event
}

type memCode struct {
	node   string
	listed bool
	info   RoomInfo
}

type memToken struct {
	g     Grant
	until time.Time
}

// NewMemoryCluster makes an empty cluster whose clock is now (nil:
// time.Now).
func NewMemoryCluster(now func() time.Time) *MemoryCluster {
	if now == nil {
		now = time.Now
	}
	return &MemoryCluster{now: now, nodes: map[string]*memNode{}, codes: map[string]memCode{},
		tokens: map[string]memToken{}, tickets: map[string]Ticket{}}
}

// NewDirectory adds node name (reached at url) and returns its view; a
// name already in use by a node not closed is refused.
func (mc *MemoryCluster) NewDirectory(name, url string) (Directory, error) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	if n := mc.nodes[name]; n != nil && !n.closed {
		return nil, errors.New("rooms: node " + name + " is in the cluster already")
	}
	mc.nodes[name] = &memNode{url: url, seen: mc.now(), events: make(chan Event, 1024)}
	mc.order = append(slices.DeleteFunc(mc.order, func(s string) bool { return s == name }), name)
	return &memDirectory{mc: mc, name: name}, nil
}

// memDirectory is one node's view of a MemoryCluster.
type memDirectory struct {
	mc   *MemoryCluster
	name string
}

func (mc *MemoryCluster) live(name string) bool {
	n := mc.nodes[name]
	return n != nil && !n.closed && !n.down && mc.now().Sub(n.seen) < DeadAfter
}

// send queues e for node name (mc.mu held); a node whose queue is full
// misses it, as a disconnected listener would.
func (mc *MemoryCluster) send(name string, e Event) {
	if n := mc.nodes[name]; n != nil && !n.closed {
		select {
		case n.events <- e:
		default:
		}
	}
}

func (d *memDirectory) Beat(_ context.Context, load Load) error {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	n := d.mc.nodes[d.name]
	n.seen, n.load, n.down = d.mc.now(), load, false
	return nil
}

func (d *memDirectory) Down(_ context.Context, node string, seen time.Time) (bool, error) {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	n := d.mc.nodes[node]
	if n == nil || n.closed {
		return true, nil
	}
	if n.seen.Equal(seen) {
		n.down = true
	}
	return n.down, nil
}

func (d *memDirectory) Claim(_ context.Context, code string) error {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	if _, ok := d.mc.codes[code]; ok {
		return ErrCodeTaken
	}
	d.mc.codes[code] = memCode{node: d.name}
	return nil
}

func (d *memDirectory) Lookup(_ context.Context, code string) (Owner, error) {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	c, ok := d.mc.codes[code]
	if !ok {
		return Owner{}, ErrNoCode
	}
	o := Owner{Node: c.node, Live: d.mc.live(c.node)}
	if n := d.mc.nodes[c.node]; n != nil {
		o.URL, o.Seen = n.url, n.seen
	}
	return o, nil
}

func (d *memDirectory) Publish(_ context.Context, rooms []Listing) error {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	for _, l := range rooms {
		if c, ok := d.mc.codes[l.Code]; ok && c.node == d.name {
			c.listed, c.info = l.Listed, l.Info
			d.mc.codes[l.Code] = c
		}
	}
	return nil
}

func (d *memDirectory) Release(_ context.Context, codes []string) error {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	for _, code := range codes {
		if c, ok := d.mc.codes[code]; ok && c.node == d.name {
			delete(d.mc.codes, code)
		}
	}
	return nil
}

func (d *memDirectory) Public(_ context.Context, limit int) ([]RoomInfo, error) {
	d.mc.mu.Lock()
	list := make([]RoomInfo, 0)
	for _, c := range d.mc.codes {
		if c.listed && d.mc.live(c.node) && c.info.Phase == PhaseLobby && c.info.Players < c.info.Max {
			list = append(list, c.info)
		}
	}
	d.mc.mu.Unlock()
	SortPublic(list)
	if len(list) > limit {
		list = list[:limit]
	}
	return list, nil
}

// SortPublic sorts a public list: fullest first, then by code.
func SortPublic(list []RoomInfo) {
	slices.SortFunc(list, func(a, b RoomInfo) int {
		if a.Players != b.Players {
			return b.Players - a.Players
		}
		return strings.Compare(a.Code, b.Code)
	})
}

func (d *memDirectory) Grant(ctx context.Context, g Grant) (string, error) {
	toks, err := d.GrantAll(ctx, []Grant{g})
	if err != nil {
		return "", err
	}
	return toks[0], nil
}

func (d *memDirectory) GrantAll(_ context.Context, gs []Grant) ([]string, error) {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	now := d.mc.now()
	for k, t := range d.mc.tokens {
		if now.After(t.until) {
			delete(d.mc.tokens, k)
		}
	}
	toks := make([]string, len(gs))
	for i, g := range gs {
		toks[i] = newID()
		d.mc.tokens[toks[i]] = memToken{g: g, until: now.Add(TokenLife)}
	}
	return toks, nil
}

func (d *memDirectory) Redeem(_ context.Context, code, token string) (Grant, error) {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	t, ok := d.mc.tokens[token]
	if !ok || t.g.Code != code || d.mc.now().After(t.until) {
		return Grant{}, ErrBadToken
	}
	delete(d.mc.tokens, token)
	return t.g, nil
}

func (d *memDirectory) AddTicket(_ context.Context, t Ticket) error {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	t.Node = d.name
	d.mc.tickets[t.ID] = t
	d.mc.nudge()
	return nil
}

func (d *memDirectory) Queued(context.Context) ([]string, error) {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	var ids []string
	for id, t := range d.mc.tickets {
		if t.Node == d.name {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

func (d *memDirectory) DropTicket(_ context.Context, id string) error {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	if t, ok := d.mc.tickets[id]; ok && t.Node == d.name {
		delete(d.mc.tickets, id)
		d.mc.nudge()
	}
	return nil
}

// leader is the oldest live node (mc.mu held).
func (mc *MemoryCluster) leader() string {
	for _, name := range mc.order {
		if mc.live(name) {
			return name
		}
	}
	return ""
}

func (mc *MemoryCluster) nudge() {
	if l := mc.leader(); l != "" {
		mc.send(l, Event{Nudge: true})
	}
}

func (d *memDirectory) Leading() bool {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	return d.mc.leader() == d.name
}

func (d *memDirectory) Tickets(_ context.Context, limit int) ([]Ticket, error) {
	d.mc.mu.Lock()
	list := make([]Ticket, 0, len(d.mc.tickets))
	for _, t := range d.mc.tickets {
		list = append(list, t)
	}
	d.mc.mu.Unlock()
	slices.SortFunc(list, func(a, b Ticket) int {
		if c := a.Since.Compare(b.Since); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if len(list) > limit {
		list = list[:limit]
	}
	return list, nil
}

func (d *memDirectory) Match(_ context.Context, m Match) error {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	for _, t := range m.Tickets {
		if _, ok := d.mc.tickets[t.ID]; !ok {
			return ErrTicketGone
		}
	}
	taken := map[string][]string{}
	for _, t := range m.Tickets {
		delete(d.mc.tickets, t.ID)
		if t.Node != m.Node {
			taken[t.Node] = append(taken[t.Node], t.ID)
		}
	}
	d.mc.send(m.Node, Event{Match: &m})
	for node, ids := range taken {
		d.mc.send(node, Event{Taken: ids})
	}
	return nil
}

func (d *memDirectory) Seated(_ context.Context, s Seated) error {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	by := map[string][]Ticket{}
	for _, t := range s.Tickets {
		by[t.Node] = append(by[t.Node], t)
	}
	for node, ts := range by {
		e := s
		e.Tickets = ts
		d.mc.send(node, Event{Seated: &e})
	}
	return nil
}

func (d *memDirectory) Events() <-chan Event {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	return d.mc.nodes[d.name].events
}

func (d *memDirectory) Nodes(_ context.Context) ([]NodeInfo, error) {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	var list []NodeInfo
	for _, name := range d.mc.order {
		if d.mc.live(name) {
			n := d.mc.nodes[name]
			list = append(list, NodeInfo{Name: name, URL: n.url, Load: n.load})
		}
	}
	return list, nil
}

func (d *memDirectory) Close() error {
	d.mc.mu.Lock()
	defer d.mc.mu.Unlock()
	if n := d.mc.nodes[d.name]; n != nil && !n.closed {
		n.closed = true
		close(n.events)
	}
	return nil
}
