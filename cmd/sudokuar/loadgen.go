package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/rooms"
	"github.com/sudokuar/sudokuar/sudoku"
)

// loadgen drives a running `sudokuar serve` the way players do, over the
// rooms WebSocket, and reports what it measured.
//
// Rooms mode (the default): R private rooms of N/R players each (created
// by code, joined, readied, started), then every player makes a move
// every --every on a random cell for --duration. Each move's round trip is
// the time from sending it to the server's answer (the ack in a race, the
// broadcast naming its mover in co-op). A move is lost when no answer came
// or the server refused it; misordered counts answers out of the order the
// moves were sent, co-op broadcasts whose version skips or repeats, and
// players whose board, replayed from what they received, differs from the
// server's board at the end. The last line is
//
//	players=N rooms=R moves=M lost=L misordered=K p50=Xms p99=Yms
//
// Quick mode (--quick N): N players ask for a quick match, arriving evenly
// over --arrive; it reports how long each waited for a started game.
type loadConfig struct {
	addr     string
	players  int
	rooms    int
	duration time.Duration
	every    time.Duration
	mode     string
	size     int
	level    string
	quick    int
	arrive   time.Duration
	kinds    int
	setup    time.Duration
	sources  int
	clients  []*http.Client // one per source address; nil: the default
}

// quickKinds are the kinds of game quick mode spreads players over with
// --kinds: each is its own queue.
var quickKinds = []struct{ mode, level string }{
	{rooms.Race, "easy"}, {rooms.Coop, "easy"}, {rooms.Race, "medium"}, {rooms.Coop, "medium"}, {rooms.Race, "hard"}, {rooms.Coop, "hard"},
}

func loadgenFlags(fs *flag.FlagSet) func(*env, []string) int {
	var c loadConfig
	fs.StringVar(&c.addr, "addr", "http://127.0.0.1:8080", "the server's `URL`")
	fs.IntVar(&c.players, "players", 1000, "simulated players")
	fs.IntVar(&c.rooms, "rooms", 250, "rooms to spread them over (at most 4 players each)")
	fs.DurationVar(&c.duration, "duration", 2*time.Minute, "how long the players play")
	fs.DurationVar(&c.every, "every", 2*time.Second, "each player makes a move this often")
	fs.StringVar(&c.mode, "mode", "mixed", "race, coop, or mixed (half the rooms each)")
	fs.IntVar(&c.size, "size", 9, "board side: 4, 6, 9 or 16")
	fs.StringVar(&c.level, "level", "easy", "puzzle level")
	fs.IntVar(&c.quick, "quick", 0, "instead of rooms: this many players ask for a quick match")
	fs.DurationVar(&c.arrive, "arrive", 0, "quick match: players arrive evenly over this time (0: all at once)")
	fs.IntVar(&c.kinds, "kinds", 1, "quick match: spread players over this many kinds of game (mode and level; 1..6), each its own queue")
	fs.DurationVar(&c.setup, "setup", 2*time.Minute, "give up when the rooms are not all playing after this long")
	fs.IntVar(&c.sources, "sources", -1, "connect from this many loopback addresses (127.0.0.2, 127.0.0.3, …), as players on many machines would, so that the server's per-address bounds (64 connections) count each like a household (default: one per 48 players when --addr is a loopback IP, else 0: the system's choice)")
	return func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintf(e.stderr, "sudokuar loadgen: unexpected argument %q\n", args[0])
			return exitUsage
		}
		u, err := url.Parse(c.addr)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fmt.Fprintf(e.stderr, "sudokuar loadgen: --addr %q: want http://host:port\n", c.addr)
			return exitUsage
		}
		c.addr = strings.TrimSuffix(u.String(), "/")
		switch {
		case c.quick > 0 && (c.kinds < 1 || c.kinds > len(quickKinds)):
			fmt.Fprintf(e.stderr, "sudokuar loadgen: --kinds %d: want 1..%d\n", c.kinds, len(quickKinds))
			return exitUsage
		case c.quick > 0:
		case c.players < 1 || c.rooms < 1 || c.players < c.rooms:
			fmt.Fprintln(e.stderr, "sudokuar loadgen: want --players >= --rooms >= 1")
			return exitUsage
		case (c.players+c.rooms-1)/c.rooms > 4:
			fmt.Fprintf(e.stderr, "sudokuar loadgen: %d players in %d rooms is more than 4 a room\n", c.players, c.rooms)
			return exitUsage
		case c.mode != rooms.Race && c.mode != rooms.Coop && c.mode != "mixed":
			fmt.Fprintf(e.stderr, "sudokuar loadgen: --mode %q: want race, coop or mixed\n", c.mode)
			return exitUsage
		case c.every <= 0 || c.duration <= 0:
			fmt.Fprintln(e.stderr, "sudokuar loadgen: --every and --duration must be positive")
			return exitUsage
		}
		if c.sources < 0 {
			c.sources = 0
			if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsLoopback() && ip.To4() != nil {
				c.sources = (max(c.players, c.quick) + perSource - 1) / perSource
			}
		}
		if c.sources > 250 {
			fmt.Fprintf(e.stderr, "sudokuar loadgen: --sources %d: at most 250 loopback addresses\n", c.sources)
			return exitUsage
		}
		for k := range c.sources {
			c.clients = append(c.clients, sourceClient(net.IPv4(127, 0, 0, byte(2+k))))
		}
		var err2 error
		if c.quick > 0 {
			err2 = runQuick(c, e.stdout)
		} else {
			err2 = runLoad(c, e.stdout)
		}
		if err2 != nil {
			fmt.Fprintln(e.stderr, "sudokuar loadgen:", err2)
			return exitFail
		}
		return exitOK
	}
}

