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
	var ps []Problem
	add := func(cell int, format string, args ...any) {
		if len(ps) == maxProblems {
			return
		}
		p := Problem{Row: cell/b.Cols + 1, Col: cell%b.Cols + 1, Reason: fmt.Sprintf(format, args...)}
		if lines != nil {
			p.Line = lines[p.Row-1]
		}
		ps = append(ps, p)
	}
	for i, c := range b.Cells {
		switch {
		case c.White && (c.Digit < 0 || c.Digit > 9):
			add(i, "digit %d is not 1-9", c.Digit)
		case !c.White && (c.Down < 0 || c.Across < 0):
			add(i, "negative clue")
		}
	}
	if len(ps) > 0 {
		return &RuleError{Problems: ps}
	}

	inRun := make([]bool, len(b.Cells))
	runs := b.Runs()
	for _, r := range runs {
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
			add(r.Cells[0], "%s run of %d white cells has no clue", dir, n)
		case n > 9:
			add(head, "%s run of %d cells is longer than 9", dir, n)
		case r.Sum < MinSum(n) || r.Sum > MaxSum(n):
			add(head, "%s clue %d cannot be made from %d distinct digits 1-9 (they sum to %d-%d)", dir, r.Sum, n, MinSum(n), MaxSum(n))
		}
		var seen uint16
		for _, cell := range r.Cells {
			inRun[cell] = true
			if d := b.Cells[cell].Digit; d > 0 {
				if seen&digitBit(d) != 0 {
					add(cell, "digit %d appears twice in the %s", d, r.Name(b.Cols))
				}
				seen |= digitBit(d)
			}
		}
	}
	// Clues that head no run: the cell after them is a block or the edge.
	for i, c := range b.Cells {
		if c.White {
			if !inRun[i] {
				add(i, "white cell is in no run (no white neighbour in its row or column, and no clue)")
			}
			continue
		}
		r, col := i/b.Cols, i%b.Cols
		if c.Across > 0 && (col+1 == b.Cols || !b.Cells[i+1].White) {
			add(i, "across clue %d heads no run (a block or the edge is to its right)", c.Across)
		}
		if c.Down > 0 && (r+1 == b.Rows || !b.Cells[i+b.Cols].White) {
			add(i, "down clue %d heads no run (a block or the edge is below it)", c.Down)
		}
	}
	if len(ps) > 0 {
		return &RuleError{Problems: ps}
	}
	return nil
}
