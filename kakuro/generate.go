package kakuro

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// GenerateOptions says what puzzle to make.
type GenerateOptions struct {
	// Rows and Cols are the play area (the white area, 3 to 40 each; the
	// board adds the clue row and column).
	Rows, Cols int
	// Level is the level the puzzle must rate at; 0 accepts any level.
	Level Level
	// Seed makes the puzzle reproducible: the same options give the same
	// puzzle.
	Seed uint64
	// MaxRun caps the length of runs (2-9); 0 means 6 (less on boards
	// smaller than 7).
	MaxRun int
	// Attempts bounds the fills tried before giving up; 0 means 200.
	Attempts int
}

// ErrGiveUp is returned by Generate when no puzzle was found within the
// attempts allowed.
var ErrGiveUp = errors.New("kakuro: generator gave up (try another seed or level)")

// Generate makes a puzzle with exactly one solution at the level asked and
// returns it solved, with its rating: Blank() gives the puzzle.
//
// How: a shape is drawn with the 180-degree symmetry of published Kakuros
// (blocks in mirrored pairs, every white cell in an across and a down run
// of 2 to MaxRun cells, the white cells connected); it is filled with
// random digits, no digit twice in a run, and the clues are the sums. Such
// a puzzle is almost never unique, so it is repaired by a hill climb:
// propagation (the level's techniques) shows which cells stay open; one
// open cell gets the digit that leaves the fewest candidates open (or,
// one time in four, its two runs are drawn again, the best of a few
// draws favouring sums with few combinations), changing the clues over
// it; the change is kept if no more candidates are open than before (or,
// rarely, slightly more, to leave local minima). A puzzle the techniques
// of its level solve is unique by construction. A puzzle that comes out
// easier than asked is perturbed at a random cell and climbed again.
// Levels Easy, Medium and Hard are generated; Level 0 takes the first
// unique puzzle of any of them. Expert (needing guesses) is not offered.
func Generate(opt GenerateOptions) (*Board, Rating, error) {
	if opt.Rows < 3 || opt.Cols < 3 || opt.Rows > 40 || opt.Cols > 40 {
		return nil, Rating{}, fmt.Errorf("kakuro: play area %dx%d: want 3 to 40 rows and columns", opt.Rows, opt.Cols)
	}
	if opt.Level == Expert {
		return nil, Rating{}, fmt.Errorf("kakuro: expert puzzles (that need guessing) are not generated: none of the published test puzzles needs it either")
	}
	if opt.Level != 0 && (opt.Level < Easy || opt.Level > Hard) {
		return nil, Rating{}, fmt.Errorf("kakuro: bad level %d", opt.Level)
	}
	maxRun := opt.MaxRun
	if maxRun == 0 {
		// Long runs with middling sums have many combinations and make
		// uniqueness slow to reach: 6 keeps 15x15 boards quick to repair.
		maxRun = max(2, min(6, max(opt.Rows, opt.Cols)-1))
	}
	if maxRun < 2 || maxRun > 9 {
		return nil, Rating{}, fmt.Errorf("kakuro: max run %d: want 2 to 9", maxRun)
	}
	attempts := opt.Attempts
	if attempts == 0 {
		attempts = 200
	}
	g := &generator{
		rng:    rand.New(rand.NewPCG(opt.Seed, 0x6b616b75726f)),
		rows:   opt.Rows,
		cols:   opt.Cols,
		maxRun: maxRun,
		level:  opt.Level,
	}
	for a := 0; a < attempts; a++ {
		if (a%10 == 0 || g.shape == nil) && !g.newShape() && g.shape == nil {
			continue // no shape drawn yet; a later draw may succeed
		}
		if b, r, ok := g.attempt(); ok {
			return b, r, nil
		}
	}
	return nil, Rating{}, ErrGiveUp
}

