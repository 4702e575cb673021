package web

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// xssName is the player name of the play test: it must come back as text.
const xssName = `<script>alert(1)</script>`

// TestBrowserPlay plays a generated easy 9×9 in chromium as a person
// would: a wrong digit is not marked and the mistakes stay hidden (a
// ranked game tells nothing of right and wrong), a hint highlights its
// cells, the last digit ends the game at once with the finish screen,
// which asks for a name (none is remembered yet); the score is on the
// leaderboard after a restart on the same database, shown as text. A
// second game in progress survives a reload and a restart. No response
// before the last digit carried the solution. (No plausibility floor
// here: the test types faster than a person; the floor has its own tests.)
func TestBrowserPlay(t *testing.T) {
	db := filepath.Join(t.TempDir(), "play.db")
	ts := startServerConfig(t, db, "127.0.0.1:0", Config{FloorPerStep: -1})
	b := newBrowser(t, 1280, 1000)

	b.run("open play", chromedp.Navigate(ts.URL+"/play"))
	b.waitJS("chooser", `!document.getElementById('chooser').hidden`, 10*time.Second)
	b.run("choose easy 9x9", chromedp.Click(`.level[data-level="easy"]`, chromedp.ByQuery))
	b.waitJS("the game", `location.pathname.startsWith('/play/') && document.querySelectorAll('#board .cell').length === 81 && !document.getElementById('game').hidden`, 20*time.Second)
	var path string
	b.eval(`location.pathname`, &path)
	id := strings.TrimPrefix(path, "/play/")
	rec, err := ts.Store.Game(context.Background(), id)
	if err != nil {
		t.Fatalf("the game %q is not in the store: %v", id, err)
	}
	puzzle, solution := rec.Puzzle, rec.Solution
	b.shot("play-start")

	// A wrong digit in the first empty cell is shown, but not as wrong,
	// and the mistakes counter stays hidden.
	empty := strings.Index(puzzle, "0")
	wrong := (int(solution[empty]-'0'))%9 + 1
	b.run("type a wrong digit", chromedp.Click(cellSel(empty), chromedp.ByQuery), chromedp.KeyEvent(fmt.Sprint(wrong)))
	b.waitJS("the wrong digit shown", fmt.Sprintf(`document.querySelector('%s').textContent === '%d'`, cellSel(empty), wrong), 10*time.Second)
	var marked bool
	var mistakes string
	b.eval(fmt.Sprintf(`document.querySelector('%s').classList.contains('wrong')`, cellSel(empty)), &marked)
	b.eval(`document.getElementById('mistakes').textContent`, &mistakes)
	if marked || mistakes != "Ranked" {
		t.Errorf("a ranked game told the wrong digit: marked %v, mistakes %q", marked, mistakes)
	}
	b.shot("play-wrong-digit")

	// Fix it at once (a slip, not a mistake: the finish counts none),
	// then ask for a hint.
	b.run("fix the digit", chromedp.KeyEvent(string(solution[empty])))
	b.waitJS("the digit fixed", fmt.Sprintf(`document.querySelector('%s').textContent === '%c'`, cellSel(empty), solution[empty]), 10*time.Second)
	b.run("ask for a hint", chromedp.Click(`#hint`, chromedp.ByQuery))
	b.waitJS("hint cells highlighted", `document.querySelectorAll('#board .cell.hint, #board .cell.hint-target').length > 0 && document.getElementById('msg').textContent.length > 10`, 10*time.Second)
	b.waitJS("hint counted", `document.getElementById('hints').textContent === '1/5'`, 5*time.Second)
	b.shot("play-hint")

	// Pencil marks: P, then 1 and 2 in another empty cell; Ctrl+Z takes
	// back the 2; P again leaves pencil mode.
	other := strings.Index(puzzle[empty+1:], "0") + empty + 1
	marks := fmt.Sprintf(`Array.from(document.querySelectorAll('%s .marks span'), (s) => s.textContent).join('')`, cellSel(other))
	b.run("pencil 1 and 2", chromedp.Click(cellSel(other), chromedp.ByQuery), chromedp.KeyEvent("p"), chromedp.KeyEvent("1"), chromedp.KeyEvent("2"))
	b.waitJS("marks 1 and 2", marks+` === '12'`, 10*time.Second)
	b.shot("play-pencil")
	b.run("undo the 2", chromedp.KeyEvent("z", chromedp.KeyModifiers(input.ModifierCtrl)))
	b.waitJS("mark 1 left", marks+` === '1'`, 10*time.Second)
	b.run("pencil off", chromedp.KeyEvent("p"))
	b.waitJS("pencil off", `document.getElementById('pencil').getAttribute('aria-pressed') === 'false'`, 5*time.Second)

	// Fill all but the last empty cell with the keyboard: arrows from
	// the top-left corner.
	last := strings.LastIndex(puzzle, "0")
	b.run("select r1c1", chromedp.Click(cellSel(0), chromedp.ByQuery))
	var keys strings.Builder
	for i := 0; i < last; i++ {
		if puzzle[i] == '0' && i != empty {
			keys.WriteByte(solution[i])
		}
		if i%9 == 8 {
			if i < 80 {
				keys.WriteString(kb.ArrowDown)
				keys.WriteString(kb.ArrowRight) // wraps to column 1
			}
		} else {
			keys.WriteString(kb.ArrowRight)
		}
	}
	b.run("type the solution", chromedp.KeyEvent(keys.String()))
	b.waitJS("all but one cell filled", `document.getElementById('progress').textContent === '80/81'`, 30*time.Second)
	b.shot("play-filled")
	submitAt := time.Now()

	// What reached the browser before the last digit never held the
	// solution, other than as the digits the player typed ("cells").
	bodies := b.bodies("/api/", submitAt)
	if len(bodies) < 40 {
		t.Errorf("only %d API responses recorded: the network log is not working", len(bodies))
	}
	for url, body := range bodies {
		var v map[string]any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Errorf("%s: not JSON: %v", url, err)
			continue
		}
		delete(v, "cells")
		rest, _ := json.Marshal(v)
		if strings.Contains(string(rest), solution) || v["solution"] != nil {
			t.Errorf("the solution reached the client before submit, in %s: %s", url, rest)
		}
	}

	// The last digit ends the game: the finish screen, with the server's
	// time, and a name asked for (none is remembered yet).
	b.run("the last digit", chromedp.Click(cellSel(last), chromedp.ByQuery), chromedp.KeyEvent(string(solution[last])))
	b.waitJS("the finish screen", `!document.getElementById('done').hidden && document.getElementById('done').textContent.includes('Solved in') && !document.getElementById('submit-form').hidden`, 10*time.Second)
	b.shot("play-finished")
	var timer, done string
	b.eval(`document.getElementById('timer').textContent`, &timer)
	b.eval(`document.querySelector('#done .big-result').textContent`, &done)
	if done != "Solved in "+timer {
		t.Errorf("the finish screen says %q, the timer %q: they must agree", done, timer)
	}
	var counts string
	b.eval(`document.querySelector('#done .ok').textContent`, &counts)
	if counts != "1 hint, 0 mistakes." {
		t.Errorf("the finish screen counts %q: the wrong digit mended at once was a slip", counts)
	}
	b.run("save the name", chromedp.SetValue(`#name`, xssName, chromedp.ByQuery), chromedp.Click(`#submit`, chromedp.ByQuery))
	b.waitJS("ranked", `document.getElementById('done').textContent.includes('#1 on the 9×9 easy leaderboard') && document.getElementById('submit-form').hidden`, 10*time.Second)
	b.shot("play-solved")
	// Reopened, the solved game shows the same time.
	b.run("reopen", chromedp.Reload())
	b.waitJS("the solved game", `!document.getElementById('done').hidden && document.getElementById('done').textContent.includes('Solved in')`, 10*time.Second)
	var timer2, done2 string
	b.eval(`document.getElementById('timer').textContent`, &timer2)
	b.eval(`document.querySelector('#done .big-result').textContent`, &done2)
	if timer2 != timer || done2 != "Solved in "+timer {
		t.Errorf("reopened: timer %q, finish screen %q; at the finish the timer said %q", timer2, done2, timer)
	}

	// A second game, left in progress with one move.
	b.run("new game", chromedp.Navigate(ts.URL+"/play"))
	b.run("choose easy 4x4", chromedp.Click(`input[name=size][value="4"]`, chromedp.ByQuery), chromedp.Click(`.level[data-level="easy"]`, chromedp.ByQuery))
	b.waitJS("the 4x4 game", `location.pathname.startsWith('/play/') && document.querySelectorAll('#board .cell').length === 16`, 20*time.Second)
	var path2 string
	b.eval(`location.pathname`, &path2)
	rec2, err := ts.Store.Game(context.Background(), strings.TrimPrefix(path2, "/play/"))
	if err != nil {
		t.Fatal(err)
	}
	e2 := strings.Index(rec2.Puzzle, "0")
	b.run("a move in game 2", chromedp.Click(cellSel(e2), chromedp.ByQuery), chromedp.KeyEvent(string(rec2.Solution[e2])))
	b.waitJS("the move shown", fmt.Sprintf(`document.querySelector('%s').textContent === '%c'`, cellSel(e2), rec2.Solution[e2]), 10*time.Second)

	// The game's link opened in another browser watches: every control
	// is off, and the page says whose game it is.
	watcher, _ := b.secondContext(t)
	watcher.run("open the link elsewhere", chromedp.Navigate(ts.URL+path2))
	watcher.waitJS("watching", `document.querySelectorAll('#board .cell').length === 16 && document.getElementById('msg').textContent.includes('watching') && [...document.querySelectorAll('#pad button, .tools button')].every((x) => x.disabled)`, 20*time.Second)

	// Restart the server on the same database and address.
	ts = ts.Restart()

	b.run("reload game 2", chromedp.Reload())
	// Leaving paused the clock: the reloaded page shows the cover, and
	// the paused game's answer holds no board to study.
	b.waitJS("the paused cover", `document.querySelectorAll('#board .cell').length === 16 && !document.getElementById('paused').hidden && document.getElementById('board').classList.contains('covered')`, 20*time.Second)
	b.shot("play-paused")
	b.run("resume", chromedp.Click(`#resume-btn`, chromedp.ByQuery))
	b.waitJS("resumed", `document.getElementById('paused').hidden && !document.getElementById('board').classList.contains('covered')`, 10*time.Second)
	b.waitJS("game 2 back, move kept", fmt.Sprintf(`document.querySelector('%s').textContent === '%c'`, cellSel(e2), rec2.Solution[e2]), 10*time.Second)

	b.run("leaderboard", chromedp.Navigate(ts.URL+"/leaderboard?size=9&level=easy"))
	b.waitJS("the score listed", `document.querySelectorAll('#best tbody tr').length === 1`, 10*time.Second)
	var name, html, shown string
	b.eval(`document.querySelector('#best tbody tr td:nth-child(3)').textContent`, &shown)
	if want := timer; shown != want {
		t.Errorf("the leaderboard shows %q, the finish screen said %q", shown, want)
	}
	b.eval(`document.querySelector('#best td.name').textContent`, &name)
	b.eval(`document.querySelector('#best td.name').innerHTML`, &html)
	if name != xssName || !strings.Contains(html, "&lt;script&gt;") {
		t.Errorf("leaderboard name: text %q, HTML %q; want the name shown as text", name, html)
	}
	var mine int
	b.eval(`document.querySelectorAll('#mine tbody tr').length`, &mine)
	if mine != 1 {
		t.Errorf("your games lists %d results, want 1", mine)
	}
	b.shot("leaderboard")
	if len(b.alerts) > 0 {
		t.Errorf("dialogs opened: %q", b.alerts)
	}
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
}

