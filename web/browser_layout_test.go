package web

import (
	"context"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/sudokuar/sudokuar/store"
)

// The layout walkthrough of issue 34: every page a player reaches, at two
// desktop and two phone windows, audited by the rules below; each broken
// rule is one flaw, listed by page, window and element, and the test fails
// on any. The rules:
//
//   - clipped: a button's (or a button-like label's) text is wider than the
//     button, or overflows it (ellipsis, hidden overflow);
//   - overflow (phones): an element reaches past the window's right or
//     left edge, so the page scrolls sideways;
//   - target (phones): a control a finger taps (link, button, field, a
//     label holding a checkbox or radio) under 44×44 CSS px; grid cells are
//     exempt (a 16×16 board cannot have them), and so are links inside a
//     sentence, as WCAG 2.5.8 exempts inline targets;
//   - kakuro-board: the Kakuro board not wholly inside the window on
//     opening (under a sticky header counts as outside);
//   - kakuro-pad: a key of the Kakuro pad under 44×44 px (every window);
//   - fit (desktops, play and rooms): the board, the pad or the tools not
//     wholly inside the window;
//   - hint: a message line that cuts its text without offering More, or a
//     long hint opened whole (More) not wholly inside the window;
//   - finish: a finished game's result or its New game not on the first
//     screen;
//   - highlight: the selected cell's row, column and box under 1.25:1
//     against the other cells.
//
// On phones the cumulative layout shift of each page, its load included,
// is measured with a PerformanceObserver registered before the page's own
// scripts run, and must stay at most 0.01; axe-core must find no serious
// or critical violation at any window.
//
//	go test -run TestBrowserLayout -v ./web
type layoutWindow struct {
	name  string
	w, h  int
	phone bool
}

var layoutWindows = []layoutWindow{
	{"1280x800", 1280, 800, false},
	{"1366x768", 1366, 768, false},
	{"390x844", 390, 844, true},
	{"360x740", 360, 740, true},
}

