package web

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// wsLog keeps the WebSocket messages a page received, in order.
type wsLog struct {
	mu     sync.Mutex
	frames []string
}

func (l *wsLog) add(s string) {
	l.mu.Lock()
	l.frames = append(l.frames, s)
	l.mu.Unlock()
}

func (l *wsLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.frames...)
}

// secondContext opens a tab in a new browser context of b's chromium: its
// own cookies and storage, as a second person on another computer.
// (chromedp's WithNewBrowserContext asks for a tab without a window,
// which headless chromium 156 refuses: "no browser is open"; the target
// is made here in a window of its own and attached.)
func (b *browser) secondContext(t *testing.T) (*browser, *wsLog) {
	t.Helper()
	var tid target.ID
	err := chromedp.Run(b.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		exec := cdp.WithExecutor(ctx, chromedp.FromContext(ctx).Browser)
		bc, err := target.CreateBrowserContext().WithDisposeOnDetach(true).Do(exec)
		if err != nil {
			return err
		}
		tid, err = target.CreateTarget("about:blank").WithBrowserContextID(bc).WithNewWindow(true).Do(exec)
		return err
	}))
	if err != nil {
		t.Fatalf("make a second browser context: %v", err)
	}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(tid))
	t.Cleanup(cancel)
	b2 := &browser{t: t, ctx: ctx, net: &netLog{}, shots: b.shots}
	log := &wsLog{}
	listen(b2, log)
	if err := chromedp.Run(ctx, network.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("open a second browser context: %v", err)
	}
	return b2, log
}

// listen records b's dialogs, errors and WebSocket messages.
func listen(b *browser, log *wsLog) {
	chromedp.ListenTarget(b.ctx, func(ev any) {
		switch e := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			b.alerts = append(b.alerts, string(e.Type)+": "+e.Message)
			go chromedp.Run(b.ctx, page.HandleJavaScriptDialog(e.Type == page.DialogTypeConfirm))
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, e.ExceptionDetails.Error())
		case *network.EventWebSocketFrameReceived:
			log.add(e.Response.PayloadData)
		}
	})
}

// meetInRoom has ada make a room (as Ada) and bob join it by its code,
// typed in lower case, as bobName, and waits until both sit.
func meetInRoom(ts *testServer, ada, bob *browser, bobName string) {
	ada.run("open the lobby", chromedp.Navigate(ts.URL+"/rooms"))
	ada.waitJS("the lobby", `!document.getElementById('lobby').hidden`, 10*time.Second)
	ada.run("name and create", chromedp.SendKeys(`#name`, "Ada", chromedp.ByID), chromedp.Click(`#create`, chromedp.ByID))
	ada.waitJS("the room", `/^\/rooms\/[A-Z2-9]{6}$/.test(location.pathname) && !document.getElementById('waiting').hidden`, 10*time.Second)
	var code string
	ada.eval(`location.pathname.split('/')[2]`, &code)
	ada.shot("rooms-waiting")
	bob.run("open the lobby", chromedp.Navigate(ts.URL+"/rooms"))
	bob.waitJS("the lobby", `!document.getElementById('lobby').hidden`, 10*time.Second)
	bob.run("name and code", chromedp.SendKeys(`#name`, bobName, chromedp.ByID), chromedp.SendKeys(`#code`, strings.ToLower(code), chromedp.ByID),
		chromedp.Click(`#join`, chromedp.ByID))
	bob.waitJS("bob seated", `document.querySelectorAll('#seats .seat:not(.free)').length === 2`, 10*time.Second)
}

