package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// axeJS runs axe-core (already injected) on the page and returns its
// serious and critical violations, one line each with up to five of the
// elements at fault.
const axeJS = `axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations
  .filter((v) => v.impact === 'serious' || v.impact === 'critical')
  .map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' [' + v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ') + ']'))`

// axe injects axe-core (test-only: web/testdata/axe) into the page and
// returns its serious and critical violations.
func (b *browser) axe(src string) []string {
	b.t.Helper()
	var out []string
	b.run("inject axe", chromedp.Evaluate(src+"\n;true", nil))
	b.run("run axe", chromedp.Evaluate(axeJS, &out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	}))
	return out
}

// TestBrowserAxe opens every page, desktop 1280×800 and phone 390×844,
// runs axe-core on it and fails on any serious or critical violation:
// the lobby and a room of Play with friends, a game of Sudoku and one of
// Kakuro included.
func TestBrowserAxe(t *testing.T) {
	src := axeSource(t)
	ts := startServer(t, filepath.Join(t.TempDir(), "axe.db"), "127.0.0.1:0")
	kres, err := httpPostJSON(ts.URL+"/api/kakuro/games", `{"size":"5","level":"easy"}`)
	if err != nil {
		t.Fatal(err)
	}
	kakuroGame := "/kakuro/" + kres["id"].(string)
	for _, win := range []struct {
		name string
		w, h int
	}{{"desktop", 1280, 800}, {"phone", phoneWidth, phoneHeight}} {
		t.Run(win.name, func(t *testing.T) {
			b := newBrowser(t, win.w, win.h)
			game := strings.TrimPrefix(gameIn(b, ts, `{"size":"9","level":"easy"}`), ts.URL)
			pages := []struct{ name, path, ready string }{
				{"home", "/", `document.querySelectorAll('.tile').length === 9`},
				{"play-chooser", "/play", `!document.getElementById('chooser').hidden`},
				{"play-game", game, `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('progress').textContent !== '0/81'`},
				{"rooms-lobby", "/rooms", `!document.getElementById('lobby').hidden`},
				{"camera", "/camera", `document.readyState === 'complete'`},
				{"upload", "/upload", `!!document.getElementById('photo')`},
				{"enter", "/enter", `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('solver').options.length > 0`},
				{"kakuro-chooser", "/kakuro", `document.readyState === 'complete' && !document.getElementById('chooser').hidden`},
				{"kakuro-game", kakuroGame, `document.querySelectorAll('#kboard .white').length > 0`},
				{"kakuro-solve", "/kakuro/solve", `document.readyState === 'complete'`},
				{"leaderboard", "/leaderboard", `!!document.querySelector('.filters')`},
				{"notfound", "/no/such/page", `document.querySelector('h1').textContent === 'Not found'`},
			}
			for _, p := range pages {
				b.run("open "+p.name, chromedp.Navigate(ts.URL+p.path))
				b.waitJS(p.name+" ready", p.ready, 15*time.Second)
				check(t, b, p.name, b.axe(src))
			}
			// A room: name, create, and its lobby with the ready button.
			b.run("open rooms", chromedp.Navigate(ts.URL+"/rooms"))
			b.waitJS("lobby", `!document.getElementById('lobby').hidden`, 10*time.Second)
			b.run("create a room", chromedp.SetValue(`#name`, "Ada", chromedp.ByQuery), chromedp.Click(`#create`, chromedp.ByQuery))
			b.waitJS("the room", `!document.getElementById('room').hidden && !document.getElementById('waiting').hidden`, 20*time.Second)
			check(t, b, "rooms-room", b.axe(src))
			if len(b.errors) > 0 {
				t.Errorf("script errors: %q", b.errors)
			}
		})
	}
}

// axeSource reads the vendored axe-core (web/testdata/axe, tests only).
func axeSource(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "axe", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is vendored for the accessibility tests: %v", err)
	}
	return string(src)
}

// check fails t with the violations of page, if any.
func check(t *testing.T, b *browser, page string, violations []string) {
	t.Helper()
	if len(violations) == 0 {
		t.Logf("%s: no serious or critical violation", page)
		return
	}
	b.shot("axe-" + page)
	text, _ := json.MarshalIndent(violations, "", "  ")
	t.Errorf("%s: %d serious or critical accessibility violations:\n%s", page, len(violations), text)
}
