package web

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
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
// would: a wrong digit is marked, a hint highlights its cells, the grid is
// finished and submitted under a hostile name, and the score is on the
// leaderboard after a restart on the same database, shown as text. A
// second game in progress survives a reload and a restart. No response
// before the submit carried the solution.
func TestBrowserPlay(t *testing.T) {
	db := filepath.Join(t.TempDir(), "play.db")
	ts := startServer(t, db, "127.0.0.1:0")
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

	// A wrong digit in the first empty cell is marked.
	empty := strings.Index(puzzle, "0")
	wrong := (int(solution[empty]-'0'))%9 + 1
	b.run("type a wrong digit", chromedp.Click(cellSel(empty), chromedp.ByQuery), chromedp.KeyEvent(fmt.Sprint(wrong)))
	b.waitJS("the wrong digit marked", fmt.Sprintf(`document.querySelector('%s').classList.contains('wrong') && document.querySelector('%s').textContent === '%d'`, cellSel(empty), cellSel(empty), wrong), 10*time.Second)
	b.waitJS("a mistake counted", `document.getElementById('mistakes').textContent === '1'`, 5*time.Second)
	b.shot("play-wrong-digit")

	// Fix it, then ask for a hint.
	b.run("fix the digit", chromedp.KeyEvent(string(solution[empty])))
	b.waitJS("the digit fixed", fmt.Sprintf(`!document.querySelector('%s').classList.contains('wrong')`, cellSel(empty)), 10*time.Second)
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

	// Finish with the keyboard: arrows from the top-left corner.
	b.run("select r1c1", chromedp.Click(cellSel(0), chromedp.ByQuery))
	var keys strings.Builder
	for i := 0; i < 81; i++ {
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
	b.waitJS("every cell filled", `document.getElementById('progress').textContent === '81/81'`, 30*time.Second)
	b.shot("play-filled")
	submitAt := time.Now()

	// What reached the browser before the submit never held the solution,
	// other than as the digits the player typed ("cells").
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

	b.run("submit", chromedp.SetValue(`#name`, xssName, chromedp.ByQuery), chromedp.Click(`#submit`, chromedp.ByQuery))
	b.waitJS("the game solved", `!document.getElementById('done').hidden && document.getElementById('done').textContent.includes('Solved in')`, 10*time.Second)
	b.shot("play-solved")

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

	// Restart the server on the same database and address.
	ts = ts.Restart()

	b.run("reload game 2", chromedp.Reload())
	b.waitJS("game 2 back, move kept", fmt.Sprintf(`document.querySelectorAll('#board .cell').length === 16 && document.querySelector('%s').textContent === '%c'`, cellSel(e2), rec2.Solution[e2]), 20*time.Second)
	// Leaving paused the clock: the reloaded page shows the cover.
	b.waitJS("the paused cover", `!document.getElementById('paused').hidden && document.getElementById('board').classList.contains('covered')`, 10*time.Second)
	b.shot("play-paused")
	b.run("resume", chromedp.Click(`#resume-btn`, chromedp.ByQuery))
	b.waitJS("resumed", `document.getElementById('paused').hidden && !document.getElementById('board').classList.contains('covered')`, 10*time.Second)

	b.run("leaderboard", chromedp.Navigate(ts.URL+"/leaderboard?size=9&level=easy"))
	b.waitJS("the score listed", `document.querySelectorAll('#best tbody tr').length === 1`, 10*time.Second)
	var name, html string
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
