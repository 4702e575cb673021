package web

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserRacePhone: Ada races on a phone (390×844, touch) against Bob
// on a desktop. Before the start Ada reads who the room waits for in
// plain words; during the race Bob's progress strip is above her board
// and on screen without scrolling, as are the board, the pad and the
// tools; when Bob gives up, Ada's message line says so.
func TestBrowserRacePhone(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/race-phone.db", "127.0.0.1:0")
	ada := newBrowser(t, phoneWidth, phoneHeight)
	listen(ada, &wsLog{})
	bob, _ := ada.secondContext(t)

	meetInRoom(ts, ada, bob, "Bob")
	ada.waitJS("waiting for both, in words", `document.getElementById('wait-text').textContent === 'Waiting for you and Bob to be ready.'`, 10*time.Second)
	bob.run("bob ready", chromedp.Click(`#ready`, chromedp.ByID))
	ada.waitJS("waiting for ada", `document.getElementById('wait-text').textContent === 'Waiting for you: press “I\'m ready”.'`, 10*time.Second)
	ada.run("ada ready", chromedp.Click(`#ready`, chromedp.ByID))
	ada.waitJS("the race", `!document.getElementById('play').hidden && document.querySelectorAll('#board .cell').length === 81 && !document.getElementById('strip').hidden`, 20*time.Second)

	// The strip names Bob, sits above the board, and the strip, board,
	// pad and tools are all within the first screen.
	var layout struct {
		Names                                   string
		StripTop, StripBottom, BoardTop         float64
		BoardBottom, PadBottom, ToolsBottom, VH float64
		ScrollY                                 float64
	}
	ada.eval(`(() => { const r = (id) => document.getElementById(id).getBoundingClientRect();
	  return { names: [...document.querySelectorAll('#strip .name')].map((e) => e.textContent).join(','),
	    stripTop: r('strip').top, stripBottom: r('strip').bottom, boardTop: r('board').top, boardBottom: r('board').bottom,
	    padBottom: r('pad').bottom, toolsBottom: r('tools').bottom, vh: innerHeight, scrollY: scrollY }; })()`, &layout)
	t.Logf("phone race layout: %+v", layout)
	ada.viewShot("phone-race")
	check(t, ada, "phone race", ada.axe(axeSource(t)))
	switch {
	case layout.Names != "Bob":
		t.Errorf("the strip names %q, want Bob", layout.Names)
	case layout.StripBottom > layout.BoardTop || layout.StripTop < 0:
		t.Errorf("the strip (%.0f–%.0f) is not above the board (top %.0f)", layout.StripTop, layout.StripBottom, layout.BoardTop)
	case layout.ToolsBottom > layout.VH || layout.PadBottom > layout.VH:
		t.Errorf("on a %.0f px high phone the pad ends at %.0f and the tools at %.0f: below the fold", layout.VH, layout.PadBottom, layout.ToolsBottom)
	}

	bob.run("bob gives up", chromedp.Click(`#forfeit`, chromedp.ByID))
	ada.waitJS("told that bob gave up", `document.getElementById('room-msg').textContent === 'Bob gave up. You play on.'`, 10*time.Second)
	ada.waitJS("bob struck in the strip", `document.querySelector('#strip .strip-seat.out') !== null`, 10*time.Second)
	ada.viewShot("phone-race-bob-gave-up")
	if len(ada.errors) > 0 {
		t.Errorf("script errors: %q", ada.errors)
	}
}
