package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// clsStart starts summing the page's layout shifts from now on, every
// entry counted (also those right after an input, which the web-vitals
// CLS leaves out): while playing, nothing may move under the finger.
const clsStart = `window.__cls = 0; window.__shifts = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) { window.__cls += e.value;
  window.__shifts.push(e.value.toFixed(4) + ' ' + (e.sources || []).map((s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : '?').join(',')); } })
  .observe({ type: 'layout-shift' }); true`

// TestBrowserComfort plays the comfort features of issue 20 at 1280×800
// and 390×844: a placed digit clears its peers' pencil marks and one undo
// brings them back; a rule break shows without "Show mistakes"; the pad counts
// the digits left; a hint comes in three stages (nudge naming the house,
// pattern with its sentence, answer played), each counted and the whole
// one of the five; and hinting, toggling pencil and checking move nothing
// on the page (cumulative layout shift 0); a hint open across a reload
// goes on at its next stage.
func TestBrowserComfort(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "comfort.db"), "127.0.0.1:0")
	for _, win := range []struct {
		name string
		w, h int
	}{{"desktop", 1280, 800}, {"phone", phoneWidth, phoneHeight}} {
		t.Run(win.name, func(t *testing.T) {
			b := newBrowser(t, win.w, win.h)
			url := gameIn(b, ts, `{"size":"9","level":"easy"}`)
			id := strings.TrimPrefix(url, ts.URL+"/play/")
			rec, err := ts.Store.Game(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			puzzle, sol := rec.Puzzle, rec.Solution
			b.run("open the game", chromedp.Navigate(url))
			b.waitJS("the game", `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('progress').textContent !== '0/81'`, 15*time.Second)
			b.waitJS("fonts and first layout settled", settledJS, eventTimeout) // before measuring
			b.run("measure layout shifts", chromedp.Evaluate(clsStart, nil))

			// Two empty cells x, y of one row: pencil x's digit into y.
			x, y := -1, -1
			for r := 0; r < 9 && y < 0; r++ {
				x = -1
				for c := 0; c < 9; c++ {
					if i := r*9 + c; puzzle[i] == '0' {
						if x < 0 {
							x = i
						} else {
							y = i
							break
						}
					}
				}
			}
			d := string(sol[x])
			marksOf := func(i int) string {
				return fmt.Sprintf(`Array.from(document.querySelectorAll('%s .marks span'), (s) => s.textContent).join('')`, cellSel(i))
			}
			b.run("pencil "+d+" into y", chromedp.Click(cellSel(y), chromedp.ByQuery), chromedp.KeyEvent("p"), chromedp.KeyEvent(d), chromedp.KeyEvent("p"))
			b.waitJS("the mark", marksOf(y)+` === '`+d+`'`, 10*time.Second)
			var left0 string
			b.eval(`document.querySelector('#pad button[data-v="`+d+`"]').dataset.left`, &left0)
			b.run("place "+d+" in x", chromedp.Click(cellSel(x), chromedp.ByQuery), chromedp.KeyEvent(d))
			b.waitJS("the mark cleared", fmt.Sprintf(`document.querySelector('%s').textContent === '%s' && %s === ''`, cellSel(x), d, marksOf(y)), 10*time.Second)
			var left1 string
			b.eval(`document.querySelector('#pad button[data-v="`+d+`"]').dataset.left`, &left1)
			if fmt.Sprint(atoi(left0)-1) != left1 {
				t.Errorf("the pad's count of %s went from %s to %s, want one less", d, left0, left1)
			}
			b.viewShot(win.name + "-comfort-cleared")
			b.run("undo", chromedp.KeyEvent("z", chromedp.KeyModifiers(input.ModifierCtrl)))
			b.waitJS("the mark back, x empty", fmt.Sprintf(`document.querySelector('%s').textContent === '' && %s === '%s'`, cellSel(x), marksOf(y), d), 10*time.Second)

			// Show mistakes off (a ranked game's default), and a digit that a
			// given of the row already holds: the rule break shows all the same.
			given := -1
			for c := 0; c < 9; c++ {
				if puzzle[x/9*9+c] != '0' {
					given = x/9*9 + c
					break
				}
			}
			b.waitJS("show mistakes off", `document.getElementById('errors').getAttribute('aria-pressed') === 'false'`, 10*time.Second)
			b.run("a clash", chromedp.Click(cellSel(x), chromedp.ByQuery), chromedp.KeyEvent(string(puzzle[given])))
			b.waitJS("the clash shown", fmt.Sprintf(`document.querySelector('%s').classList.contains('conflict') && document.querySelector('%s').classList.contains('conflict')`, cellSel(x), cellSel(given)), 10*time.Second)
			b.viewShot(win.name + "-comfort-conflict")
			b.run("erase it", chromedp.KeyEvent(kb.Backspace))
			b.waitJS("the clash gone", fmt.Sprintf(`!document.querySelector('%s').classList.contains('conflict')`, cellSel(x)), 10*time.Second)

			// A hint in three stages.
			b.run("hint: nudge", chromedp.Click(`#hint`, chromedp.ByID))
			// In plain words first; the experts' words (the technique
			// named) when the setting asks for them.
			b.waitJS("the nudge", `/^Look at (box|row|column) \d+: .+\.$/.test(document.getElementById('msg').textContent) && document.querySelectorAll('#board .cell.hint').length === 9 && document.getElementById('hints').textContent === '1/5' && document.querySelector('#hint .hint-word').textContent === 'Show'`, 15*time.Second)
			b.viewShot(win.name + "-hint-1-nudge")
			b.run("experts' words", chromedp.Evaluate(`localStorage.setItem('sudokuar.cellNames', 'rc'); document.dispatchEvent(new CustomEvent('sudokuar:settings', { detail: { name: 'cellNames' } })); true`, nil))
			b.waitJS("the nudge named", `/^There is an? .+ in (box|row|column) \d+\.$/.test(document.getElementById('msg').textContent)`, 5*time.Second)
			b.run("plain words again", chromedp.Evaluate(`localStorage.removeItem('sudokuar.cellNames'); document.dispatchEvent(new CustomEvent('sudokuar:settings', { detail: { name: 'cellNames' } })); true`, nil))
			b.run("hint: pattern", chromedp.Click(`#hint`, chromedp.ByID))
			b.waitJS("the pattern", `!document.getElementById('msg').textContent.startsWith('Look at') && /row \d+, column \d+/.test(document.getElementById('msg').textContent) && document.querySelectorAll('#board .cell.hint-target').length > 0 && document.getElementById('hints').textContent === '1/5' && document.querySelector('#hint .hint-word').textContent === 'Apply'`, 15*time.Second)
			b.viewShot(win.name + "-hint-2-pattern")
			check(t, b, win.name+" play, hint stage 2", b.axe(axeSource(t)))
			var target int
			b.eval(`Number(document.querySelector('#board .cell.hint-target').dataset.i)`, &target)
			b.run("hint: answer", chromedp.Click(`#hint`, chromedp.ByID))
			b.waitJS("the answer played", fmt.Sprintf(`document.querySelector('%s').textContent === '%c' && document.getElementById('msg').textContent.endsWith('placed.') && document.getElementById('hints').textContent === '1/5' && document.querySelector('#hint .hint-word').textContent === 'Hint'`, cellSel(target), sol[target]), 15*time.Second)
			b.viewShot(win.name + "-hint-3-answer")
			res, err := httpGetJSON(ts.URL + "/api/games/" + id)
			if err != nil {
				t.Fatal(err)
			}
			if res["hints"] != 1.0 || res["hintStages"] != 3.0 {
				t.Errorf("after one hint in three stages the game counts hints %v, stages %v; want 1 and 3", res["hints"], res["hintStages"])
			}
			// The next move takes the hint's highlight away.
			b.run("a move", chromedp.Click(cellSel(y), chromedp.ByQuery), chromedp.KeyEvent(string(sol[y])))
			b.waitJS("no highlight left", `document.querySelectorAll('#board .cell.hint, #board .cell.hint-target').length === 0`, 10*time.Second)

			// Pencil on and off, and a check.
			b.run("pencil on", chromedp.Click(`#pencil`, chromedp.ByID))
			b.waitJS("pencil on", `document.getElementById('pencil').getAttribute('aria-pressed') === 'true'`, 5*time.Second)
			b.run("pencil off", chromedp.Click(`#pencil`, chromedp.ByID))
			b.run("check", chromedp.Click(`#check`, chromedp.ByID))
			b.waitJS("checked", `document.getElementById('msg').textContent === 'No wrong digits so far.'`, 10*time.Second)
			var cls float64
			var shifts []string
			b.eval(`window.__cls`, &cls)
			b.eval(`window.__shifts`, &shifts)
			t.Logf("%s: cumulative layout shift %.4f over the whole session (%d shifts)", win.name, cls, len(shifts))
			if cls != 0 {
				t.Errorf("%s: the page moved while playing: CLS %.4f, shifts %q", win.name, cls, shifts)
			}
			// A hint open across a reload goes on where it was, for free.
			b.run("a second hint", chromedp.Click(`#hint`, chromedp.ByID))
			b.waitJS("its nudge", `document.getElementById('hints').textContent === '2/5' && document.querySelector('#hint .hint-word').textContent === 'Show'`, 15*time.Second)
			b.run("reload", chromedp.Reload())
			b.waitJS("the game again", `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('hints').textContent === '2/5' && document.querySelector('#hint .hint-word').textContent === 'Show'`, 15*time.Second)
			b.run("resume (leaving the page paused the game)", chromedp.Evaluate(`document.getElementById('paused').hidden || document.getElementById('resume-btn').click()`, nil))
			b.waitJS("resumed", `document.getElementById('paused').hidden`, 10*time.Second)
			b.run("its pattern", chromedp.Click(`#hint`, chromedp.ByID))
			b.waitJS("the pattern, still 2/5", `document.querySelector('#hint .hint-word').textContent === 'Apply' && document.querySelectorAll('#board .cell.hint-target').length > 0 && document.getElementById('hints').textContent === '2/5'`, 15*time.Second)
			if len(b.errors) > 0 {
				t.Errorf("script errors: %q", b.errors)
			}
		})
	}
}

// gameIn starts a game with body (JSON for POST /api/games) from inside
// browser b, so that b's cookie owns it and b plays it (a game started
// elsewhere opens for watching), and returns its page's URL.
func gameIn(b *browser, ts *testServer, body string) string {
	b.t.Helper()
	var id string
	b.run("open play", chromedp.Navigate(ts.URL+"/play"))
	b.run("start a game", chromedp.Evaluate(`fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '`+body+`'})
	  .then((r) => r.json()).then((v) => v.id)`, &id, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if id == "" {
		b.t.Fatalf("no game started from the browser with %s", body)
	}
	return ts.URL + "/play/" + id
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// httpGetJSON GETs url and decodes its JSON object.
func httpGetJSON(url string) (map[string]any, error) {
	res, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var out map[string]any
	return out, json.NewDecoder(res.Body).Decode(&out)
}
