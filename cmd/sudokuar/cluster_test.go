package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/pgtest"
	"github.com/sudokuar/sudokuar/rooms"
)

// The tests here run real `sudokuar serve` processes (the binary, built
// once) as the nodes of a cluster sharing a throwaway PostgreSQL
// database, and play through them as players do, over the rooms
// WebSocket: a node killed with SIGKILL in the middle of a race and a
// co-op game, stopped with SIGTERM, joined through the wrong node, quick
// match across nodes, and the matchmaker's node killed. They need
// SUDOKUAR_PG_URL (`make test-pg` sets it) and skip without it.

// clusterDB makes a fresh schema for one test on the test server and
// returns its postgres:// URL (the form `serve --db` takes), or skips t.
func clusterDB(t *testing.T) string {
	t.Helper()
	return pgtest.URL(pgtest.Schema(t, "fleet"))
}

// buildSudokuar builds the command into a temporary folder (the build
// cache makes it quick after the first time).
func buildSudokuar(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sudokuar")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// freePort asks the system for a free TCP port on the loopback.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// node is one `sudokuar serve` process of a test cluster.
type node struct {
	bin, db    string
	name       string
	port       int
	cmd        *exec.Cmd
	out        *syncBuffer
	exited     chan struct{}
	exitErr    error
	extraFlags []string
	pubURL     string // --url when not url()
}

func (n *node) url() string { return fmt.Sprintf("http://127.0.0.1:%d", n.port) }

// publicURL is the node's --url: where "moved" sends players.
func (n *node) publicURL() string {
	if n.pubURL != "" {
		return n.pubURL
	}
	return n.url()
}

// start runs the node and waits until it answers.
func (n *node) start(t *testing.T) {
	t.Helper()
	n.out = &syncBuffer{}
	args := append([]string{"serve", "--addr", fmt.Sprintf("127.0.0.1:%d", n.port), "--db", n.db, "--node", n.name, "--url", n.publicURL()}, n.extraFlags...)
	n.cmd = exec.Command(n.bin, args...)
	n.cmd.Stdout, n.cmd.Stderr = n.out, n.out
	if err := n.cmd.Start(); err != nil {
		t.Fatalf("start node %s: %v", n.name, err)
	}
	n.exited = make(chan struct{})
	go func() {
		n.exitErr = n.cmd.Wait()
		close(n.exited)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := fetchStats(n.url()); err == nil {
			return
		}
		select {
		case <-n.exited:
			t.Fatalf("node %s exited: %v\n%s", n.name, n.exitErr, n.out)
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("node %s does not answer after 30 s:\n%s", n.name, n.out)
}

// up reports whether the process runs.
func (n *node) up() bool {
	select {
	case <-n.exited:
		return false
	default:
		return true
	}
}

// stop sends sig and waits for the process to end.
func (n *node) stop(t *testing.T, sig syscall.Signal) {
	t.Helper()
	select {
	case <-n.exited:
		return
	default:
	}
	_ = n.cmd.Process.Signal(sig)
	select {
	case <-n.exited:
	case <-time.After(30 * time.Second):
		_ = n.cmd.Process.Kill()
		<-n.exited
		t.Errorf("node %s did not stop within 30 s of %v", n.name, sig)
	}
}

// clusterBinary builds sudokuar for the process tests, or skips t when
// there is no PostgreSQL to run them on.
func clusterBinary(t *testing.T) string {
	t.Helper()
	pgtest.Server(t)
	bin := buildSudokuar(t)
	help, _ := exec.Command(bin, "serve", "--help").CombinedOutput()
	if !strings.Contains(string(help), "-node") {
		t.Skip("sudokuar serve has no --node flag: this build has no cluster (package cluster's serve wiring)")
	}
	return bin
}

// startCluster runs nodes a, b and c of binary bin on one fresh
// database; urlOf (nil: their own addresses) gives the --url of each.
func startCluster(t *testing.T, bin string, urlOf func(name string) string, flags ...string) []*node {
	db := clusterDB(t)
	var ns []*node
	for _, name := range []string{"a", "b", "c"} {
		n := &node{bin: bin, db: db, name: name, port: freePort(t), extraFlags: flags}
		if urlOf != nil {
			n.pubURL = urlOf(name)
		}
		n.start(t)
		t.Cleanup(func() {
			n.stop(t, syscall.SIGKILL)
			if t.Failed() {
				t.Logf("node %s said:\n%s", n.name, n.out)
			}
		})
		ns = append(ns, n)
	}
	return ns
}

// ensureUp starts again the nodes a failed subtest left stopped.
func ensureUp(t *testing.T, ns []*node) {
	t.Helper()
	for _, n := range ns {
		if !n.up() {
			n.start(t)
		}
	}
}

// tplayer is a test's player: loadgen's, driven one step at a time.
type tplayer struct {
	*lgPlayer
	t       *testing.T
	playing atomic.Bool
	name    string
	seq     int64 // the last move's number
}

// newTPlayer connects a player to base; addrs are the nodes it may
// reconnect to.
func newTPlayer(t *testing.T, name, base string, addrs []string) *tplayer {
	t.Helper()
	tp := &tplayer{t: t, name: name}
	tp.lgPlayer = newLgPlayer(loadConfig{addrs: addrs}, 0, &tp.playing)
	tp.base = base
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := tp.connect(ctx); err != nil {
		t.Fatalf("%s: connect to %s: %v", name, base, err)
	}
	go tp.readLoop()
	t.Cleanup(tp.close)
	return tp
}

func (tp *tplayer) do(m any) {
	tp.t.Helper()
	if err := tp.send(context.Background(), m); err != nil {
		tp.t.Fatalf("%s: send: %v", tp.name, err)
	}
}

// state waits for a state that ok accepts.
func (tp *tplayer) state(ok func(rooms.State) bool, what string) rooms.State {
	tp.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var st rooms.State
	_, err := tp.await(ctx, "state", func(b []byte) bool {
		return json.Unmarshal(b, &st) == nil && ok(st)
	})
	if err != nil {
		tp.t.Fatalf("%s waiting for %s: %v", tp.name, what, err)
	}
	return st
}

// create makes a room of mode and returns its code.
func (tp *tplayer) create(mode string) string {
	tp.t.Helper()
	tp.do(rooms.In{T: "create", Mode: mode, Size: 4, Level: "easy", Name: tp.name})
	st := tp.state(func(s rooms.State) bool { return s.Code != "" }, "its new room")
	tp.mu.Lock()
	tp.code = st.Code
	tp.mu.Unlock()
	return st.Code
}

// join joins code (following "moved" on the way) and returns the state.
func (tp *tplayer) join(code string) rooms.State {
	tp.t.Helper()
	tp.mu.Lock()
	tp.code = code
	tp.mu.Unlock()
	tp.do(rooms.In{T: "join", Code: code, Name: tp.name})
	return tp.state(func(s rooms.State) bool { return s.Code == code && s.You >= 0 }, "a seat in "+code)
}

// startGame readies every player and waits until each sees the game;
// co-op players share a room log. From then on their messages are checked
// as loadgen checks them.
func startGame(t *testing.T, ps ...*tplayer) {
	t.Helper()
	for _, p := range ps {
		p.do(rooms.In{T: "ready", On: ptrTo(true)})
	}
	var shared *lgRoom
	for _, p := range ps {
		st := p.state(func(s rooms.State) bool { return s.Phase == rooms.PhasePlaying && s.Board != nil }, "the game")
		p.mu.Lock()
		if st.Mode == rooms.Coop && shared == nil {
			shared = newLgRoom()
		}
		if st.Mode == rooms.Coop {
			p.room = shared
		}
		p.seat, p.mode, p.puzzle = st.You, st.Mode, st.Puzzle
		p.board, p.v = []byte(st.Board.Cells), st.Board.V
		p.mu.Unlock()
		p.playing.Store(true)
	}
}

// placed is a move the server acknowledged: value at cell.
type placed struct{ cell, value int }

// play makes n moves on free cells from the k-th on (distinct per
// player) and waits for every ack; it returns them.
func (tp *tplayer) play(k, n int) []placed {
	tp.t.Helper()
	tp.mu.Lock()
	var free []int
	for i := range tp.puzzle {
		if tp.puzzle[i] == '0' {
			free = append(free, i)
		}
	}
	acked0 := tp.acked
	tp.mu.Unlock()
	var out []placed
	for j := range n {
		cell := free[(k+j)%len(free)]
		value := 1 + (k+j)%4
		tp.seq++
		tp.sendMove(tp.seq, cell, value)
		out = append(out, placed{cell, value})
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		tp.mu.Lock()
		acked := tp.acked - acked0
		tp.mu.Unlock()
		if acked == n {
			return out
		}
		if time.Now().After(deadline) {
			tp.t.Fatalf("%s: %d of %d moves acknowledged after 20 s", tp.name, acked, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// back waits until the player has come back to its room after a drop or
// a move (its state checked against the acked moves) and returns how
// long it was away.
func (tp *tplayer) back(resumes int) time.Duration {
	tp.t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for {
		tp.mu.Lock()
		n, away, stranded, why := tp.resumes, tp.away, tp.stranded, tp.why
		var last float64
		if len(tp.lgPlayer.back) > 0 {
			last = tp.lgPlayer.back[len(tp.lgPlayer.back)-1]
		}
		tp.mu.Unlock()
		if n >= resumes && !away {
			return time.Duration(last * float64(time.Millisecond))
		}
		if stranded || time.Now().After(deadline) {
			tp.t.Fatalf("%s is not back in its room (stranded %v: %q; %d returns)", tp.name, stranded, why, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// holds checks with a sync that the room's board has every move in ms.
func (tp *tplayer) holds(ms []placed) {
	tp.t.Helper()
	tp.playing.Store(false) // the sync's answer goes to await
	defer tp.playing.Store(true)
	tp.do(rooms.In{T: "sync", Seq: 1 << 40})
	st := tp.state(func(s rooms.State) bool { return s.Seq == 1<<40 }, "the sync's answer")
	if st.Board == nil {
		tp.t.Fatalf("%s: no board after the return", tp.name)
	}
	for _, m := range ms {
		if got := st.Board.Cells[m.cell]; got != byte('0'+m.value) {
			tp.t.Errorf("%s: cell %d is %c after the return, the server had acknowledged %d there", tp.name, m.cell, got, m.value)
		}
	}
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.lost != 0 || tp.misorder != 0 {
		tp.t.Errorf("%s: %d acked moves lost, %d misordered", tp.name, tp.lost, tp.misorder)
	}
}

// leader returns the node that runs the matchmaker now (from
// /api/rooms/stats), or nil.
func leader(ns []*node) *node {
	for _, n := range ns {
		var s struct {
			Leader bool `json:"leader"`
		}
		res, err := http.Get(n.url() + "/api/rooms/stats")
		if err != nil {
			continue
		}
		err = json.NewDecoder(res.Body).Decode(&s)
		res.Body.Close()
		if err == nil && s.Leader {
			return n
		}
	}
	return nil
}

// quickPair sends two players on different nodes to quick match and
// waits until both play in one room; it returns how long that took.
func quickPair(t *testing.T, a, b *node, addrs []string, tag string) time.Duration {
	t.Helper()
	p1 := newTPlayer(t, tag+"1", a.url(), addrs)
	p2 := newTPlayer(t, tag+"2", b.url(), addrs)
	t0 := time.Now()
	for _, p := range []*tplayer{p1, p2} {
		q := rooms.In{T: "quick", Mode: rooms.Race, Size: 4, Level: "easy", Name: p.name}
		p.mu.Lock()
		p.quickMsg = &q
		p.mu.Unlock()
		p.do(q)
	}
	playing := func(s rooms.State) bool { return s.Phase == rooms.PhasePlaying }
	s1 := p1.state(playing, "a quick match")
	s2 := p2.state(playing, "a quick match")
	if s1.Code != s2.Code {
		t.Errorf("quick match: players asking on nodes %s and %s play in rooms %s and %s, not together", a.name, b.name, s1.Code, s2.Code)
	}
	return time.Since(t0)
}

// TestPostgresCluster runs three serve processes (one build) on one
// PostgreSQL and plays through them: directly (clusterDirect), then behind
// HAProxy (clusterBalanced, clusterBrowser). Skipped without PostgreSQL;
// the HAProxy part without haproxy, the browser without chromium.
func TestPostgresCluster(t *testing.T) {
	bin := clusterBinary(t)
	t.Run("direct", func(t *testing.T) { clusterDirect(t, bin) })
	t.Run("haproxy", func(t *testing.T) {
		haproxy, err := exec.LookPath("haproxy")
		if err != nil {
			t.Skip("haproxy is not installed (Debian: apt-get install haproxy; `make test-pg` installs it)")
		}
		ns, balancer := startBalanced(t, bin, haproxy)
		t.Run("loadgen, the busiest node killed", func(t *testing.T) { clusterBalanced(t, ns, balancer) })
		t.Run("the rooms page, its node killed", func(t *testing.T) {
			ensureUp(t, ns)
			clusterBrowser(t, ns, balancer)
		})
	})
}

// clusterDirect plays through three serve processes on one PostgreSQL:
// join by code through the wrong node; a race and a co-op game whose node
// is killed (SIGKILL) in the middle, taken over by another node with
// every acknowledged move; a node stopped with SIGTERM handing its room
// over with no error seen; quick match with players on different nodes;
// the matchmaker's node killed and matching going on.
func clusterDirect(t *testing.T, bin string) {
	ns := startCluster(t, bin, nil)
	a, b, c := ns[0], ns[1], ns[2]
	addrs := []string{a.url(), b.url(), c.url()}

	t.Run("join through the wrong node", func(t *testing.T) {
		host := newTPlayer(t, "Ada", a.url(), addrs)
		code := host.create(rooms.Race)
		guest := newTPlayer(t, "Bob", b.url(), addrs)
		st := guest.join(code)
		if guest.base != a.url() {
			t.Errorf("the guest joined through node b and plays on %s, not on node a (%s) that holds the room", guest.base, a.url())
		}
		if len(st.Seats) != 2 {
			t.Errorf("room %s has %d seats after the guest came over from node b, want 2", code, len(st.Seats))
		}
	})

	t.Run("node killed mid-game", func(t *testing.T) {
		ensureUp(t, ns)
		// A race and a co-op room on node a, both playing, moves acked.
		r1, r2 := newTPlayer(t, "Race1", a.url(), addrs), newTPlayer(t, "Race2", a.url(), addrs)
		c1, c2 := newTPlayer(t, "Coop1", a.url(), addrs), newTPlayer(t, "Coop2", a.url(), addrs)
		r2.join(r1.create(rooms.Race))
		c2.join(c1.create(rooms.Coop))
		startGame(t, r1, r2)
		startGame(t, c1, c2)
		mr1, mr2 := r1.play(0, 3), r2.play(3, 3)
		mc := append(c1.play(0, 2), c2.play(2, 2)...)
		a.stop(t, syscall.SIGKILL)
		var waits []time.Duration
		for _, p := range []*tplayer{r1, r2, c1, c2} {
			waits = append(waits, p.back(1))
		}
		t.Logf("back in the room after node a was killed: %v", waits)
		r1.holds(mr1)
		r2.holds(mr2)
		c1.holds(mc)
		c2.holds(mc)
		// Play goes on where the room now lives.
		r1.play(6, 1)
		c1.play(4, 1)
		a.start(t)
	})

	t.Run("SIGTERM hands over", func(t *testing.T) {
		ensureUp(t, ns)
		p1, p2 := newTPlayer(t, "Term1", b.url(), addrs), newTPlayer(t, "Term2", b.url(), addrs)
		p2.join(p1.create(rooms.Coop))
		startGame(t, p1, p2)
		ms := append(p1.play(0, 2), p2.play(2, 2)...)
		// p2 keeps playing through the stop, as players do: a move the
		// leaving node no longer takes gets no answer, never an error.
		stopMoving := make(chan struct{})
		moving := make(chan struct{})
		go func() {
			defer close(moving)
			for k := 0; ; k++ {
				select {
				case <-stopMoving:
					return
				case <-time.After(20 * time.Millisecond):
				}
				p2.seq++
				p2.sendMove(p2.seq, ms[2].cell, 1+k%4)
			}
		}()
		time.Sleep(200 * time.Millisecond)
		b.stop(t, syscall.SIGTERM)
		close(stopMoving)
		<-moving
		if b.exitErr != nil {
			t.Errorf("node b stopped by SIGTERM: %v\n%s", b.exitErr, b.out)
		}
		for _, p := range []*tplayer{p1, p2} {
			d := p.back(1)
			t.Logf("%s back in the room %v after node b's SIGTERM", p.name, d)
			p.holds([]placed{ms[0], ms[1], ms[3]}) // ms[2]'s cell p2 kept writing
			p.mu.Lock()
			if p.errs != 0 {
				t.Errorf("%s saw %d errors during the hand-over", p.name, p.errs)
			}
			p.mu.Unlock()
		}
		b.start(t)
	})

	t.Run("quick match across nodes", func(t *testing.T) {
		ensureUp(t, ns)
		d := quickPair(t, a, c, addrs, "Q")
		t.Logf("two players asking on nodes a and c started a game in %v", d)
	})

	t.Run("matchmaker killed", func(t *testing.T) {
		ensureUp(t, ns)
		var l *node
		for wait := time.Now().Add(10 * time.Second); l == nil && time.Now().Before(wait); time.Sleep(100 * time.Millisecond) {
			l = leader(ns)
		}
		if l == nil {
			t.Skip("no node says it leads the matchmaker (/api/rooms/stats has no \"leader\"): cannot pick it to kill")
		}
		l.stop(t, syscall.SIGKILL)
		var rest []*node
		for _, n := range ns {
			if n != l {
				rest = append(rest, n)
			}
		}
		t0 := time.Now()
		d := quickPair(t, rest[0], rest[1], addrs, "F")
		t.Logf("leader %s killed: two players on nodes %s and %s started a game %v later", l.name, rest[0].name, rest[1].name, time.Since(t0))
		_ = d
	})
}

// clusterBalanced runs loadgen through HAProxy (docs/haproxy.cfg with
// this test's ports) in front of three nodes whose --url routes through
// it, and kills the busiest node with SIGKILL in the middle of the games:
// every player comes back through the balancer with every acknowledged
// move.
func clusterBalanced(t *testing.T, ns []*node, balancer string) {
	out, errOut := &syncBuffer{}, &syncBuffer{}
	killed := make(chan *node, 1)
	go func() { // 2 s into the games, the node with the most rooms dies
		for !strings.Contains(out.String(), "rooms playing after") {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(2 * time.Second)
		victim, most := ns[0], -1
		for _, n := range ns {
			if s, err := fetchStats(n.url()); err == nil && s.Rooms > most {
				victim, most = n, s.Rooms
			}
		}
		victim.stop(t, syscall.SIGKILL)
		killed <- victim
	}()
	m := runLoadgen(t, out, errOut, "--addr", balancer, "--players", "24", "--rooms", "6", "--mode", "mixed",
		"--size", "4", "--duration", "8s", "--every", "200ms")
	victim := <-killed
	t.Logf("node %s was killed 2 s into the games", victim.name)
	if m[4] != "0" || m[5] != "0" {
		t.Errorf("result: %s (want none lost or misordered)", m[0])
	}
	if reconnected, _ := strconv.Atoi(m[6]); reconnected == 0 || !strings.Contains(out.String(), " 0 players never came back") {
		t.Errorf("the players of node %s did not all come back after it was killed", victim.name)
	}
}

// startBalanced runs three nodes behind haproxy (docs/haproxy.cfg with
// this test's ports), each node's --url routed through it; it returns
// the nodes and the balancer's URL.
func startBalanced(t *testing.T, bin, haproxy string) ([]*node, string) {
	t.Helper()
	front := freePort(t)
	balancer := fmt.Sprintf("http://127.0.0.1:%d", front)
	ns := startCluster(t, bin, func(name string) string { return balancer + "/n/" + name }, "--proxy", "127.0.0.1")
	cfg, err := os.ReadFile("../../docs/haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(cfg), "127.0.0.1:8080", fmt.Sprintf("127.0.0.1:%d", front))
	for i, n := range ns {
		text = strings.ReplaceAll(text, fmt.Sprintf("127.0.0.1:%d", 8081+i), fmt.Sprintf("127.0.0.1:%d", n.port))
	}
	cfgPath := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	hout := &syncBuffer{}
	hp := exec.Command(haproxy, "-db", "-f", cfgPath)
	hp.Stdout, hp.Stderr = hout, hout
	if err := hp.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = hp.Process.Kill()
		_ = hp.Wait()
		if t.Failed() {
			t.Logf("haproxy said:\n%s", hout)
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := fetchStats(balancer); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy does not answer on %s:\n%s", balancer, hout)
		}
		time.Sleep(50 * time.Millisecond)
	}

	return ns, balancer
}