// generator holds one Generate call's state.
type generator struct {
	rng        *rand.Rand
	rows, cols int
	maxRun     int
	level      Level
	shape      *Board  // the board with the shape's white cells and no clues
	fe         *engine // the shape as an engine without sums: digits only differ
	pe         *engine // the shape as an engine with the current fill's sums
	rt         *rater  // the rater on pe
	stack      [][]uint16
	tmp        []uint16
	fill       []uint8  // the current digits, by white cell
	dom        []uint16 // the rater's domains after evaluate; scratch for fills
	fdom       []uint16 // scratch for fills
}

// newShape draws a symmetric shape and compiles its filler; false when the
// draw failed its checks (the caller draws again later).
func (g *generator) newShape() bool {
	for try := 0; try < 50; try++ {
		white := g.drawShape()
		if white == nil {
			continue
		}
		b := NewBoard(g.rows+1, g.cols+1)
		for r := 0; r < g.rows; r++ {
			for c := 0; c < g.cols; c++ {
				if white[r*g.cols+c] {
					b.Set(r+1, c+1, Cell{White: true})
				}
			}
		}
		g.shape = b
		g.fe = newEngine(b)
		g.pe = newEngine(b)
		g.rt = newRater(g.pe)
		g.stack = nil // search buffers are sized for a shape
		g.dom = make([]uint16, len(g.fe.init))
		g.fdom = make([]uint16, len(g.fe.init))
		g.fill = make([]uint8, len(g.fe.init))
		return true
	}
	return false
}

// drawShape returns the white cells of a play area (row-major), or nil
// when the draw broke a rule.
func (g *generator) drawShape() []bool {
	R, C := g.rows, g.cols
	white := make([]bool, R*C)
	for i := range white {
		white[i] = true
	}
	block := func(r, c int) {
		white[r*C+c] = false
		white[(R-1-r)*C+(C-1-c)] = false
	}
	// Blocks at random, more on bigger boards, as published shapes have.
	frac := 0.12 + 0.14*g.rng.Float64()
	if R*C <= 36 {
		frac = 0.05 + 0.12*g.rng.Float64()
	}
	for n := int(frac * float64(R*C) / 2); n > 0; n-- {
		block(g.rng.IntN(R), g.rng.IntN(C))
	}
	// Break lines longer than maxRun at a random cell that leaves at least
	// two cells each side where it can.
	for changed := true; changed; {
		changed = false
		for _, across := range []bool{true, false} {
			outer, inner := R, C
			if !across {
				outer, inner = C, R
			}
			at := func(o, i int) (int, int) {
				if across {
					return o, i
				}
				return i, o
			}
			for o := 0; o < outer; o++ {
				for i := 0; i < inner; {
					if r, c := at(o, i); !white[r*C+c] {
						i++
						continue
					}
					j := i
					for j < inner {
						if r, c := at(o, j); !white[r*C+c] {
							break
						}
						j++
					}
					if n := j - i; n > g.maxRun {
						lo, hi := i+2, j-3
						if lo > hi {
							lo, hi = i, j-1
						}
						r, c := at(o, lo+g.rng.IntN(hi-lo+1))
						block(r, c)
						changed = true
					}
					i = j
				}
			}
		}
	}
	// Every white cell needs a white neighbour across and one down (no
	// run of one cell): block the cells that have none until none is left.
	runLen := func(r, c, dr, dc int) int {
		n := 1
		for k := 1; ; k++ {
			rr, cc := r+k*dr, c+k*dc
			if rr >= R || cc >= C || !white[rr*C+cc] {
				break
			}
			n++
		}
		for k := 1; ; k++ {
			rr, cc := r-k*dr, c-k*dc
			if rr < 0 || cc < 0 || !white[rr*C+cc] {
				break
			}
			n++
		}
		return n
	}
	for changed := true; changed; {
		changed = false
		for r := 0; r < R; r++ {
			for c := 0; c < C; c++ {
				if white[r*C+c] && (runLen(r, c, 0, 1) < 2 || runLen(r, c, 1, 0) < 2) {
					block(r, c)
					changed = true
				}
			}
		}
	}
	// Enough white cells, all connected.
	count, first := 0, -1
	for i, w := range white {
		if w {
			count++
			if first < 0 {
				first = i
			}
		}
	}
	if count < R*C/2 || count < 4 {
		return nil
	}
	seen := make([]bool, R*C)
	stack := []int{first}
	seen[first] = true
	reached := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		reached++
		r, c := i/C, i%C
		for _, d := range [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
			rr, cc := r+d[0], c+d[1]
			if rr >= 0 && rr < R && cc >= 0 && cc < C && white[rr*C+cc] && !seen[rr*C+cc] {
				seen[rr*C+cc] = true
				stack = append(stack, rr*C+cc)
			}
		}
	}
	if reached != count {
		return nil
	}
	return white
}