func cellSel(i int) string { return fmt.Sprintf(`#board .cell[data-i="%d"]`, i) }

// TestBrowserFinishLatency plays five easy 4×4 games in chromium with a
// remembered name and logs the time from the key of the last correct
// digit to the finish screen (the page's own clock), and their median:
// issue 20 asks for at most 200 ms. It asserts the flow (no name asked,
// the result recorded under the remembered name), never the time.
func TestBrowserFinishLatency(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "finish.db"), "127.0.0.1:0")
	b := newBrowser(t, 1280, 1000)
	b.run("open play", chromedp.Navigate(ts.URL+"/play"))
	b.run("remember a name", chromedp.Evaluate(`localStorage.setItem('sudokuar.name', 'Kim')`, nil))
	var lat []float64
	for k := range 5 {
		b.run("new 4x4", chromedp.Navigate(ts.URL+"/play"))
		b.waitJS("chooser", `!document.getElementById('chooser').hidden`, 10*time.Second)
		b.run("choose easy 4x4", chromedp.Click(`input[name=size][value="4"]`, chromedp.ByQuery), chromedp.Click(`.level[data-level="easy"]`, chromedp.ByQuery))
		b.waitJS("the 4x4 game", `location.pathname.startsWith('/play/') && document.querySelectorAll('#board .cell').length === 16 && !document.getElementById('game').hidden`, 20*time.Second)
		var path string
		b.eval(`location.pathname`, &path)
		rec, err := ts.Store.Game(context.Background(), strings.TrimPrefix(path, "/play/"))
		if err != nil {
			t.Fatal(err)
		}
		last := strings.LastIndex(rec.Puzzle, "0")
		for i := 0; i < last; i++ {
			if rec.Puzzle[i] == '0' {
				b.run("a digit", chromedp.Click(cellSel(i), chromedp.ByQuery), chromedp.KeyEvent(string(rec.Solution[i])))
			}
		}
		b.waitJS("all but one", fmt.Sprintf(`document.querySelectorAll('#board .cell').length === 16 && document.getElementById('progress').textContent === '15/16' || %d < 0`, k), 10*time.Second)
		b.run("select the last cell", chromedp.Click(cellSel(last), chromedp.ByQuery))
		b.run("watch the finish", chromedp.Evaluate(`window.__fin = {};
			document.addEventListener('keydown', () => { if (!window.__fin.key) window.__fin.key = performance.now(); }, { capture: true });
			new MutationObserver(() => { if (!document.getElementById('done').hidden && !window.__fin.done) window.__fin.done = performance.now(); })
				.observe(document.getElementById('done'), { attributes: true, childList: true });`, nil))
		b.run("the last digit", chromedp.KeyEvent(string(rec.Solution[last])))
		b.waitJS("the finish screen", `window.__fin.done > 0 && document.getElementById('done').textContent.includes('Solved in')`, 10*time.Second)
		var ms float64
		b.eval(`window.__fin.done - window.__fin.key`, &ms)
		lat = append(lat, ms)
		var asked bool
		b.eval(`!document.getElementById('submit-form').hidden`, &asked)
		if asked {
			t.Errorf("game %d: a name was asked although one is remembered", k)
		}
	}
	hist, err := ts.Store.History(context.Background(), mustPlayer(t, ts, b), 0)
	if err != nil || len(hist) != 5 {
		t.Fatalf("history: %d results, %v; want 5", len(hist), err)
	}
	for _, r := range hist {
		if r.Name != "Kim" {
			t.Errorf("a result recorded as %q, want the remembered Kim", r.Name)
		}
	}
	sorted := append([]float64(nil), lat...)
	slices.Sort(sorted)
	t.Logf("last digit to finish screen, ms: %.1f (median %.1f)", lat, sorted[len(sorted)/2])
}

// mustPlayer is the browser's player id, read back from its games.
func mustPlayer(t *testing.T, ts *testServer, b *browser) string {
	var path string
	b.eval(`location.pathname`, &path)
	rec, err := ts.Store.Game(context.Background(), strings.TrimPrefix(path, "/play/"))
	if err != nil {
		t.Fatal(err)
	}
	return rec.Player
}
