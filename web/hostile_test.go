package web

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/sudokuar/sudokuar/internal/attack"
	"github.com/sudokuar/sudokuar/rooms"
)

// The hostile client of issue 19, played against an in-process server:
// each attack runs while an innocent player (another address) asks for
// the server's health, plays a solo move and a room move in a loop. The
// tests assert what must never happen to the innocent (a 503 or 429, an
// error, an answer that does not come within eventTimeout) and what the
// attacker must not keep (rooms, goroutines, places in the gates). How
// long the innocent waits is logged, not asserted, as a busy machine
// makes it longer: BenchmarkHostile plays the same attacks for longer and
// reports the innocent's p99s and the process's peak RSS; the README
// gives its figures.

// hostileServer is a test server with room timers short enough for a
// test: a dropped player's seat waits 300 ms.
func hostileServer(t testing.TB, cfg Config) *apiServer {
	cfg.Rooms.Tick = 10 * time.Millisecond
	cfg.Rooms.Countdown = 20 * time.Millisecond
	if cfg.Rooms.Reconnect == 0 {
		cfg.Rooms.Reconnect = 300 * time.Millisecond
	}
	return newAPIServer(t, cfg)
}

// bystander is the innocent player beside the attack: its own address, a solo
// game, and a race room with a second player.
type bystander struct {
	t      testing.TB
	p      *peer
	game   string
	empty  []int // empty cells of the solo game
	room   *wsClient
	rempty []int // empty cells of the room's puzzle

	mu    sync.Mutex
	lat   map[string][]time.Duration
	fails []string
}

// newBystander starts the innocent's games (before the attack).
func newBystander(t testing.TB, a *apiServer) *bystander {
	t.Helper()
	in := &bystander{t: t, p: a.peer(t, "127.0.0.99"), lat: map[string][]time.Duration{}}
	in.p.visit()
	s, v, _ := in.p.post("/api/games", `{"size":"9","level":"easy"}`)
	if s != http.StatusCreated {
		t.Fatalf("the innocent's new game: %d %v", s, v)
	}
	in.game = v["id"].(string)
	for i, c := range v["puzzle"].(string) {
		if c == '0' {
			in.empty = append(in.empty, i)
		}
	}
	cs := []*wsClient{dialRooms(t, a.URL, playerID(900)), dialRooms(t, a.URL, playerID(901))}
	st := startRoom(t, rooms.Race, cs...)
	in.room = cs[0]
	for i, c := range st[0].Puzzle {
		if c == '0' {
			in.rempty = append(in.rempty, i)
		}
	}
	return in
}

// play runs the innocent's three requests in turn until ctx ends.
func (in *bystander) play(ctx context.Context) {
	for k := 0; ctx.Err() == nil; k++ {
		in.timed("health", func() error {
			s, _, _ := in.p.do("GET", "/api/health", "", nil)
			return statusErr(s, http.StatusOK)
		})
		in.timed("solo move", func() error {
			s, v, _ := in.p.post("/api/games/"+in.game+"/move", fmt.Sprintf(`{"cell":%d,"value":%d}`, in.empty[k%len(in.empty)], k%9+1))
			if err := statusErr(s, http.StatusOK); err != nil {
				return fmt.Errorf("%w: %v", err, v["error"])
			}
			return nil
		})
		in.timed("room move", func() error {
			return in.roomMove(in.rempty[k%len(in.rempty)], k%9+1)
		})
		// About 10 rounds a second at most: the room's message budget
		// is 20 a second.
		time.Sleep(100 * time.Millisecond)
	}
}

// roomMove sends a move on the innocent's room socket and waits for its
// acknowledgement (or an error) without failing the test from the
// innocent's goroutine.
func (in *bystander) roomMove(cell, value int) error {
	c := in.room
	c.seq++
	seq := c.seq
	b, _ := json.Marshal(map[string]any{"t": "move", "cell": cell, "value": value, "seq": seq})
	ctx, cancel := context.WithTimeout(context.Background(), eventTimeout)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, b); err != nil {
		return err
	}
	mine := fmt.Sprintf(`"seq":%d,`, seq)
	for {
		c.mu.Lock()
		for c.next < len(c.msgs) {
			m := c.msgs[c.next]
			c.next++
			switch {
			case strings.HasPrefix(m, `{"t":"ack"`) && strings.Contains(m, mine):
				c.mu.Unlock()
				return nil
			case strings.HasPrefix(m, `{"t":"error"`):
				c.mu.Unlock()
				return fmt.Errorf("error: %s", m)
			}
		}
		c.mu.Unlock()
		select {
		case <-c.signal:
		case <-c.closed:
			return fmt.Errorf("the room socket closed (%v)", c.status)
		case <-ctx.Done():
			return fmt.Errorf("no acknowledgement in %v", eventTimeout)
		}
	}
}

