package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// fakeClock is a Config.Now that tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// peer is a client of the test server connecting from its own loopback
// address (127.0.0.2, 127.0.0.3, …: Linux routes all of 127/8 to lo), so
// that per-address bounds can tell two clients apart on one machine.
type peer struct {
	t    testing.TB
	a    *apiServer
	ip   string
	http *http.Client
}

func (a *apiServer) peer(t testing.TB, ip string) *peer {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	jar, _ := cookiejar.New(nil)
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &peer{t: t, a: a, ip: ip, http: &http.Client{Transport: tr, Jar: jar, Timeout: 30 * time.Second}}
}

// forget drops the peer's cookies: a new browser on the same address.
func (p *peer) forget() {
	jar, _ := cookiejar.New(nil)
	p.http.Jar = jar
}

// do sends a request and returns the status, the decoded JSON object and
// the response headers.
func (p *peer) do(method, path, ctype string, body io.Reader) (int, map[string]any, http.Header) {
	p.t.Helper()
	req, err := http.NewRequest(method, p.a.URL+path, body)
	if err != nil {
		p.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	res, err := p.http.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s from %s: %v", method, path, p.ip, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var v map[string]any
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &v); err != nil {
			p.t.Fatalf("%s %s: not JSON: %s", method, path, raw)
		}
	}
	if res.StatusCode >= 400 && strings.HasPrefix(path, "/api/") && v["error"] == nil {
		p.t.Errorf("%s %s: %d without an error: %s", method, path, res.StatusCode, raw)
	}
	return res.StatusCode, v, res.Header
}

func (p *peer) post(path, body string) (int, map[string]any, http.Header) {
	return p.do("POST", path, "application/json", strings.NewReader(body))
}

// visit loads the play page, which gives a new browser its player cookie.
func (p *peer) visit() {
	p.t.Helper()
	if s, _, _ := p.do("GET", "/play", "", nil); s != 200 {
		p.t.Fatalf("GET /play: %d", s)
	}
}

// TestRateLimitNewGames floods game creation from one address: its
// browser is stopped by its own bucket, a second browser there by the
// address's, and another address is not touched; time refills them.
func TestRateLimitNewGames(t *testing.T) {
	clock := newFakeClock()
	a := newAPIServer(t, Config{Now: clock.Now, Limits: Limits{NewGames: Rate{PerMinute: 6, Burst: 3}, AddressShare: 2}})
	flood, other := a.peer(t, "127.0.0.2"), a.peer(t, "127.0.0.3")
	newGame := func(p *peer) (int, map[string]any, http.Header) {
		return p.post("/api/games", `{"puzzle":"`+classic+`"}`)
	}
	flood.visit()
	for i := range 3 {
		if s, v, _ := newGame(flood); s != 201 {
			t.Fatalf("game %d within the burst: %d %v", i+1, s, v)
		}
	}
	s, v, h := newGame(flood)
	if s != 429 || !strings.Contains(fmt.Sprint(v["error"]), "too many new games") || h.Get("Retry-After") == "" {
		t.Fatalf("a fourth game at once: %d %v (Retry-After %q), want 429 saying why", s, v, h.Get("Retry-After"))
	}
	// The same address with a fresh browser: the address's bucket (twice
	// a player's, 4 of its 6 spent) lets two more through.
	flood.forget()
	flood.visit()
	for i := range 2 {
		if s, v, _ := newGame(flood); s != 201 {
			t.Fatalf("new browser, game %d: %d %v", i+1, s, v)
		}
	}
	if s, v, _ := newGame(flood); s != 429 {
		t.Fatalf("the address's bucket is empty: %d %v, want 429", s, v)
	}
	// Another address plays on.
	other.visit()
	for i := range 3 {
		if s, v, _ := newGame(other); s != 201 {
			t.Fatalf("the other client's game %d during the flood: %d %v", i+1, s, v)
		}
	}
	// Half a minute later the flooding browser has three games again.
	clock.Add(30 * time.Second)
	if s, v, _ := newGame(flood); s != 201 {
		t.Errorf("after 30 s: %d %v", s, v)
	}
}

