package live

import (
	"context"
	"fmt"
	"image/color"
	"slices"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/overlay"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// Play on paper: a page the player has started with a pen. Nothing that
// spoils the game is drawn unless asked: the outline and the counts by
// default; C checks (wrong entries circled red), Space fills the cells
// without ink, H gives the next step from the position the entries make.
// The entries are voted over frames as the givens are, and judged by
// pipeline.CheckEntries against the vote's gated solution only.

// penSureReadings is how many readings must read an entry surely, with
// none sure of another digit there, before the vote may call it wrong:
// one frame's misread is never a red circle on the page.
const penSureReadings = 2

// Pen colours.
var (
	wrongRed    = color.RGBA{R: 230, G: 30, B: 30, A: 255}
	clashOrange = color.RGBA{R: 255, G: 140, B: 0, A: 255}
	solvedGreen = color.RGBA{R: 40, G: 220, B: 80, A: 255}
)

// penVoter votes the player's ink over the latest readings of one page.
type penVoter struct {
	depth int
	hist  []pipeline.Pen
}

func newPenVoter(depth int) *penVoter { return &penVoter{depth: max(depth, 1)} }

// Reset forgets the page.
func (p *penVoter) Reset() { p.hist = p.hist[:0] }

// Add takes one reading's pen; one of another size starts afresh, and a
// reading without pen classes is not counted.
func (p *penVoter) Add(pen pipeline.Pen) {
	n := len(pen.Kinds)
	if !pen.Valid(n) {
		return
	}
	if len(p.hist) > 0 && len(p.hist[0].Kinds) != n {
		p.Reset()
	}
	p.hist = append(p.hist, pen)
	if len(p.hist) > p.depth {
		p.hist = p.hist[1:]
	}
}

// Full reports whether the vote holds as many readings as it votes over.
func (p *penVoter) Full() bool { return len(p.hist) >= p.depth }

// Vote is the page's ink as the readings say it together: per cell the
// kind most readings saw (the latest among equals), the digit most of the
// handwritten readings saw, sure when penSureReadings readings were sure
// of that digit and none of another; when every reading carries the
// digits' probabilities, their mean over the readings (voteProbs).
func (p *penVoter) Vote() pipeline.Pen {
	if len(p.hist) == 0 {
		return pipeline.Pen{}
	}
	n := len(p.hist[0].Kinds)
	out := pipeline.Pen{Kinds: make([]ocr.Kind, n), Entries: make([]int, n), Conf: make([]float32, n), Sure: make([]bool, n)}
	for _, r := range p.hist {
		if r.CellPx > 0 && (out.CellPx == 0 || r.CellPx < out.CellPx) {
			out.CellPx = r.CellPx
		}
	}
	if !slices.ContainsFunc(p.hist, func(r pipeline.Pen) bool { return r.Probs == nil }) {
		out.KindProb, out.Probs = make([]float32, n), make([][]float32, n)
	}
	for i := 0; i < n; i++ {
		kinds := map[ocr.Kind]int{}
		digits := map[int]int{}
		sure := map[int]int{}
		best, bestN := ocr.KindEmpty, 0
		for _, r := range p.hist {
			k := r.Kinds[i]
			kinds[k]++
			if kinds[k] >= bestN {
				best, bestN = k, kinds[k]
			}
			if k == ocr.KindHand && r.Entries[i] > 0 {
				digits[r.Entries[i]]++
				if r.Sure[i] {
					sure[r.Entries[i]]++
				}
			}
		}
		out.Kinds[i] = best
		if best != ocr.KindHand {
			continue
		}
		d, dn := 0, 0
		for _, r := range p.hist {
			if e := r.Entries[i]; r.Kinds[i] == ocr.KindHand && e > 0 && digits[e] >= dn {
				d, dn = e, digits[e]
			}
		}
		out.Entries[i] = d
		for _, r := range p.hist {
			if r.Kinds[i] == ocr.KindHand && r.Entries[i] == d && r.Conf[i] > out.Conf[i] {
				out.Conf[i] = r.Conf[i]
			}
		}
		out.Sure[i] = sure[d] >= penSureReadings && sure[d] == sumInts(sure)
		if out.Probs != nil {
			out.Probs[i], out.KindProb[i] = p.voteProbs(i)
		}
	}
	return out
}

// voteProbs is cell i's digit probabilities averaged over the readings
// that saw handwriting there, and the least sureness of the kind among
// them; nil unless penSureReadings readings saw it, so that one
// frame's reading never judges an entry alone.
func (p *penVoter) voteProbs(i int) ([]float32, float32) {
	var sum []float32
	count, kind := 0, float32(1)
	for _, r := range p.hist {
		if r.Kinds[i] != ocr.KindHand || len(r.Probs[i]) == 0 {
			continue
		}
		if sum == nil {
			sum = make([]float32, len(r.Probs[i]))
		}
		if len(r.Probs[i]) != len(sum) {
			return nil, 0
		}
		for d, v := range r.Probs[i] {
			sum[d] += v
		}
		count++
		kind = min(kind, r.KindProb[i])
	}
	if count < penSureReadings {
		return nil, 0
	}
	for d := range sum {
		sum[d] /= float32(count)
	}
	return sum, kind
}

func sumInts(m map[int]int) int {
	s := 0
	for _, v := range m {
		s += v
	}
	return s
}

// penPage reports whether the page in view holds the player's ink.
func (s *session) penPage() bool {
	return s.cur.marks.Entries != ""
}

// inked is the grid of the cells Space must not write in: the givens,
// and every cell holding the player's ink (entries, notes, unclear ink),
// set to their solution digit so overlay.Solution skips them.
func inked(puzzle, solution sudoku.Grid, pen pipeline.Pen) sudoku.Grid {
	g := puzzle.Clone()
	if !pen.Valid(len(g.Cells)) || len(solution.Cells) != len(g.Cells) {
		return g
	}
	for i, k := range pen.Kinds {
		if g.Cells[i] == 0 && k != ocr.KindEmpty {
			g.Cells[i] = solution.Cells[i]
		}
	}
	return g
}

// fillString is the digits Space writes on the page: the solution in the
// cells of g that are empty, '0' elsewhere.
func fillString(g, solution sudoku.Grid) string {
	cells := make([]int, len(g.Cells))
	for i, v := range g.Cells {
		if v == 0 {
			cells[i] = solution.Cells[i]
		}
	}
	return sudoku.CellString(cells)
}

// penHint is the H key on a pen page: the next step from the position the
// entries make, worked out in the background.
type penHint struct {
	on       bool
	position string // the position (givens and entries) the hint is for
	hint     logic.HintResult
	err      error
	pending  chan penHintResult
}

type penHintResult struct {
	position string
	hint     logic.HintResult
	err      error
}

// position is what the player has reached: the givens, the entries read
// surely, and the unsure ones that agree with the solution (an unsure
// entry is never called wrong, so one that disagrees is left out).
func position(puzzle, solution sudoku.Grid, pen pipeline.Pen) sudoku.Grid {
	g := puzzle.Clone()
	if !pen.Valid(len(g.Cells)) || len(solution.Cells) != len(g.Cells) {
		return g
	}
	for i, e := range pen.Entries {
		if g.Cells[i] == 0 && e > 0 && pen.Kinds[i] == ocr.KindHand && (pen.Sure[i] || e == solution.Cells[i]) {
			g.Cells[i] = e
		}
	}
	return g
}

// togglePenHint handles H on a pen page: the hint for the position in
// view, or off when that hint is already shown.
func (s *session) togglePenHint() {
	h := &s.penHint
	sol := s.cur.verdict.Solution
	if len(sol.Cells) == 0 {
		h.on, h.err = true, fmt.Errorf("the givens are not read surely yet")
		h.position = ""
		return
	}
	cur := position(s.cur.puzzle, sol, s.cur.pen)
	key := sudoku.CellString(cur.Cells)
	if h.on && h.position == key && h.pending == nil && h.err == nil {
		h.on = false
		return
	}
	h.on, h.err, h.position, h.hint = true, nil, key, logic.HintResult{}
	ch := make(chan penHintResult, 1)
	h.pending = ch
	puzzle := s.cur.puzzle.Clone()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), hintTimeout)
		defer cancel()
		r, err := logic.HintContext(ctx, puzzle, cur)
		ch <- penHintResult{key, r, err}
	}()
}

