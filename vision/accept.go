package vision

// reading is what one attempt made of a grid: the grid (its box shape
// set once its cells are cut), the shape guess of the canvas it was read
// on (whose line score says how clearly its lines stand out), its cells,
// and what went wrong: err from reading it, taken from taking it off the
// search. lattice, asked only when the rule needs it, reports whether
// the candidate it came from looked like a Sudoku lattice to the search.
type reading struct {
	g       Grid
	guess   shapeGuess
	cells   []Cell
	err     error
	taken   error
	lattice func() bool
	// from is the search it was taken off, which Candidates reports
	// when it is the answer.
	from *finder
	// via names the steps that made the reading, in order.
	via []string
}

// score is the reading's line score.
func (r reading) score() float64 { return r.guess.LineScore }

// bar is what acceptable asks of a reading on top of its rule.
type bar struct {
	// sure: lines short of clearLineScore are taken only from a candidate
	// that looked like a lattice to the search (a page read as a lattice
	// of its text scores between the two).
	sure bool
	// n is the grid side the reading must have, above a side it must
	// exceed (0: any).
	n, above int
}

// acceptable is the one rule for a reading to be taken: it was taken off
// the search and holds a grid (no NoGrid), whose lines stand out at least
// weakLineScore, and it clears bar b.
func acceptable(r reading, b bar) bool {
	n := r.g.Shape.N()
	switch {
	case r.taken != nil || isKind(r.err, NoGrid):
		return false
	case b.n > 0 && n != b.n, b.above > 0 && n <= b.above:
		return false
	case b.sure:
		return r.score() >= clearLineScore || r.score() >= weakLineScore && r.lattice != nil && r.lattice()
	}
	return r.score() >= weakLineScore
}

// weakLineScore is the line score below which the quadrilateral found is
// doubted (real photos of grids found right score 0.30 and up).
const weakLineScore = 0.25

// clearLineScore is the line score from which a reading is taken without
// looking again at the page it lies on: grids found right score from it
// up; a page read as a 4×4 lattice of the columns a small grid printed on
// it makes scores just under it.
const clearLineScore = 0.3

// better is the one comparison of readings: a's lines stand out more
// than b's by more than gain (0, or bendGain for a bend or evened boxes,
// which gain a little on any page).
func better(a, b reading, gain float64) bool {
	return a.score() > b.score()+gain
}