// TestRequestBudget: every request but static files spends a token.
func TestRequestBudget(t *testing.T) {
	a := newAPIServer(t, Config{Limits: Limits{Requests: Rate{PerMinute: 60, Burst: 5}, AddressShare: 1}})
	flood, other := a.peer(t, "127.0.0.4"), a.peer(t, "127.0.0.5")
	for i := range 5 {
		if s, _, _ := flood.do("GET", "/api/health", "", nil); s != 200 {
			t.Fatalf("request %d: %d", i+1, s)
		}
	}
	for _, path := range []string{"/api/health", "/", "/api/leaderboard?size=9&level=easy"} {
		if s, _, h := flood.do("GET", path, "", nil); s != 429 || h.Get("Retry-After") != "1" {
			t.Errorf("GET %s over the budget: %d, Retry-After %q; want 429, 1", path, s, h.Get("Retry-After"))
		}
	}
	if s, _, _ := flood.do("GET", "/static/css/app.css", "", nil); s != 200 {
		t.Errorf("a static file over the budget: %d, want 200 (they cost nothing)", s)
	}
	if s, _, _ := other.do("GET", "/api/health", "", nil); s != 200 {
		t.Errorf("another address: %d", s)
	}
}

// TestEngineFlood sends many analyses at once from one address: some wait
// and some are refused, and another address is answered all the while.
func TestEngineFlood(t *testing.T) {
	a := newAPIServer(t, Config{Limits: Limits{Engine: Rate{PerMinute: 60, Burst: 12}, AddressShare: 1, EngineWork: 3, EngineWorkPerClient: 2, Wait: 2 * time.Second}})
	flood, other := a.peer(t, "127.0.0.6"), a.peer(t, "127.0.0.7")
	// An empty 16×16 grid: counting its solutions and rating nothing,
	// enough work to keep places taken.
	body := `{"puzzle":"` + strings.Repeat(".", 256) + `"}`
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	start := time.Now()
	for range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, _, _ := flood.post("/api/analyze", body)
			mu.Lock()
			codes[s]++
			mu.Unlock()
		}()
	}
	// The other client asks once the flood holds a place (or, on a
	// machine quick enough, once the flood is already over).
	flooded := make(chan struct{})
	go func() { wg.Wait(); close(flooded) }()
	for held := false; !held; time.Sleep(2 * time.Millisecond) {
		select {
		case <-flooded:
			held = true
		default:
			held = a.web.guards.work.InUse() > 0
		}
	}
	for i := range 3 {
		if s, v, _ := other.post("/api/analyze", `{"puzzle":"`+classic+`"}`); s != 200 || v["status"] != "solved" {
			t.Errorf("the other client's analysis %d during the flood: %d %v", i+1, s, v)
		}
	}
	wg.Wait()
	// 12 tokens, and one more a second while the flood lasted: a slow
	// machine lets more in, so the bound follows the time it took.
	if least := 30 - 12 - int(time.Since(start).Seconds()); codes[429] < least || codes[200]+codes[429]+codes[503] != 30 {
		t.Errorf("the flood's answers: %v; want at least %d refused (12 tokens, 1 a second)", codes, least)
	}
	t.Logf("30 analyses at once from one address: %v", codes)
}

