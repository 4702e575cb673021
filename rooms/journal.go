package rooms

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// A room survives its node through its journal: a snapshot whenever the
// room changes shape, and an entry per board change between snapshots; a
// node taking it over replays them through the code that first applied
// them. A room's messages wait behind its last record until the node's one
// writer has committed it (a group commit), so no ack is sent for a move a
// takeover would not find (docs/scaling.md, "What a node crash costs").

// Journal keeps rooms' snapshots and journals in a store every node
// reaches. The PostgreSQL one is cluster.Journal; MemJournal is the one
// for several hubs in one process (tests). Implementations are safe for
// concurrent use.
type Journal interface {
	// Write makes a batch of records durable, all or nothing, keeping the
	// order of each room's records. A record is written only while its
	// room is node's under the record's epoch; the rooms whose records were
	// refused are returned (their records are not written: another node
	// has taken the room). A record with Open set first makes the room
	// node's at epoch 1 when nobody holds its code.
	Write(ctx context.Context, node string, batch []Record) (refused map[string]bool, err error)
	// Claim takes room code over for node, in one conditional step that
	// only one node can win: when its owner is dead (no heartbeat for 3 s,
	// or not a node at all) or is handing its rooms over (a clean
	// shutdown; a node restarted under its old name hands over its last
	// run's rooms). ok is false when the room is not to be taken (a live
	// owner, no such code).
	Claim(ctx context.Context, code, node string) (c Claimed, ok bool, err error)
	// Load returns room code's last snapshot and the entries written
	// after it, in order (nil snapshot: none kept).
	Load(ctx context.Context, code string) (snap []byte, entries [][]byte, err error)
	// Hand marks every room of node as handing: any node may claim them
	// (a clean shutdown, after a last Write).
	Hand(ctx context.Context, node string) error
}

// Record is one write of a room's journal.
type Record struct {
	Code  string
	Epoch int64 // the room's epoch when it was written
	Seq   int64 // 1, 2, … in the room (a snapshot covers every seq up to its own)
	Kind  int   // RecSnapshot, RecEntry or RecDrop
	Open  bool  // the room's first record on this node: make its code's row if missing
	Data  []byte
}

// Kinds of Record.
const (
	RecSnapshot = iota // the whole room: replaces the snapshot and the entries before it
	RecEntry           // a change since the snapshot
	RecDrop            // the room has ended: forget its snapshot and entries
)

// Claimed is a takeover won.
type Claimed struct {
	Epoch int64 // the room's new epoch: records under an older one are refused
	// Away is how long the room was without a node (from its owner's
	// last heartbeat, or its handover, to the claim): not charged to
	// the players' clocks.
	Away time.Duration
}

// ErrStale is why a room stops when its records are refused: another node
// has taken it over.
var ErrStale = errors.New("rooms: another node has taken this room over")

// maxJournalEntries bounds the entries one takeover replays: a game has
// at most a few thousand moves (each seat's board keeps its history).
const maxJournalEntries = 20_000

// roomLog is a room's place in the journal: its epoch, the last record's
// number and the last durable one, and the connections waiting for the
// writer to get there.
type roomLog struct {
	code    string
	epoch   int64
	opened  bool         // a record has been queued (the loop's)
	seq     atomic.Int64 // the last record's number, written by the room's loop
	durable atomic.Int64 // the last number committed, written by the writer
	stale   atomic.Bool  // refused: another node has the room

	mu      sync.Mutex
	waiting map[*Conn]struct{}
}

// ready reports whether a message sent after record seq may go.
func (l *roomLog) ready(seq int64) bool { return l == nil || l.stale.Load() || l.durable.Load() >= seq }