// pollPenHint takes in a finished hint.
func (s *session) pollPenHint() {
	h := &s.penHint
	if h.pending == nil {
		return
	}
	select {
	case r := <-h.pending:
		h.pending = nil
		if r.position == h.position {
			h.hint, h.err = r.hint, r.err
		}
	default:
	}
}

// penHintHUD is the HUD line of the pen hint.
func (s *session) penHintHUD() []string {
	h := &s.penHint
	switch {
	case h.pending != nil:
		return []string{"hint: thinking ..."}
	case h.err != nil:
		return []string{"hint: " + h.err.Error()}
	}
	return wrapWords(h.hint.String(), 64)
}

// drawPenHint paints the pen hint into the grid g on frame: the wrong
// entry circled, or the step as the H key draws one.
func (s *session) drawPenHint(frame *gocv.Mat, g vision.Grid) error {
	h := &s.penHint
	if h.pending != nil || h.err != nil {
		return nil
	}
	switch {
	case h.hint.Wrong != nil:
		return overlay.Circles(frame, g, []int{h.hint.Wrong.Cell}, wrongRed)
	case h.hint.Step != nil:
		cur, err := sudoku.ParseCellGrid(s.cur.puzzle.Shape, h.position)
		if err != nil {
			return fmt.Errorf("hint position: %w", err)
		}
		return drawStep(frame, g, *h.hint.Step, nil, cur)
	}
	return nil
}