// attempt fills the shape and repairs it towards a unique puzzle of the
// level asked (see Generate). It reports false when the repairs ran out.
func (g *generator) attempt() (*Board, Rating, bool) {
	if !g.fillAll() {
		return nil, Rating{}, false
	}
	n := len(g.fill)
	st, open := g.evaluate()
	saved := make([]uint8, n)
	for iter := 0; iter < 20*n+100; iter++ {
		if st == solved {
			puzzle := g.puzzle()
			r, err := Rate(puzzle)
			if err == nil && (g.level == 0 || r.Level == g.level) {
				for c, i := range g.fe.cellOf {
					puzzle.Cells[i].Digit = int(g.fill[c])
				}
				return puzzle, r, true
			}
			// Too easy: move on from here at a random cell.
			g.refill(int32(g.rng.IntN(n)))
			st, open = g.evaluate()
			continue
		}
		copy(saved, g.fill)
		center := g.stuckCell(g.dom)
		if g.rng.IntN(4) == 0 || !g.bestDigit(center) {
			g.refill(center)
		}
		nst, nopen := g.evaluate()
		// Mostly downhill or sideways; now and then a small step uphill, so
		// that the climb can leave a local minimum (a set of cells whose
		// digits can be swapped without changing any clue).
		if nst == solved || nopen <= open || (nopen-open <= 8 && g.rng.IntN(20) == 0) {
			st, open = nst, nopen
		} else {
			copy(g.fill, saved)
			st, open = g.evaluate()
		}
	}
	return nil, Rating{}, false
}

// evaluate sets the puzzle engine's clues from the current filling and
// measures how far the puzzle is from unique: it propagates (the rater's
// combinations only, for Easy; whole-run consistency otherwise, which is
// cheap) and returns the status and the candidates left open, leaving the
// domains in g.dom. When few candidates are left and the level allows it,
// the rater's cross-run step (Hard, Level 0) gets a chance to finish the
// puzzle.
func (g *generator) evaluate() (status, int) {
	e := g.pe
	for k := range e.runs {
		e.runs[k].sum = uint8(g.runSum(int32(k)))
	}
	for c := range e.init {
		e.init[c] = allDigits
	}
	for _, r := range e.runs {
		u := combos.union[len(r.cells)][r.sum]
		for _, c := range r.cells {
			e.init[c] &= u
		}
	}
	copy(g.dom, e.init)
	var st status
	switch {
	case g.level == Easy:
		st = g.rt.solve(g.dom, TechCombinations)
	case !e.propagateAll(g.dom):
		st = broken // cannot happen: the filling satisfies every clue
	case chooseCell(g.dom) < 0:
		st = solved
	default:
		st = stuck
	}
	open := candidateCount(g.dom) - len(g.dom)
	if st != stuck || g.level == Easy || g.level == Medium || open > len(g.dom) {
		return st, open
	}
	tmp := append(g.tmp[:0], g.dom...)
	g.tmp = tmp
	if g.rt.solve(tmp, TechCrossRun) == solved {
		return solved, 0
	}
	return st, open
}