// serverStats reads /api/rooms/stats.
type serverStats struct {
	rooms.Stats
	Goroutines int     `json:"goroutines"`
	HeapBytes  uint64  `json:"heapBytes"`
	RSSBytes   int64   `json:"rssBytes"`
	CPUSeconds float64 `json:"cpuSeconds"`
}

func fetchStats(addr string) (serverStats, error) {
	var s serverStats
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", addr+"/api/rooms/stats", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return s, err
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return s, fmt.Errorf("%s/api/rooms/stats: %s", addr, res.Status)
	}
	return s, json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&s)
}

// lgPlayer is one simulated player.
type lgPlayer struct {
	id   int
	conn *websocket.Conn
	wmu  sync.Mutex // one writer at a time

	in chan []byte // messages read, for the setup phase

	mu        sync.Mutex
	seat      int
	mode      string
	puzzle    string
	board     []byte // the board as this player's messages built it
	v         int64  // the board's version as last seen
	sent      map[int64]time.Time
	lastAcked int64
	rtts      []float64 // ms
	lost      int
	misorder  int
	moves     int
	over      bool
}

// perSource is how many players loadgen puts on one source address by
// default: under web's DefaultConnsPerAddr (64), with room to spare.
const perSource = 48

// sourceClient is an HTTP client whose connections leave from ip (a
// loopback address other than 127.0.0.1: Linux answers for all of
// 127.0.0.0/8).
func sourceClient(ip net.IP) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: 30 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, ForceAttemptHTTP2: false}}
}

// sourceNoteRange names the first n source addresses.
func sourceNoteRange(n int) string {
	if n == 1 {
		return "127.0.0.2"
	}
	return fmt.Sprintf("127.0.0.2–127.0.0.%d", n+1)
}

// sourcesNote says where the players connect from, when not the default.
func sourcesNote(c loadConfig) string {
	if c.sources == 0 {
		return ""
	}
	return fmt.Sprintf(", from %d loopback addresses (%s)", c.sources, sourceNoteRange(c.sources))
}

// dialPatience is how long a player keeps trying to connect while the
// server says "too many requests".
const dialPatience = time.Minute

func newPlayerID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// dialPlayer opens one player's socket. All players come from one
// address, which the server's per-address request budget (web's Limits)
// lets through in bursts: a refusal (429, or 503 when busy) is waited out
// as its Retry-After says, as a browser's reconnect would, for up to
// dialPatience.
func dialPlayer(ctx context.Context, c loadConfig, id int) (*lgPlayer, error) {
	addr := c.addr
	var client *http.Client
	if len(c.clients) > 0 {
		client = c.clients[id%len(c.clients)]
	}
	ws := "ws" + strings.TrimPrefix(addr, "http") + "/ws/rooms"
	cookie := http.Header{"Cookie": {"sudokuar_player=" + newPlayerID()}}
	deadline := time.Now().Add(dialPatience)
	var conn *websocket.Conn
	for {
		var res *http.Response
		var err error
		conn, res, err = websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: cookie, HTTPClient: client})
		if err == nil {
			break
		}
		if res == nil || (res.StatusCode != http.StatusTooManyRequests && res.StatusCode != http.StatusServiceUnavailable) || time.Now().After(deadline) {
			return nil, err
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
			return nil, ctx.Err()
		}
	}
	conn.SetReadLimit(1 << 20)
	return &lgPlayer{id: id, conn: conn, in: make(chan []byte, 256), sent: map[int64]time.Time{}, seat: -1}, nil
}

