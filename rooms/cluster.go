package rooms

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/internal/limit"
)

// The hub's side of a Directory: with one, the hub is a node of a cluster.
// It claims each room's code, answers a join for another node's room with
// "moved", lists every node's public rooms, beats, and runs quick match
// through the cluster's tickets: every node queues its players there, the
// leader groups them and picks the least-loaded node, that node makes the
// room with the seats kept, and the players' nodes send them "moved".

// dirTimeout bounds each call to the directory made for a client.
const dirTimeout = 3 * time.Second

// Bounds of the cluster side: tickets the leader reads at once, rooms in
// the public list, how long that list is cached, and each connection's
// budget of directory calls (a join for a code not here, a token spent,
// a quick-match ticket: each a query or a row), far below its message
// budget.
const (
	maxTickets  = 10_000
	publicLimit = 50
	publicTTL   = 500 * time.Millisecond
	dirRate     = 1.0 // a second
	dirBurst    = 5
)

// clusterSide is a hub's part in a cluster.
type clusterSide struct {
	h   *Hub
	dir Directory

	mu       sync.Mutex
	tickets  map[string]localTicket // this node's tickets by id
	byConn   map[*Conn]string       // ticket id by connection
	listed   map[string]*RoomInfo   // what was last published per room code
	released []string               // codes of rooms closed since the last flush
	list     []RoomInfo             // the public list, cached
	listAt   time.Time
	budgets  map[*Conn]*limit.Bucket // directory calls, per connection

	probes map[string]*probe // the last probe of each other node, by name

	ops      chan func(context.Context) // ticket writes, in order
	sem      chan struct{}              // places for spawn
	spawned  sync.WaitGroup
	done     chan struct{}
	lastPass time.Time
}

// localTicket is a ticket of this node: the connection waiting and its
// request number.
type localTicket struct {
	conn  *Conn
	ask   int64
	set   Settings
	t     Ticket    // as queued
	taken time.Time // when a match elsewhere took it (zero: queued)
	// queued: the directory has the ticket (AddTicket returned), so a
	// ticket it no longer lists was taken by a match (unheard).
	queued bool
}

// requeueAfter is how long a ticket taken by a match waits for its room's
// Seated before it is queued again (the room's node died first).
const requeueAfter = 3 * time.Second

func newClusterSide(h *Hub, d Directory) *clusterSide {
	cl := &clusterSide{h: h, dir: d, tickets: map[string]localTicket{}, byConn: map[*Conn]string{},
		listed: map[string]*RoomInfo{}, budgets: map[*Conn]*limit.Bucket{}, probes: map[string]*probe{},
		ops: make(chan func(context.Context), 4096), done: make(chan struct{}), sem: make(chan struct{}, parallelDir)}
	return cl
}

// start runs the background, once the hub holds cl.
func (cl *clusterSide) start() {
	go cl.writer()
	go cl.run()
}

// writer runs the ticket writes one at a time, in the order asked: a
// ticket's drop never overtakes its add.
func (cl *clusterSide) writer() {
	for {
		select {
		case <-cl.h.quit:
			return // the directory drops a closing node's tickets
		case op := <-cl.ops:
			ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
			op(ctx)
			cancel()
		}
	}
}

// do queues a ticket write; when the queue is full the write is done here.
func (cl *clusterSide) do(op func(context.Context)) {
	select {
	case <-cl.h.quit:
	case cl.ops <- op:
	default:
		ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
		op(ctx)
		cancel()
	}
}

// claim draws a code no node holds and claims it.
func (cl *clusterSide) claim() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	for range 8 {
		code := newCode()
		err := cl.dir.Claim(ctx, code)
		if err == nil {
			return code, nil
		}
		if !errors.Is(err, ErrCodeTaken) {
			cl.h.log.Error("rooms: claiming a code", "err", err)
			return "", errors.New("the server cannot reach the cluster's directory: try again soon")
		}
	}
	return "", errors.New("no free room code was found: try again")
}

// closed notes a room's code to release.
func (cl *clusterSide) closed(code string) {
	cl.mu.Lock()
	cl.released = append(cl.released, code)
	delete(cl.listed, code)
	cl.mu.Unlock()
}

// redeem spends a join's token: the player it names.
func (cl *clusterSide) redeem(code, token string) (Grant, error) {
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	return cl.dir.Redeem(ctx, code, token)
}