// waitDurable waits until record seq is durable (true), or the room is
// taken by another node or ctx ends (false). A nil log has nothing to
// wait for.
func (l *roomLog) waitDurable(ctx context.Context, seq int64) bool {
	if l == nil {
		return true
	}
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		switch {
		case l.stale.Load():
			return false
		case l.durable.Load() >= seq:
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
}

// wait registers c to be released when the log moves on.
func (l *roomLog) wait(c *Conn) {
	l.mu.Lock()
	if l.waiting == nil {
		l.waiting = map[*Conn]struct{}{}
	}
	l.waiting[c] = struct{}{}
	l.mu.Unlock()
}

// wake releases every connection waiting on the log (after durable or
// stale moved).
func (l *roomLog) wake() {
	l.mu.Lock()
	w := l.waiting
	l.waiting = nil
	l.mu.Unlock()
	for c := range w {
		c.release()
	}
}

// heldMsg is a message waiting for record seq of log to be durable.
type heldMsg struct {
	b   []byte
	log *roomLog
	seq int64
}

// writer is a node's one journal writer: rooms queue records without
// waiting; it commits everything queued in one Write, then releases the
// messages held behind them.
type writer struct {
	hub  *Hub
	j    Journal
	node string

	mu      sync.Mutex
	queue   []pending
	busy    bool // a Write is running
	idle    *sync.Cond
	wake    chan struct{}
	stop    chan struct{}
	stopped chan struct{}

	commits atomic.Int64 // Writes done
	records atomic.Int64 // records written
}

type pending struct {
	log *roomLog
	rec Record
}

func newWriter(h *Hub, j Journal, node string) *writer {
	w := &writer{hub: h, j: j, node: node, wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	w.idle = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// add queues a record (never waits for the database).
func (w *writer) add(l *roomLog, rec Record) {
	w.mu.Lock()
	w.queue = append(w.queue, pending{l, rec})
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *writer) run() {
	defer close(w.stopped)
	for {
		select {
		case <-w.wake:
		case <-w.stop:
			w.flushOnce()
			return
		}
		w.flushOnce()
	}
}

// flushOnce writes what is queued, batch after batch, until the queue is
// empty.
func (w *writer) flushOnce() {
	for {
		w.mu.Lock()
		batch := w.queue
		w.queue = nil
		w.busy = len(batch) > 0
		if !w.busy {
			w.idle.Broadcast()
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		w.commit(batch)
	}
}

// commit writes one batch, trying again while the database fails (the
// answers wait; the rooms go on), then moves each room's durable mark and
// releases the connections waiting for it.
func (w *writer) commit(batch []pending) {
	recs, last := coalesce(batch)
	var refused map[string]bool
	for try := 0; ; try++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		var err error
		refused, err = w.j.Write(ctx, w.node, recs)
		cancel()
		if err == nil {
			break
		}
		w.hub.log.Error("rooms: journal write failed, trying again", "records", len(recs), "try", try, "err", err)
		select {
		case <-w.stop:
			if try >= 3 { // shutting down and the journal is out of reach: give up (nothing held is sent)
				return
			}
		default:
		}
		time.Sleep(min(time.Duration(try+1)*50*time.Millisecond, time.Second))
	}
	w.commits.Add(1)
	w.records.Add(int64(len(recs)))
	for l, seq := range last {
		if refused[l.code] {
			if !l.stale.Swap(true) {
				w.hub.staleRoom(l)
			}
		} else if l.durable.Load() < seq {
			l.durable.Store(seq)
		}
		l.wake()
	}
}

// coalesce drops the records a later snapshot (or drop) of the same room
// in the batch makes useless, and returns each room's last seq.
func coalesce(batch []pending) ([]Record, map[*roomLog]int64) {
	last := map[*roomLog]int64{}
	cut := map[*roomLog]int{} // index of the room's last snapshot or drop
	for k, p := range batch {
		last[p.log] = max(last[p.log], p.rec.Seq)
		if p.rec.Kind != RecEntry {
			cut[p.log] = k
		}
	}
	recs := make([]Record, 0, len(batch))
	opened := map[*roomLog]bool{}
	for k, p := range batch {
		if c, ok := cut[p.log]; ok && k < c {
			opened[p.log] = opened[p.log] || p.rec.Open
			continue
		}
		rec := p.rec
		if opened[p.log] {
			rec.Open = true // the record that opened the room was coalesced away
			opened[p.log] = false
		}
		recs = append(recs, rec)
	}
	return recs, last
}

// flush waits until every record queued so far is written (or ctx ends).
func (w *writer) flush(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		w.mu.Lock()
		for len(w.queue) > 0 || w.busy {
			w.idle.Wait()
		}
		w.mu.Unlock()
		close(done)
	}()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("rooms: the journal is not written yet: %w", ctx.Err())
	}
}

// close writes what is left and stops the writer.
func (w *writer) close() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.stopped
	w.mu.Lock()
	w.idle.Broadcast()
	w.mu.Unlock()
}