func statusErr(got, want int) error {
	if got != want {
		return fmt.Errorf("status %d, want %d", got, want)
	}
	return nil
}

func (in *bystander) timed(what string, f func() error) {
	start := time.Now()
	err := f()
	d := time.Since(start)
	in.mu.Lock()
	defer in.mu.Unlock()
	in.lat[what] = append(in.lat[what], d)
	if err != nil {
		in.fails = append(in.fails, fmt.Sprintf("%s: %v", what, err))
	}
}

// during plays the innocent while attack runs, then reports: an error
// for every failure, and the p99 of each request in the log.
func (in *bystander) during(attack func()) map[string]time.Duration {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		in.play(ctx)
	}()
	attack()
	cancel()
	<-done
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, f := range in.fails {
		in.t.Errorf("innocent: %s", f)
	}
	p99 := map[string]time.Duration{}
	for what, ds := range in.lat {
		slices.Sort(ds)
		p99[what] = ds[min(len(ds)-1, len(ds)*99/100)]
		in.t.Logf("innocent %s: %d requests, p99 %v, max %v", what, len(ds), p99[what].Round(time.Microsecond), ds[len(ds)-1].Round(time.Microsecond))
	}
	in.lat, in.fails = map[string][]time.Duration{}, nil
	return p99
}

// settled waits (up to eventTimeout) for cond, which should come true
// once the server has let go of an attack.
func settled(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(eventTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Errorf("still not so after %v: %s", eventTimeout, what)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// attackUnsolvable sends the unsolvable 16×16 to /api/analyze,
// /api/solve and /api/games from two addresses, four requests at once
// each, for d. Every answer must be a 422 that gave up (or a 429 or 503
// refusal of the attacker's own excess: never a 500).
func attackUnsolvable(t testing.TB, a *apiServer, d time.Duration) map[int]int {
	body := `{"puzzle":"` + attack.Unsolvable16 + `"}`
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	for _, ip := range []string{"127.0.0.31", "127.0.0.32"} {
		p := a.peer(t, ip)
		p.visit()
		for k := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; time.Now().Before(stop); n++ {
					path := []string{"/api/analyze", "/api/solve", "/api/games"}[(k+n)%3]
					s, v, _ := p.post(path, body)
					if s == http.StatusUnprocessableEntity && !strings.Contains(fmt.Sprint(v["error"]), "gave up after") {
						t.Errorf("%s: 422 %v, want \"gave up after\"", path, v["error"])
					}
					if s != http.StatusUnprocessableEntity && s != http.StatusTooManyRequests && s != http.StatusServiceUnavailable {
						t.Errorf("%s: %d %v", path, s, v)
					}
					mu.Lock()
					codes[s]++
					mu.Unlock()
					if s == http.StatusTooManyRequests {
						time.Sleep(100 * time.Millisecond)
					}
				}
			}()
		}
	}
	wg.Wait()
	return codes
}

// TestHostileUnsolvable16: the counter gives up after 2 s, so the
// engine's places turn over: the innocent's new games are never refused,
// and once the attackers stop every place is free.
func TestHostileUnsolvable16(t *testing.T) {
	a := hostileServer(t, Config{})
	in := newBystander(t, a)
	var codes map[int]int
	in.during(func() {
		done := make(chan struct{})
		go func() {
			defer close(done)
			codes = attackUnsolvable(t, a, 5*time.Second)
		}()
		// New games from the innocent while every place may be taken:
		// they wait their turn, never a 503.
		for range 3 {
			in.timed("new game", func() error {
				s, v, _ := in.p.post("/api/games", `{"size":"4","level":"easy"}`)
				if s != http.StatusCreated {
					return fmt.Errorf("status %d: %v", s, v["error"])
				}
				return nil
			})
		}
		<-done
	})
	t.Logf("the attackers' answers: %v", codes)
	if codes[http.StatusUnprocessableEntity] == 0 {
		t.Errorf("no request gave up: %v", codes)
	}
	settled(t, "every engine place free after the attack", func() bool { return a.web.guards.work.InUse() == 0 })
}

