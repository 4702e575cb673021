package web

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserEnter types a puzzle into the Enter page: the verdict follows
// every change (conflict, several solutions, one with its rating), the
// chosen solver solves it and says how long it took, and Play it starts a
// game of it.
func TestBrowserEnter(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/enter.db", "127.0.0.1:0")
	b := newBrowser(t, 1280, 1000)
	b.run("open enter", chromedp.Navigate(ts.URL+"/enter"))
	b.waitJS("the grid", `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('solver').options.length > 0`, 10*time.Second)
	b.waitJS("empty verdict", `document.getElementById('verdict').textContent.startsWith('Empty grid')`, 5*time.Second)

	// Type the classic puzzle row by row: '.' is an empty cell.
	var keys strings.Builder
	for _, c := range classic {
		if c == '0' {
			keys.WriteByte('.')
		} else {
			keys.WriteRune(c)
		}
	}
	b.run("type the puzzle", chromedp.Click(cellSel(0), chromedp.ByQuery), chromedp.KeyEvent(keys.String()))
	b.waitJS("one solution, rated", `/^One solution · rating \d+\.\d · (easy|medium|hard|expert|extreme) · 30 givens$/.test(document.getElementById('verdict').textContent)`, 10*time.Second)

	// A conflict: a second 5 in row 1 (r1c3), then take it back.
	b.run("a conflicting 5", chromedp.Click(cellSel(2), chromedp.ByQuery), chromedp.KeyEvent("5"))
	b.waitJS("the conflict", `document.getElementById('verdict').textContent.startsWith('Conflict: 5 twice in row 1') && document.querySelector('`+cellSel(2)+`').classList.contains('conflict')`, 10*time.Second)
	b.shot("enter-conflict")
	b.run("erase it", chromedp.Click(cellSel(2), chromedp.ByQuery), chromedp.KeyEvent(kb.Backspace))
	b.waitJS("one solution again", `document.getElementById('verdict').textContent.startsWith('One solution')`, 10*time.Second)
	// Several solutions: erase r1c1 and r1c2.
	b.run("erase two givens", chromedp.Click(cellSel(0), chromedp.ByQuery), chromedp.KeyEvent(kb.Delete), chromedp.Click(cellSel(1), chromedp.ByQuery), chromedp.KeyEvent(kb.Delete), chromedp.Click(cellSel(4), chromedp.ByQuery), chromedp.KeyEvent(kb.Delete))
	b.waitJS("several or one", `/^(Several solutions|One solution)/.test(document.getElementById('verdict').textContent)`, 10*time.Second)

	// Paste the classic puzzle back in, over nine lines with dots.
	lines := ""
	for r := 0; r < 9; r++ {
		lines += strings.ReplaceAll(classic[r*9:r*9+9], "0", ".") + "\n"
	}
	// The old verdict goes at once: "Checking…" until the new one.
	var at string
	b.run("paste", chromedp.SetValue(`#paste`, lines, chromedp.ByQuery), chromedp.Evaluate(`document.getElementById('paste').dispatchEvent(new Event('input')), document.getElementById('verdict').textContent`, &at))
	if at != "Checking…" {
		t.Errorf("right after the paste the verdict says %q, want Checking…", at)
	}
	b.waitJS("pasted and judged", `document.getElementById('verdict').textContent.startsWith('One solution') && document.querySelector('`+cellSel(0)+`').textContent === '5'`, 10*time.Second)

	// Solve with another solver of the zoo: ILP (GLPK) when offered.
	var solvers []string
	b.eval(`Array.from(document.getElementById('solver').options, (o) => o.value)`, &solvers)
	pick := "dlx"
	for _, s := range solvers {
		if s == "ilp" || (s == "backtrack" && pick == "dlx") {
			pick = s
		}
	}
	b.run("choose "+pick, chromedp.SetValue(`#solver`, pick, chromedp.ByQuery), chromedp.Click(`#solve`, chromedp.ByQuery))
	b.waitJS("solved, with the time", `/^Solved by `+pick+` in [0-9.]+ (µs|ms)/.test(document.getElementById('msg').textContent)`, 20*time.Second)
	var all string
	b.eval(`Array.from(document.querySelectorAll('#board .cell'), (c) => c.textContent).join('')`, &all)
	if all != classicSolution {
		t.Errorf("after Solve the grid shows %q", all)
	}
	b.shot("enter-solved")
	b.run("play it", chromedp.Click(`#play`, chromedp.ByQuery))
	b.waitJS("a game of it", `location.pathname.startsWith('/play/') && document.querySelectorAll('#board .cell.given').length === 30`, 20*time.Second)
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
}