func (p *lgPlayer) send(ctx context.Context, m rooms.In) error {
	b, _ := json.Marshal(m)
	p.wmu.Lock()
	defer p.wmu.Unlock()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return p.conn.Write(wctx, websocket.MessageText, b)
}

// await reads setup messages until one of type typ that ok accepts.
func (p *lgPlayer) await(ctx context.Context, typ string, ok func([]byte) bool) ([]byte, error) {
	for {
		select {
		case b, open := <-p.in:
			if !open {
				return nil, errors.New("connection closed")
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

// readSetup forwards messages to p.in until playing starts (then read
// takes over, called once the room is playing).
func (p *lgPlayer) readLoop(playing *atomic.Bool) {
	defer close(p.in)
	for {
		_, b, err := p.conn.Read(context.Background())
		if err != nil {
			return
		}
		if playing.Load() {
			p.handle(b)
			continue
		}
		select {
		case p.in <- b:
		default: // setup chatter nobody waits for
		}
	}
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
		mine := m.T == "ack" || m.Seat == p.seat
		if m.T == "move" {
			if m.V != p.v+1 {
				p.misorder++
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
			if t, ok := p.sent[m.Seq]; ok {
				p.rtts = append(p.rtts, float64(now.Sub(t).Microseconds())/1000)
				delete(p.sent, m.Seq)
			}
			if m.Seq <= p.lastAcked {
				p.misorder++
			}
			p.lastAcked = m.Seq
		}
	case "error":
		var e rooms.Error
		if json.Unmarshal(b, &e) != nil {
			return // not an error this player can match to a move
		}
		if _, ok := p.sent[e.Seq]; ok {
			delete(p.sent, e.Seq)
			p.lost++ // refused
		}
	case "over":
		p.over = true
	case "state":
		select {
		case p.in <- b: // a sync's answer
		default:
		}
	}
}

// runLoad is rooms mode: connect every player, set up the rooms, play
// for c.duration, check every board against the server's, and report.
func runLoad(c loadConfig, out io.Writer) error {
	before, err := fetchStats(c.addr)
	if err != nil {
		return fmt.Errorf("the server's counters: %w", err)
	}
	fmt.Fprintf(out, "loadgen: %d players in %d rooms (%s, %dx%d %s) on %s, a move every %v each for %v%s\n",
		c.players, c.rooms, c.mode, c.size, c.size, c.level, c.addr, c.every, c.duration, sourcesNote(c))
	ctx, cancel := context.WithTimeout(context.Background(), c.setup)
	defer cancel()
	start := time.Now()
	var playing atomic.Bool
	all, groups, err := dialAll(ctx, c, &playing)
	defer func() {
		for _, p := range all {
			p.conn.Close(websocket.StatusNormalClosure, "done")
		}
	}()
	if err != nil {
		return err
	}
	if err := setupRooms(ctx, c, groups); err != nil {
		return err
	}
	fmt.Fprintf(out, "loadgen: %d rooms playing after %v\n", c.rooms, time.Since(start).Round(time.Millisecond))
	playing.Store(true)
	run, err := playAll(c, all)
	if err != nil {
		return err
	}
	awaitAnswers(all, 5*time.Second)
	playing.Store(true)
	t := verifyAll(all)
	for _, p := range all {
		_ = p.send(context.Background(), rooms.In{T: "leave"}) // a player already gone has left
	}
	reportLoad(out, c, before, run, t)
	return nil
}

// dialAll connects c.players players, 64 at a time; the players of room r
// are r, r+R, r+2R, … It returns those connected (to be closed by the
// caller, error or not) and the first error.
func dialAll(ctx context.Context, c loadConfig, playing *atomic.Bool) (all []*lgPlayer, groups [][]*lgPlayer, firstErr error) {
	groups = make([][]*lgPlayer, c.rooms)
	var dialMu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64) // dial in waves
	for i := range c.players {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			p, err := dialPlayer(ctx, c, i)
			dialMu.Lock()
			defer dialMu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("player %d: connect: %w", i, err)
				}
				return
			}
			go p.readLoop(playing)
			all = append(all, p)
			groups[i%c.rooms] = append(groups[i%c.rooms], p)
		}()
	}
	wg.Wait()
	return all, groups, firstErr
}