// TestHostileUnsolvableHangUp: an attacker that hangs up at once frees
// its place when the search sees its request's context end (every few
// thousand nodes), well before the 2 s deadline would.
func TestHostileUnsolvableHangUp(t *testing.T) {
	a := hostileServer(t, Config{Limits: Limits{EngineWork: 1, EngineWorkPerClient: 1}})
	body := `{"puzzle":"` + attack.Unsolvable16 + `"}`
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", a.URL+"/api/analyze", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	errc := make(chan error, 1)
	go func() {
		_, err := a.Client().Do(req)
		errc <- err
	}()
	settled(t, "the attacker's request holds the engine's place", func() bool { return a.web.guards.work.InUse() == 1 })
	cancel()
	<-errc
	settled(t, "the place freed after the hang-up", func() bool { return a.web.guards.work.InUse() == 0 })
}

// roomSocket is an attacker's rooms socket from its own address.
type roomSocket struct {
	conn *websocket.Conn
	mu   sync.Mutex
	msgs []string
	done chan struct{}
}

func dialRoomsFrom(t testing.TB, url, ip, player string) (*roomSocket, error) {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/ws/rooms", &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: tr},
		HTTPHeader: http.Header{"Cookie": {playerCookie + "=" + player}},
	})
	if err != nil {
		return nil, err
	}
	s := &roomSocket{conn: conn, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			_, b, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			s.mu.Lock()
			s.msgs = append(s.msgs, string(b))
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() { conn.CloseNow() })
	return s, nil
}

func (s *roomSocket) send(m map[string]any) error {
	b, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.conn.Write(ctx, websocket.MessageText, b)
}

// attackCreates opens conns sockets from ip, each sending creates
// back to back (no wait for the room) every gap, for d; then closes them.
// It returns the most rooms seen open at once.
func attackCreates(t testing.TB, a *apiServer, ip string, conns int, gap, d time.Duration) int {
	var socks []*roomSocket
	for k := range conns {
		s, err := dialRoomsFrom(t, a.URL, ip, fmt.Sprintf("%032x", 5000+k))
		if err != nil {
			t.Fatalf("attacker socket %d: %v", k, err)
		}
		socks = append(socks, s)
	}
	most := 0
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for _, s := range socks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				if s.send(map[string]any{"t": "create", "mode": "race", "size": 9, "level": "hard"}) != nil {
					return
				}
				time.Sleep(gap)
			}
		}()
	}
	for time.Now().Before(stop) {
		most = max(most, a.web.Rooms().Stats().Rooms)
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	most = max(most, a.web.Rooms().Stats().Rooms)
	for _, s := range socks {
		s.conn.Close(websocket.StatusNormalClosure, "")
	}
	for _, s := range socks {
		<-s.done
	}
	return most
}

// TestHostileRoomCreates plays the create flood (one socket, 20 creates
// a second) and the back-to-back creates (40 sockets, a create every
// 20 ms each, never waiting for the room): a connection is in one room
// at most, so rooms never pile up; once the sockets close (and the seats
// have waited their 300 ms) no room and no goroutine is left.
func TestHostileRoomCreates(t *testing.T) {
	a := hostileServer(t, Config{})
	in := newBystander(t, a)
	base := a.web.Rooms().Stats().Rooms // the innocent's
	goroutines := runtime.NumGoroutine()
	var flood, b2b int
	in.during(func() {
		flood = attackCreates(t, a, "127.0.0.41", 1, 50*time.Millisecond, 3*time.Second)
		b2b = attackCreates(t, a, "127.0.0.42", 40, 20*time.Millisecond, 3*time.Second)
	})
	t.Logf("rooms open at most: %d (flood), %d (40 sockets back to back); the innocent's %d", flood, b2b, base)
	// A room a socket left may still be closing when its next opens.
	if flood > base+2 {
		t.Errorf("one socket flooding creates had %d rooms open at once, want at most 2 (one closing)", flood-base)
	}
	if b2b > base+80 {
		t.Errorf("40 sockets creating back to back had %d rooms open, want at most 80", b2b-base)
	}
	settled(t, "no attacker room left", func() bool { return a.web.Rooms().Stats().Rooms == base })
	if a.web.Rooms().Stats().Rooms != base {
		t.Logf("rooms open: %+v; hub: %+v", a.web.Rooms().Open(), a.web.Rooms().Stats())
	}
	settled(t, "no attacker goroutine left", func() bool { return runtime.NumGoroutine() <= goroutines+5 })
	settled(t, "no engine place held", func() bool { return a.web.guards.work.InUse() == 0 })
}

