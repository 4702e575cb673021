package live

import (
	"context"
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/overlay"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// Hints on paper: the H key walks through the logical solution of the
// puzzle in view, one step per press. Each step is drawn on the page itself
// (its pattern cells tinted, the digit it places, the candidates it
// removes struck out) with its sentence in the HUD; the digits placed by
// the steps before it stay drawn, so the page shows the solution growing.
// The steps come from package logic, as every hint in sudokuar does.

// Hint colours: chosen apart from the solution blue, the given green and
// the conflict red.
var (
	hintCells  = color.RGBA{R: 250, G: 210, B: 40, A: 255} // yellow tint on the pattern
	hintPlace  = color.RGBA{R: 20, G: 160, B: 60, A: 255}  // the digit a step places
	hintStrike = color.RGBA{R: 220, G: 40, B: 40, A: 255}  // candidates it removes
	hintDone   = color.RGBA{R: 20, G: 90, B: 230, A: 255}  // digits placed by earlier steps
	hintKeep   = color.RGBA{R: 120, G: 60, B: 200, A: 255} // pattern candidates
)

// hintTimeout bounds the search for a puzzle's logical solution.
const hintTimeout = 20 * time.Second

// hintState is the H key's state in a session.
type hintState struct {
	on      bool
	puzzle  int          // view id the steps belong to (-1: none)
	steps   []logic.Step // the logical solution of that puzzle
	walk    StepWalk     // the step shown (keyed by the view id)
	err     error
	pending chan hintResult // a solution being worked out
}

type hintResult struct {
	id    int
	steps []logic.Step
	err   error
}

// toggleHint handles H: start at the first step of the puzzle in view, or
// move on to the next; past the last step hints go off.
func (s *session) toggleHint() {
	h := &s.hint
	if len(s.cur.puzzle.Cells) == 0 {
		s.logf("hint: no puzzle in view yet")
		return
	}
	key := strconv.Itoa(s.cur.id)
	if h.on && h.walk.Holds(key) && h.pending == nil && h.err == nil {
		if !h.walk.Next() {
			h.on = false
		}
		return
	}
	h.on, h.err = true, nil
	if h.puzzle == s.cur.id && h.steps != nil {
		h.walk.Start(key, h.steps)
		return
	}
	if h.pending != nil {
		return // the solution of this puzzle is on its way
	}
	h.puzzle, h.steps = s.cur.id, nil
	h.walk.Reset()
	ch := make(chan hintResult, 1)
	h.pending = ch
	id, puzzle := s.cur.id, s.cur.puzzle.Clone()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), hintTimeout)
		defer cancel()
		_, steps, err := logic.SolveSteps(ctx, puzzle)
		ch <- hintResult{id, steps, err}
	}()
}

// pollHint takes in a finished solution.
func (s *session) pollHint() {
	h := &s.hint
	if h.pending == nil {
		return
	}
	select {
	case r := <-h.pending:
		h.pending = nil
		if r.id == h.puzzle {
			h.steps, h.err = r.steps, r.err
			h.walk.Start(strconv.Itoa(r.id), r.steps)
		}
	default:
	}
}

// hintHUD returns the HUD lines for hint mode.
func (s *session) hintHUD() []string {
	h := &s.hint
	switch {
	case h.pending != nil:
		return []string{"hint: thinking ..."}
	case h.err != nil:
		return []string{"hint: " + h.err.Error()}
	case h.puzzle != s.cur.id:
		return []string{"hint: a new puzzle (H for its first step)"}
	}
	st, k, n, ok := h.walk.Step()
	if !ok {
		return nil
	}
	lines := []string{fmt.Sprintf("step %d of %d (H: next)", k, n)}
	return append(lines, wrapWords(st.Text, 64)...)
}

// drawHint paints the current step into the grid g on frame and returns
// its sentence.
func (s *session) drawHint(frame *gocv.Mat, g vision.Grid) (string, error) {
	h := &s.hint
	st, _, _, ok := h.walk.Step()
	if h.pending != nil || h.err != nil || h.puzzle != s.cur.id || !ok {
		return "", nil
	}
	return st.Text, drawStep(frame, g, st, h.walk.Placed(), s.cur.puzzle)
}

// drawStep paints a logical step into the grid g on frame, from the
// position filled (the givens, and on a pen page the entries): its
// pattern cells tinted, the digits placed by the steps before it (done),
// the digit it places, the candidates it removes struck out.
func drawStep(frame *gocv.Mat, g vision.Grid, st logic.Step, done []logic.Candidate, filled sudoku.Grid) error {
	if len(st.Cells) > 0 {
		if err := overlay.Highlight(frame, g, st.Cells, hintCells); err != nil {
			return err
		}
	}
	var marks []overlay.Mark
	for _, p := range done {
		if filled.Cells[p.Cell] == 0 {
			marks = append(marks, overlay.Mark{Cell: p.Cell, Digit: p.Digit, Color: hintDone})
		}
	}
	placed := map[int]bool{}
	for _, p := range st.Placements {
		marks = append(marks, overlay.Mark{Cell: p.Cell, Digit: p.Digit, Color: hintPlace})
		placed[p.Cell] = true
	}
	gone := map[logic.Candidate]bool{}
	for _, e := range st.Eliminations {
		gone[e] = true
		if !placed[e.Cell] {
			marks = append(marks, overlay.Mark{Cell: e.Cell, Digit: e.Digit, Small: true, Strike: true, Color: hintStrike})
		}
	}
	for _, p := range st.Pattern {
		if !gone[p] && !placed[p.Cell] && filled.Cells[p.Cell] == 0 {
			marks = append(marks, overlay.Mark{Cell: p.Cell, Digit: p.Digit, Small: true, Color: hintKeep})
		}
	}
	return overlay.Marks(frame, g, marks, overlay.DefaultStyle())
}

// wrapWords breaks text into lines of at most width characters.
func wrapWords(text string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, w := range strings.Fields(text) {
		if cur.Len() > 0 && cur.Len()+1+len(w) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// hintPicture adjusts what pipeline.Draw paints while hints are on: the
// outline only, so the steps stand out on the printed page.
func hintPicture(pic *pipeline.Picture, puzzle sudoku.Grid) {
	pic.Solution = sudoku.Grid{}
	pic.ShowGivens = false
}
