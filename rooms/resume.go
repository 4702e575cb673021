package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/sudoku"
)

// What a room writes to its journal and how another node rebuilds it.

// roomSnap is a room as its journal keeps it: everything but the
// connections (a rebuilt room's players are all away until they come
// back) and the work in flight (a hint being found is lost, not spent:
// hints are counted when asked).
type roomSnap struct {
	Seq      int64          `json:"seq"`
	At       time.Time      `json:"at"`
	Mode     string         `json:"mode"`
	Size     int            `json:"size"`
	Level    string         `json:"level"`
	Public   bool           `json:"public,omitempty"`
	Quick    bool           `json:"quick,omitempty"`
	Phase    string         `json:"phase"`
	Puzzle   *snapPuzzle    `json:"puzzle,omitempty"`
	Games    int            `json:"games"`
	Started  time.Time      `json:"started"`
	Ended    time.Time      `json:"ended"`
	Shared   *game.Snapshot `json:"shared,omitempty"`
	Version  int64          `json:"version,omitempty"`
	Finishes int            `json:"finishes,omitempty"`
	Results  []Placing      `json:"results,omitempty"`
	Bans     []string       `json:"bans,omitempty"`
	Seats    []*snapSeat    `json:"seats"` // nil: a free seat
}

type snapPuzzle struct {
	Givens   string  `json:"givens"`
	Solution string  `json:"solution"`
	Rating   float64 `json:"rating"`
	Level    string  `json:"level"`
	Steps    int     `json:"steps"`
}

type snapSeat struct {
	Player     string         `json:"player"`
	Name       string         `json:"name"`
	Ready      bool           `json:"ready,omitempty"`
	Votes      []string       `json:"votes,omitempty"`
	Board      *game.Snapshot `json:"board,omitempty"`
	Marks      []game.Marks   `json:"marks,omitempty"`
	Version    int64          `json:"version,omitempty"`
	Hints      int            `json:"hints,omitempty"`
	HintStages int            `json:"hintStages,omitempty"`
	Mistakes   int            `json:"mistakes,omitempty"`
	Flag       string         `json:"flag,omitempty"`
	Place      int            `json:"place,omitempty"`
	Ms         int64          `json:"ms,omitempty"`
	Out        string         `json:"out,omitempty"`
	Played     bool           `json:"played,omitempty"`
}

// journalEntry is one change to a board since the snapshot, replayed by
// the function that made it.
type journalEntry struct {
	Seq    int64     `json:"seq"`
	At     time.Time `json:"at"`
	Op     string    `json:"op"` // move, mark, undo, redo, hints
	Seat   int       `json:"seat"`
	Player string    `json:"player"`
	Cell   int       `json:"cell,omitempty"`
	Value  int       `json:"value,omitempty"`
	Clear  bool      `json:"clear,omitempty"`
	Hints  int       `json:"hints,omitempty"`
	Stages int       `json:"stages,omitempty"`
}

// record queues a record of the room for the node's writer; every message
// the room sends after it waits until it is durable. Nothing is recorded
// while the room replays its journal or when the hub keeps none.
func (r *Room) record(kind int, data []byte) {
	l := r.log
	if l == nil || r.replaying || l.stale.Load() {
		return
	}
	seq := l.seq.Load() + 1
	rec := Record{Code: r.code, Epoch: l.epoch, Seq: seq, Kind: kind, Open: !l.opened, Data: data}
	l.opened = true
	l.seq.Store(seq) // before the record is queued: a message sent from now on waits for it
	r.hub.writer.add(l, rec)
}

// journal records a change to seat i's board (op and its arguments in e).
func (r *Room) journal(i int, e journalEntry) {
	if r.log == nil || r.replaying {
		return
	}
	e.Seq, e.At, e.Seat, e.Player = r.log.seq.Load()+1, r.now(), i, r.seats[i].player
	b, err := json.Marshal(e)
	if err != nil {
		r.hub.log.Error("rooms: encode a journal entry", "err", err)
		return
	}
	r.record(RecEntry, b)
}

// journalHints records seat i's hint counts.
func (r *Room) journalHints(i int) {
	s := r.seats[i]
	r.journal(i, journalEntry{Op: "hints", Hints: s.hints, Stages: s.hintStages})
}

