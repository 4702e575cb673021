package kakuro

import (
	"context"
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
	// MaxRun caps the length of runs (2-9); 0 means 9, or the longer side
	// of the play area when that is shorter.
	MaxRun int
	// Attempts bounds the fillings tried before giving up; 0 means 400.
	Attempts int
}

// ErrGiveUp is returned by Generate when no puzzle was found within the
// attempts allowed.
var ErrGiveUp = errors.New("kakuro: generator gave up (try another seed or level)")

// Generate makes a puzzle with exactly one solution at the level asked and
// returns it solved, with its rating: Blank() gives the puzzle. It is
// GenerateContext without a deadline.
func Generate(opt GenerateOptions) (*Board, Rating, error) {
	return GenerateContext(context.Background(), opt)
}

// GenerateContext is Generate that stops, with ctx's error, when ctx ends.
//  1. Draw a shape (shape.go), fill it with random digits; the sums are the clues.
//  2. Hill-climb to a unique puzzle: a stuck cell gets the digit that leaves
//     the fewest candidates open, or its runs are redrawn; a change that opens
//     more (but rarely) or makes the puzzle easier than the level is refused.
//  3. When the climb stalls, a stuck cell and its mirror become blocks.
//  4. Prove expert puzzles unique with the fast solver; rate every result
//     again. Level 0 takes the first unique puzzle of any level.
func GenerateContext(ctx context.Context, opt GenerateOptions) (*Board, Rating, error) {
	if opt.Rows < 3 || opt.Cols < 3 || opt.Rows > 40 || opt.Cols > 40 {
		return nil, Rating{}, fmt.Errorf("kakuro: play area %dx%d: want 3 to 40 rows and columns", opt.Rows, opt.Cols)
	}
	if opt.Level != 0 && (opt.Level < Easy || opt.Level > Expert) {
		return nil, Rating{}, fmt.Errorf("kakuro: bad level %d", opt.Level)
	}
	maxRun := opt.MaxRun
	if maxRun == 0 {
		maxRun = min(9, max(opt.Rows, opt.Cols))
	}
	if maxRun < 2 || maxRun > 9 {
		return nil, Rating{}, fmt.Errorf("kakuro: max run %d: want 2 to 9", maxRun)
	}
	attempts := opt.Attempts
	if attempts == 0 {
		attempts = 400
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6b616b75726f))
	g := &generator{
		rng:    rng,
		rows:   opt.Rows,
		cols:   opt.Cols,
		level:  opt.Level,
		aim:    opt.Level,
		drawer: newShapeDrawer(rng, opt.Rows, opt.Cols, maxRun),
	}
	if g.aim == Expert {
		g.aim = Hard
	}
	for a := 0; a < attempts; a++ {
		if err := ctx.Err(); err != nil {
			return nil, Rating{}, err
		}
		if a%4 == 0 || g.base == nil {
			if w := g.drawer.draw(); w != nil {
				g.base = w
			}
			if g.base == nil {
				continue // a later draw may succeed
			}
		}
		g.setShape(g.base, false)
		if b, r, ok := g.attempt(ctx); ok {
			return b, r, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, Rating{}, err
	}
	return nil, Rating{}, ErrGiveUp
}

// generator holds one Generate call's state.
type generator struct {
	rng        *rand.Rand
	rows, cols int
	level      Level // the level asked
	aim        Level // the level the climb aims at: level, or Hard on the way to Expert
	drawer     *shapeDrawer
	base       []bool  // the shape drawn for this and the next few attempts
	white      []bool  // the current shape (base plus blocks the repair added)
	shape      *Board  // the board with the shape's white cells and no clues
	fe         *engine // the shape as an engine without sums: digits only differ
	pe         *engine // the shape as an engine with the current fill's sums
	cellIdx    []int   // board index -> white cell number, -1 for blocks
	fill       []uint8 // the current digits, by white cell
	dom        []uint16
	tmp        []uint16
	probe      []uint16
	fdom       []uint16
}

// verdict is what the level's techniques make of the current clues.
type verdict int

const (
	open    verdict = iota // candidates remain open: not unique by the level's techniques
	done                   // the puzzle has the level asked (and one solution)
	tooEasy                // easier techniques solve it: refused during the climb
)

// setShape compiles white as the current shape. With keep, the digits of
// the cells that stay white are kept (the repair added blocks); otherwise
// the fill is left for fillAll.
func (g *generator) setShape(white []bool, keep bool) {
	var old []uint8
	var oldIdx []int
	if keep {
		old, oldIdx = g.fill, g.cellIdx
	}
	g.white = white
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
	n := len(g.fe.init)
	g.cellIdx = make([]int, len(b.Cells))
	for i := range g.cellIdx {
		g.cellIdx[i] = -1
	}
	for c, i := range g.fe.cellOf {
		g.cellIdx[i] = c
	}
	g.fill = make([]uint8, n)
	if keep {
		for c, i := range g.fe.cellOf {
			g.fill[c] = old[oldIdx[i]]
		}
	}
	g.dom = make([]uint16, n)
	g.tmp = make([]uint16, n)
	g.probe = make([]uint16, n)
	g.fdom = make([]uint16, n)
}