// TestHostileIdleRoomSockets: one address may hold MaxConnsPerAddress
// sockets; the rest are refused, others still connect, and sockets idle
// outside a room are closed after LobbyIdle.
func TestHostileIdleRoomSockets(t *testing.T) {
	a := hostileServer(t, Config{Rooms: rooms.Config{MaxConnsPerAddress: 16, LobbyIdle: time.Second}})
	in := newBystander(t, a)
	base := a.web.Rooms().Stats().Conns
	var held []*roomSocket
	in.during(func() {
		for k := range 40 {
			s, err := dialRoomsFrom(t, a.URL, "127.0.0.51", fmt.Sprintf("%032x", 6000+k))
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, s)
		}
		settled(t, "16 sockets kept, 24 refused", func() bool { return a.web.Rooms().Stats().Conns == base+16 })
		if s, err := dialRoomsFrom(t, a.URL, "127.0.0.52", fmt.Sprintf("%032x", 7000)); err != nil {
			t.Errorf("another address: %v", err)
		} else {
			s.conn.CloseNow()
		}
	})
	// The innocent's sockets play; the idle ones go after LobbyIdle.
	settled(t, "idle sockets closed", func() bool { return a.web.Rooms().Stats().Conns == base })
	for _, s := range held {
		<-s.done
	}
}

// TestHostileScanBomb sends the progressive-JPEG bomb (1 MB, 1280×1280,
// 87,000 scans) as uploads from two addresses and as camera frames: each
// is refused from its markers in milliseconds, never decoded.
func TestHostileScanBomb(t *testing.T) {
	bomb, err := attack.ScanBomb(1280, 1280, 87_000)
	if err != nil {
		t.Fatal(err)
	}
	// A camera frame is at most 1 MB and 1280 a side: the same bomb at
	// 640×480 and 40,000 scans (490 KB).
	frameBomb, err := attack.ScanBomb(640, 480, 40_000)
	if err != nil {
		t.Fatal(err)
	}
	a := hostileServer(t, Config{})
	in := newBystander(t, a)
	ctype, body := multipartBody(t, "photo", "bomb.jpg", bomb)
	in.during(func() {
		var wg sync.WaitGroup
		for _, ip := range []string{"127.0.0.61", "127.0.0.62"} {
			p := a.peer(t, ip)
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 4 {
						s, v, _ := p.do("POST", "/api/scan", ctype, strings.NewReader(body))
						if s == http.StatusTooManyRequests {
							continue
						}
						if s != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(v["error"]), "scans") {
							t.Errorf("the bomb uploaded: %d %v, want 422 about scans", s, v)
						}
					}
				}()
			}
		}
		for range 2 {
			cam := dialCamera(t, a.URL)
			msg := make([]byte, 4+len(frameBomb))
			binary.BigEndian.PutUint32(msg, 1)
			copy(msg[4:], frameBomb)
			if err := cam.send(websocket.MessageBinary, msg); err != nil {
				t.Fatal(err)
			}
			if code, reason := cam.closeStatus(); code != websocket.StatusUnsupportedData || !strings.Contains(reason, "scans") {
				t.Errorf("the bomb as a camera frame: closed %v %q, want unsupported data about scans", code, reason)
			}
		}
		wg.Wait()
	})
	settled(t, "no upload place held", func() bool { return a.web.guards.uploads.InUse() == 0 })
}

