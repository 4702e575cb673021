package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/jackc/pgx/v5"
)

// clusterBrowser: the rooms page in chromium, through HAProxy in front of
// three nodes, in a race with a second player; the node that holds the
// room is killed with SIGKILL after the page's first three moves. The
// page reconnects by itself, joins the room again on another node, says
// it is back, and shows the three digits the server had acknowledged;
// play goes on. Skipped without chromium.
func clusterBrowser(t *testing.T, ns []*node, balancer string) {
	if testing.Short() {
		t.Skip("browser tests skipped with -short")
	}
	var chrome string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			chrome = p
			break
		}
	}
	if chrome == "" {
		t.Skip("no chromium on PATH (make test-deps installs it)")
	}

	actx, acancel := chromedp.NewExecAllocator(context.Background(),
		append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.WindowSize(1280, 1000))...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); acancel() })
	// The browser starts with the first Run, and lives as long as that
	// Run's context: this one.
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	var pageErrors []string
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			pageErrors = append(pageErrors, e.ExceptionDetails.Error())
		}
	})
	do := func(what string, actions ...chromedp.Action) {
		t.Helper()
		c, cc := context.WithTimeout(ctx, 30*time.Second)
		defer cc()
		if err := chromedp.Run(c, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	waitJS := func(what, js string, timeout time.Duration) {
		t.Helper()
		var ok bool
		var last error
		for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			c, cc := context.WithTimeout(ctx, 5*time.Second)
			last = chromedp.Run(c, chromedp.Evaluate("!!("+js+")", &ok))
			cc()
			if last == nil && ok {
				return
			}
		}
		var text string
		c, cc := context.WithTimeout(ctx, 5*time.Second)
		defer cc()
		_ = chromedp.Run(c, chromedp.Evaluate(`location.href + ' ' + document.readyState + '; room-msg: ' + (document.getElementById('room-msg') || {}).textContent + '; ' + (document.documentElement ? document.documentElement.outerHTML.slice(0, 600) : '')`, &text))
		t.Fatalf("waiting for %s: not true after %v (last error: %v); the page says:\n%s", what, timeout, last, text)
	}
	board := func() string {
		t.Helper()
		var s string
		do("read the board", chromedp.Evaluate(`[...document.querySelectorAll('#board .cell')].map((c) => c.textContent || '0').join('')`, &s))
		return s
	}

	// Ada's page makes a race room; Bob (a loadgen player) joins it
	// through the balancer; both are ready.
	do("open the lobby", chromedp.Navigate(balancer+"/rooms"))
	waitJS("the lobby", `!document.getElementById('lobby').hidden`, 15*time.Second)
	do("name and create", chromedp.SendKeys(`#name`, "Ada", chromedp.ByID), chromedp.Click(`#create`, chromedp.ByID))
	waitJS("the room", `/\/rooms\/[A-Z2-9]{6}$/.test(location.pathname) && !document.getElementById('waiting').hidden`, 15*time.Second)
	var code string
	do("the code", chromedp.Evaluate(`document.getElementById('room-code').textContent`, &code))
	bob := newTPlayer(t, "Bob", balancer, []string{balancer})
	bob.join(code)
	waitJS("bob seated", `document.querySelectorAll('#seats .seat:not(.free)').length === 2`, 15*time.Second)
	do("ada ready", chromedp.Click(`#ready`, chromedp.ByID))
	startGame(t, bob)
	waitJS("the board", `!document.getElementById('play').hidden && document.querySelectorAll('#board .cell').length === 81`, 20*time.Second)

	// Three digits on free cells, acknowledged (the page draws a digit
	// only when the server's ack comes).
	start := board()
	var free []int
	for i := range start {
		if start[i] == '0' && len(free) < 3 {
			free = append(free, i)
		}
	}
	for k, i := range free {
		do("ada writes", chromedp.Click(fmt.Sprintf(`#board .cell[data-i="%d"]`, i), chromedp.ByQuery), chromedp.KeyEvent(fmt.Sprint(k+1)))
	}
	want := []byte(start)
	for k, i := range free {
		want[i] = byte('1' + k)
	}
	waitJS("ada's digits acknowledged", fmt.Sprintf(`[...document.querySelectorAll('#board .cell')].map((c) => c.textContent || '0').join('') === %q`, want), 15*time.Second)

	// The room's node dies: the one the directory names (other nodes may
	// hold rooms too: an earlier subtest's, waiting for their players).
	victim := roomNode(t, ns, code)
	var held []string
	for _, n := range ns {
		if s, err := fetchStats(n.url()); err == nil {
			held = append(held, fmt.Sprintf("%s %d", n.name, s.Rooms))
		}
	}
	t.Logf("room %s is on node %s; rooms per node: %s", code, victim.name, strings.Join(held, ", "))
	// "Back in the room." is the room's message until the next one (Bob
	// dropped too: "Load0 lost the connection…" may follow at once), so
	// the page's messages are watched from now on rather than read later.
	do("watch the room's messages", chromedp.Evaluate(`window.backInRoom = false;
		new MutationObserver((rs) => {
			for (const r of rs) for (const n of r.addedNodes) if ((n.textContent || '').includes('Back in the room')) window.backInRoom = true;
		}).observe(document.getElementById('room-msg'), { childList: true, subtree: true, characterData: true }); true`, nil))
	killed := time.Now()
	victim.stop(t, syscall.SIGKILL)
	waitJS("the page back in its room", `window.backInRoom || document.getElementById('room-msg').textContent.includes('Back in the room')`, 40*time.Second)
	t.Logf("node %s killed: the page was back in room %s after %v", victim.name, code, time.Since(killed).Round(10*time.Millisecond))
	if dir := os.Getenv("SUDOKUAR_SHOTS"); dir != "" { // to look at: desktop, then a phone
		for _, v := range []struct {
			name string
			w, h int64
			opt  []chromedp.EmulateViewportOption
		}{{"desktop", 1280, 800, nil}, {"phone", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile}}} {
			var png []byte
			do("screenshot", chromedp.EmulateViewport(v.w, v.h, v.opt...), chromedp.FullScreenshot(&png, 100))
			if err := os.WriteFile(filepath.Join(dir, "rooms-back-"+v.name+".png"), png, 0o644); err != nil {
				t.Error(err)
			}
		}
		do("desktop again", chromedp.EmulateViewport(1280, 1000))
	}
	if got := board(); got != string(want) {
		t.Errorf("the board after the return:\n%s\nwant (with the three acknowledged digits):\n%s", got, want)
	}
	// Play goes on: one more digit, acknowledged by the room's new node.
	var more int
	for i := range want {
		if want[i] == '0' {
			more = i
			break
		}
	}
	do("ada writes again", chromedp.Click(fmt.Sprintf(`#board .cell[data-i="%d"]`, more), chromedp.ByQuery), chromedp.KeyEvent("4"))
	waitJS("the new digit", fmt.Sprintf(`document.querySelector('#board .cell[data-i="%d"]').textContent === '4'`, more), 15*time.Second)
	bob.back(1)
	bob.mu.Lock()
	if bob.lost != 0 {
		t.Errorf("bob lost %d acknowledged moves", bob.lost)
	}
	bob.mu.Unlock()
	if len(pageErrors) > 0 {
		t.Errorf("script errors: %v", pageErrors)
	}
}

// roomNode returns the node that holds room code, as the directory's
// room_codes row says.
func roomNode(t *testing.T, ns []*node, code string) *node {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, ns[0].db)
	if err != nil {
		t.Fatalf("the directory's database: %v", err)
	}
	defer conn.Close(ctx)
	var name string
	if err := conn.QueryRow(ctx, `SELECT node FROM room_codes WHERE code = $1`, code).Scan(&name); err != nil {
		t.Fatalf("which node holds room %s: %v", code, err)
	}
	for _, n := range ns {
		if n.name == name {
			return n
		}
	}
	t.Fatalf("room %s is held by node %q, not one of the test's", code, name)
	return nil
}
