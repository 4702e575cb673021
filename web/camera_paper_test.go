package web

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/live"
	"github.com/sudokuar/sudokuar/logic"
)

// TestPenFields: a frame of a pen page carries the wrong entries only
// while the client and the session both check, never the solution, and
// no counts of wrong entries from a session still checking after the
// client stopped; a printed page's frame keeps its solution and gets no
// pen fields.
func TestPenFields(t *testing.T) {
	const entries = "000000000000000000000000000000000000000000000000000000000000000000000000000000012"
	pen := live.FrameInfo{Given: "5", Solution: "", Entries: entries, Progress: "2 entries, 1 wrong, 50 cells to go",
		Status: "2 entries, 1 wrong, 50 cells to go", Checking: true, Mistakes: []int{80}}
	unchecked := pen
	unchecked.Checking, unchecked.Mistakes, unchecked.Progress, unchecked.Status = false, nil, "2 entries, 50 cells to go", "2 entries, 50 cells to go"
	solved := pen
	solved.Mistakes, solved.Solved, solved.Progress, solved.Status = nil, true, "solved", "solved"
	printed := live.FrameInfo{Given: "5", Solution: "534", Status: "solved", Checking: true, Mistakes: []int{3}}
	for _, c := range []struct {
		name                     string
		info                     live.FrameInfo
		want                     bool
		mistakes, progress, stat string
		solution                 string
	}{
		{"checking", pen, true, "[80]", pen.Progress, pen.Status, ""},
		{"client stopped, session still checks", pen, false, "[]", "", "", ""},
		{"client asks, session not yet", unchecked, true, "[]", unchecked.Progress, unchecked.Status, ""},
		{"not checking", unchecked, false, "[]", unchecked.Progress, unchecked.Status, ""},
		{"solved page", solved, false, "[]", "solved", "solved", ""},
		{"printed page", printed, false, "[]", "", "solved", "534"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := frameAnswer{Status: c.info.Status, Solution: c.info.Solution}
			penFields(&a, c.info, c.want)
			if got := fmt.Sprint(append([]int{}, a.Mistakes...)); got != c.mistakes || a.Progress != c.progress || a.Status != c.stat || a.Solution != c.solution {
				t.Errorf("mistakes %s progress %q status %q solution %q, want %s %q %q %q", got, a.Progress, a.Status, a.Solution, c.mistakes, c.progress, c.stat, c.solution)
			}
			if (a.Entries != "") != (c.info.Entries != "") {
				t.Errorf("entries %q, want the info's %q", a.Entries, c.info.Entries)
			}
		})
	}
}

// TestPenHintOut: H's answer on a pen page goes out as the cell of the
// wrong entry, without its right digit.
func TestPenHintOut(t *testing.T) {
	info := live.FrameInfo{Entries: "1", PenHint: &logic.HintResult{Wrong: &logic.WrongEntry{Cell: 12, Entered: 4, Correct: 7, Text: "Wrong entry: 4 in r2c4 contradicts the solution"}},
		Hint: "Wrong entry: 4 in r2c4 contradicts the solution"}
	var a frameAnswer
	penFields(&a, info, false)
	b, _ := json.Marshal(a)
	if a.PenHint == nil || a.PenHint.Wrong == nil || *a.PenHint.Wrong != 12 || strings.Contains(string(b), "correct") || strings.Contains(string(b), "7") {
		t.Errorf("the answer %s: want the wrong cell 12 and no right digit", b)
	}
}

// TestCheckStep: the session's C is sent once when it differs from the
// client's wish, again only if nothing changed for checkRepeat frames.
func TestCheckStep(t *testing.T) {
	sent, toggle := checkStep(false, true, 0, 0)
	if !toggle || sent != 1 {
		t.Fatalf("first: sent %d toggle %v, want 1 true", sent, toggle)
	}
	if s, tg := checkStep(false, true, 5, sent); tg || s != sent {
		t.Errorf("while waiting: sent %d toggle %v, want %d false", s, tg, sent)
	}
	if s, tg := checkStep(false, true, 1+checkRepeat+1, sent); !tg || s != 2+checkRepeat {
		t.Errorf("after %d frames: sent %d toggle %v, want a new C", checkRepeat+1, s, tg)
	}
	if s, tg := checkStep(true, true, 9, sent); tg || s != 0 {
		t.Errorf("matched: sent %d toggle %v, want 0 false", s, tg)
	}
}