// TestUploadsInFlight holds upload places with photos that never finish
// arriving: the same address waits and is refused, another address gets
// in, and when every place is taken the next photo is told the server is
// busy. Closing the slow uploads frees the places.
func TestUploadsInFlight(t *testing.T) {
	a := newAPIServer(t, Config{Limits: Limits{Uploads: 2, UploadsPerClient: 1, Wait: 300 * time.Millisecond}})
	blank := image.NewGray(image.Rect(0, 0, 400, 300))
	for i := range blank.Pix {
		blank.Pix[i] = 255
	}
	var photo bytes.Buffer
	png.Encode(&photo, blank)
	upload := func(p *peer) (int, map[string]any) {
		ct, body := multipartBody(t, "photo", "blank.png", photo.Bytes())
		s, v, _ := p.do("POST", "/api/scan", ct, strings.NewReader(body))
		return s, v
	}
	// slow starts an upload that sends its first bytes and then nothing
	// until stop is called.
	slow := func(p *peer) (stop func()) {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		done := make(chan struct{})
		go func() {
			defer close(done)
			req, _ := http.NewRequest("POST", a.URL+"/api/scan", pr)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			if res, err := p.http.Do(req); err == nil {
				res.Body.Close()
			}
		}()
		part, _ := mw.CreateFormFile("photo", "slow.png")
		part.Write(photo.Bytes()[:100])
		return func() { pw.CloseWithError(io.ErrUnexpectedEOF); <-done }
	}
	held := func(n int) {
		t.Helper()
		deadline := time.Now().Add(eventTimeout)
		for a.web.guards.uploads.InUse() != n && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if got := a.web.guards.uploads.InUse(); got != n {
			t.Fatalf("%d upload places taken, want %d", got, n)
		}
	}
	p1, p2, p3 := a.peer(t, "127.0.0.8"), a.peer(t, "127.0.0.9"), a.peer(t, "127.0.0.10")
	stop1 := slow(p1)
	held(1)
	if s, v := upload(p1); s != 429 || !strings.Contains(fmt.Sprint(v["error"]), "already have 1 photo") {
		t.Errorf("a second photo from the same address: %d %v, want 429", s, v)
	}
	if s, v := upload(p2); s != 200 || v["status"] != "no grid" {
		t.Errorf("another address beside the slow upload: %d %v", s, v)
	}
	stop2 := slow(p2)
	held(2)
	if s, v := upload(p3); s != 503 || !strings.Contains(fmt.Sprint(v["error"]), "busy") {
		t.Errorf("every place taken: %d %v, want 503", s, v)
	}
	stop1()
	stop2()
	held(0)
	if s, v := upload(p3); s != 200 {
		t.Errorf("after the slow uploads ended: %d %v", s, v)
	}
}

// TestBodyLimits: a body announced larger than its route takes is
// refused before it is read, on every kind of route.
func TestBodyLimits(t *testing.T) {
	a := newAPIServer(t, Config{MaxUploadBytes: 1 << 20})
	p := a.peer(t, "127.0.0.11")
	for _, c := range []struct {
		method, path string
		size         int64
		status       int
	}{
		{"POST", "/api/solve", maxJSONBody + 1, 413},
		{"POST", "/api/games", maxJSONBody + 1, 413},
		{"POST", "/api/games/0123456789abcdef0123456789abcdef/move", maxJSONBody + 1, 413},
		{"GET", "/", maxJSONBody + 1, 413},
		{"GET", "/api/health", 1 << 30, 413},
		{"POST", "/api/scan", 1<<20 + multipartSlack + 1, 413},
		{"POST", "/api/solve", 100, 400}, // within bounds: read, and found wanting
	} {
		// The body is never sent in full: the server answers at once.
		req, _ := http.NewRequest(c.method, a.URL+c.path, io.LimitReader(zeros{}, c.size))
		req.ContentLength = c.size
		req.Header.Set("Content-Type", "application/json")
		res, err := p.http.Do(req)
		if err != nil {
			t.Errorf("%s %s with %d bytes: %v", c.method, c.path, c.size, err)
			continue
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status || (c.status == 413 && !strings.Contains(string(raw), "larger than") && !strings.Contains(string(raw), "at most")) {
			t.Errorf("%s %s with %d bytes: %d %s, want %d", c.method, c.path, c.size, res.StatusCode, raw, c.status)
		}
	}
}

type zeros struct{}

func (zeros) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

// TestCameraPerAddress: one address may hold CameraPerClient streams;
// another address still gets in and is answered.
func TestCameraPerAddress(t *testing.T) {
	a := newAPIServer(t, Config{Limits: Limits{CameraPerClient: 2}})
	dial := func(ip string) (*websocket.Conn, *http.Response, error) {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
		return websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(a.URL, "http")+"/ws/camera", &websocket.DialOptions{HTTPClient: hc})
	}
	for range 2 {
		c, _, err := dial("127.0.0.12")
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
	}
	_, res, err := dial("127.0.0.12")
	if err == nil || res == nil || res.StatusCode != 429 {
		t.Fatalf("a third stream from one address: %v %v, want 429", err, res)
	}
	c, _, err := dial("127.0.0.13")
	if err != nil {
		t.Fatalf("another address: %v", err)
	}
	defer c.CloseNow()
	_, hello, err := c.Read(context.Background())
	if err != nil || !strings.Contains(string(hello), `"hello"`) {
		t.Errorf("the other address's stream: %s %v", hello, err)
	}
}

