package web

// The browser test rig: Debian's chromium, headless, driven by chromedp,
// against a real server on loopback. Tests skip when chromium is missing
// (`make test-deps` installs it) or with -short.
//
// Screenshots go to the test's temp folder; set SUDOKUAR_SHOTS=DIR to keep
// them (that is how the pictures in docs/ were taken).

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/sudokuar/sudokuar/store"
)

// chromium returns the browser's path or skips t.
func chromium(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests skipped with -short")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (make test-deps installs it); skipping the browser test")
	return ""
}

// testServer is sudokuar serve's web app on a loopback port, over a
// database file that outlives it (to test restarts).
type testServer struct {
	t     testing.TB
	URL   string
	addr  string
	db    string
	cfg   Config // the Config beyond Store and Log, kept for Restart
	Store *store.SQLite
	web   *Server
	http  *http.Server
	done  chan error
}

// startServer serves a fresh Server over the SQLite file db, on addr
// ("127.0.0.1:0" for any port).
func startServer(t testing.TB, db, addr string) *testServer {
	t.Helper()
	return startServerConfig(t, db, addr, Config{})
}

// startServerConfig is startServer with cfg (its Store and Log are set
// here).
func startServerConfig(t testing.TB, db, addr string, cfg Config) *testServer {
	t.Helper()
	st, err := store.OpenSQLite(db)
	if err != nil {
		t.Fatal(err)
	}
	keep := cfg
	cfg.Store, cfg.Log = st, testLogger(t)
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var ln net.Listener
	for try := 0; ; try++ {
		ln, err = net.Listen("tcp", addr)
		if err == nil || try == 50 {
			break
		}
		time.Sleep(100 * time.Millisecond) // the old server's port is being released
	}
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{t: t, addr: ln.Addr().String(), db: db, cfg: keep, Store: st, web: srv, done: make(chan error, 1)}
	ts.URL = "http://" + ts.addr
	ts.http = &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	ts.http.RegisterOnShutdown(srv.CloseStreams)
	go func() { ts.done <- ts.http.Serve(ln) }()
	t.Cleanup(func() { ts.Stop() })
	return ts
}

// Stop shuts the server down the way `sudokuar serve` does on SIGTERM.
func (ts *testServer) Stop() {
	if ts.http == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.http.Shutdown(ctx); err != nil {
		ts.t.Errorf("shutdown: %v", err)
	}
	if err := <-ts.done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		ts.t.Errorf("serve: %v", err)
	}
	if err := ts.web.Close(); err != nil {
		ts.t.Errorf("close web: %v", err)
	}
	if err := ts.Store.Close(); err != nil {
		ts.t.Errorf("close store: %v", err)
	}
	ts.http = nil
}

// Restart stops the server and starts a new one on the same address and
// database.
func (ts *testServer) Restart() *testServer {
	ts.Stop()
	return startServerConfig(ts.t, ts.db, ts.addr, ts.cfg)
}

// browser is one headless chromium with its tab.
type browser struct {
	t   testing.TB
	ctx context.Context
	// dialogs counts JavaScript dialogs (alert, confirm) that opened;
	// confirm() is accepted, alert() is a test failure for XSS checks.
	alerts []string
	// errors collects uncaught exceptions and console.error calls.
	errors []string
	shots  string
	net    *netLog
}

// phoneWidth and phoneHeight are a phone's viewport in CSS pixels; a
// window that size is emulated as a phone (touch, 2× pixels).
const phoneWidth, phoneHeight = 390, 844