// auditJS returns the flaws of the page as "rule: what" strings; its
// argument says whether the window is a phone's.
const auditJS = `((phone) => {
  const flaws = [];
  const vw = document.documentElement.clientWidth, vh = innerHeight;
  const shown = (el) => {
    if (el.closest('[hidden]')) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0) return false;
    }
    return true;
  };
  const what = (el) => {
    const t = (el.getAttribute('aria-label') || el.textContent || el.value || '').trim().replace(/\s+/g, ' ').slice(0, 24);
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '') + (t ? ' "' + t + '"' : '');
  };
  const px = (r) => Math.round(r.width) + 'x' + Math.round(r.height);

  // clipped: the text of every button-like control fits it.
  for (const el of document.querySelectorAll('button, .button, .segmented span, .level')) {
    if (!shown(el) || !el.textContent.trim()) continue;
    const box = el.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    if (text.width > box.width + 0.5 || el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
      flaws.push('clipped: ' + what(el) + ' text ' + Math.round(text.width) + ' px in ' + Math.round(box.width) + ' px');
    }
  }

  if (phone) {
    // overflow: the outermost elements past the window's sides.
    const scrolls = (e) => { const s = getComputedStyle(e).overflowX; return s === 'auto' || s === 'scroll' || s === 'hidden' || s === 'clip'; };
    const out = (e) => { const r = e.getBoundingClientRect(); return r.right > vw + 1 || r.left < -1; };
    const seen = new Set();
    for (const el of document.body.querySelectorAll('*')) {
      if (!shown(el) || !out(el)) continue;
      let inside = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (scrolls(p) || seen.has(p)) { inside = true; break; }
      }
      if (el.closest('.skip')) continue; // parked off screen until focused
      if (!inside) { seen.add(el); flaws.push('overflow: ' + what(el) + ' spans ' + Math.round(el.getBoundingClientRect().left) + '..' + Math.round(el.getBoundingClientRect().right) + ' in ' + vw); }
    }
    if (!seen.size && document.documentElement.scrollWidth > vw + 1) flaws.push('overflow: the page is ' + document.documentElement.scrollWidth + ' px wide in ' + vw);

    // target: every control a finger taps, grid cells apart.
    const inline = (el) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      const p = el.parentElement;
      return p && p.textContent.trim().length > el.textContent.trim().length;
    };
    const targets = new Set();
    for (const el of document.querySelectorAll('a[href], button, input, select, textarea, summary, [role=button]')) {
      if (el.type === 'hidden' || el.closest('.cell, .kk-cell, .skip')) continue;
      let t = el;
      if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio' || el.type === 'file')) t = el.closest('label') || el;
      if (targets.has(t) || !shown(t) || inline(t)) continue;
      targets.add(t);
      const r = t.getBoundingClientRect();
      if (r.width < 44 - 0.5 || r.height < 44 - 0.5) flaws.push('target: ' + what(t) + ' ' + px(r));
    }
  }

  // kakuro-board and kakuro-pad.
  const kk = document.getElementById('kboard');
  if (kk && shown(kk) && document.querySelector('.kk-game:not([hidden])')) {
    const r = kk.getBoundingClientRect();
    const inView = r.top >= -0.5 && r.left >= -0.5 && r.bottom <= vh + 0.5 && r.right <= vw + 0.5;
    const hit = (x, y) => { const e = document.elementFromPoint(x, y); return !!e && kk.contains(e); };
    const uncovered = inView && hit(r.left + 3, r.top + 3) && hit(r.right - 3, r.top + 3) && hit(r.left + 3, r.bottom - 3) && hit(r.right - 3, r.bottom - 3);
    if (!uncovered) flaws.push('kakuro-board: ' + Math.round(r.left) + ',' + Math.round(r.top) + '..' + Math.round(r.right) + ',' + Math.round(r.bottom) + ' in ' + vw + 'x' + vh + (inView ? ' (covered)' : ''));
    for (const b of document.querySelectorAll('#pad button')) {
      const p = b.getBoundingClientRect();
      if (shown(b) && (p.width < 43.5 || p.height < 43.5)) flaws.push('kakuro-pad: ' + what(b) + ' ' + px(p));
    }
  }

  // hint: a message line that cuts its text offers More; one opened
  // whole is whole inside the window.
  for (const m of document.querySelectorAll('.message.line')) {
    const wrap = m.closest('.msg-wrap');
    const more = wrap && wrap.querySelector('.more');
    if (shown(m) && m.scrollHeight > m.clientHeight + 1 && !(wrap && wrap.classList.contains('open')) && !(more && shown(more))) {
      flaws.push('hint: ' + what(m) + ' cuts its text (' + m.scrollHeight + ' px in ' + m.clientHeight + ') and offers no More');
    }
  }
  for (const m of document.querySelectorAll('.msg-wrap.open .message.line')) {
    const r = m.getBoundingClientRect();
    if (r.top < -0.5 || r.bottom > vh + 0.5 || m.scrollHeight > m.clientHeight + 1) flaws.push('hint: the opened message spans ' + Math.round(r.top) + '..' + Math.round(r.bottom) + ' in ' + vh + ', ' + m.scrollHeight + ' px of text in ' + m.clientHeight);
  }
  // finish: a game's result and its New game are on the first screen.
  const done = document.querySelector('#done:not([hidden])');
  if (done) {
    for (const el of [done.querySelector('p'), done.querySelector('.links a')]) {
      const r = el ? el.getBoundingClientRect() : null;
      if (!r || r.top < -0.5 || r.bottom > vh + 0.5) flaws.push('finish: ' + (el ? what(el) : 'nothing') + (r ? ' at ' + Math.round(r.top) + '..' + Math.round(r.bottom) + ' in ' + vh : ''));
    }
  }

  // highlight: the selected cell's row, column and box stand out from the
  // other cells (a contrast of at least 1.25:1 between their backgrounds).
  const lum = (c) => {
    const m = c.match(/[\d.]+/g);
    if (!m) return 1;
    const [r, g, b] = m.slice(0, 3).map((x) => { const v = Number(x) / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const peer = document.querySelector('#board .cell.peer:not(.hint):not(.same):not(.wrong)');
  const plain = document.querySelector('#board .cell:not(.peer):not(.sel):not(.same):not(.hint):not(.wrong):not(.hint-target)');
  if (peer && plain && shown(peer)) {
    const a = lum(getComputedStyle(peer).backgroundColor), b = lum(getComputedStyle(plain).backgroundColor);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 1.25) flaws.push('highlight: the row, column and box of the selected cell at ' + ratio.toFixed(2) + ':1 against the other cells');
  }

  // fit: a game on a desktop needs no scrolling.
  if (!phone) {
    const game = document.querySelector('#game:not([hidden]), #play:not([hidden])');
    if (game) {
      for (const q of ['#board', '#kboard', '#pad', '.tools']) {
        const el = game.querySelector(q);
        if (!el || !shown(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.top < -0.5 || r.bottom > vh + 0.5 || r.left < -0.5 || r.right > vw + 0.5) flaws.push('fit: ' + what(el) + ' at ' + Math.round(r.top) + '..' + Math.round(r.bottom) + ' in ' + vh);
      }
    }
  }
  return flaws;
})`