// snapshot records the whole room (before a State goes out).
func (r *Room) snapshot() {
	if r.log == nil || r.replaying || r.closed {
		return
	}
	sn := roomSnap{
		Seq: r.log.seq.Load() + 1, At: r.now(), Mode: r.set.Mode, Size: r.set.Shape.N(), Level: r.set.Level.String(),
		Public: r.set.Public, Quick: r.set.Quick, Phase: r.phase, Games: r.games, Started: r.started, Ended: r.ended,
		Version: r.version, Finishes: r.finishes, Results: r.results, Seats: make([]*snapSeat, len(r.seats)),
	}
	if r.phase == PhaseCountdown {
		sn.Phase = PhaseLobby // everyone gets ready again after a takeover
	}
	if p := r.puzzle; p != nil {
		sn.Puzzle = &snapPuzzle{Givens: sudoku.CellString(p.Givens.Cells), Solution: sudoku.CellString(p.Solution.Cells),
			Rating: p.Rating, Level: p.Level.String(), Steps: p.Steps}
	}
	if r.shared != nil {
		s := r.shared.Snapshot()
		sn.Shared = &s
	}
	for p := range r.bans {
		sn.Bans = append(sn.Bans, p)
	}
	for i, s := range r.seats {
		if s == nil {
			continue
		}
		ss := &snapSeat{Player: s.player, Name: s.name, Ready: s.ready, Marks: s.marks, Version: s.version, Hints: s.hints,
			HintStages: s.hintStages, Mistakes: s.mistakes, Flag: s.flag, Place: s.place, Ms: s.ms, Out: s.out, Played: s.played}
		for p := range s.votes {
			ss.Votes = append(ss.Votes, p)
		}
		if s.board != nil {
			b := s.board.Snapshot()
			ss.Board = &b
		}
		sn.Seats[i] = ss
	}
	b, err := json.Marshal(sn)
	if err != nil {
		r.hub.log.Error("rooms: encode a snapshot", "err", err)
		return
	}
	r.record(RecSnapshot, b)
}

// maxSnapshotBytes bounds a snapshot read back (four 16×16 boards with
// long histories stay well under it).
const maxSnapshotBytes = 8 << 20

// rebuild makes room code from its snapshot and entries, claimed at
// epoch c: the snapshot restored, the entries replayed on the boards at
// the times they were made, then the clocks moved on by the time the room
// was away, every seat waiting for its player.
func (h *Hub) rebuild(code string, c Claimed, snapData []byte, entries [][]byte) (*Room, error) {
	if len(snapData) == 0 {
		return nil, errors.New("no snapshot kept")
	}
	if len(snapData) > maxSnapshotBytes || len(entries) > maxJournalEntries {
		return nil, fmt.Errorf("a journal of %d bytes and %d entries is over the bounds", len(snapData), len(entries))
	}
	var sn roomSnap
	if err := json.Unmarshal(snapData, &sn); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	shape, err := shapeFor(sn.Size)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	level, err := logic.ParseLevel(sn.Level)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if sn.Mode != Race && sn.Mode != Coop || len(sn.Seats) > h.cfg.MaxSeats ||
		!slices.Contains([]string{PhaseLobby, PhasePlaying, PhaseOver}, sn.Phase) {
		return nil, fmt.Errorf("snapshot: mode %q, phase %q with %d seats", sn.Mode, sn.Phase, len(sn.Seats))
	}
	r := newRoom(h, code, Settings{Mode: sn.Mode, Shape: shape, Level: level, Public: sn.Public, Quick: sn.Quick})
	r.log = &roomLog{code: code, epoch: c.Epoch, opened: true}
	r.phase, r.games, r.started, r.ended = sn.Phase, sn.Games, sn.Started, sn.Ended
	r.version, r.finishes, r.results = sn.Version, sn.Finishes, sn.Results
	for _, p := range sn.Bans {
		r.bans[p] = true
	}
	n := shape.N()
	if sn.Puzzle != nil {
		p, err := restorePuzzle(sn.Puzzle, shape)
		if err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		r.puzzle = &p
		r.fixed = make([]bool, n*n)
		for i, v := range p.Givens.Cells {
			r.fixed[i] = v != 0
		}
	}
	if sn.Shared != nil {
		if r.shared, err = r.restoreBoard(sn.Shared); err != nil {
			return nil, fmt.Errorf("snapshot: the shared board: %w", err)
		}
	}
	now := h.now()
	for i, ss := range sn.Seats {
		if ss == nil {
			continue
		}
		if r.seats[i], err = r.restoreSeat(ss, now); err != nil {
			return nil, fmt.Errorf("snapshot: seat %d: %w", i, err)
		}
	}
	if (r.phase == PhasePlaying || r.phase == PhaseOver) && (r.puzzle == nil || sn.Mode == Coop && r.shared == nil) {
		return nil, fmt.Errorf("snapshot: a game in phase %s without its puzzle or board", r.phase)
	}
	if err := r.replayEntries(sn.Seq, entries); err != nil {
		return nil, err
	}
	// The room was away from its owner's last heartbeat (or handover),
	// or from its last record if that is later: the owner was alive then.
	away := c.Away
	last := sn.At
	if r.lastAt.After(last) {
		last = r.lastAt
	}
	if !last.IsZero() {
		away = min(away, max(0, h.now().Sub(last)))
	}
	r.log.seq.Store(r.lastSeq)
	r.log.durable.Store(r.lastSeq)
	// The time away is nobody's: the game's clock starts that much later.
	if r.phase == PhasePlaying {
		r.started = r.started.Add(away)
	}
	r.publish()
	return r, nil
}