// setupRooms sets every room up at once: the first player creates, the
// others join, all get ready ("mixed" alternates race and co-op).
func setupRooms(ctx context.Context, c loadConfig, groups [][]*lgPlayer) error {
	errs := make(chan error, c.rooms)
	for r, g := range groups {
		go func() {
			mode := c.mode
			if mode == "mixed" {
				mode = []string{rooms.Race, rooms.Coop}[r%2]
			}
			errs <- setupRoom(ctx, g, mode, c)
		}()
	}
	for range c.rooms {
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}

// loadRun is what the server and this process did while the players
// played.
type loadRun struct {
	mid, after, peak serverStats // the server's counters at the start and the end, and at its peak RSS
	secs             float64     // how long the play lasted
	ownCPU           float64     // this process's CPU seconds meanwhile
}

// playAll lets every player play for c.duration while the server's
// memory is sampled every 5 s.
func playAll(c loadConfig, all []*lgPlayer) (loadRun, error) {
	var run loadRun
	var err error
	if run.mid, err = fetchStats(c.addr); err != nil {
		return run, err
	}
	t0, cpu0 := time.Now(), cputime.Process()
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		tk := time.NewTicker(5 * time.Second)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				if s, err := fetchStats(c.addr); err == nil && s.RSSBytes > run.peak.RSSBytes {
					run.peak = s
				}
			}
		}
	}()
	var pw sync.WaitGroup
	for _, p := range all {
		pw.Add(1)
		go func() {
			defer pw.Done()
			p.play(c, stop)
		}()
	}
	time.Sleep(c.duration)
	close(stop)
	pw.Wait()
	<-watched
	run.secs = time.Since(t0).Seconds()
	run.ownCPU = (cputime.Process() - cpu0).Seconds()
	if run.after, err = fetchStats(c.addr); err != nil {
		return run, err
	}
	if run.after.RSSBytes > run.peak.RSSBytes {
		run.peak = run.after
	}
	return run, nil
}