// attempt fills the shape and repairs it towards a unique puzzle of the
// level asked (see GenerateContext). It reports false when the repairs ran
// out.
func (g *generator) attempt(ctx context.Context) (*Board, Rating, bool) {
	if !g.fillAll() {
		return nil, Rating{}, false
	}
	v, cur := g.evaluate()
	best, since, added := cur, 0, 0
	area := g.rows * g.cols
	maxAdds := max(1, area/40)
	budget := 20*len(g.fill) + 200
	saved := make([]uint8, 0, len(g.fill))
	for iter := 0; iter < budget; iter++ {
		if iter%16 == 0 && ctx.Err() != nil {
			return nil, Rating{}, false
		}
		if v == done {
			if g.level == Expert && !g.harden(ctx) {
				return nil, Rating{}, false
			}
			if b, r, ok := g.finish(); ok {
				return b, r, true
			}
			return nil, Rating{}, false // the rater disagrees: start afresh
		}
		saved = append(saved[:0], g.fill...)
		center := g.stuckCell()
		if g.rng.IntN(4) == 0 || !g.bestDigit(center) {
			g.refill(center)
		}
		nv, next := g.evaluate()
		// Mostly downhill or sideways; now and then a small step uphill, so
		// that the climb can leave a local minimum (a set of cells whose
		// digits can be swapped without changing any clue). A puzzle that
		// came out too easy is never kept.
		if nv == done || nv == open && (next <= cur || next-cur <= 8 && g.rng.IntN(20) == 0) {
			v, cur = nv, next
		} else {
			copy(g.fill, saved)
		}
		if cur < best {
			best, since = cur, 0
			continue
		}
		// Stalled: split the runs around a stuck cell with a block pair.
		if since++; since > 40+len(g.fill)/4 && added < maxAdds {
			since = 0
			if w := g.drawer.addBlock(g.white, g.cellOf(g.stuckCell())); w != nil {
				g.setShape(w, true)
				added++
				v, cur = g.evaluate()
				best = cur
			}
		}
	}
	return nil, Rating{}, false
}

// cellOf is the play-area index of white cell c.
func (g *generator) cellOf(c int32) int {
	i := g.fe.cellOf[c]
	return (i/g.shape.Cols-1)*g.cols + i%g.shape.Cols - 1
}

// finish rates the current puzzle and returns it solved when its level is
// the one asked.
func (g *generator) finish() (*Board, Rating, bool) {
	puzzle := g.puzzle()
	r, err := Rate(puzzle)
	if err != nil || (g.level != 0 && r.Level != g.level) {
		return nil, Rating{}, false
	}
	for c, i := range g.fe.cellOf {
		puzzle.Cells[i].Digit = int(g.fill[c])
	}
	return puzzle, r, true
}

// evaluate sets the engine's clues from the filling and applies the level's
// techniques; it returns the verdict and how many candidates stay open (the
// climb's measure), leaving the domains in g.dom. Easy: the combination
// table; medium: whole-run consistency (too easy if the table solves it);
// hard: then probing once few are open (too easy if whole-run solves it);
// expert: as hard, too easy if probing solves it, a stuck one counted by
// search; any (0): whole-run consistency.
func (g *generator) evaluate() (verdict, int) {
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
	if g.aim == Easy {
		if g.weakSolve(g.dom) {
			return done, 0
		}
		return open, candidateCount(g.dom) - len(g.dom)
	}
	e.propagateAll(g.dom) // cannot fail: the filling satisfies every clue
	openCount := candidateCount(g.dom) - len(g.dom)
	if openCount == 0 {
		switch g.aim {
		case 0:
			return done, 0
		case Medium:
			copy(g.tmp, e.init)
			if g.weakSolve(g.tmp) {
				return tooEasy, 0
			}
			return done, 0
		}
		return tooEasy, 0
	}
	if g.aim == 0 || g.aim == Medium || openCount > len(g.dom) {
		return open, openCount
	}
	// Few candidates open: probe them (the rater's cross-run step, to its
	// fixpoint).
	copy(g.tmp, g.dom)
	g.pe.singletonConsistent(g.tmp, g.probe)
	if chooseCell(g.tmp) < 0 {
		return done, 0
	}
	return open, openCount
}