// newBrowser starts chromium with the extra flags and a window of w×h.
func newBrowser(t testing.TB, w, h int, flags ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	path := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.WindowSize(w, h),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("lang", "en-US"),
	)
	opts = append(opts, flags...)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); acancel() })
	b := &browser{t: t, ctx: ctx, net: &netLog{}}
	b.shots = os.Getenv("SUDOKUAR_SHOTS")
	if b.shots == "" {
		b.shots = t.TempDir()
	}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch e := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			b.alerts = append(b.alerts, string(e.Type)+": "+e.Message)
			go chromedp.Run(ctx, page.HandleJavaScriptDialog(e.Type == page.DialogTypeConfirm))
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, e.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value))
				}
				b.errors = append(b.errors, "console.error: "+strings.Join(parts, " "))
			}
		case *network.EventResponseReceived:
			b.net.response(e)
		case *network.EventLoadingFinished:
			b.net.finished(e)
		}
	})
	// Start the browser now, with the network domain on, so that every
	// response is seen.
	if err := chromedp.Run(ctx, network.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if w == phoneWidth && h == phoneHeight {
		// Headless windows do not shrink below 500 px: emulate the phone.
		if err := chromedp.Run(ctx, chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
			t.Fatalf("emulate a phone: %v", err)
		}
	}
	return b
}

// run runs actions with a deadline, failing the test on error.
func (b *browser) run(what string, actions ...chromedp.Action) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		b.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression into out.
func (b *browser) eval(js string, out any) {
	b.t.Helper()
	b.run("eval "+js, chromedp.Evaluate(js, out))
}

// waitJS waits until the JavaScript expression is true. It keeps asking
// through page loads (an evaluation during a navigation fails; the next
// one succeeds).
func (b *browser) waitJS(what, js string, timeout time.Duration) {
	b.t.Helper()
	// A wait fails only when the event never comes: on a busy machine a
	// page may take far longer than the caller's guess.
	timeout = max(timeout, eventTimeout)
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		var ok bool
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		last = chromedp.Run(ctx, chromedp.Evaluate("!!("+js+")", &ok))
		cancel()
		if last == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
	var text string
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	_ = chromedp.Run(ctx, chromedp.Evaluate(`document.body ? document.body.innerText.slice(0, 800) : ''`, &text))
	b.t.Fatalf("waiting for %s (%s): not true after %v (last error: %v); the page says:\n%s", what, js, timeout, last, text)
}

// shot saves a screenshot of the whole page as NAME.png.
func (b *browser) shot(name string) string {
	var png []byte
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.scrollTo(0, 0)`, nil), chromedp.FullScreenshot(&png, 100)); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	p := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	b.t.Logf("screenshot: %s", p)
	return p
}

// viewShot saves what the window shows as NAME.png, without resizing the
// page as shot does (a full-page capture relays the page out, which the
// layout-shift measurements would count).
func (b *browser) viewShot(name string) {
	var png []byte
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&png)); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	b.t.Logf("screenshot: %s", p)
}

// netLog remembers the API responses the page received, to check later
// what reached the client.
type netLog struct {
	urls map[network.RequestID]string
	done []apiResponse
}

type apiResponse struct {
	id  network.RequestID
	url string
	at  time.Time
}

func (n *netLog) response(e *network.EventResponseReceived) {
	if n.urls == nil {
		n.urls = map[network.RequestID]string{}
	}
	n.urls[e.RequestID] = e.Response.URL
}

func (n *netLog) finished(e *network.EventLoadingFinished) {
	if u, ok := n.urls[e.RequestID]; ok {
		n.done = append(n.done, apiResponse{id: e.RequestID, url: u, at: time.Now()})
	}
}

// bodies returns the bodies of every response received before `before`
// whose URL contains part.
func (b *browser) bodies(part string, before time.Time) map[string]string {
	out := map[string]string{}
	for i, r := range b.net.done {
		if !strings.Contains(r.url, part) || r.at.After(before) {
			continue
		}
		var body []byte
		err := chromedp.Run(b.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			body, err = network.GetResponseBody(r.id).Do(ctx)
			return err
		}))
		if err != nil {
			continue // e.g. a 204 or a beacon without a body
		}
		out[fmt.Sprintf("%03d %s", i, r.url)] = string(body)
	}
	return out
}