// restoreBoard reads a board back, checked against the puzzle as a
// finish is.
func (r *Room) restoreBoard(s *game.Snapshot) (*game.Game, error) {
	if r.puzzle == nil {
		return nil, errors.New("a board without a puzzle")
	}
	if _, err := replayMoves(r.puzzle.Givens, r.fixed, *s); err != nil {
		return nil, err
	}
	return game.Restore(*s)
}

// restoreSeat reads a seat back, its player away since now.
func (r *Room) restoreSeat(ss *snapSeat, now time.Time) (*seat, error) {
	n := r.set.Shape.N()
	s := &seat{player: ss.Player, name: ss.Name, ready: ss.Ready, awaySince: now, marks: ss.Marks, version: ss.Version,
		hints: ss.Hints, hintStages: ss.HintStages, mistakes: ss.Mistakes, flag: ss.Flag, place: ss.Place, ms: ss.Ms,
		out: ss.Out, played: ss.Played}
	if len(ss.Votes) > 0 {
		s.votes = map[string]bool{}
		for _, p := range ss.Votes {
			s.votes[p] = true
		}
	}
	if ss.Board != nil {
		b, err := r.restoreBoard(ss.Board)
		if err != nil {
			return nil, fmt.Errorf("the board: %w", err)
		}
		s.board = b
	}
	if s.marks != nil && len(s.marks) != n*n {
		return nil, fmt.Errorf("%d marks for %d cells", len(s.marks), n*n)
	}
	if r.phase == PhasePlaying && s.played && (r.set.Mode == Race && s.board == nil || r.set.Mode == Coop && s.marks == nil) {
		return nil, errors.New("a player without a board")
	}
	return s, nil
}

// restorePuzzle reads a snapshot's puzzle back.
func restorePuzzle(sp *snapPuzzle, shape sudoku.Shape) (Puzzle, error) {
	n := shape.N()
	givens, err := sudoku.ParseCells(sp.Givens, n)
	if err != nil {
		return Puzzle{}, fmt.Errorf("givens: %w", err)
	}
	sol, err := sudoku.ParseCells(sp.Solution, n)
	if err != nil {
		return Puzzle{}, fmt.Errorf("solution: %w", err)
	}
	level, err := logic.ParseLevel(sp.Level)
	if err != nil {
		return Puzzle{}, err
	}
	for i, v := range givens {
		if v != 0 && v != sol[i] {
			return Puzzle{}, fmt.Errorf("the givens disagree with the solution at cell %d", i)
		}
	}
	return Puzzle{Givens: sudoku.Grid{Shape: shape, Cells: givens}, Solution: sudoku.Grid{Shape: shape, Cells: sol},
		Rating: sp.Rating, Level: level, Steps: sp.Steps}, nil
}

// replayEntries plays the entries after snapshot seq through the
// functions that made them, at the times they were made.
func (r *Room) replayEntries(snapSeq int64, entries [][]byte) error {
	r.lastSeq = snapSeq
	r.replaying = true
	defer func() { r.replaying, r.replayAt = false, time.Time{} }()
	for k, data := range entries {
		var e journalEntry
		if err := json.Unmarshal(data, &e); err != nil {
			return fmt.Errorf("journal entry %d: %w", k, err)
		}
		if e.Seq <= r.lastSeq {
			continue
		}
		r.lastSeq, r.lastAt = e.Seq, e.At
		if r.phase != PhasePlaying || e.Seat < 0 || e.Seat >= len(r.seats) || r.seats[e.Seat] == nil || r.seats[e.Seat].player != e.Player {
			return fmt.Errorf("journal entry %d (%s) is not for a seat playing", e.Seq, e.Op)
		}
		r.replayAt = e.At
		i, s := e.Seat, r.seats[e.Seat]
		switch e.Op {
		case "move":
			s.openHint = nil
			r.put(i, 0, e.Cell, e.Value, e.Clear)
		case "mark":
			r.mark(i, In{T: "mark", Cell: &e.Cell, Value: &e.Value})
		case "undo", "redo":
			r.undoRedo(i, In{T: e.Op})
		case "hints":
			s.hints, s.hintStages = min(e.Hints, play.MaxHints), e.Stages
		default:
			return fmt.Errorf("journal entry %d: unknown op %q", e.Seq, e.Op)
		}
	}
	return nil
}