// harden turns the Hard puzzle of the current filling into an Expert one
// (unique, but beyond probing single candidates): a walk over unique
// puzzles, one digit at a time, towards more work for the probing
// technique (see hardness), until it no longer solves the puzzle. It
// reports false when the walk ran out.
func (g *generator) harden(ctx context.Context) bool {
	cur, _ := g.hardness()
	saved := make([]uint8, len(g.fill))
	for iter := 0; iter < 10*len(g.fill)+100; iter++ {
		if iter%16 == 0 && ctx.Err() != nil {
			return false
		}
		copy(saved, g.fill)
		c := int32(g.rng.IntN(len(g.fill)))
		var used uint16
		for _, k := range g.fe.cellRuns[c] {
			if k >= 0 {
				for _, o := range g.fe.runs[k].cells {
					used |= digitBit(int(g.fill[o]))
				}
			}
		}
		best, bestH := uint8(0), -1
		for free := allDigits &^ used; free != 0; free &= free - 1 {
			d := uint8(maskDigit(free & -free))
			g.fill[c] = d
			h, expert := g.hardness()
			if expert {
				return true
			}
			if h > bestH || h == bestH && g.rng.IntN(2) == 0 {
				best, bestH = d, h
			}
		}
		if best != 0 && (bestH >= cur || g.rng.IntN(10) == 0 && bestH >= 0) {
			g.fill[c], cur = best, bestH
		} else {
			copy(g.fill, saved)
		}
	}
	return false
}

// hardness measures how much the probing technique (the rater's cross-run
// step) has to do on the puzzle of the current filling: the candidates
// whole-run consistency leaves open plus four times those probing removes;
// -1 when the puzzle is not unique or easier than Hard. expert reports a
// unique puzzle that probing cannot solve.
func (g *generator) hardness() (h int, expert bool) {
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
	e.propagateAll(g.dom)
	gacOpen := candidateCount(g.dom) - len(g.dom)
	if gacOpen == 0 {
		return -1, false
	}
	copy(g.tmp, g.dom)
	e.singletonConsistent(g.tmp, g.probe)
	sacOpen := candidateCount(g.tmp) - len(g.tmp)
	if sacOpen == 0 {
		return gacOpen + 4*(gacOpen-sacOpen), false
	}
	s := search{e: e, limit: 2, budget: 50000, found: func([]uint16) bool { return true }}
	s.run(g.tmp, 0)
	if s.count == 1 && !s.broke {
		return 0, true
	}
	return -1, false
}

// weakSolve applies the combination table to dom until nothing changes
// and reports whether that solves the puzzle.
func (g *generator) weakSolve(dom []uint16) bool {
	e := g.pe
	e.weak = true
	defer func() { e.weak = false }()
	e.propagateAll(dom)
	return chooseCell(dom) < 0
}

// singletonConsistent removes from dom every candidate that, placed in its
// cell, makes some run impossible once the runs are consistent again,
// repeating until no candidate goes (dom must be run-consistent already).
// probe is scratch of dom's length. It returns false on a contradiction.
func (e *engine) singletonConsistent(dom, probe []uint16) bool {
	for changed := true; changed; {
		changed = false
		for c, m := range dom {
			if m&(m-1) == 0 {
				continue
			}
			for rest := m; rest != 0; rest &= rest - 1 {
				b := rest & -rest
				copy(probe, dom)
				probe[c] = b
				if e.propagateCell(probe, int32(c)) {
					continue
				}
				dom[c] &^= b
				if !e.propagateCell(dom, int32(c)) {
					return false
				}
				changed = true
			}
		}
	}
	return true
}

// bestDigit gives cell c the digit, among those its runs do not hold yet,
// that leaves the fewest candidates open (each choice changes just the two
// clues over c); a digit that finishes the puzzle at its level wins, one
// that makes it too easy is never taken. It reports false when c has no
// other digit to take.
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
		v, n := g.evaluate()
		switch v {
		case tooEasy:
			continue
		case done:
			n = -1
		}
		if n < bestOpen || (n == bestOpen && g.rng.IntN(2) == 0) {
			best, bestOpen = d, n
		}
		if n < 0 {
			break
		}
	}
	if best == 0 {
		g.fill[c] = old
		return false
	}
	g.fill[c] = best
	return true
}

// stuckCell picks a random cell the last evaluation left open.
func (g *generator) stuckCell() int32 {
	n, pick := 0, int32(-1)
	for c, m := range g.dom {
		if m&(m-1) != 0 {
			n++
			if g.rng.IntN(n) == 0 {
				pick = int32(c)
			}
		}
	}
	if pick < 0 {
		return int32(g.rng.IntN(len(g.dom)))
	}
	return pick
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
	var region []int32
	for _, k := range e.cellRuns[center] {
		if k >= 0 {
			region = append(region, e.runs[k].cells...)
		}
	}
	old := append([]uint8(nil), g.fill...)
	var best []uint8
	bestScore := -1
	for try := 0; try < 4; try++ {
		for c := range g.fdom {
			g.fdom[c] = digitBit(int(old[c]))
		}
		for _, c := range region {
			g.fdom[c] = allDigits
		}
		g.fdom[center] = allDigits &^ digitBit(int(old[center]))
		if !g.searchFill(g.fdom) {
			continue
		}
		score := 0
		for _, c := range region {
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