// bestDigit gives cell c the digit, among those its runs do not hold yet,
// that leaves the fewest candidates open (each choice changes just the two
// clues over c). It reports false when c has no other digit to take.
func (g *generator) bestDigit(c int32) bool {
	var used uint16
	for _, k := range g.fe.cellRuns[c] {
		if k >= 0 {
			for _, o := range g.fe.runs[k].cells {
				used |= digitBit(int(g.fill[o]))
			}
		}
	}
	old := g.fill[c]
	best, bestOpen := uint8(0), 1<<30
	for free := allDigits &^ used; free != 0; free &= free - 1 {
		d := uint8(maskDigit(free & -free))
		g.fill[c] = d
		st, open := g.evaluate()
		if st == solved {
			open = -1
		}
		if open < bestOpen || (open == bestOpen && g.rng.IntN(2) == 0) {
			best, bestOpen = d, open
		}
	}
	if best == 0 {
		g.fill[c] = old
		return false
	}
	g.fill[c] = best
	return true
}

// stuckCell picks a random cell the rater left open.
func (g *generator) stuckCell(dom []uint16) int32 {
	var open []int32
	for c, m := range dom {
		if m&(m-1) != 0 {
			open = append(open, int32(c))
		}
	}
	if len(open) == 0 {
		return int32(g.rng.IntN(len(dom)))
	}
	return open[g.rng.IntN(len(open))]
}

// diffCell picks a random cell where two solutions differ.
func (g *generator) diffCell(a, b *Board) int32 {
	var diff []int32
	for c, i := range g.fe.cellOf {
		if a.Cells[i].Digit != b.Cells[i].Digit {
			diff = append(diff, int32(c))
		}
	}
	return diff[g.rng.IntN(len(diff))]
}

// fillAll fills every white cell at random, no digit twice in a run.
func (g *generator) fillAll() bool {
	copy(g.fdom, g.fe.init)
	return g.searchFill(g.fdom)
}

// searchFill completes dom to a random filling and stores it in g.fill.
func (g *generator) searchFill(dom []uint16) bool {
	e := g.fe
	if !e.propagateAll(dom) {
		return false
	}
	e.nodes = 0
	ok := false
	s := search{e: e, limit: 1, budget: 2000, rng: g.rng, found: func(d []uint16) bool {
		for c, m := range d {
			g.fill[c] = uint8(maskDigit(m))
		}
		ok = true
		return false
	}}
	s.run(dom, 0)
	return ok
}

// refill draws the digits of the two runs through cell center again, the
// rest of the filling kept, center itself changed; of a few draws it keeps
// the one whose new clues have the fewest combinations.
func (g *generator) refill(center int32) {
	e := g.fe
	region := map[int32]bool{}
	for _, k := range e.cellRuns[center] {
		if k >= 0 {
			for _, c := range e.runs[k].cells {
				region[c] = true
			}
		}
	}
	old := append([]uint8(nil), g.fill...)
	var best []uint8
	bestScore := -1
	for try := 0; try < 4; try++ {
		for c := range g.fdom {
			g.fdom[c] = digitBit(int(old[c]))
			if region[int32(c)] {
				g.fdom[c] = allDigits
			}
		}
		g.fdom[center] = allDigits &^ digitBit(int(old[center]))
		if !g.searchFill(g.fdom) {
			continue
		}
		score := 0
		for c := range region {
			for _, k := range e.cellRuns[c] {
				if k >= 0 {
					score += len(combos.sets[len(e.runs[k].cells)][g.runSum(k)])
				}
			}
		}
		if best == nil || score < bestScore {
			best, bestScore = append(best[:0], g.fill...), score
		}
	}
	if best == nil {
		copy(g.fill, old)
		return
	}
	copy(g.fill, best)
}

func (g *generator) runSum(k int32) int {
	s := 0
	for _, c := range g.fe.runs[k].cells {
		s += int(g.fill[c])
	}
	return s
}

// puzzle returns the shape with the clues of the current filling.
func (g *generator) puzzle() *Board {
	b := g.shape.Clone()
	for k, r := range g.fe.runs {
		sum := g.runSum(int32(k))
		clue := &b.Cells[r.board.Clue]
		if r.board.Across {
			clue.Across = sum
		} else {
			clue.Down = sum
		}
	}
	return b
}