// maxResuming bounds the takeovers one node runs at once, and
// maxResumeWaiting the joins waiting for a place (each a connection's
// reader, held at most resumeWait): a join for a code sets one off, and
// strangers send joins. A node handing 250 rooms over sends their
// players here at once: they queue rather than being told to try again.
const (
	maxResuming      = 16
	maxResumeWaiting = 4096
	resumeWait       = 5 * time.Second
)

// resumeTimeout bounds one takeover (claim, load, rebuild).
const resumeTimeout = 5 * time.Second

// resume takes room code over from a dead or leaving node, if the journal
// lets this node claim it, and returns it running here (nil: not taken).
func (h *Hub) resume(code string) *Room {
	j := h.cfg.Journal
	if j == nil || !ValidCode(code) {
		return nil
	}
	h.mu.Lock()
	if r := h.rooms[code]; r != nil {
		h.mu.Unlock()
		return r
	}
	if ch, ok := h.resuming[code]; ok {
		h.mu.Unlock()
		<-ch
		return h.room(code)
	}
	if h.closing || len(h.resuming) >= maxResumeWaiting {
		h.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	h.resuming[code] = ch
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.resuming, code)
		h.mu.Unlock()
		close(ch)
	}()
	wait := time.NewTimer(resumeWait)
	defer wait.Stop()
	select {
	case h.resumers <- struct{}{}:
		defer func() { <-h.resumers }()
	case <-wait.C:
		return nil
	case <-h.quit:
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), resumeTimeout)
	defer cancel()
	c, ok, err := j.Claim(ctx, code, h.cfg.Node)
	if err != nil {
		h.log.Error("rooms: claim a room", "room", code, "err", err)
		return nil
	}
	if !ok {
		return nil
	}
	snap, entries, err := j.Load(ctx, code)
	if err != nil {
		h.log.Error("rooms: load a room's journal", "room", code, "err", err)
		return nil
	}
	if snap == nil {
		return nil // claimed, but it had ended (or never got started) there
	}
	r, err := h.rebuild(code, c, snap, entries)
	if err != nil {
		h.log.Error("rooms: rebuild a room from its journal", "room", code, "err", err)
		return nil
	}
	h.mu.Lock()
	if h.closing || h.rooms[code] != nil {
		h.mu.Unlock()
		return nil
	}
	h.rooms[code] = r
	h.count("").rooms++
	h.work.Add(1)
	h.mu.Unlock()
	h.resumed.Add(1)
	r.snapshot() // the room's first record under the new epoch
	go func() {
		defer h.work.Done()
		r.run()
	}()
	h.log.Info("rooms: took a room over", "room", code, "epoch", c.Epoch, "away", c.Away, "entries", len(entries))
	return r
}

// Handover is a node's clean shutdown in a cluster: the rooms stop taking
// messages, their last records are written, the journal marks them as
// handing (any node may take them at once), and every player is sent
// {"t":"moved"} to url (a live node, or the balancer in front of them all:
// then it only means "reconnect"), then the hub closes. With no journal
// it is Close.
func (h *Hub) Handover(ctx context.Context, url string) error {
	if !h.startClosing() {
		<-h.down
		return nil
	}
	if h.writer == nil {
		h.shutdown()
		return nil
	}
	return h.handover(ctx, []string{url})
}

