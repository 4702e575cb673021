package web

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPhone16 plays 16×16 on a phone (390×844): the pad and the
// tools are on the first screen; Zoom shows the selected cell's box
// at twice the size, pencil marks included, follows the selection, and
// nothing on the page moves when it is turned on and off.
func TestBrowserPhone16(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "p16.db"), "127.0.0.1:0")
	b := newBrowser(t, phoneWidth, phoneHeight)
	b.run("open the game", chromedp.Navigate(gameIn(b, ts, `{"size":"16","level":"easy"}`)))
	b.waitJS("the game", `document.querySelectorAll('#board .cell').length === 256 && document.getElementById('progress').textContent !== '0/256'`, 20*time.Second)
	var fold struct{ Pad, Tools, VH, Cell float64 }
	b.eval(`(() => { const r = (q) => document.querySelector(q).getBoundingClientRect();
	  return { pad: r('#pad').bottom, tools: r('.tools').bottom, vh: innerHeight, cell: r('#board .cell').width }; })()`, &fold)
	t.Logf("16×16 on a phone: %+v", fold)
	if fold.Tools > fold.VH || fold.Pad > fold.VH || fold.Tools == 0 {
		t.Errorf("on a %.0f px high phone the tools end at %.0f, the pad at %.0f", fold.VH, fold.Tools, fold.Pad)
	}
	b.waitJS("fonts and first layout settled", settledJS, eventTimeout) // before measuring
	b.run("measure layout shifts", chromedp.Evaluate(clsStart, nil))

	// Pencil two marks into an empty cell of the last box, then zoom.
	var empty int
	b.eval(`[...document.querySelectorAll('#board .cell')].filter((c) => !c.classList.contains('given')).map((c) => Number(c.dataset.i)).pop()`, &empty)
	b.run("select it", chromedp.Click(cellSel(empty), chromedp.ByQuery))
	b.run("pencil 1 and A", chromedp.KeyEvent("p"), chromedp.KeyEvent("1"), chromedp.KeyEvent("a"), chromedp.KeyEvent("p"))
	b.waitJS("the marks", `document.querySelectorAll('`+cellSel(empty)+` .marks span:not(:empty)').length === 2`, 10*time.Second)
	var before float64
	b.eval(`document.querySelector('`+cellSel(empty)+` .marks span:not(:empty)').getBoundingClientRect().height`, &before)
	b.run("zoom", chromedp.Click(`#zoom`, chromedp.ByID))
	b.waitJS("zoomed", `document.getElementById('zoom').getAttribute('aria-pressed') === 'true' && document.getElementById('board').classList.contains('zoomed')`, 5*time.Second)
	var z struct {
		Mark, Cell  float64
		Visible     bool
		BoardBottom float64
	}
	b.eval(`(() => { const c = document.querySelector('`+cellSel(empty)+`').getBoundingClientRect(); const bd = document.getElementById('board').getBoundingClientRect();
	  const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
	  return { mark: document.querySelector('`+cellSel(empty)+` .marks span:not(:empty)').getBoundingClientRect().height, cell: c.width,
	    visible: !!hit && hit.closest('.cell') === document.querySelector('`+cellSel(empty)+`'), boardBottom: bd.bottom }; })()`, &z)
	t.Logf("pencil mark %.1f px high, zoomed %.1f px; cell %.1f px zoomed", before, z.Mark, z.Cell)
	b.viewShot("phone-16x16-zoomed")
	if !z.Visible || z.Mark < 1.9*before || z.Cell < 40 {
		t.Errorf("zoomed: the selected cell visible %v, its mark %.1f px (was %.1f), the cell %.1f px", z.Visible, z.Mark, before, z.Cell)
	}
	// The zoom follows the selection to the first box.
	b.run("to the top-left", chromedp.Click(`#board`, chromedp.ByID))
	var topLeft bool
	b.run("select r1c1", chromedp.Evaluate(`(() => { const el = document.getElementById('board'); el.focus();
	  for (let i = 0; i < 32; i++) { el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true })); el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true })); }
	  const c = document.querySelector('#board .cell.sel').getBoundingClientRect(); const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
	  return !!hit && hit.closest('.cell') === document.querySelector('#board .cell.sel'); })()`, &topLeft))
	if !topLeft {
		t.Error("after moving the selection, the zoom does not show the selected cell")
	}
	b.run("unzoom", chromedp.Click(`#zoom`, chromedp.ByID))
	b.waitJS("unzoomed", `!document.getElementById('board').classList.contains('zoomed')`, 5*time.Second)
	var cls float64
	b.eval(`window.__cls`, &cls)
	if cls != 0 {
		t.Errorf("zooming moved the page: CLS %.4f", cls)
	}
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
}
