package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserKakuro plays a small generated Kakuro to the end in the
// browser: the chooser makes a game, a digit twice in a run is coloured
// at once, a wrong digit is not marked, Hint reveals a cell, every cell is
// typed from the keyboard (each a move), the last one ends the game and a
// name puts the time on the Kakuro leaderboard, which the chooser then
// lists. Then the Solve page
// solves a typed board and names the line of a bad token.
func TestBrowserKakuro(t *testing.T) {
	// No plausibility floor: the test types faster than a person.
	ts := startServerConfig(t, t.TempDir()+"/kakuro.db", "127.0.0.1:0", Config{FloorPerStep: -1})
	b := newBrowser(t, 900, 1100)
	b.run("open kakuro", chromedp.Navigate(ts.URL+"/kakuro"))
	b.waitJS("the chooser", `document.querySelectorAll('.level').length === 3`, 10*time.Second)
	b.run("5x5 easy", chromedp.Click(`input[name=size][value="5"]`, chromedp.ByQuery), chromedp.Click(`.level[data-level=easy]`, chromedp.ByQuery))
	b.waitJS("a game", `location.pathname.startsWith('/kakuro/') && document.querySelectorAll('#kboard .kk-cell.white').length > 0`, 40*time.Second)

	var path string
	b.eval(`location.pathname`, &path)
	rec, err := ts.Store.Game(context.Background(), strings.TrimPrefix(path, "/kakuro/"))
	if err != nil {
		t.Fatal(err)
	}
	sol, err := kakuroSolution(rec)
	if err != nil {
		t.Fatal(err)
	}
	cell := func(k int) string { return fmt.Sprintf(`#kboard .kk-cell[data-cell="%d"]`, k) }

	// Cells 0 and 1 share an across run (reading order; a run has at
	// least two cells): the same digit in both breaks it.
	b.run("a digit twice", chromedp.Click(cell(0), chromedp.ByQuery), chromedp.KeyEvent("5"),
		chromedp.Click(cell(1), chromedp.ByQuery), chromedp.KeyEvent("5"))
	b.waitJS("the broken run", `document.querySelector('`+cell(0)+`').classList.contains('conflict') && document.querySelector('`+cell(1)+`').classList.contains('conflict')`, 5*time.Second)
	b.shot("kakuro-conflict")
	b.run("erase", chromedp.KeyEvent(kb.Backspace))

	// A wrong digit in cell 0 is not marked (a ranked game tells nothing
	// of right and wrong); the hint mends the wrong cell first.
	b.run("a wrong digit", chromedp.Click(cell(0), chromedp.ByQuery), chromedp.KeyEvent(fmt.Sprint(sol[0]%9+1)))
	b.waitJS("typed", fmt.Sprintf(`document.querySelector('%s').textContent === '%d' && document.getElementById('mistakes').textContent === 'Ranked'`, cell(0), sol[0]%9+1), 10*time.Second)
	b.run("hint", chromedp.Click(`#hint`, chromedp.ByQuery))
	b.waitJS("the hint", fmt.Sprintf(`document.querySelector('%s').textContent === '%d' && document.getElementById('hints').textContent === '1/5'`, cell(0), sol[0]), 10*time.Second)

	// Type the rest, one cell at a time: the last digit ends the game and
	// the finish screen asks for a name (none remembered yet).
	for k := 1; k < len(sol); k++ {
		b.run(fmt.Sprintf("cell %d", k), chromedp.Click(cell(k), chromedp.ByQuery), chromedp.KeyEvent(fmt.Sprint(sol[k])))
	}
	b.waitJS("finished", `!document.getElementById('done').hidden && document.getElementById('done').textContent.includes('Solved in') && !document.getElementById('submit-form').hidden`, 10*time.Second)
	b.run("name", chromedp.SetValue(`#name`, "Ada", chromedp.ByQuery), chromedp.Click(`#submit`, chromedp.ByQuery))
	b.waitJS("ranked", `!document.getElementById('done').hidden && document.getElementById('done').textContent.includes('#1 on the 5×5 easy leaderboard as Ada')`, 10*time.Second)
	b.shot("kakuro-solved")
	if g, _ := ts.Store.Game(context.Background(), rec.ID); g.Status != "solved" {
		t.Errorf("stored game is %s", g.Status)
	}

	b.run("back to the chooser", chromedp.Navigate(ts.URL+"/kakuro"), chromedp.WaitVisible(`#best`, chromedp.ByQuery),
		chromedp.Click(`input[name=size][value="5"]`, chromedp.ByQuery))
	b.waitJS("listed", `document.querySelector('#best tbody').textContent.includes('Ada')`, 10*time.Second)

	// The Solve page: its example board, then a bad token.
	b.run("open solve", chromedp.Navigate(ts.URL+"/kakuro/solve"), chromedp.Click(`#solve`, chromedp.ByQuery))
	b.waitJS("solved board", `document.getElementById('msg').textContent.startsWith('Solved in') && document.querySelectorAll('#kboard .kk-cell.white').length === 12`, 10*time.Second)
	b.shot("kakuro-solve")
	b.run("a bad token", chromedp.SetValue(`#text`, "3 3\n# 3\\ 4\\\n\\3 . .\n\\4 . x", chromedp.ByQuery), chromedp.Click(`#solve`, chromedp.ByQuery))
	b.waitJS("the error", `document.getElementById('msg').textContent.includes('line 4')`, 10*time.Second)
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
}