// elsewhere answers a join for a code this node does not hold: "moved" to
// the live node that does, or an error; or, when that node's process is
// gone (Config.Gone), it declares the node down and takes the room over
// here: the room is returned, for the join to go on.
func (cl *clusterSide) elsewhere(c *Conn, in In, code string) *Room {
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	o, err := cl.dir.Lookup(ctx, code)
	switch {
	case err == nil && o.Node == cl.h.cfg.Node:
		// Taken over here since this join looked (a takeover still
		// running: resume waits for it), or ended here.
		if r := cl.h.resume(code); r != nil {
			return r
		}
		c.sendNoRoom(in)
		return nil
	case errors.Is(err, ErrNoCode):
		c.sendNoRoom(in)
		return nil
	case err != nil:
		cl.h.log.Error("rooms: looking up a code", "err", err)
		c.sendError(in.Seq, ErrBusy, "the server cannot reach the cluster's directory: try again soon")
		return nil
	case o.Live && cl.h.cfg.Journal != nil && cl.gone(ctx, o):
		if r := cl.h.resume(code); r != nil {
			return r
		}
		fallthrough
	case !o.Live:
		if r := cl.h.resume(code); r != nil { // its node died since the first try
			return r
		}
		c.sendError(in.Seq, ErrBusy, "room %s was on a server that is down: try again in a few seconds", code)
		return nil
	}
	cl.send(ctx, c, in.Seq, Grant{Code: code, Player: c.player, Name: c.displayName()}, o.URL)
	return nil
}

// probe is one node's last probe: running until done is closed, then
// its answer, kept for probeTTL.
type probe struct {
	done chan struct{}
	at   time.Time
	down bool
}

// Bounds of probing: how long a probe's answer is kept (every join for
// the rooms of one node within it shares one probe: a stranger's joins
// cannot make a node probe more than once per node per probeTTL) and how
// long one probe may take.
const (
	probeTTL     = time.Second
	probeTimeout = 300 * time.Millisecond
)

// gone reports whether o's node is gone and now declared down in the
// directory: one probe per node at a time, its answer kept for probeTTL.
func (cl *clusterSide) gone(ctx context.Context, o Owner) bool {
	h := cl.h
	if h.cfg.Gone == nil || o.URL == "" || o.Node == h.cfg.Node {
		return false
	}
	now := h.now()
	cl.mu.Lock()
	p := cl.probes[o.Node]
	if p != nil {
		select {
		case <-p.done:
			if now.Sub(p.at) >= probeTTL {
				p = nil // stale: probe again
			}
		default:
		}
	}
	if p != nil {
		cl.mu.Unlock()
		select {
		case <-p.done:
		case <-ctx.Done():
			return false
		}
		return p.down
	}
	p = &probe{done: make(chan struct{})}
	cl.probes[o.Node] = p
	cl.mu.Unlock()
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	down := h.cfg.Gone(pctx, o.URL)
	cancel()
	if down {
		var err error
		if down, err = cl.dir.Down(ctx, o.Node, o.Seen); err != nil {
			h.log.Error("rooms: declaring a node down", "node", o.Node, "err", err)
			down = false
		} else if down {
			h.log.Warn("rooms: a node's port refuses connections: declared down", "node", o.Node, "url", o.URL)
		}
	}
	p.at, p.down = h.now(), down
	close(p.done)
	return down
}

// allow takes one directory call from c's budget, or answers seq with a
// rate error and reports false.
func (cl *clusterSide) allow(c *Conn, seq int64) bool {
	cl.mu.Lock()
	b := cl.budgets[c]
	if b == nil {
		nb := limit.NewBucket(dirRate, dirBurst)
		b = &nb
		cl.budgets[c] = b
	}
	ok, wait := b.Take(cl.h.now())
	cl.mu.Unlock()
	if !ok {
		c.sendError(seq, ErrRate, "too many joins by code, tokens or quick matches: wait %.0f s and try again", math.Ceil(wait.Seconds()))
	}
	return ok
}

// send grants a token for g and sends c to url with it.
func (cl *clusterSide) send(ctx context.Context, c *Conn, seq int64, g Grant, url string) {
	tok, err := cl.dir.Grant(ctx, g)
	if err != nil {
		cl.h.log.Error("rooms: granting a token", "err", err)
		c.sendError(seq, ErrBusy, "the server cannot reach the cluster's directory: try again soon")
		return
	}
	c.sendJSON(Moved{T: "moved", Seq: seq, Code: g.Code, URL: url, Token: tok})
}