// TestBrowserRooms: two people in two browser contexts meet in a room by
// its code and race on an easy 9×9. Bob reloads in the middle and keeps
// his board; Ada types the whole solution and wins; both pages show it;
// Bob gives up and both pages show the ranking, which is then on the race
// leaderboard and in each player's games. Neither page ever received the
// solution before the end, and Bob's page never saw Ada's digits.
func TestBrowserRooms(t *testing.T) {
	// No plausibility floor: Ada types faster than a person (the floor
	// has its own tests in rooms).
	ts := startServerConfig(t, t.TempDir()+"/rooms.db", "127.0.0.1:0", Config{FloorPerStep: -1})
	ada := newBrowser(t, 1280, 1000)
	adaWS := &wsLog{}
	listen(ada, adaWS)
	bob, bobWS := ada.secondContext(t)

	// Ada makes a room; Bob joins with the code, under a name that is
	// markup.
	meetInRoom(ts, ada, bob, "<b>Bob</b>")
	ada.waitJS("ada sees bob", `[...document.querySelectorAll('#seats .name')].some((e) => e.textContent === '<b>Bob</b>')`, 10*time.Second)
	ada.shot("rooms-lobby-two")

	// Both get ready: the countdown, then the game.
	ada.run("ada ready", chromedp.Click(`#ready`, chromedp.ByID))
	bob.run("bob ready", chromedp.Click(`#ready`, chromedp.ByID))
	ada.waitJS("countdown", `!document.getElementById('countdown').hidden || !document.getElementById('play').hidden`, 10*time.Second)
	for _, b := range []*browser{ada, bob} {
		b.waitJS("the board", `!document.getElementById('play').hidden && document.querySelectorAll('#board .cell').length === 81`, 15*time.Second)
	}
	var puzzle string
	ada.eval(`[...document.querySelectorAll('#board .cell')].map((c) => c.classList.contains('given') ? c.textContent : '0').join('')`, &puzzle)
	cells := make([]int, 81)
	for i, c := range puzzle {
		cells[i] = int(c - '0')
	}
	sol, err := sudoku.Solve(sudoku.Grid{Shape: sudoku.Shape{BoxRows: 3, BoxCols: 3}, Cells: cells})
	if err != nil {
		t.Fatalf("the page's puzzle %s: %v", puzzle, err)
	}
	var sb strings.Builder
	for _, v := range sol.Cells {
		sb.WriteByte(byte('0' + v))
	}
	solText := sb.String()

	// Bob fills three cells, reloads, and finds them again.
	var bobCells []int
	for i := 0; i < 81 && len(bobCells) < 3; i++ {
		if puzzle[i] == '0' {
			bobCells = append(bobCells, i)
		}
	}
	for _, i := range bobCells {
		bob.run("bob writes", chromedp.Click(cellSel(i), chromedp.ByQuery), chromedp.KeyEvent(fmt.Sprint(sol.Cells[i])))
	}
	bob.waitJS("bob's digits", fmt.Sprintf(`document.getElementById('filled').textContent === '%d/81'`, 81-strings.Count(puzzle, "0")+3), 10*time.Second)
	ada.waitJS("ada sees bob's progress", `document.querySelector('#seats .seat:not(.you) .seat-info').textContent.startsWith('`+fmt.Sprint(81-strings.Count(puzzle, "0")+3)+`/81')`, 10*time.Second)
	bob.shot("rooms-race-bob")
	var before string
	bob.eval(`[...document.querySelectorAll('#board .cell')].map((c) => c.textContent || '0').join('')`, &before)
	bob.run("reload", chromedp.Reload())
	bob.waitJS("bob back on his board", `!document.getElementById('play').hidden && document.querySelectorAll('#board .cell').length === 81 && document.getElementById('filled').textContent === '`+fmt.Sprint(81-strings.Count(puzzle, "0")+3)+`/81'`, 15*time.Second)
	var after string
	bob.eval(`[...document.querySelectorAll('#board .cell')].map((c) => c.textContent || '0').join('')`, &after)
	if after != before {
		t.Errorf("bob's board after the reload:\n%s\nbefore:\n%s", after, before)
	}

	// Ada types the solution with the keyboard, from r1c1.
	ada.run("select r1c1", chromedp.Click(cellSel(0), chromedp.ByQuery))
	var keys strings.Builder
	for i := 0; i < 81; i++ {
		if puzzle[i] == '0' {
			keys.WriteByte(solText[i])
		}
		if i%9 == 8 {
			if i < 80 {
				keys.WriteString(kb.ArrowDown)
				keys.WriteString(kb.ArrowRight)
			}
		} else {
			keys.WriteString(kb.ArrowRight)
		}
	}
	ada.run("type the solution", chromedp.KeyEvent(keys.String()))
	ada.waitJS("ada finished", `document.getElementById('room-msg').textContent.includes('You finished first')`, 30*time.Second)
	bob.waitJS("bob sees ada finish", `document.getElementById('room-msg').textContent.includes('Ada finished first') && document.querySelector('#seats .badge.place') !== null`, 10*time.Second)
	ada.shot("rooms-race-ada-finished")
	bob.shot("rooms-race-bob-sees-finish")
	ada.waitJS("ada cannot play on", `document.querySelector('#pad button').disabled`, 5*time.Second)

	// Bob gives up: the results on both pages.
	bob.run("give up", chromedp.Click(`#forfeit`, chromedp.ByID))
	for _, b := range []*browser{ada, bob} {
		b.waitJS("the results", `!document.getElementById('results').hidden && document.querySelectorAll('#ranking tbody tr').length === 2`, 10*time.Second)
	}
	var title, first string
	ada.eval(`document.getElementById('result-title').textContent`, &title)
	bob.eval(`document.querySelector('#ranking tbody tr td:nth-child(2)').textContent`, &first)
	if title != "You won!" || first != "Ada" {
		t.Errorf("results: ada's title %q, bob's first line %q", title, first)
	}
	ada.shot("rooms-results")
	bob.shot("rooms-results-bob")

	// The match is on the race leaderboard and in Bob's games, as text.
	waitMatches(t, ts, 1)
	bob.run("leaderboard", chromedp.Navigate(ts.URL+"/leaderboard?size=9&level=easy&mode=race"))
	bob.waitJS("ada on the race board", `document.querySelector('#best td.name') && document.querySelector('#best td.name').textContent === 'Ada'`, 10*time.Second)
	bob.waitJS("bob's games", `[...document.querySelectorAll('#matches .name')].some((e) => e.textContent === '<b>Bob</b>')`, 10*time.Second)
	bob.shot("rooms-leaderboard")
	if n, _ := ts.Store.Leaderboard(context.Background(), store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy"}, 0); len(n) != 0 {
		t.Errorf("a race result on the solo leaderboard: %+v", n)
	}

	// What reached the pages: no solution before "over", no digits of
	// Ada's on Bob's page, no dialogs or script errors.
	for name, log := range map[string]*wsLog{"ada": adaWS, "bob": bobWS} {
		frames := log.all()
		if len(frames) == 0 {
			t.Errorf("%s: no WebSocket messages recorded", name)
		}
		for _, f := range frames {
			if strings.HasPrefix(f, `{"t":"over"`) || (name == "ada" && strings.HasPrefix(f, `{"t":"finish"`)) {
				break
			}
			if strings.Contains(f, solText) {
				t.Errorf("%s received the solution before the end: %.200s", name, f)
			}
		}
	}
	for _, f := range bobWS.all() {
		if strings.HasPrefix(f, `{"t":"ack"`) && strings.Contains(f, `"seat":0`) {
			t.Errorf("bob received ada's move: %s", f)
		}
	}
	for _, b := range []*browser{ada, bob} {
		for _, a := range b.alerts {
			if !strings.HasPrefix(a, "confirm: Give up") {
				t.Errorf("a dialog: %s", a)
			}
		}
		if len(b.errors) > 0 {
			t.Errorf("script errors %v", b.errors)
		}
	}
}

// waitMatches waits until the store holds n matches of the hub.
func waitMatches(t *testing.T, ts *testServer, n int64) {
	t.Helper()
	for deadline := time.Now().Add(eventTimeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ts.web.Rooms().Stats().Matches >= n {
			return
		}
	}
	t.Fatalf("the store has %d matches, want %d", ts.web.Rooms().Stats().Matches, n)
}