// handover is Handover once the hub is closing: the rooms' players go to
// urls, the rooms dealt out in turn (so the next nodes share the
// takeovers).
func (h *Hub) handover(ctx context.Context, urls []string) error {
	t0 := time.Now()
	h.mu.Lock()
	rooms := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rooms = append(rooms, r)
	}
	h.mu.Unlock()
	to := make(map[string]string, len(rooms))
	for i, r := range rooms {
		to[r.code] = urls[i%len(urls)]
	}
	t := &handTally{}
	t.wg.Add(len(rooms))
	for _, r := range rooms {
		r.post(envelope{kind: evHandover, aside: &aside{hand: t}})
	}
	t.wg.Wait() // each room has recorded its last snapshot and stopped
	stopped := time.Since(t0)
	// A token keeps the seat on a node of another origin, where the
	// player's cookie is not sent: all of them in one statement, while
	// the last records are written (the players may go only once the
	// rooms are marked handing: the next node can take them then).
	var toks []string
	granted := make(chan error, 1)
	if h.cl != nil && urls[0] != "" && len(t.moved) > 0 {
		gs := make([]Grant, len(t.moved))
		for i, m := range t.moved {
			gs[i] = Grant{Code: m.code, Player: m.conn.player, Name: m.name}
		}
		go func() {
			var err error
			toks, err = h.cl.dir.GrantAll(ctx, gs)
			granted <- err
		}()
	} else {
		granted <- nil
	}
	err := h.writer.flush(ctx)
	if err == nil {
		err = h.cfg.Journal.Hand(ctx, h.cfg.Node)
	}
	handed := time.Since(t0)
	if err != nil {
		h.log.Error("rooms: handover", "err", err)
	}
	if gerr := <-granted; gerr != nil {
		// Without tokens the players still reconnect and join by code:
		// behind a balancer (one origin) their cookie keeps the seat.
		h.log.Error("rooms: handover: granting the players' tokens", "err", gerr)
		toks = nil
	}
	for i, m := range t.moved {
		mv := Moved{T: "moved", Code: m.code, URL: to[m.code]}
		if toks != nil {
			mv.Token = toks[i]
		}
		m.conn.sendJSON(mv)
	}
	moved := time.Since(t0)
	h.shutdown()
	h.log.Info("rooms: handed over", "rooms", len(rooms), "players", len(t.moved), "stopped", stopped,
		"handed", handed, "moved", moved, "closed", time.Since(t0))
	return err
}

// handoverURLs are where a leaving node sends its players: the other live
// nodes of the directory, least loaded first, else Config.URL (behind a
// balancer, every node's URL is the balancer's: "reconnect").
func (h *Hub) handoverURLs(ctx context.Context) []string {
	if h.cfg.Directory == nil {
		return []string{h.cfg.URL}
	}
	nodes, err := h.cfg.Directory.Nodes(ctx)
	if err != nil {
		h.log.Error("rooms: handover: listing the nodes", "err", err)
		return []string{h.cfg.URL}
	}
	nodes = slices.DeleteFunc(nodes, func(n NodeInfo) bool { return n.Name == h.cfg.Node })
	if len(nodes) == 0 {
		return []string{h.cfg.URL}
	}
	slices.SortStableFunc(nodes, func(a, b NodeInfo) int { return a.Conns - b.Conns })
	urls := make([]string, len(nodes))
	for i, n := range nodes {
		urls[i] = n.URL
	}
	return urls
}

// handTally collects, from every room handing over, who must be told
// where to go.
type handTally struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	moved []movedConn
}

type movedConn struct {
	conn       *Conn
	code, name string // name: the seat's (the room's copy: the connection's is its reader's)
}

// handOver: the room records its last snapshot, stops taking messages and
// closes without ending in the journal; its connections are the hub's to
// move.
func (r *Room) handOver(t *handTally) {
	defer t.wg.Done()
	r.snapshot()
	r.handing.Store(true)
	t.mu.Lock()
	for _, s := range r.seats {
		if s != nil && s.conn != nil {
			t.moved = append(t.moved, movedConn{s.conn, r.code, s.name})
		}
	}
	for c := range r.watchers {
		t.moved = append(t.moved, movedConn{c, r.code, ""})
	}
	t.mu.Unlock()
	r.close()
}

// goneStale: another node has taken the room (this node was cut off long
// enough to be taken for dead): what was not written is lost, so the
// room closes and tells its players to reconnect (they find the room on
// its new node).
func (r *Room) goneStale() {
	b := r.encode(Moved{T: "moved", Code: r.code, URL: r.hub.cfg.URL})
	for _, s := range r.seats {
		if s != nil && s.conn != nil {
			s.conn.send(b)
		}
	}
	for c := range r.watchers {
		c.send(b)
	}
	r.handing.Store(true) // nothing more is answered here
	r.close()
}

// releaseAfterDrop gives a closed room's code back to the directory once
// the journal has forgotten the room (its drop written under the code's
// row), or at once with no journal (h.mu held).
func (h *Hub) releaseAfterDrop(r *Room) {
	l := r.log
	if l == nil {
		h.cl.closed(r.code)
		return
	}
	seq := l.seq.Load()
	h.goWork(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		l.waitDurable(ctx, seq)
		h.cl.closed(r.code)
	})
}