// penPicture says what to draw on a pen page, and what of it a front
// end drawing itself is told: the counts (the wrong ones only while
// checking), with Space the solution in the cells without ink only, with
// H the hint; by default nothing that spoils the game.
func (s *session) penPicture(info *FrameInfo, pic *pipeline.Picture) {
	m := s.cur.marks
	info.Entries, info.Notes, info.Solved, info.Checking = m.Entries, m.Notes, m.Solved, s.checking
	info.Progress = m.Counts
	if s.checking {
		info.Progress, info.Mistakes = m.Progress, m.Mistakes
	}
	if m.Solved {
		info.Progress = m.Progress
	}
	sol := s.cur.verdict.Solution
	switch h := &s.penHint; {
	case h.on:
		if h.pending == nil && h.err == nil {
			hint := h.hint
			info.PenHint, info.Hint = &hint, hint.String()
		}
	case s.fill && len(sol.Cells) > 0:
		pic.Puzzle = inked(s.cur.puzzle, sol, s.cur.pen)
		pic.Solution = sol
		info.Fill = fillString(pic.Puzzle, sol)
	}
}

// penHUD is the HUD on a pen page and the status to report: the keys,
// the status unless it is the givens' "solved" (the player's page is not),
// the counts (the wrong ones while checking) and the hint.
func (s *session) penHUD(status string) ([]string, string) {
	m := s.cur.marks
	hud := []string{fmt.Sprintf("%.0f fps  fill (Space)  check (C)  hint (H)", s.fps)}
	line := m.Counts
	if s.checking {
		line = "checking: " + m.Progress
	}
	if m.Solved {
		line = "Solved: every cell filled in and right"
	}
	if s.cur.verdict.Status == pipeline.StatusSolved {
		status = m.Counts
		if s.checking || m.Solved {
			status = m.Progress
		}
	} else {
		hud = append(hud, status)
	}
	hud = append(hud, line)
	if s.penHint.on {
		hud = append(hud, s.penHintHUD()...)
	}
	return hud, status
}

// drawPen paints what the keys ask for on a pen page after the rest:
// wrong entries circled red and clashing ones orange while checking, the
// Solved banner when the page is full and right.
func (s *session) drawPen(frame *gocv.Mat, g vision.Grid) error {
	m := s.cur.marks
	if s.checking {
		if len(m.Clashes) > 0 {
			if err := overlay.Circles(frame, g, m.Clashes, clashOrange); err != nil {
				return err
			}
		}
		if len(m.Mistakes) > 0 {
			if err := overlay.Circles(frame, g, m.Mistakes, wrongRed); err != nil {
				return err
			}
		}
	}
	if m.Solved {
		return overlay.Banner(frame, "Solved", solvedGreen)
	}
	return nil
}