// TestHostileIdleCameras: streams that only keep themselves alive (a key
// message every 100 ms, no frame) are closed after CameraIdle, so their
// places come back; the place is taken atomically, so 30 streams opened
// at once never get more than MaxCameraStreams in.
func TestHostileIdleCameras(t *testing.T) {
	a := hostileServer(t, Config{MaxCameraStreams: 8, CameraIdle: 500 * time.Millisecond, Limits: Limits{CameraPerClient: 30}})
	in := newBystander(t, a)
	in.during(func() {
		var wg sync.WaitGroup
		var mu sync.Mutex
		open, most := 0, 0
		for range 30 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(a.URL, "http")+"/ws/camera", nil)
				if err != nil {
					return // refused: the server is full
				}
				defer conn.CloseNow()
				mu.Lock()
				open++
				most = max(most, open)
				mu.Unlock()
				// A keep-alive every 100 ms, never a frame.
				for ctx.Err() == nil {
					if conn.Write(ctx, websocket.MessageText, []byte(`{"type":"key","key":" "}`)) != nil {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
				mu.Lock()
				open--
				mu.Unlock()
			}()
		}
		wg.Wait()
		if most > 8 || a.web.guards.cameras.InUse() > 8 {
			t.Errorf("%d camera streams were open at once, the most is 8", most)
		}
		settled(t, "every camera place free", func() bool { return a.web.guards.cameras.InUse() == 0 })
		cam := dialCamera(t, a.URL) // an innocent's camera gets in
		cam.conn.CloseNow()
	})
}

// BenchmarkHostile plays each attack for longer (the unsolvable 16×16
// and the creates for 10 s each, the scan bomb as 8 uploads), with the
// innocent player beside it, and reports the innocent's p99 per request
// (ms), the process's peak RSS (MB) and the rooms and goroutines the
// attack left (after its sockets closed and their seats waited). "none" is
// the innocent alone, to compare with on a loaded machine. Run
// it with -benchtime 1x:
//
//	go test ./web -run '^$' -bench Hostile -benchtime 1x
func BenchmarkHostile(b *testing.B) {
	for _, at := range []struct {
		name string
		run  func(tb testing.TB, a *apiServer)
	}{
		{"none", func(testing.TB, *apiServer) { time.Sleep(10 * time.Second) }}, // the innocent alone, for comparison
		{"unsolvable16", func(tb testing.TB, a *apiServer) { attackUnsolvable(tb, a, 10*time.Second) }},
		{"createFlood", func(tb testing.TB, a *apiServer) {
			attackCreates(tb, a, "127.0.0.41", 1, 50*time.Millisecond, 10*time.Second)
		}},
		{"backToBackCreates", func(tb testing.TB, a *apiServer) {
			attackCreates(tb, a, "127.0.0.42", 40, 20*time.Millisecond, 10*time.Second)
		}},
		{"scanBomb", func(tb testing.TB, a *apiServer) {
			bomb, err := attack.ScanBomb(1280, 1280, 87_000)
			if err != nil {
				tb.Fatal(err)
			}
			ctype, body := multipartBody(tb, "photo", "bomb.jpg", bomb)
			p := a.peer(tb, "127.0.0.61")
			for range 8 {
				p.do("POST", "/api/scan", ctype, strings.NewReader(body))
			}
		}},
	} {
		b.Run(at.name, func(b *testing.B) {
			for range b.N {
				a := hostileServer(b, Config{})
				in := newBystander(b, a)
				base, goroutines := a.web.Rooms().Stats().Rooms, runtime.NumGoroutine()
				p99 := in.during(func() { at.run(b, a) })
				for what, d := range p99 {
					b.ReportMetric(float64(d.Microseconds())/1000, strings.ReplaceAll(what, " ", "-")+"-p99-ms")
				}
				b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MB")
				// What the attack left once its sockets closed and the
				// seats waited their 300 ms (up to 10 s).
				for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && a.web.Rooms().Stats().Rooms > base; {
					time.Sleep(20 * time.Millisecond)
				}
				b.ReportMetric(float64(a.web.Rooms().Stats().Rooms-base), "rooms-left")
				b.ReportMetric(float64(max(0, runtime.NumGoroutine()-goroutines)), "goroutines-left")
			}
		})
	}
}

// peakRSS is the process's peak resident set (VmHWM), in bytes.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
