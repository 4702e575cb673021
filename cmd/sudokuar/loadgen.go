package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mrand "math/rand/v2"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/rooms"
)

// loadConfig is `sudokuar dev loadgen`: players driven over the rooms
// WebSocket against running nodes (docs/rooms.md, "Load testing"). A move is
// lost when refused, acknowledged but missing after a return to the room,
// or unanswered on a socket that stayed open; misordered counts answers out
// of order, co-op versions skipped or repeated, and final boards unlike the
// server's. The last line is
//
//	players=N rooms=R moves=M lost=L misordered=K reconnected=C resumed=S p50=Xms p99=Yms
type loadConfig struct {
	addr     string   // as given
	addrs    []string // each node's base URL
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
	calm     time.Duration
	clients  []*http.Client // one per source address; nil: the default
}

// quickKinds are the kinds of game quick mode spreads players over with
// --kinds: each is its own queue.
var quickKinds = []struct{ mode, level string }{
	{rooms.Race, "easy"}, {rooms.Coop, "easy"}, {rooms.Race, "medium"}, {rooms.Coop, "medium"}, {rooms.Race, "hard"}, {rooms.Coop, "hard"},
}

func loadgenFlags(fs *flag.FlagSet) func(*env, []string) int {
	var c loadConfig
	fs.StringVar(&c.addr, "addr", "http://127.0.0.1:8080", "the server's `URL`, or several nodes' URLs separated by commas (players are spread over them)")
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
	fs.DurationVar(&c.calm, "calm", 5*time.Second, "the round trip's p99 \"outside the drops\" leaves out moves sent within this long after a socket dropped")
	fs.IntVar(&c.sources, "sources", -1, "connect from this many loopback addresses (127.0.0.2, 127.0.0.3, …), as players on many machines would, so that the server's per-address bounds (64 connections) count each like a household (default: one per 48 players when --addr is a loopback IP, else 0: the system's choice)")
	return func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintf(e.stderr, "sudokuar dev loadgen: unexpected argument %q\n", args[0])
			return exitUsage
		}
		loopback := true
		for _, a := range strings.Split(c.addr, ",") {
			u, err := url.Parse(strings.TrimSpace(a))
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				fmt.Fprintf(e.stderr, "sudokuar dev loadgen: --addr %q: want http://host:port (or several, separated by commas)\n", a)
				return exitUsage
			}
			if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() || ip.To4() == nil {
				loopback = false
			}
			c.addrs = append(c.addrs, strings.TrimSuffix(u.String(), "/"))
		}
		c.addr = strings.Join(c.addrs, ",")
		switch {
		case c.quick > 0 && (c.kinds < 1 || c.kinds > len(quickKinds)):
			fmt.Fprintf(e.stderr, "sudokuar dev loadgen: --kinds %d: want 1..%d\n", c.kinds, len(quickKinds))
			return exitUsage
		case c.quick > 0:
		case c.players < 1 || c.rooms < 1 || c.players < c.rooms:
			fmt.Fprintln(e.stderr, "sudokuar dev loadgen: want --players >= --rooms >= 1")
			return exitUsage
		case (c.players+c.rooms-1)/c.rooms > 4:
			fmt.Fprintf(e.stderr, "sudokuar dev loadgen: %d players in %d rooms is more than 4 a room\n", c.players, c.rooms)
			return exitUsage
		case c.mode != rooms.Race && c.mode != rooms.Coop && c.mode != "mixed":
			fmt.Fprintf(e.stderr, "sudokuar dev loadgen: --mode %q: want race, coop or mixed\n", c.mode)
			return exitUsage
		case c.every <= 0 || c.duration <= 0:
			fmt.Fprintln(e.stderr, "sudokuar dev loadgen: --every and --duration must be positive")
			return exitUsage
		}
		if c.sources < 0 {
			c.sources = 0
			if loopback {
				c.sources = (max(c.players, c.quick) + perSource - 1) / perSource
			}
		}
		if c.sources > 250 {
			fmt.Fprintf(e.stderr, "sudokuar dev loadgen: --sources %d: at most 250 loopback addresses\n", c.sources)
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
			fmt.Fprintln(e.stderr, "sudokuar dev loadgen:", err2)
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

// nodeStats are every node's counters at one time (a node that did not
// answer is missing).
type nodeStats map[string]serverStats

// fetchNodes reads every node's counters; it fails only when none
// answers.
func fetchNodes(addrs []string) (nodeStats, error) {
	out := nodeStats{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var firstErr error
	for _, a := range addrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := fetchStats(a)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			out[a] = s
		}()
	}
	wg.Wait()
	if len(out) == 0 {
		return nil, firstErr
	}
	return out, nil
}

