package web

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestBrowserFeatures plays what issue 34 adds, as a player would, on a
// desktop window: the keyboard from the first key (a cell is selected;
// Space on a focused button presses it), digit first, candidates, a game
// with a limit of three mistakes lost at the third, the daily puzzle
// (no check, a solution given up on kept for tomorrow), the statistics
// after it all, the dark theme from the first paint, Kakuro's pencil
// marks and undo, and a photo dropped on the upload button.
func TestBrowserFeatures(t *testing.T) {
	ts := startServerConfig(t, filepath.Join(t.TempDir(), "features.db"), "127.0.0.1:0", Config{FloorPerStep: -1})
	b := newBrowser(t, 1280, 900)
	ctx := context.Background()
	val := func(i int) string { return fmt.Sprintf(`document.querySelector('%s').textContent`, cellSel(i)) }

	// The keyboard from the first key: the first empty cell is selected.
	url := gameIn(b, ts, `{"size":"9","level":"easy"}`)
	rec, err := ts.Store.Game(ctx, strings.TrimPrefix(url, ts.URL+"/play/"))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Index(rec.Puzzle, "0")
	b.run("open the game", chromedp.Navigate(url))
	b.waitJS("the game", `document.querySelectorAll('#board .cell').length === 81 && !document.getElementById('game').hidden`, 15*time.Second)
	b.run("type at once", chromedp.KeyEvent(string(rec.Solution[first])))
	b.waitJS("typed in the first empty cell", val(first)+` === '`+string(rec.Solution[first])+`'`, 10*time.Second)
	// Space on a focused button presses it, and does not pause.
	b.run("focus Pencil, press Space", chromedp.Focus(`#pencil`, chromedp.ByID), chromedp.KeyEvent(" "))
	b.waitJS("pencil on, not paused", `document.getElementById('pencil').getAttribute('aria-pressed') === 'true' && document.getElementById('paused').hidden`, 5*time.Second)
	b.run("Space again", chromedp.KeyEvent(" "))
	b.waitJS("pencil off", `document.getElementById('pencil').getAttribute('aria-pressed') === 'false' && document.getElementById('paused').hidden`, 5*time.Second)

	// Digit first: pick a digit on the pad, tap two empty cells whose
	// solution it is (right digits leave every empty cell a candidate, so
	// the count of pencilled cells below is known whatever the puzzle).
	d, empties := digitTwice(rec.Puzzle, rec.Solution, first)
	if empties == nil {
		t.Fatalf("no digit is the solution of two empty cells of %s", rec.Puzzle)
	}
	pad := fmt.Sprintf(`#pad button[data-v="%c"]`, d)
	b.run("digit first on", chromedp.Evaluate(`localStorage.setItem('sudokuar.digitFirst', 'on'); document.dispatchEvent(new CustomEvent('sudokuar:settings', { detail: { name: 'digitFirst' } })); true`, nil))
	b.run("pick the digit", chromedp.Click(pad, chromedp.ByQuery))
	b.waitJS("the digit chosen", `document.querySelector('`+pad+`').getAttribute('aria-pressed') === 'true'`, 5*time.Second)
	b.run("tap two cells", chromedp.Click(cellSel(empties[0]), chromedp.ByQuery), chromedp.Click(cellSel(empties[1]), chromedp.ByQuery))
	b.waitJS("the digit in both", fmt.Sprintf(`%s === '%c' && %s === '%c'`, val(empties[0]), d, val(empties[1]), d), 10*time.Second)
	b.viewShot("features-digit-first")
	b.run("let the digit go, and digit first off", chromedp.Click(pad, chromedp.ByQuery),
		chromedp.Evaluate(`localStorage.removeItem('sudokuar.digitFirst'); document.dispatchEvent(new CustomEvent('sudokuar:settings', { detail: { name: 'digitFirst' } })); true`, nil))
	b.waitJS("pad writes again", `!document.querySelector('`+pad+`').hasAttribute('aria-pressed')`, 5*time.Second)

	// Candidates: every empty cell pencilled; the game is unranked.
	b.waitJS("ranked so far", `document.getElementById('mistakes').textContent === 'Ranked'`, 5*time.Second)
	b.run("candidates", chromedp.Click(`#candidates`, chromedp.ByID))
	b.waitJS("pencilled", fmt.Sprintf(`document.querySelectorAll('#board .cell .marks').length === %d && document.getElementById('mistakes').textContent === 'Unranked'`,
		strings.Count(rec.Puzzle, "0")-3), 10*time.Second)
	b.viewShot("features-candidates")

	// A limit of three mistakes: each shown at once, the third ends it.
	b.run("the chooser", chromedp.Navigate(ts.URL+"/play"))
	b.waitJS("the chooser", `!document.getElementById('chooser').hidden`, 10*time.Second)
	b.run("3 allowed, easy", chromedp.Click(`input[name=mistakes][value="3"]`, chromedp.ByQuery), chromedp.Click(`.level[data-level="easy"]`, chromedp.ByQuery))
	b.waitJS("the limited game", `location.pathname.startsWith('/play/') && document.getElementById('mistakes').textContent === '0/3 mistakes'`, 20*time.Second)
	var path string
	b.eval(`location.pathname`, &path)
	lim, err := ts.Store.Game(ctx, strings.TrimPrefix(path, "/play/"))
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(lim.Puzzle, "0")
	right := int(lim.Solution[at] - '0')
	for k, d := 0, 1; k < 3; d++ {
		if d == right {
			continue
		}
		k++
		b.run("a wrong digit", chromedp.Click(cellSel(at), chromedp.ByQuery), chromedp.KeyEvent(fmt.Sprint(d)))
		if k < 3 {
			b.waitJS("counted and shown", fmt.Sprintf(`document.getElementById('mistakes').textContent === '%d/3 mistakes' && document.querySelector('%s').classList.contains('wrong')`, k, cellSel(at)), 10*time.Second)
		}
	}
	b.waitJS("game over", `!document.getElementById('done').hidden && document.getElementById('done').textContent.includes('Game over: 3 mistakes')`, 10*time.Second)
	b.viewShot("features-mistake-limit")

	// The daily puzzle: no Check, no Mistakes; given up, its solution
	// waits for tomorrow.
	b.run("today's puzzle", chromedp.Navigate(ts.URL+"/daily"))
	b.waitJS("the daily game", `location.pathname.startsWith('/play/') && document.getElementById('what').textContent.startsWith('Daily') && document.querySelectorAll('#board .cell').length === 81`, 60*time.Second)
	var hidden bool
	b.eval(`document.getElementById('check').hidden && document.getElementById('errors').hidden && !document.getElementById('candidates').hidden`, &hidden)
	if !hidden {
		t.Error("the daily puzzle offers Check or Show mistakes")
	}
	b.viewShot("features-daily")
	b.run("give up", chromedp.Click(`#solution`, chromedp.ByID))
	b.waitJS("kept for tomorrow", `!document.getElementById('done').hidden && document.getElementById('done').textContent.includes('shows tomorrow')`, 10*time.Second)

	// The statistics count all of it.
	b.run("statistics", chromedp.Navigate(ts.URL+"/stats"))
	b.waitJS("the cards", `!!document.querySelector('.stat-cards')`, 10*time.Second)
	var cards string
	b.eval(`document.querySelector('.stat-cards').innerText.replace(/\s+/g, ' ')`, &cards)
	if !strings.Contains(cards, "3 games started") || !strings.Contains(cards, "0 won") {
		t.Errorf("statistics: %q, want 3 games started, 0 won", cards)
	}
	b.shot("features-stats")

	// The dark theme, chosen in the settings, is on from the first paint
	// of the next page.
	b.run("settings", chromedp.Navigate(ts.URL+"/"), chromedp.Click(`#settings-open`, chromedp.ByID))
	b.waitJS("the dialog", `document.getElementById('settings').open`, 5*time.Second)
	b.run("dark", chromedp.Click(`#settings input[name=theme][value=dark] + span`, chromedp.ByQuery), chromedp.Click(`#settings-close`, chromedp.ByID))
	b.waitJS("dark now", `document.documentElement.dataset.theme === 'dark' && !document.getElementById('settings').open`, 5*time.Second)
	var bg string
	b.run("reload", chromedp.Navigate(ts.URL+"/play"))
	b.waitJS("loaded", `document.readyState === 'complete'`, 10*time.Second)
	b.eval(`getComputedStyle(document.body).backgroundColor`, &bg)
	if bg != "rgb(18, 21, 28)" {
		t.Errorf("the dark page's background is %s", bg)
	}
	b.shot("features-dark-chooser")
	b.run("a game in the dark", chromedp.Navigate(url))
	b.waitJS("the game", `document.querySelectorAll('#board .cell').length === 81 && !document.getElementById('game').hidden`, 15*time.Second)
	b.run("resume", chromedp.Evaluate(`document.getElementById('paused').hidden || document.getElementById('resume-btn').click()`, nil))
	b.waitJS("resumed, the pad and tools back", `document.getElementById('paused').hidden && [...document.querySelectorAll('#pad button, #pencil, #hint, #candidates')].every((x) => !x.disabled)`, 10*time.Second)
	b.viewShot("features-dark-game")
	b.run("back to the system's", chromedp.Evaluate(`localStorage.removeItem('sudokuar.theme'); true`, nil))

	// Kakuro: pencil marks and undo, as in Sudoku.
	var kid string
	b.run("a kakuro game", chromedp.Evaluate(`fetch('/api/kakuro/games', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"size":"5","level":"easy"}'})
	  .then((r) => r.json()).then((v) => v.id)`, &kid, awaitPromise))
	b.run("open it", chromedp.Navigate(ts.URL+"/kakuro/"+kid))
	b.waitJS("the board", `document.querySelectorAll('#kboard .white').length > 0 && !document.getElementById('game').hidden`, 15*time.Second)
	kcell := `#kboard .kk-cell[data-cell="0"]`
	b.run("pencil 3 and 7", chromedp.Click(kcell, chromedp.ByQuery), chromedp.KeyEvent("p"), chromedp.KeyEvent("3"), chromedp.KeyEvent("7"), chromedp.KeyEvent("p"))
	b.waitJS("marks 3 and 7", `Array.from(document.querySelectorAll('`+kcell+` .marks span'), (s) => s.textContent).join('') === '37'`, 10*time.Second)
	b.waitJS("saved", `document.getElementById('undo') && !document.getElementById('undo').disabled`, 10*time.Second)
	b.run("undo", chromedp.KeyEvent("z", chromedp.KeyModifiers(input.ModifierCtrl)))
	b.waitJS("the 7 taken back", `Array.from(document.querySelectorAll('`+kcell+` .marks span'), (s) => s.textContent).join('') === '3'`, 10*time.Second)
	b.run("a digit", chromedp.KeyEvent("4"))
	b.waitJS("written", `document.querySelector('`+kcell+`').textContent === '4'`, 10*time.Second)
	b.run("undo it", chromedp.Click(`#undo`, chromedp.ByID))
	b.waitJS("empty with its mark", `Array.from(document.querySelectorAll('`+kcell+` .marks span'), (s) => s.textContent).join('') === '3'`, 10*time.Second)
	b.viewShot("features-kakuro-pencil")
	if g, _ := ts.Store.Game(ctx, kid); !strings.Contains(string(g.State), `"board"`) {
		t.Errorf("the Kakuro game's state keeps no board: %s", g.State)
	}

	// A photo dropped on the upload button is read as one chosen.
	photo, _ := cameraPhoto(t)
	b.run("upload", chromedp.Navigate(ts.URL+"/upload"))
	b.waitJS("the form", `!!document.getElementById('photo')`, 10*time.Second)
	var box struct{ X, Y float64 }
	b.eval(`(() => { const r = document.querySelector('label.file').getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`, &box)
	data := &input.DragData{Files: []string{photo}, DragOperationsMask: 1}
	b.run("drop the photo", chromedp.ActionFunc(func(ctx context.Context) error {
		for _, typ := range []input.DispatchDragEventType{input.DragEnter, input.DragOver, input.Drop} {
			if err := input.DispatchDragEvent(typ, box.X, box.Y, data).Do(ctx); err != nil {
				return err
			}
		}
		return nil
	}))
	b.waitJS("read", `document.getElementById('scan-msg').textContent.startsWith('Solved')`, 60*time.Second)

	// Enter: a paste that is no puzzle says it was not read.
	b.run("enter", chromedp.Navigate(ts.URL+"/enter"))
	b.waitJS("the grid", `document.querySelectorAll('#board .cell').length === 81`, 10*time.Second)
	b.run("paste words", chromedp.SetValue(`#paste`, "shopping: eggs, milk", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('paste').dispatchEvent(new Event('input')); true`, nil))
	b.waitJS("not read", `document.getElementById('verdict').textContent.startsWith('Not read') && document.getElementById('msg').textContent !== ''`, 10*time.Second)
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
}

// TestBrowserCoopStrip: in co-op, the other player's line above the board
// says their hints, never "undefined".
func TestBrowserCoopStrip(t *testing.T) {
	cfg := Config{FloorPerStep: -1}
	cfg.Rooms.Countdown = 50 * time.Millisecond
	ts := startServerConfig(t, filepath.Join(t.TempDir(), "coop.db"), "127.0.0.1:0", cfg)
	ada := newBrowser(t, phoneWidth, phoneHeight)
	listen(ada, &wsLog{})
	bob, _ := ada.secondContext(t)
	ada.run("the lobby", chromedp.Navigate(ts.URL+"/rooms"))
	ada.waitJS("the lobby", `!document.getElementById('lobby').hidden`, 10*time.Second)
	ada.run("co-op room", chromedp.SendKeys(`#name`, "Ada", chromedp.ByID), chromedp.Click(`input[name=cmode][value=coop] + span`, chromedp.ByQuery), chromedp.Click(`#create`, chromedp.ByID))
	ada.waitJS("the room", `/^\/rooms\/[A-Z2-9]{6}$/.test(location.pathname)`, 10*time.Second)
	var code string
	ada.eval(`location.pathname.split('/')[2]`, &code)
	bob.run("the lobby", chromedp.Navigate(ts.URL+"/rooms/"+code))
	bob.waitJS("bob's page", `!document.getElementById('room').hidden || !document.getElementById('lobby').hidden`, 10*time.Second)
	bob.run("name", chromedp.Evaluate(`localStorage.setItem('sudokuar.name', 'Bob'); true`, nil), chromedp.Reload())
	bob.waitJS("bob seated", `document.querySelectorAll('#seats .seat:not(.free)').length === 2`, 10*time.Second)
	bob.run("bob ready", chromedp.Evaluate(`document.getElementById('ready').click()`, nil))
	ada.run("ada ready", chromedp.Click(`#ready`, chromedp.ByID))
	ada.waitJS("playing", `!document.getElementById('play').hidden && !document.getElementById('strip').hidden`, 20*time.Second)
	var info string
	ada.eval(`document.getElementById('strip').textContent`, &info)
	if strings.Contains(info, "undefined") || !strings.Contains(info, "hint") {
		t.Errorf("the co-op strip says %q", info)
	}
	ada.viewShot("phone-coop-strip")
}

// digitTwice returns a digit that is the solution of two empty cells of
// puzzle other than skip, and those cells (nil when there is none).
func digitTwice(puzzle, solution string, skip int) (byte, []int) {
	at := map[byte][]int{}
	for i := range puzzle {
		if puzzle[i] == '0' && i != skip {
			at[solution[i]] = append(at[solution[i]], i)
		}
	}
	for d := byte('1'); d <= '9'; d++ {
		if len(at[d]) >= 2 {
			return d, at[d][:2]
		}
	}
	return 0, nil
}
