package web

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPages opens every page on a desktop and a phone-sized window
// and checks that each renders without a script error.
func TestBrowserPages(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "pages.db"), "127.0.0.1:0")
	games := map[string]string{}
	for _, w := range []string{"desktop", "phone"} {
		games[w] = strings.TrimPrefix(openGame(t, ts.URL), ts.URL) // one each: leaving a game pauses it
	}
	for _, win := range []struct {
		name string
		w, h int
	}{{"desktop", 1280, 900}, {"phone", phoneWidth, phoneHeight}} {
		t.Run(win.name, func(t *testing.T) {
			b := newBrowser(t, win.w, win.h)
			for _, p := range []struct{ name, path, ready string }{
				{"home", "/", `document.querySelectorAll('.tile').length === 9`},
				{"play-chooser", "/play", `!document.getElementById('chooser').hidden`},
				{"play-game", games[win.name], `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('progress').textContent !== '0/81'`},
				{"enter", "/enter", `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('solver').options.length > 0`},
				{"upload", "/upload", `!!document.getElementById('photo')`},
				{"leaderboard", "/leaderboard", `!!document.querySelector('.filters')`},
				{"notfound", "/no/such/page", `document.querySelector('h1').textContent === 'Not found'`},
			} {
				b.run("open "+p.name, chromedp.Navigate(ts.URL+p.path))
				b.waitJS(p.name+" ready", p.ready, 10*time.Second)
				b.shot(win.name + "-" + p.name)
			}
			if len(b.errors) > 0 {
				t.Errorf("script errors: %q", b.errors)
			}
		})
	}
}