// sum adds the counters of the nodes in both a and b (b's values), and
// says how many those are. The latency figures are the worst node's.
func (b nodeStats) sum(a nodeStats) (s serverStats, n int) {
	for k, x := range b {
		if _, ok := a[k]; !ok && a != nil {
			continue
		}
		n++
		s.Rooms += x.Rooms
		s.Playing += x.Playing
		s.Conns += x.Conns
		s.Queued += x.Queued
		s.Moves += x.Moves
		s.Dropped += x.Dropped
		s.Matches += x.Matches
		s.MoveCount += x.MoveCount
		s.MoveP50Us = max(s.MoveP50Us, x.MoveP50Us)
		s.MoveP99Us = max(s.MoveP99Us, x.MoveP99Us)
		s.MoveMaxUs = max(s.MoveMaxUs, x.MoveMaxUs)
		s.Goroutines += x.Goroutines
		s.HeapBytes += x.HeapBytes
		s.RSSBytes += x.RSSBytes
		s.CPUSeconds += x.CPUSeconds
	}
	return s, n
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

// nodesNote names the nodes.
func nodesNote(c loadConfig) string {
	if len(c.addrs) == 1 {
		return c.addrs[0]
	}
	return fmt.Sprintf("%d nodes (%s)", len(c.addrs), c.addr)
}

// dialPatience is how long a player keeps trying to connect while the
// server says "too many requests".
const dialPatience = time.Minute

func newPlayerID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// runLoad is rooms mode: connect every player, set up the rooms, play
// for c.duration, check every board against the server's, and report.
func runLoad(c loadConfig, out io.Writer) error {
	before, err := fetchNodes(c.addrs)
	if err != nil {
		return fmt.Errorf("the server's counters: %w", err)
	}
	fmt.Fprintf(out, "loadgen: %d players in %d rooms (%s, %dx%d %s) on %s, a move every %v each for %v%s\n",
		c.players, c.rooms, c.mode, c.size, c.size, c.level, nodesNote(c), c.every, c.duration, sourcesNote(c))
	ctx, cancel := context.WithTimeout(context.Background(), c.setup)
	defer cancel()
	start := time.Now()
	var playing atomic.Bool
	all, groups, err := dialAll(ctx, c, &playing)
	defer func() {
		for _, p := range all {
			p.close()
		}
	}()
	if err != nil {
		return err
	}
	var retries atomic.Int64
	if err := setupRooms(ctx, c, groups, &retries); err != nil {
		return err
	}
	retried := ""
	if n := retries.Load(); n > 0 {
		retried = fmt.Sprintf(" (%d creates or joins asked again: the server said to try again)", n)
	}
	fmt.Fprintf(out, "loadgen: %d rooms playing after %v%s\n", c.rooms, time.Since(start).Round(time.Millisecond), retried)
	playing.Store(true)
	run, err := playAll(c, all)
	if err != nil {
		return err
	}
	awaitAnswers(all, 5*time.Second)
	t := verifyAll(all, c.calm)
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
			p := newLgPlayer(c, i, playing)
			err := p.connect(ctx)
			dialMu.Lock()
			defer dialMu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("player %d: connect to %s: %w", i, p.base, err)
				}
				return
			}
			go p.readLoop()
			all = append(all, p)
			groups[i%c.rooms] = append(groups[i%c.rooms], p)
		}()
	}
	wg.Wait()
	return all, groups, firstErr
}