// staleRoom: the writer was refused room l's records (another node has
// it): the room closes and tells its players to reconnect.
func (h *Hub) staleRoom(l *roomLog) {
	h.log.Warn("rooms: a room was taken over by another node: closing it here", "room", l.code)
	if r := h.room(l.code); r != nil && r.log == l {
		go r.post(envelope{kind: evStale})
	}
}

// MemJournal is a Journal in memory, shared by the hubs of one process
// (tests play several nodes with it). Nodes' heartbeats are what Beat
// was told.
type MemJournal struct {
	now func() time.Time

	mu    sync.Mutex
	codes map[string]*memRoom
	seen  map[string]time.Time
	down  map[string]bool // declared dead (Down) since their last Beat
}

type memRoom struct {
	node    string
	epoch   int64
	handing bool
	updated time.Time
	snap    []byte
	snapSeq int64
	entries []memEntry
}

type memEntry struct {
	seq  int64
	data []byte
}

// NewMemJournal makes an empty journal on clock now (nil: time.Now).
func NewMemJournal(now func() time.Time) *MemJournal {
	if now == nil {
		now = time.Now
	}
	return &MemJournal{now: now, codes: map[string]*memRoom{}, seen: map[string]time.Time{}}
}

// Beat records node's heartbeat at time at.
func (m *MemJournal) Beat(node string, at time.Time) {
	m.mu.Lock()
	m.seen[node] = at
	delete(m.down, node)
	m.mu.Unlock()
}

// Down takes node for dead until its next Beat, as a Directory's Down
// does in the database both share.
func (m *MemJournal) Down(node string) {
	m.mu.Lock()
	if m.down == nil {
		m.down = map[string]bool{}
	}
	m.down[node] = true
	m.mu.Unlock()
}

// Owner returns the node holding code and its epoch ("" when none).
func (m *MemJournal) Owner(code string) (node string, epoch int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.codes[code]; r != nil {
		return r.node, r.epoch
	}
	return "", 0
}

// Write implements Journal.
func (m *MemJournal) Write(_ context.Context, node string, batch []Record) (map[string]bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	refused := map[string]bool{}
	for _, rec := range batch {
		r := m.codes[rec.Code]
		if r == nil && rec.Open {
			r = &memRoom{node: node, epoch: 1, updated: m.now()}
			m.codes[rec.Code] = r
		}
		if r == nil || r.node != node || r.epoch != rec.Epoch || refused[rec.Code] {
			refused[rec.Code] = true
			continue
		}
		switch rec.Kind {
		case RecSnapshot:
			r.snap, r.snapSeq = rec.Data, rec.Seq
			r.entries = r.entries[:0]
		case RecEntry:
			r.entries = append(r.entries, memEntry{rec.Seq, rec.Data})
		case RecDrop:
			r.snap, r.entries = nil, nil
		}
	}
	return refused, nil
}

// Claim implements Journal.
func (m *MemJournal) Claim(_ context.Context, code, node string) (Claimed, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.codes[code]
	if r == nil {
		return Claimed{}, false, nil
	}
	now := m.now()
	seen, known := m.seen[r.node]
	var since time.Time
	switch {
	case r.handing:
		since = r.updated
	case !known:
		since = r.updated
	case now.Sub(seen) > deadAfter || m.down[r.node]:
		since = seen
	default:
		return Claimed{}, false, nil
	}
	r.node, r.epoch, r.handing, r.updated = node, r.epoch+1, false, now
	return Claimed{Epoch: r.epoch, Away: max(0, now.Sub(since))}, true, nil
}

// deadAfter is how old a node's heartbeat is when the node is taken for
// dead (the contract's 3 s).
const deadAfter = 3 * time.Second

// Load implements Journal.
func (m *MemJournal) Load(_ context.Context, code string) ([]byte, [][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.codes[code]
	if r == nil {
		return nil, nil, nil
	}
	var out [][]byte
	for _, e := range r.entries {
		if e.seq > r.snapSeq {
			out = append(out, e.data)
		}
	}
	return r.snap, out, nil
}

// Hand implements Journal.
func (m *MemJournal) Hand(_ context.Context, node string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.codes {
		if r.node == node {
			r.handing, r.updated = true, m.now()
		}
	}
	return nil
}