// awaitAnswers waits up to limit for the answers to the last moves sent.
func awaitAnswers(all []*lgPlayer, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		waiting := 0
		for _, p := range all {
			p.mu.Lock()
			waiting += len(p.sent)
			p.mu.Unlock()
		}
		if waiting == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// loadTally adds up the players' moves, their fates and round trips.
type loadTally struct {
	moves, lost, misordered int
	rtts                    []float64 // sorted
}

// verifyAll compares every player's board with the server's and adds up
// what they saw.
func verifyAll(all []*lgPlayer) loadTally {
	vctx, vcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer vcancel()
	var t loadTally
	var vw sync.WaitGroup
	var vmu sync.Mutex
	for _, p := range all {
		vw.Add(1)
		go func() {
			defer vw.Done()
			bad := p.verify(vctx)
			p.mu.Lock()
			defer p.mu.Unlock()
			vmu.Lock()
			defer vmu.Unlock()
			t.moves += p.moves
			t.lost += p.lost + len(p.sent)
			t.misordered += p.misorder + bad
			t.rtts = append(t.rtts, p.rtts...)
		}()
	}
	vw.Wait()
	slices.Sort(t.rtts)
	return t
}

// reportLoad prints the run's figures: the server's CPU and memory, the
// generator's own CPU, the moves and their round trips, and the summary
// line.
func reportLoad(out io.Writer, c loadConfig, before serverStats, run loadRun, t loadTally) {
	mid, after, peak, playSecs := run.mid, run.after, run.peak, run.secs
	cpu := (after.CPUSeconds - mid.CPUSeconds) / playSecs
	fmt.Fprintf(out, "loadgen: server while playing: CPU %.1f%% of one core (%.1f s in %.0f s), RSS %.1f MB (peak), heap %.1f MB, %d goroutines, %d connections, %d rooms\n",
		100*cpu, after.CPUSeconds-mid.CPUSeconds, playSecs, float64(peak.RSSBytes)/1e6, float64(peak.HeapBytes)/1e6, peak.Goroutines, peak.Conns, peak.Rooms)
	if run.ownCPU > 0 {
		fmt.Fprintf(out, "loadgen: the generator itself: CPU %.1f%% of one core (%.1f s), on the same machine\n", 100*run.ownCPU/playSecs, run.ownCPU)
	}
	fmt.Fprintf(out, "loadgen: server moves applied %d (before the run %d); round trip p90 %.2f ms, max %.2f ms\n",
		after.Moves-before.Moves, before.Moves, msQuantile(t.rtts, 0.90), msQuantile(t.rtts, 1))
	fmt.Fprintf(out, "loadgen: the server's share (socket read to answer queued, %d moves since it started): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		after.MoveCount, float64(after.MoveP50Us)/1000, float64(after.MoveP99Us)/1000, float64(after.MoveMaxUs)/1000)
	fmt.Fprintf(out, "players=%d rooms=%d moves=%d lost=%d misordered=%d p50=%.2fms p99=%.2fms\n",
		c.players, c.rooms, t.moves, t.lost, t.misordered, msQuantile(t.rtts, 0.50), msQuantile(t.rtts, 0.99))
}

// setupRoom makes one room: create, join, ready, and wait for the start.
func setupRoom(ctx context.Context, g []*lgPlayer, mode string, c loadConfig) error {
	if len(g) == 0 {
		return nil
	}
	if err := g[0].send(ctx, rooms.In{T: "create", Mode: mode, Size: c.size, Level: c.level, Name: fmt.Sprint("load", g[0].id)}); err != nil {
		return err
	}
	b, err := g[0].await(ctx, "state", nil)
	if err != nil {
		return err
	}
	var st rooms.State
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("player %d: the room's state: %w", g[0].id, err)
	}
	for _, p := range g[1:] {
		if err := p.send(ctx, rooms.In{T: "join", Code: st.Code, Name: fmt.Sprint("load", p.id)}); err != nil {
			return err
		}
		if _, err := p.await(ctx, "state", nil); err != nil {
			return err
		}
	}
	for _, p := range g {
		if err := p.send(ctx, rooms.In{T: "ready", On: ptrTo(true)}); err != nil {
			return err
		}
	}
	for _, p := range g {
		b, err := p.await(ctx, "state", func(b []byte) bool { return strings.Contains(string(b), `"phase":"playing"`) })
		if err != nil {
			return err
		}
		var st rooms.State
		if err := json.Unmarshal(b, &st); err != nil {
			return fmt.Errorf("player %d: the game's state: %w", p.id, err)
		}
		if st.Board == nil {
			return fmt.Errorf("player %d: a started game without a board", p.id)
		}
		p.seat, p.mode, p.puzzle = st.You, st.Mode, st.Puzzle
		p.board, p.v = []byte(st.Board.Cells), st.Board.V
	}
	return nil
}

func ptrTo[T any](v T) *T { return &v }

// play makes a move every c.every (from a random offset) until stop.
func (p *lgPlayer) play(c loadConfig, stop chan struct{}) {
	rng := mrand.New(mrand.NewPCG(uint64(p.id), uint64(time.Now().UnixNano())))
	var free []int
	for i := range p.puzzle {
		if p.puzzle[i] == '0' {
			free = append(free, i)
		}
	}
	select {
	case <-time.After(time.Duration(rng.Int64N(int64(c.every)))):
	case <-stop:
		return
	}
	tk := time.NewTicker(c.every)
	defer tk.Stop()
	var seq int64
	n := c.size
	for {
		p.mu.Lock()
		over := p.over
		p.mu.Unlock()
		if !over && len(free) > 0 {
			seq++
			cell, value := free[rng.IntN(len(free))], rng.IntN(n+1)
			p.mu.Lock()
			p.sent[seq] = time.Now()
			p.moves++
			p.mu.Unlock()
			if err := p.send(context.Background(), rooms.In{T: "move", Seq: seq, Cell: &cell, Value: &value}); err != nil {
				return // counted as lost: never answered
			}
		}
		select {
		case <-tk.C:
		case <-stop:
			return
		}
	}
}

// verify asks the server for the whole state and compares its board with
// the one this player's messages built: 1 when they differ.
func (p *lgPlayer) verify(ctx context.Context) int {
	for {
		select {
		case <-p.in:
		default:
			goto drained
		}
	}
drained:
	if err := p.send(ctx, rooms.In{T: "sync", Seq: 1 << 40}); err != nil {
		return 1
	}
	b, err := p.await(ctx, "state", func(b []byte) bool { return strings.Contains(string(b), `"seq":1099511627776`) })
	if err != nil {
		return 1
	}
	var st rooms.State
	if json.Unmarshal(b, &st) != nil {
		return 1 // a state that cannot be read matches no board
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if st.Board == nil || st.Board.Cells != string(p.board) || st.Board.V != p.v {
		return 1
	}
	return 0
}

// msQuantile returns the q-quantile of sorted xs (nearest rank).
func msQuantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	i := int(q*float64(len(xs))+0.5) - 1
	return xs[min(max(i, 0), len(xs)-1)]
}

// runQuick is quick mode: how long players wait for a started game.
func runQuick(c loadConfig, out io.Writer) error {
	mode := c.mode
	if mode == "mixed" {
		mode = rooms.Race
	}
	what := fmt.Sprintf("%s, %dx%d %s", mode, c.size, c.size, c.level)
	if c.kinds > 1 {
		what = fmt.Sprintf("%d kinds of %dx%d game", c.kinds, c.size, c.size)
	}
	fmt.Fprintf(out, "loadgen: %d players ask for a quick match (%s), arriving over %v%s\n", c.quick, what, c.arrive, sourcesNote(c))
	ctx, cancel := context.WithTimeout(context.Background(), c.setup)
	defer cancel()
	var playing atomic.Bool // never: quick mode reads everything through await
	waits := make([]float64, c.quick)
	codes := make([]string, c.quick)
	errs := make(chan error, c.quick)
	var conns []*lgPlayer
	var mu sync.Mutex
	for i := range c.quick {
		var at time.Duration
		if c.quick > 1 {
			at = c.arrive * time.Duration(i) / time.Duration(c.quick-1)
		}
		go func() {
			time.Sleep(at)
			p, err := dialPlayer(ctx, c, i)
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			conns = append(conns, p)
			mu.Unlock()
			go p.readLoop(&playing)
			mode, level := mode, c.level
			if c.kinds > 1 {
				mode, level = quickKinds[i%c.kinds].mode, quickKinds[i%c.kinds].level
			}
			t0 := time.Now()
			if err := p.send(ctx, rooms.In{T: "quick", Mode: mode, Size: c.size, Level: level, Name: fmt.Sprint("quick", i)}); err != nil {
				errs <- err
				return
			}
			b, err := p.await(ctx, "state", func(b []byte) bool { return strings.Contains(string(b), `"phase":"playing"`) })
			if err != nil {
				errs <- err
				return
			}
			waits[i] = float64(time.Since(t0).Microseconds()) / 1000
			var st rooms.State
			if err := json.Unmarshal(b, &st); err != nil {
				errs <- fmt.Errorf("room %d: the state: %w", i, err)
				return
			}
			codes[i] = st.Code
			errs <- nil
		}()
	}
	for range c.quick {
		if err := <-errs; err != nil {
			return err
		}
	}
	for _, p := range conns {
		_ = p.send(context.Background(), rooms.In{T: "leave"}) // a player already gone has left
		p.conn.Close(websocket.StatusNormalClosure, "done")
	}
	sizes := map[string]int{}
	for _, code := range codes {
		sizes[code]++
	}
	hist := map[int]int{}
	for _, n := range sizes {
		hist[n]++
	}
	slices.Sort(waits)
	fmt.Fprintf(out, "loadgen: rooms by players: 1:%d 2:%d 3:%d 4:%d; wait p90 %.0f ms\n", hist[1], hist[2], hist[3], hist[4], msQuantile(waits, 0.9))
	fmt.Fprintf(out, "quick=%d rooms=%d median=%.0fms max=%.0fms\n", c.quick, len(sizes), msQuantile(waits, 0.5), msQuantile(waits, 1))
	return nil
}