// TestExpireAbandonedGames: a game never played goes after a day, one
// left alone after 30 days; a solved game stays with its result.
func TestExpireAbandonedGames(t *testing.T) {
	clock := newFakeClock()
	a := newAPIServer(t, Config{Now: clock.Now})
	p := a.peer(t, "127.0.0.14")
	p.visit()
	start := func() string {
		s, v, _ := p.post("/api/games", `{"puzzle":"`+classic+`"}`)
		if s != 201 {
			t.Fatalf("new game: %d %v", s, v)
		}
		return v["id"].(string)
	}
	unplayed, played, solved := start(), start(), start()
	clock.Add(time.Minute)
	first := strings.Index(classic, "0")
	if s, v, _ := p.post("/api/games/"+played+"/move", fmt.Sprintf(`{"cell":%d,"value":%c}`, first, classicSolution[first])); s != 200 {
		t.Fatalf("move: %d %v", s, v)
	}
	for i := range classic {
		if classic[i] == '0' {
			p.post("/api/games/"+solved+"/move", fmt.Sprintf(`{"cell":%d,"value":%c}`, i, classicSolution[i]))
		}
	}
	if s, v, _ := p.post("/api/games/"+solved+"/submit", `{"name":"Ada"}`); s != 200 || v["status"] != "solved" {
		t.Fatalf("submit: %d %v", s, v)
	}
	exists := func(id string) bool {
		s, _, _ := p.do("GET", "/api/games/"+id, "", nil)
		return s == 200
	}
	clock.Add(2 * 24 * time.Hour)
	if n := a.web.expiry.run(context.Background()); n != 1 || exists(unplayed) || !exists(played) || !exists(solved) {
		t.Errorf("after 2 days: %d expired; unplayed %v, played %v, solved %v", n, exists(unplayed), exists(played), exists(solved))
	}
	s, v, _ := p.do("GET", "/api/games/"+unplayed, "", nil)
	if s != 404 || !strings.Contains(fmt.Sprint(v["error"]), "untouched") {
		t.Errorf("an expired game: %d %v, want 404 saying why", s, v)
	}
	clock.Add(29 * 24 * time.Hour)
	if n := a.web.expiry.run(context.Background()); n != 1 || exists(played) || !exists(solved) {
		t.Errorf("after 31 days: %d expired; played %v, solved %v", n, exists(played), exists(solved))
	}
	hist, err := a.store.History(context.Background(), p.cookie(), 0)
	if err != nil || len(hist) != 1 {
		t.Errorf("the solved game's result after expiry: %v %v", hist, err)
	}
}

// cookie is the peer's player id.
func (p *peer) cookie() string {
	u, _ := http.NewRequest("GET", p.a.URL, nil)
	for _, c := range p.http.Jar.Cookies(u.URL) {
		if c.Name == playerCookie {
			return c.Value
		}
	}
	return ""
}

// TestGateRefusals: the gate's refusals (limit.Gate, tested in its
// package) reach clients as a 429 (their own places taken), a 503 (the
// server's) and a 503 for a cancelled request, each with a message.
func TestGateRefusals(t *testing.T) {
	g := newGate("puzzle", 2, 1, 50*time.Millisecond)
	ctx := context.Background()
	done, err := g.enter(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		ctx    context.Context
		key    string
		status int
		msg    string
	}{
		{ctx, "a", 429, "you already have 1 puzzle being worked on"},
		{cancelled, "b", 503, "cancelled"},
	} {
		_, err := g.enter(c.ctx, c.key)
		if ae, ok := err.(*apiError); !ok || ae.Status != c.status || !strings.Contains(ae.Msg, c.msg) {
			t.Errorf("%s: %v, want %d %q", c.key, err, c.status, c.msg)
		}
	}
	d2, err := g.enter(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer d2()
	if _, err := g.enter(ctx, "c"); err == nil || err.(*apiError).Status != 503 || !strings.Contains(err.Error(), "other people's puzzles") {
		t.Errorf("every place taken: %v, want 503", err)
	}
}

// TestAddressKey: IPv4 as is, IPv6 by its /64.
func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:5000":             "192.0.2.1",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:443": "2001:db8:1:2::/64",
		"[::ffff:192.0.2.9]:80":      "192.0.2.9",
		"[fe80::1%eth0]:80":          "fe80::/64",
		"not an address":             "not an address",
	} {
		if got := addressKey(in); got != want {
			t.Errorf("addressKey(%q) = %q, want %q", in, got, want)
		}
	}
}