// enqueue puts c in the cluster's queue for set (leaving any ticket it
// had).
func (cl *clusterSide) enqueue(c *Conn, name string, set Settings, ask int64) {
	id := newID()
	t := Ticket{ID: id, Node: cl.h.cfg.Node, Player: c.player, Name: name, Mode: set.Mode, Size: set.Shape.N(),
		Level: set.Level.String(), Since: cl.h.now()}
	cl.cancel(c)
	cl.mu.Lock()
	cl.tickets[id] = localTicket{conn: c, ask: ask, set: set, t: t}
	cl.byConn[c] = id
	waiting := 0
	for _, lt := range cl.tickets {
		if lt.set == set {
			waiting++
		}
	}
	cl.mu.Unlock()
	cl.do(func(ctx context.Context) {
		if err := cl.dir.AddTicket(ctx, t); err != nil {
			cl.h.log.Error("rooms: queueing a ticket", "err", err)
			cl.drop(id)
			c.sendError(0, ErrBusy, "the server cannot reach the cluster's matchmaker: try again soon")
			return
		}
		cl.inQueue(id)
	})
	c.sendJSON(Queued{T: "queued", Mode: set.Mode, Size: set.Shape.N(), Level: set.Level.String(), Waiting: waiting})
}

// cancel takes c's ticket out of the queue, if it has one; a closed
// connection also forgets its token budget.
func (cl *clusterSide) cancel(c *Conn) {
	cl.mu.Lock()
	id, ok := cl.byConn[c]
	select {
	case <-c.done:
		delete(cl.budgets, c)
	default:
	}
	cl.mu.Unlock()
	if !ok {
		return
	}
	cl.drop(id)
	cl.do(func(ctx context.Context) {
		if err := cl.dir.DropTicket(ctx, id); err != nil {
			cl.h.log.Error("rooms: dropping a ticket", "err", err)
		}
	})
}

// drop forgets ticket id here; it returns what it was.
func (cl *clusterSide) drop(id string) (localTicket, bool) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	lt, ok := cl.tickets[id]
	if ok {
		delete(cl.tickets, id)
		if cl.byConn[lt.conn] == id {
			delete(cl.byConn, lt.conn)
		}
	}
	return lt, ok
}

func (cl *clusterSide) waiting() int {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return len(cl.tickets)
}

// public is the cluster's public list, cached for publicTTL (every
// client's "list" would otherwise be a query); on error, this node's own.
func (cl *clusterSide) public() []RoomInfo {
	now := time.Now()
	cl.mu.Lock()
	if cl.list != nil && now.Sub(cl.listAt) < publicTTL {
		list := cl.list
		cl.mu.Unlock()
		return list
	}
	cl.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	list, err := cl.dir.Public(ctx, publicLimit)
	if err != nil {
		cl.h.log.Error("rooms: the public list", "err", err)
		return cl.h.localPublic()
	}
	cl.mu.Lock()
	cl.list, cl.listAt = list, now
	cl.mu.Unlock()
	return list
}

// run is the node's background: heartbeats, publishing the public
// summaries and releasing closed rooms' codes, the directory's events,
// and the matchmaker while this node leads.
func (cl *clusterSide) run() {
	defer close(cl.done)
	h := cl.h
	beat := time.NewTicker(BeatEvery)
	defer beat.Stop()
	pub := time.NewTicker(max(h.cfg.Tick, 250*time.Millisecond))
	defer pub.Stop()
	mm := time.NewTicker(h.cfg.Tick)
	defer mm.Stop()
	events := cl.dir.Events()
	cl.beat()
	for {
		select {
		case <-h.quit:
			return
		case <-beat.C:
			cl.beat()
			cl.unheard()
		case <-pub.C:
			cl.flush()
		case <-mm.C:
			cl.requeue()
			cl.lead(false)
		case e, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			switch {
			case e.Match != nil:
				m := *e.Match
				cl.spawn(func() { cl.make(m) })
			case e.Seated != nil:
				st := *e.Seated
				cl.spawn(func() { cl.seated(st) })
			case e.Taken != nil:
				cl.taken(e.Taken)
			case e.Nudge:
				cl.lead(true)
			}
		}
	}
}

func (cl *clusterSide) beat() {
	s := cl.h.Stats()
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	if err := cl.dir.Beat(ctx, Load{Conns: s.Conns, Rooms: s.Rooms}); err != nil {
		cl.h.log.Error("rooms: heartbeat", "err", err)
	}
}

