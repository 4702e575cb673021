package kakuro

import "fmt"

// maxProblems caps the problems one RuleError lists.
const maxProblems = 20

// Validate checks that b is a well-formed Kakuro: every run of two or more
// white cells is headed by a clue, every clue heads a run, no run is longer
// than 9, every clue can be made from distinct digits over its run's
// length, every white cell lies in a run, and no run repeats a digit. It
// returns nil or a *RuleError listing the problems (at most 20).
func Validate(b *Board) error { return validate(b, nil) }

// validate is Validate with the input line of each row (nil when b was not
// read from text), so problems can name lines.
func validate(b *Board, lines []int) error {
	if b == nil || b.Rows < 1 || b.Cols < 1 || len(b.Cells) != b.Rows*b.Cols {
		return &RuleError{Problems: []Problem{{Row: 1, Col: 1, Reason: "malformed board: size and cell count disagree"}}}
	}
	v := &validator{b: b, lines: lines}
	v.checkCells()
	if len(v.ps) > 0 {
		return &RuleError{Problems: v.ps}
	}
	inRun := make([]bool, len(b.Cells))
	for _, r := range b.Runs() {
		v.checkRun(r, inRun)
	}
	v.checkHeads(inRun)
	if len(v.ps) > 0 {
		return &RuleError{Problems: v.ps}
	}
	return nil
}

// validator gathers the problems of a board, at most maxProblems.
type validator struct {
	b     *Board
	lines []int
	ps    []Problem
}

// add records a problem at cell.
func (v *validator) add(cell int, format string, args ...any) {
	if len(v.ps) == maxProblems {
		return
	}
	p := Problem{Row: cell/v.b.Cols + 1, Col: cell%v.b.Cols + 1, Reason: fmt.Sprintf(format, args...)}
	if v.lines != nil {
		p.Line = v.lines[p.Row-1]
	}
	v.ps = append(v.ps, p)
}

// checkCells checks each cell's digit and clues.
func (v *validator) checkCells() {
	for i, c := range v.b.Cells {
		switch {
		case c.White && (c.Digit < 0 || c.Digit > 9):
			v.add(i, "digit %d is not 1-9", c.Digit)
		case !c.White && (c.Down < 0 || c.Across < 0):
			v.add(i, "negative clue")
		}
	}
}

// checkRun checks a run's clue against its length and its digits for
// repeats, and marks its cells in inRun.
func (v *validator) checkRun(r Run, inRun []bool) {
	n := len(r.Cells)
	head := r.Clue
	if head < 0 {
		head = r.Cells[0]
	}
	dir := "down"
	if r.Across {
		dir = "across"
	}
	switch {
	case r.Sum == 0:
		v.add(r.Cells[0], "%s run of %d white cells has no clue", dir, n)
	case n > 9:
		v.add(head, "%s run of %d cells is longer than 9", dir, n)
	case r.Sum < MinSum(n) || r.Sum > MaxSum(n):
		v.add(head, "%s clue %d cannot be made from %d distinct digits 1-9 (they sum to %d-%d)", dir, r.Sum, n, MinSum(n), MaxSum(n))
	}
	var seen uint16
	for _, cell := range r.Cells {
		inRun[cell] = true
		if d := v.b.Cells[cell].Digit; d > 0 {
			if seen&digitBit(d) != 0 {
				v.add(cell, "digit %d appears twice in the %s", d, r.Name(v.b.Cols))
			}
			seen |= digitBit(d)
		}
	}
}

// checkHeads finds white cells in no run and clues that head no run (the
// cell after them is a block or the edge).
func (v *validator) checkHeads(inRun []bool) {
	b := v.b
	for i, c := range b.Cells {
		if c.White {
			if !inRun[i] {
				v.add(i, "white cell is in no run (no white neighbour in its row or column, and no clue)")
			}
			continue
		}
		r, col := i/b.Cols, i%b.Cols
		if c.Across > 0 && (col+1 == b.Cols || !b.Cells[i+1].White) {
			v.add(i, "across clue %d heads no run (a block or the edge is to its right)", c.Across)
		}
		if c.Down > 0 && (r+1 == b.Rows || !b.Cells[i+b.Cols].White) {
			v.add(i, "down clue %d heads no run (a block or the edge is below it)", c.Down)
		}
	}
}