// setupRooms sets every room up at once: the first player creates, the
// others join, all get ready ("mixed" alternates race and co-op).
func setupRooms(ctx context.Context, c loadConfig, groups [][]*lgPlayer, retries *atomic.Int64) error {
	errs := make(chan error, c.rooms)
	for r, g := range groups {
		go func() {
			mode := c.mode
			if mode == "mixed" {
				mode = []string{rooms.Race, rooms.Coop}[r%2]
			}
			errs <- setupRoom(ctx, g, mode, c, retries)
		}()
	}
	for range c.rooms {
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}

// loadRun is what the servers and this process did while the players
// played.
type loadRun struct {
	mid, after nodeStats   // every node's counters at the start and the end
	peak       serverStats // that sample
	secs       float64     // how long the play lasted
	ownCPU     float64     // this process's CPU seconds meanwhile
}

// playAll lets every player play for c.duration while the servers'
// memory is sampled every 5 s.
func playAll(c loadConfig, all []*lgPlayer) (loadRun, error) {
	var run loadRun
	var err error
	if run.mid, err = fetchNodes(c.addrs); err != nil {
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
				if ns, err := fetchNodes(c.addrs); err == nil {
					if s, _ := ns.sum(nil); s.RSSBytes > run.peak.RSSBytes {
						run.peak = s
					}
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
	if run.after, err = fetchNodes(c.addrs); err != nil {
		return run, err
	}
	if s, _ := run.after.sum(nil); s.RSSBytes > run.peak.RSSBytes {
		run.peak = s
	}
	return run, nil
}

// awaitAnswers waits up to limit for the answers to the last moves sent
// (and for players away to come back).
func awaitAnswers(all []*lgPlayer, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		waiting := 0
		for _, p := range all {
			p.mu.Lock()
			waiting += len(p.sent)
			if p.away && !p.stranded {
				waiting++
			}
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
	reconnected, resumed    int
	unanswered, errs        int
	errText                 map[string]int // errors seen, by text
	whyText                 map[string]int // why players never came back, by text
	stranded                int
	rtts                    []float64 // sorted
	calm                    []float64 // sorted: those sent outside the windows after drops
	back                    []float64 // sorted: ms from a drop to the room's state
	drops                   int       // drop windows (drops within calm of each other are one)
}

// verifyAll compares every player's board with the server's and adds up
// what they saw.
func verifyAll(all []*lgPlayer, calm time.Duration) loadTally {
	vctx, vcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer vcancel()
	var t loadTally
	var vw sync.WaitGroup
	var vmu sync.Mutex
	var drops []time.Time
	var samples []lgRTT
	for _, p := range all {
		vw.Add(1)
		go func() {
			defer vw.Done()
			bad := 0
			p.mu.Lock()
			away := p.away || p.stranded
			p.mu.Unlock()
			if !away {
				bad = p.verify(vctx)
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			vmu.Lock()
			defer vmu.Unlock()
			t.moves += p.moves
			t.lost += p.lost + len(p.sent)
			t.misordered += p.misorder + bad
			t.reconnected += p.reconnects
			t.resumed += p.resumes
			t.unanswered += p.unanswered
			t.errs += p.errs
			for _, e := range p.errText {
				if t.errText == nil {
					t.errText = map[string]int{}
				}
				t.errText[e]++
			}
			if away {
				t.stranded++
				why := p.why
				if why == "" {
					why = "still away at the end"
				}
				if t.whyText == nil {
					t.whyText = map[string]int{}
				}
				t.whyText[why]++
			}
			for _, r := range p.rtts {
				t.rtts = append(t.rtts, r.ms)
			}
			samples = append(samples, p.rtts...)
			t.back = append(t.back, p.back...)
			drops = append(drops, p.drops...)
		}()
	}
	vw.Wait()
	slices.Sort(t.rtts)
	slices.Sort(t.back)
	windows := dropWindows(drops, calm)
	t.drops = len(windows)
	for _, s := range samples {
		if !inWindows(windows, s.at) {
			t.calm = append(t.calm, s.ms)
		}
	}
	slices.Sort(t.calm)
	return t
}

// window is a time span [from, to).
type window struct{ from, to time.Time }

// dropWindows merges the spans [drop, drop+calm) into disjoint windows.
func dropWindows(drops []time.Time, calm time.Duration) []window {
	slices.SortFunc(drops, func(a, b time.Time) int { return a.Compare(b) })
	var ws []window
	for _, d := range drops {
		if n := len(ws); n > 0 && !d.After(ws[n-1].to) {
			ws[n-1].to = d.Add(calm)
			continue
		}
		ws = append(ws, window{d, d.Add(calm)})
	}
	return ws
}

func inWindows(ws []window, t time.Time) bool {
	for _, w := range ws {
		if !t.Before(w.from) && t.Before(w.to) {
			return true
		}
	}
	return false
}

// reportLoad prints the run's figures: the servers' CPU and memory, the
// generator's own CPU, the moves and their round trips, the drops and
// returns, and the summary line.
func reportLoad(out io.Writer, c loadConfig, before nodeStats, run loadRun, t loadTally) {
	mid, _ := run.mid.sum(run.after)
	after, n := run.after.sum(run.mid)
	b0, _ := before.sum(nil)
	playSecs := run.secs
	cpu := (after.CPUSeconds - mid.CPUSeconds) / playSecs
	what := "server"
	if len(c.addrs) > 1 {
		what = fmt.Sprintf("servers (%d of %d nodes up at the start and the end, added up)", n, len(c.addrs))
	}
	fmt.Fprintf(out, "loadgen: %s while playing: CPU %.1f%% of one core (%.1f s in %.0f s), RSS %.1f MB (peak), heap %.1f MB, %d goroutines, %d connections, %d rooms\n",
		what, 100*cpu, after.CPUSeconds-mid.CPUSeconds, playSecs, float64(run.peak.RSSBytes)/1e6, float64(run.peak.HeapBytes)/1e6, run.peak.Goroutines, run.peak.Conns, run.peak.Rooms)
	if run.ownCPU > 0 {
		fmt.Fprintf(out, "loadgen: the generator itself: CPU %.1f%% of one core (%.1f s), on the same machine\n", 100*run.ownCPU/playSecs, run.ownCPU)
	}
	fmt.Fprintf(out, "loadgen: server moves applied %d (before the run %d); round trip p90 %.2f ms, max %.2f ms\n",
		after.Moves-mid.Moves, b0.Moves, msQuantile(t.rtts, 0.90), msQuantile(t.rtts, 1))
	fmt.Fprintf(out, "loadgen: the server's share (socket read to answer queued, %d moves since it started; the slowest node's): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		after.MoveCount, float64(after.MoveP50Us)/1000, float64(after.MoveP99Us)/1000, float64(after.MoveMaxUs)/1000)
	if t.reconnected > 0 || t.stranded > 0 {
		fmt.Fprintf(out, "loadgen: drops: %d window(s); back in the room after a drop or move: median %.0f ms, max %.0f ms (%d returns); %d players never came back; %d moves unanswered when their socket dropped; %d errors seen\n",
			t.drops, msQuantile(t.back, 0.5), msQuantile(t.back, 1), len(t.back), t.stranded, t.unanswered, t.errs)
		fmt.Fprintf(out, "loadgen: round trip outside the %v after each drop: p50 %.2f ms, p99 %.2f ms (%d of %d moves)\n",
			c.calm, msQuantile(t.calm, 0.5), msQuantile(t.calm, 0.99), len(t.calm), len(t.rtts))
	} else if t.errs > 0 {
		fmt.Fprintf(out, "loadgen: %d errors seen\n", t.errs)
	}
	if len(t.whyText) > 0 {
		fmt.Fprintf(out, "loadgen: never came back: %s\n", countedTexts(t.whyText))
	}
	if len(t.errText) > 0 {
		fmt.Fprintf(out, "loadgen: errors seen (up to 3 a player): %s\n", countedTexts(t.errText))
	}
	fmt.Fprintf(out, "players=%d rooms=%d moves=%d lost=%d misordered=%d reconnected=%d resumed=%d p50=%.2fms p99=%.2fms\n",
		c.players, c.rooms, t.moves, t.lost, t.misordered, t.reconnected, t.resumed, msQuantile(t.rtts, 0.50), msQuantile(t.rtts, 0.99))
}

// askUntil sends m and waits for a state ok accepts; a refusal that says
// to try again (busy: a setup of hundreds of rooms at once) is retried
// after a second or two, up to 5 times, as a person would click again,
// and counted in retries.
func askUntil(ctx context.Context, p *lgPlayer, m rooms.In, ok func([]byte) bool, retries *atomic.Int64) ([]byte, error) {
	for try := 0; ; try++ {
		if err := p.send(ctx, m); err != nil {
			return nil, err
		}
		b, err := p.await(ctx, "state", ok)
		if err == nil || try == 5 || !strings.Contains(err.Error(), "try again") {
			return b, err
		}
		retries.Add(1)
		select {
		case <-time.After(time.Second + time.Duration(mrand.Int64N(int64(time.Second)))):
		case <-ctx.Done():
			return nil, err
		}
	}
}

// countedTexts lists texts with their counts, most frequent first.
func countedTexts(m map[string]int) string {
	type tc struct {
		text string
		n    int
	}
	var l []tc
	for k, n := range m {
		l = append(l, tc{k, n})
	}
	slices.SortFunc(l, func(a, b tc) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.text, b.text)
	})
	var out []string
	for _, x := range l {
		out = append(out, fmt.Sprintf("%d× %.120s", x.n, x.text))
	}
	return strings.Join(out, "; ")
}

// setupRoom makes one room: create, join, ready, and wait for the start.
func setupRoom(ctx context.Context, g []*lgPlayer, mode string, c loadConfig, retries *atomic.Int64) error {
	if len(g) == 0 {
		return nil
	}
	b, err := askUntil(ctx, g[0], rooms.In{T: "create", Mode: mode, Size: c.size, Level: c.level, Name: fmt.Sprint("load", g[0].id)}, nil, retries)
	if err != nil {
		return err
	}
	var st rooms.State
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("player %d: the room's state: %w", g[0].id, err)
	}
	var shared *lgRoom
	if mode == rooms.Coop {
		shared = newLgRoom()
	}
	for _, p := range g {
		p.mu.Lock()
		p.code, p.room = st.Code, shared
		p.mu.Unlock()
	}
	for _, p := range g[1:] {
		// Through another node, the join is answered "moved": the read
		// loop follows it and joins there.
		if _, err := askUntil(ctx, p, rooms.In{T: "join", Code: st.Code, Name: fmt.Sprint("load", p.id)}, nil, retries); err != nil {
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
		p.mu.Lock()
		p.seat, p.mode, p.puzzle = st.You, st.Mode, st.Puzzle
		p.board, p.v = []byte(st.Board.Cells), st.Board.V
		p.mu.Unlock()
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
		if len(free) > 0 {
			seq++
			p.sendMove(seq, free[rng.IntN(len(free))], rng.IntN(n+1))
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
// Player i asks node i mod n; a player whose node drops while it waits
// asks again on the next node, its wait counted from its first ask.
func runQuick(c loadConfig, out io.Writer) error {
	mode := c.mode
	if mode == "mixed" {
		mode = rooms.Race
	}
	what := fmt.Sprintf("%s, %dx%d %s", mode, c.size, c.size, c.level)
	if c.kinds > 1 {
		what = fmt.Sprintf("%d kinds of %dx%d game", c.kinds, c.size, c.size)
	}
	fmt.Fprintf(out, "loadgen: %d players ask for a quick match (%s) on %s, arriving over %v%s\n", c.quick, what, nodesNote(c), c.arrive, sourcesNote(c))
	ctx, cancel := context.WithTimeout(context.Background(), c.setup)
	defer cancel()
	var playing atomic.Bool // never: quick mode reads everything through await
	waits := make([]float64, c.quick)
	codes := make([]string, c.quick)
	started := make([]time.Time, c.quick)
	errs := make(chan error, c.quick)
	var conns []*lgPlayer
	var mu sync.Mutex
	t0 := time.Now()
	for i := range c.quick {
		var at time.Duration
		if c.quick > 1 {
			at = c.arrive * time.Duration(i) / time.Duration(c.quick-1)
		}
		go func() {
			time.Sleep(at)
			p := newLgPlayer(c, i, &playing)
			if err := p.connect(ctx); err != nil {
				errs <- err
				return
			}
			mu.Lock()
			conns = append(conns, p)
			mu.Unlock()
			go p.readLoop()
			mode, level := mode, c.level
			if c.kinds > 1 {
				mode, level = quickKinds[i%c.kinds].mode, quickKinds[i%c.kinds].level
			}
			asked := time.Now()
			q := rooms.In{T: "quick", Mode: mode, Size: c.size, Level: level, Name: fmt.Sprint("quick", i)}
			p.mu.Lock()
			p.quickMsg = &q
			p.mu.Unlock()
			if err := p.send(ctx, q); err != nil {
				errs <- err
				return
			}
			b, err := p.await(ctx, "state", func(b []byte) bool { return strings.Contains(string(b), `"phase":"playing"`) })
			if err != nil {
				errs <- err
				return
			}
			started[i] = time.Now()
			waits[i] = float64(started[i].Sub(asked).Microseconds()) / 1000
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
	reconnected := 0
	for _, p := range conns {
		_ = p.send(context.Background(), rooms.In{T: "leave"}) // a player already gone has left
		p.close()
		p.mu.Lock()
		reconnected += p.reconnects
		p.mu.Unlock()
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
	if gap, at := longestGap(started, t0); len(c.addrs) > 1 || reconnected > 0 {
		fmt.Fprintf(out, "loadgen: longest time without a game starting: %.2f s (from %.1f s after the first ask); %d sockets reopened\n", gap.Seconds(), at.Seconds(), reconnected)
	}
	fmt.Fprintf(out, "quick=%d rooms=%d median=%.0fms max=%.0fms\n", c.quick, len(sizes), msQuantile(waits, 0.5), msQuantile(waits, 1))
	return nil
}

// longestGap returns the longest time between two games starting (from
// t0 to the first as well) and when it began, relative to t0.
func longestGap(started []time.Time, t0 time.Time) (gap, at time.Duration) {
	ts := slices.Clone(started)
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	prev := t0
	for _, t := range ts {
		if d := t.Sub(prev); d > gap {
			gap, at = d, prev.Sub(t0)
		}
		prev = t
	}
	return gap, at
}