// flush publishes the public summaries that changed and releases the
// codes of closed rooms.
func (cl *clusterSide) flush() {
	var list []Listing
	h := cl.h
	h.mu.Lock()
	cl.mu.Lock()
	for code, r := range h.rooms {
		if !r.set.Public {
			continue
		}
		info := r.info.Load()
		if info == nil || cl.listed[code] == info {
			continue
		}
		cl.listed[code] = info
		list = append(list, Listing{Code: code, Listed: info.Phase == PhaseLobby && info.Players < info.Max, Info: *info})
	}
	released := cl.released
	cl.released = nil
	cl.mu.Unlock()
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	if err := cl.dir.Publish(ctx, list); err != nil {
		h.log.Error("rooms: publishing rooms", "err", err)
	}
	if err := cl.dir.Release(ctx, released); err != nil {
		h.log.Error("rooms: releasing codes", "err", err)
	}
}

// lead is the matchmaker's pass, when this node leads: the rules of the
// one-node matchmaker (four at once; two or three once the first has
// waited QuickFill; one alone after QuickAlone) over the cluster's
// queue, each group sent to the least-loaded live node. A nudge runs a
// pass unless one ran within the last 20 ms.
func (cl *clusterSide) lead(nudge bool) {
	h := cl.h
	now := h.now()
	if !cl.dir.Leading() || (nudge && now.Sub(cl.lastPass) < 20*time.Millisecond) {
		return
	}
	cl.lastPass = now
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	tickets, err := cl.dir.Tickets(ctx, maxTickets)
	if err != nil || len(tickets) == 0 {
		if err != nil {
			h.log.Error("rooms: reading the queue", "err", err)
		}
		return
	}
	nodes, err := cl.dir.Nodes(ctx)
	if err != nil || len(nodes) == 0 {
		if err != nil {
			h.log.Error("rooms: reading the nodes", "err", err)
		}
		return
	}
	queues := map[string][]Ticket{}
	var kinds []string
	for _, t := range tickets {
		k := t.kind()
		if queues[k] == nil {
			kinds = append(kinds, k)
		}
		queues[k] = append(queues[k], t)
	}
	seats := h.cfg.MaxSeats
	var matches []Match
	for _, k := range kinds {
		q := queues[k]
		for len(q) > 0 {
			wait := now.Sub(q[0].Since)
			n := 0
			switch {
			case len(q) >= seats:
				n = seats
			case len(q) >= 2 && wait >= h.cfg.QuickFill, wait >= h.cfg.QuickAlone:
				n = len(q)
			}
			if n == 0 {
				break
			}
			// The least-loaded node, counting the players sent there in
			// this pass.
			best := 0
			for i, nd := range nodes {
				if nd.Conns < nodes[best].Conns {
					best = i
				}
			}
			matches = append(matches, Match{Node: nodes[best].Name, Tickets: q[:n]})
			nodes[best].Conns += n
			q = q[n:]
		}
	}
	// Each match is its own transaction (all its tickets or none); they
	// run side by side, a few at a time, so a burst of players is not a
	// queue of round trips on one goroutine.
	sem := make(chan struct{}, parallelDir)
	var wg sync.WaitGroup
	for _, m := range matches {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := cl.dir.Match(ctx, m); err != nil && !errors.Is(err, ErrTicketGone) {
				h.log.Error("rooms: making a match", "err", err)
			}
		}()
	}
	wg.Wait()
}

// parallelDir is how many directory calls of matching (matches, rooms
// made, players sent on) a node runs at once.
const parallelDir = 8

// spawn runs f beside the node's loop, at most parallelDir at once (the
// loop waits for a place: events queue in the directory meanwhile);
// stop waits for them.
func (cl *clusterSide) spawn(f func()) {
	cl.sem <- struct{}{}
	cl.spawned.Add(1)
	go func() {
		defer func() { <-cl.sem; cl.spawned.Done() }()
		f()
	}()
}

// taken notes this node's tickets that a match took for a room elsewhere.
func (cl *clusterSide) taken(ids []string) {
	now := cl.h.now()
	cl.mu.Lock()
	defer cl.mu.Unlock()
	for _, id := range ids {
		if lt, ok := cl.tickets[id]; ok {
			lt.taken = now
			cl.tickets[id] = lt
		}
	}
}