// clsOnLoad is registered before any script of a page runs: it sums every
// layout shift from the start of the load.
const clsOnLoad = `window.__cls = 0; window.__shifts = [];
try { new PerformanceObserver((l) => { for (const e of l.getEntries()) { window.__cls += e.value;
  window.__shifts.push(e.value.toFixed(4) + ' ' + (e.sources || []).map((s) => s.node ? (s.node.id || (typeof s.node.className === 'string' && s.node.className) || s.node.nodeName) : '?').join(',')); } })
  .observe({ type: 'layout-shift', buffered: true }); } catch (e) {}`

// settledJS is true once the fonts are in and two frames have been drawn
// since it was first asked (it sets a flag on the first ask).
const settledJS = `(() => {
  if (document.fonts && document.fonts.status !== 'loaded') return false;
  if (window.__frames === undefined) { window.__frames = 0; requestAnimationFrame(() => requestAnimationFrame(() => { window.__frames = 2; })); }
  return window.__frames === 2;
})()`

// emulate sets b's viewport to win (phones: touch, 2× pixels).
func emulate(b *browser, win layoutWindow) {
	b.t.Helper()
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if win.phone {
		opts = []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch}
	}
	b.run("emulate "+win.name, chromedp.EmulateViewport(int64(win.w), int64(win.h), opts...))
}

// layoutPage is one stop of the walkthrough.
type layoutPage struct {
	name, path, ready string
	// then, if set, runs after the page is ready (e.g. starts a race) and
	// returns the browser to audit.
	then func(b *browser) *browser
}

func TestBrowserLayout(t *testing.T) {
	src := axeSource(t)
	cfg := Config{FloorPerStep: -1}
	cfg.Rooms.Countdown = 50 * time.Millisecond
	ts := startServerConfig(t, filepath.Join(t.TempDir(), "layout.db"), "127.0.0.1:0", cfg)
	total := map[string]int{}
	var lines []string
	for _, win := range layoutWindows {
		t.Run(win.name, func(t *testing.T) {
			b := newBrowser(t, max(win.w, 500), max(win.h, 500))
			emulate(b, win)
			b.run("measure shifts from the start of every load", chromedp.ActionFunc(func(ctx context.Context) error {
				_, err := page.AddScriptToEvaluateOnNewDocument(clsOnLoad).Do(ctx)
				return err
			}))
			pages := layoutPages(t, ts, b, win)
			for _, p := range pages {
				b.run("open "+p.name, chromedp.Navigate(ts.URL+p.path))
				b.waitJS(p.name+" ready", p.ready, 30*time.Second)
				audit := b
				if p.then != nil {
					audit = p.then(b)
				}
				audit.waitJS(p.name+" settled", settledJS, 10*time.Second)
				var flaws []string
				audit.eval(fmt.Sprintf("%s(%v)", auditJS, win.phone), &flaws)
				audit.viewShot("layout-" + win.name + "-" + p.name)
				for _, f := range flaws {
					rule := f[:strings.Index(f, ":")]
					total[rule]++
					lines = append(lines, fmt.Sprintf("%s %s %s", win.name, p.name, f))
				}
				if win.phone && p.then == nil {
					var cls float64
					var shifts []string
					audit.eval(`window.__cls || 0`, &cls)
					audit.eval(`window.__shifts || []`, &shifts)
					t.Logf("%s %s: layout shift %.4f since the load began", win.name, p.name, cls)
					if cls > 0.01 {
						total["shift"]++
						lines = append(lines, fmt.Sprintf("%s %s shift: %.4f %q", win.name, p.name, cls, shifts))
					}
				}
				if v := audit.axe(src); len(v) > 0 {
					total["axe"] += len(v)
					for _, x := range v {
						lines = append(lines, fmt.Sprintf("%s %s axe: %s", win.name, p.name, x))
					}
				}
			}
			if len(b.errors) > 0 {
				t.Errorf("script errors: %q", b.errors)
			}
		})
	}
	var rules []string
	n := 0
	for r, k := range total {
		rules = append(rules, fmt.Sprintf("%s %d", r, k))
		n += k
	}
	sort.Strings(rules)
	t.Logf("layout flaws: %d (%s)", n, strings.Join(rules, ", "))
	if n > 0 {
		t.Errorf("%d layout flaws:\n%s", n, strings.Join(lines, "\n"))
	}
}

// layoutPages makes what the walkthrough visits at win: a Sudoku game and
// a Kakuro game of b's own, results on the leaderboard (a long name among
// them, and b's history), and a race in a room with a second player.
func layoutPages(t *testing.T, ts *testServer, b *browser, win layoutWindow) []layoutPage {
	t.Helper()
	ctx := context.Background()
	play := strings.TrimPrefix(gameIn(b, ts, `{"size":"9","level":"easy"}`), ts.URL)
	var kid string
	b.run("a kakuro game", chromedp.Evaluate(`fetch('/api/kakuro/games', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"size":"9","level":"easy"}'})
	  .then((r) => r.json()).then((v) => v.id)`, &kid, awaitPromise))
	// A finished game of b's, and others, on the 9×9 easy board.
	rec, err := ts.Store.Game(ctx, strings.TrimPrefix(play, "/play/"))
	if err != nil {
		t.Fatal(err)
	}
	for k, name := range []string{"Ada", "Maximiliana Wolfeschlegelstein", "Bob"} {
		g := store.Game{ID: newID(), Kind: store.KindSudoku, Player: rec.Player, Size: "9x9", Level: "easy", Puzzle: rec.Puzzle,
			Solution: rec.Solution, State: []byte("{}"), Status: store.StatusSolved, Created: time.Now(), Updated: time.Now()}
		if err := ts.Store.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if _, err := ts.Store.FinishGame(ctx, g, store.Result{Kind: store.KindSudoku, Size: "9x9", Level: "easy", Player: rec.Player,
			Name: name, Millis: int64(60000 + 1000*k), Hints: k, Mistakes: k, Finished: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	// A game of b's, solved through the API from b's page.
	solved := strings.TrimPrefix(gameIn(b, ts, `{"size":"9","level":"easy"}`), ts.URL)
	srec, err := ts.Store.Game(ctx, strings.TrimPrefix(solved, "/play/"))
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for i := range srec.Puzzle {
		if srec.Puzzle[i] == '0' {
			moves = append(moves, fmt.Sprintf(`{"cell":%d,"value":%c}`, i, srec.Solution[i]))
		}
	}
	b.run("solve it", chromedp.Evaluate(`(async () => { for (const m of [`+strings.Join(moves, ",")+`]) {
	  await fetch('/api/games/`+srec.ID+`/move', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(m)}); } return true; })()`, nil, awaitPromise))
	gameReady := `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('progress').textContent !== '0/81'`
	// The forcing-chain hint, ~420 characters, opened whole.
	longHint := func(b *browser) *browser {
		// Leaving the page paused the game: resume it first.
		b.run("resume", chromedp.Evaluate(`document.getElementById('paused').hidden || document.getElementById('resume-btn').click()`, nil))
		b.waitJS("resumed", `document.getElementById('paused').hidden`, 10*time.Second)
		b.run("a long hint", chromedp.Evaluate(`document.getElementById('msg').textContent = 'Dynamic contradiction forcing chains: if r3c3 is 3, then r3c7 is not 3, so r1c7 is 3, so r1c2 is not 3, so r2c2 is 3, so r2c5 is not 3, so r8c5 is 3, so r8c3 is not 3, so r5c3 is 3, so r5c8 is not 3, so r9c8 is 3, so r9c1 is not 3, so r4c1 is 3, so r4c3 is not 3, and r5c3 was 3: both cannot hold, so r3c3 cannot be 3; remove 3 from r3c3, and with it 7 from r3c9 and r6c9 and 5 from r2c4.'; true`, nil))
		b.waitJS("More offered", `!document.getElementById('msg-more').hidden`, 5*time.Second)
		b.run("More", chromedp.Click(`#msg-more`, chromedp.ByID))
		b.waitJS("opened", `document.getElementById('msg-wrap').classList.contains('open')`, 5*time.Second)
		return b
	}
	longHintClosed := func(b *browser) *browser {
		longHint(b)
		b.run("Less", chromedp.Click(`#msg-more`, chromedp.ByID))
		b.waitJS("closed", `!document.getElementById('msg-wrap').classList.contains('open')`, 5*time.Second)
		return b
	}
	settings := func(b *browser) *browser {
		b.run("open settings", chromedp.Click(`#settings-open`, chromedp.ByID))
		b.waitJS("settings open", `document.getElementById('settings').open`, 5*time.Second)
		return b
	}
	race := func(b *browser) *browser {
		bob, _ := b.secondContext(t)
		meetInRoom(ts, b, bob, "Bob")
		// Bob's window is not the one under test: his button is pressed
		// from script, wherever his window is.
		bob.run("bob ready", chromedp.Evaluate(`document.getElementById('ready').click()`, nil))
		bob.waitJS("bob is ready", `document.getElementById('ready').getAttribute('aria-pressed') === 'true'`, 10*time.Second)
		b.run("ada ready", chromedp.Click(`#ready`, chromedp.ByID))
		b.waitJS("the race", `!document.getElementById('play').hidden && document.querySelectorAll('#board .cell').length === 81`, 20*time.Second)
		return b
	}
	return []layoutPage{
		{"home", "/", `document.querySelectorAll('.tile').length > 0`, nil},
		{"play-chooser", "/play", `!document.getElementById('chooser').hidden`, nil},
		{"play", play, gameReady, nil},
		{"play-paused", play, gameReady + ` && !document.getElementById('paused').hidden`, nil},
		{"play-hint", play, gameReady, longHint},
		{"play-hint-closed", play, gameReady, longHintClosed},
		{"play-settings", play, gameReady, settings},
		{"play-finished", solved, `!document.getElementById('done').hidden`, nil},
		{"daily", "/daily", `location.pathname.startsWith('/play/') && document.querySelectorAll('#board .cell').length === 81 && document.getElementById('what').textContent.startsWith('Daily')`, nil},
		{"stats", "/stats", `!!document.querySelector('.stat-cards')`, nil},
		{"leaderboard", "/leaderboard?size=9&level=easy", `document.querySelectorAll('#best tbody tr').length >= 3`, nil},
		{"camera", "/camera", `document.readyState === 'complete' && document.getElementById('status').textContent !== 'Starting the camera…'`, nil},
		{"rooms", "/rooms", `!document.getElementById('lobby').hidden`, nil},
		{"rooms-race", "/rooms", `!document.getElementById('lobby').hidden`, race},
		{"enter", "/enter", `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('solver').options.length > 0`, nil},
		{"upload", "/upload", `!!document.getElementById('photo')`, nil},
		{"kakuro-chooser", "/kakuro", `!document.getElementById('chooser').hidden`, nil},
		{"kakuro", "/kakuro/" + kid, `document.querySelectorAll('#kboard .white').length > 0`, nil},
	}
}

// awaitPromise makes an Evaluate wait for the promise its expression
// returns.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// TestLayoutRulesFail runs the walkthrough's audit on a page made to break
// every rule once, at a phone's and a desktop's size: each rule must see
// its flaw (a rule that cannot fail checks nothing).
func TestLayoutRulesFail(t *testing.T) {
	page := `<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><style>body { margin: 0; font: 16px sans-serif; }</style>
<button style="width: 40px; height: 50px; overflow: hidden; white-space: nowrap">A long label</button>
<a href="#" style="display: inline-block; height: 30px">small</a>
<div style="width: 600px; height: 10px; background: red"></div>
<section class="kk-game"><div id="kboard" style="width: 300px; height: 300px; margin-top: 2000px; background: #333"></div><div id="pad"><button style="width: 30px; height: 30px">1</button></div></section>
<div class="msg-wrap"><p class="message line" style="height: 2em; overflow: hidden">` + strings.Repeat("A long hint, cut. ", 40) + `</p></div>
<div id="done" style="margin-top: 3000px"><p>Solved</p><p class="links"><a href="/play">New game</a></p></div>
<div id="board"><div class="cell peer" style="background: #f4f4f4; width: 50px; height: 50px"></div><div class="cell" style="background: #fff; width: 50px; height: 50px"></div></div>
<section id="game"><div class="tools" style="margin-top: 4000px; height: 50px">tools</div></section>`
	url := "data:text/html;base64," + base64.StdEncoding.EncodeToString([]byte(page))
	for _, win := range []layoutWindow{layoutWindows[0], layoutWindows[3]} {
		b := newBrowser(t, max(win.w, 500), max(win.h, 500))
		emulate(b, win)
		b.run("open the broken page", chromedp.Navigate(url))
		var flaws []string
		b.eval(fmt.Sprintf("%s(%v)", auditJS, win.phone), &flaws)
		want := []string{"clipped", "kakuro-board", "kakuro-pad", "hint", "finish", "highlight"}
		if win.phone {
			want = append(want, "overflow", "target")
		} else {
			want = append(want, "fit")
		}
		seen := map[string]bool{}
		for _, f := range flaws {
			seen[f[:strings.Index(f, ":")]] = true
		}
		for _, rule := range want {
			if !seen[rule] {
				t.Errorf("%s: the rule %q saw nothing on a page that breaks it; flaws: %q", win.name, rule, flaws)
			}
		}
	}
}