// requeue queues again the tickets taken by a match whose room was never
// announced (its node died between the match and the room).
func (cl *clusterSide) requeue() {
	now := cl.h.now()
	var again []Ticket
	cl.mu.Lock()
	for id, lt := range cl.tickets {
		if !lt.taken.IsZero() && now.Sub(lt.taken) >= requeueAfter {
			lt.taken, lt.queued = time.Time{}, false
			cl.tickets[id] = lt
			again = append(again, lt.t)
		}
	}
	cl.mu.Unlock()
	for _, t := range again {
		cl.h.log.Warn("rooms: a matched player's room never came: queued again", "ticket", t.ID)
		cl.do(func(ctx context.Context) {
			if err := cl.dir.AddTicket(ctx, t); err != nil {
				cl.h.log.Error("rooms: queueing a ticket again", "err", err)
				return
			}
			cl.inQueue(t.ID)
		})
	}
}

// inQueue notes that the directory has ticket id.
func (cl *clusterSide) inQueue(id string) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if lt, ok := cl.tickets[id]; ok && lt.taken.IsZero() {
		lt.queued = true
		cl.tickets[id] = lt
	}
}

// unheard takes as taken the tickets of this node that the directory had
// and no longer lists while no Taken or Match said so: that news was lost
// (a listener reconnecting), and requeue then queues them again unless
// their room comes. It asks the directory only when such tickets wait.
func (cl *clusterSide) unheard() {
	var ids []string
	cl.mu.Lock()
	for id, lt := range cl.tickets {
		if lt.queued && lt.taken.IsZero() {
			ids = append(ids, id)
		}
	}
	cl.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	queued, err := cl.dir.Queued(ctx)
	if err != nil {
		cl.h.log.Error("rooms: listing this node's tickets", "err", err)
		return
	}
	var gone []string
	for _, id := range ids {
		if !slices.Contains(queued, id) {
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 {
		cl.h.log.Warn("rooms: tickets left the queue unheard: waiting for their room", "tickets", len(gone))
		cl.taken(gone)
	}
}

// make makes the room of a match sent to this node: its own players are
// seated at once, the others' seats kept for them, and their nodes told.
func (cl *clusterSide) make(m Match) {
	h := cl.h
	if len(m.Tickets) == 0 {
		return
	}
	t0 := m.Tickets[0]
	set, err := settingsFrom(In{Mode: t0.Mode, Size: t0.Size, Level: t0.Level})
	if err != nil {
		h.log.Error("rooms: a match of no known kind", "err", err)
		return
	}
	set.Quick = true
	var first []joinReq
	var remote []Ticket
	for _, t := range m.Tickets {
		if t.Node == h.cfg.Node {
			if lt, ok := cl.drop(t.ID); ok {
				first = append(first, joinReq{conn: lt.conn, name: t.Name, quick: true, ask: lt.ask})
				continue
			}
		}
		first = append(first, joinReq{player: t.Player, name: t.Name, quick: true})
		if t.Node != h.cfg.Node {
			remote = append(remote, t)
		}
	}
	code, err := h.create(set, first, nil)
	if err != nil {
		h.log.Error("rooms: making a matched room", "err", err)
		for _, j := range first {
			if j.conn != nil {
				j.conn.sendError(0, ErrClosing, "%v", err)
			}
		}
		return
	}
	if len(remote) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	if err := cl.dir.Seated(ctx, Seated{Code: code, Node: h.cfg.Node, URL: h.cfg.URL, Tickets: remote}); err != nil {
		h.log.Error("rooms: telling the players' nodes", "err", err)
	}
}

// seated sends this node's players to the room made for them elsewhere.
func (cl *clusterSide) seated(s Seated) {
	ctx, cancel := context.WithTimeout(context.Background(), dirTimeout)
	defer cancel()
	for _, t := range s.Tickets {
		lt, ok := cl.drop(t.ID)
		if !ok {
			continue
		}
		select {
		case <-lt.conn.done:
			continue
		default:
		}
		if lt.conn.asked.Load() != lt.ask {
			continue // it asked for another room meanwhile
		}
		cl.send(ctx, lt.conn, 0, Grant{Code: s.Code, Player: t.Player, Name: t.Name}, s.URL)
	}
}

// stop ends the background and releases the codes of the rooms closed
// (the hub's rooms have all closed by now).
func (cl *clusterSide) stop() {
	<-cl.done
	cl.spawned.Wait()
	cl.flush()
}
