package logic

import (
	"fmt"
	"strings"
	"sync"
)

// Forcing chains: assume a candidate on (or off), follow all that follows,
// compare outcomes: a contradiction proves it false; the same result from it
// and its opposite (double), from every candidate of a cell (cell) or every
// place of a digit in a house (region) holds. Sudoku Explainer's families
// in its order: Nishio (7.5), multiple (8.0), dynamic (8.5: later
// implications see the eliminations), dynamic (+) (9.0: advanced.go); each
// adds the length bonus of its complexity.

// fcMode is one forcing-chain family.
type fcMode struct {
	name     string
	multiple bool // cell and region chains
	dynamic  bool // the grid follows the eliminations
	nishio   bool // one digit: no cell links
	// level is Sudoku Explainer's: from 1, the search applies simple
	// techniques to the grid it has reached; from 2 also (static) forcing
	// chains, from 3 multiple forcing chains, at 4 dynamic forcing chains
	// of level nest (see nested.go).
	level int
	nest  int
	// lastResort: the hint order's nested chains, level 1 plus a dynamic
	// contradiction on the grid reached (not one of Sudoku Explainer's).
	lastResort bool
	base       int // rating, tenths
}

var (
	fcNishio   = fcMode{name: "Nishio forcing chain", dynamic: true, nishio: true, base: 75}
	fcMultiple = fcMode{name: "Multiple forcing chains", multiple: true, base: 80}
	fcDynamic  = fcMode{name: "Dynamic forcing chains", multiple: true, dynamic: true, base: 85}
	fcPlus     = fcMode{name: "Dynamic forcing chains (+)", multiple: true, dynamic: true, level: 1, base: 90}
	fcNested   = fcMode{name: "Nested forcing chains", multiple: true, dynamic: true, level: 1, lastResort: true, base: 95}
)

// closure is everything one assumption implies: the potentials reached,
// each with the potentials it rests on (parents), in the order found.
type closure struct {
	src     pot
	idx     []int32 // potential -> node+1 (0: not reached)
	nodes   []fcNode
	parents []pot // arena of parent lists
	onList  []pot
	offList []pot
	// A contradiction ends the search: absurd[0] is reached (on or off),
	// virt is its opposite, found with virtParents.
	absurd      bool
	absurdPot   pot
	virt        pot
	virtParents []pot
	bound       int  // depth limit the closure was computed with
	cut         bool // the bound stopped the search (else the closure is complete)
}

type fcNode struct {
	p        pot
	parStart int32
	parN     int32
	depth    int32
	// A potential a nested rule found (Sudoku Explainer's levels 2 and
	// up) carries the complexity of the nested step that found it, which
	// a step resting on it adds to its own, once per nested step (nestKey).
	nest    int32
	nestKey uint64
}

func (cl *closure) has(p pot) bool { return cl.idx[p] != 0 }

func (cl *closure) node(p pot) *fcNode { return &cl.nodes[cl.idx[p]-1] }

func (cl *closure) depthOf(p pot) int { return int(cl.nodes[cl.idx[p]-1].depth) }

func (cl *closure) parentsOf(p pot) []pot {
	nd := cl.node(p)
	return cl.parents[nd.parStart : nd.parStart+nd.parN]
}

func (cl *closure) reset(np int) {
	if len(cl.idx) != np {
		cl.idx = make([]int32, np)
	} else {
		for _, nd := range cl.nodes {
			cl.idx[nd.p] = 0
		}
	}
	cl.nodes = cl.nodes[:0]
	cl.parents = cl.parents[:0]
	cl.onList = cl.onList[:0]
	cl.offList = cl.offList[:0]
	cl.absurd = false
	cl.virtParents = cl.virtParents[:0]
}

func (cl *closure) insert(p pot, parents []pot, depth int) {
	cl.insertNested(p, parents, depth, 0, 0)
}

// insertNested inserts p found by a nested step of the given complexity.
func (cl *closure) insertNested(p pot, parents []pot, depth, nest int, nestKey uint64) {
	cl.nodes = append(cl.nodes, fcNode{p: p, parStart: int32(len(cl.parents)), parN: int32(len(parents)), depth: int32(depth), nest: int32(nest), nestKey: nestKey})
	cl.parents = append(cl.parents, parents...)
	cl.idx[p] = int32(len(cl.nodes))
	if p.on() {
		cl.onList = append(cl.onList, p)
	} else {
		cl.offList = append(cl.offList, p)
	}
}

// fcEngine runs forcing-chain searches on one grid state.
type fcEngine struct {
	g         *Grid
	geo       *geometry
	n         int
	np        int
	mode      fcMode
	work      *Grid // the grid as the search updates it
	buf       []pot
	par       []pot
	seen      []uint32 // for counting ancestors
	epoch     uint32
	stack     []pot
	onCache   map[pot]*closure // closures of "cell is digit", per search pass
	free      []*closure
	truncated bool // a search stopped at its depth bound, or found a step above the level
	qOn, qOff []pot
	static    *implGraph // the implications, when the grid does not change during a search
	acc       []uint64
	nestSeen  []uint64 // nested steps already counted in the step being rated
	// collect, when set, receives every step a pass finds instead of the
	// pass keeping the best (a nested rule wants them all).
	collect func(h fcHit)
	sub     *Grid // scratch grid of the nested rules
	// top: the engine searches the rating's grid (not a nested rule's),
	// so its finished closures are worth keeping for the higher levels.
	top bool
}

// fcPools keeps forcing-chain engines (and their closures) for reuse, one
// pool per grid size: the searches allocate nothing once warm.
var fcPools sync.Map // int (potentials) -> *sync.Pool

// getFCEngine returns an engine for g and mode, reusing a pooled one.
func getFCEngine(g *Grid, mode fcMode) (*fcEngine, func()) {
	np := g.geo.size * g.geo.n * 2
	pi, _ := fcPools.LoadOrStore(np, &sync.Pool{})
	pool := pi.(*sync.Pool)
	e, _ := pool.Get().(*fcEngine)
	if e == nil || e.geo != g.geo {
		e = newFCEngine(g, mode)
	} else {
		e.g, e.mode = g, mode
		e.work.copyFrom(g)
		e.static = nil
		for p, cl := range e.onCache {
			e.free = append(e.free, cl)
			delete(e.onCache, p)
		}
	}
	return e, func() {
		for p, cl := range e.onCache {
			e.free = append(e.free, cl)
			delete(e.onCache, p)
		}
		e.g = nil
		pool.Put(e)
	}
}

func newFCEngine(g *Grid, mode fcMode) *fcEngine {
	np := g.geo.size * g.geo.n * 2
	return &fcEngine{
		g: g, geo: g.geo, n: g.geo.n, np: np, mode: mode,
		work:    g.Clone(),
		seen:    make([]uint32, np),
		onCache: map[pot]*closure{},
	}
}

func (e *fcEngine) newClosure() *closure {
	if k := len(e.free); k > 0 {
		cl := e.free[k-1]
		e.free = e.free[:k-1]
		return cl
	}
	return &closure{}
}

// run computes the closure of src, following potentials up to depth bound.
func (e *fcEngine) run(src pot, bound int, cl *closure) { e.runFrom(src, bound, cl, nil, 0) }

// runFrom is run that, when from is set, starts from it: the finished
// closure of the same source at a lower level (see finalClosure), whose
// search this level continues, its first round of nested rules skipping
// the skip rules that level already ran (1: the simple techniques, 2: also
// forcing chains).
func (e *fcEngine) runFrom(src pot, bound int, cl *closure, from *closure, skip int) {
	cl.reset(e.np)
	cl.src = src
	cl.bound = bound
	cl.cut = false
	e.work.copyFrom(e.g)
	w := e.work
	n := e.n
	y := !e.mode.nishio
	qOn, qOff := e.qOn[:0], e.qOff[:0]
	defer func() { e.qOn, e.qOff = qOn[:0], qOff[:0] }()
	if from != nil {
		copyClosure(cl, from)
		cl.bound, cl.cut = bound, false
		if cl.absurd {
			return
		}
		for _, p := range cl.offList {
			c, dg := p.cell(n), p.digit(n)
			w.cand[c] &^= bit(dg)
			w.pos[dg-1].remove(c)
		}
	} else {
		cl.insert(src, nil, 0)
		if src.on() {
			qOn = append(qOn, src)
		} else {
			qOff = append(qOff, src)
		}
	}
	hOn, hOff := 0, 0
	for {
		if hOn < len(qOn) {
			p := qOn[hOn]
			hOn++
			d := cl.depthOf(p)
			if d >= bound {
				e.truncated, cl.cut = true, true
				continue
			}
			var next []pot
			if e.static != nil {
				next = e.static.succ(p)
			} else {
				e.buf = onToOff(w, p, y, e.buf[:0])
				next = e.buf
			}
			for _, q := range next {
				if cl.has(q.conj()) {
					cl.absurd, cl.absurdPot, cl.virt = true, q.conj(), q
					cl.virtParents = append(cl.virtParents[:0], p)
					return
				}
				if !cl.has(q) {
					e.par = append(e.par[:0], p)
					cl.insert(q, e.par, d+1)
					qOff = append(qOff, q)
				}
			}
			continue
		}
		if hOff < len(qOff) {
			p := qOff[hOff]
			hOff++
			d := cl.depthOf(p)
			c, dg := p.cell(n), p.digit(n)
			if d >= bound {
				e.truncated, cl.cut = true, true
			} else if e.static != nil {
				for _, q := range e.static.succ(p) {
					e.par = append(e.par[:0], p)
					if e.onFound(cl, q, d+1, &qOn) {
						return
					}
				}
			} else {
				// Cell rule: the cell's last other candidate.
				if y && w.cand[c].count() == 2 {
					q := mkPot(n, c, (w.cand[c] &^ bit(dg)).first(), true)
					e.par = append(e.par[:0], p)
					if e.mode.dynamic {
						for m := e.g.cand[c] &^ w.cand[c]; m != 0; m &= m - 1 {
							e.par = append(e.par, mkPot(n, c, digitMask(m).first(), false))
						}
					}
					if e.onFound(cl, q, d+1, &qOn) {
						return
					}
				}
				// House rule: the digit's last other place.
				hs := e.geo.cellHouse[c]
				for _, h := range [3]int{hs[2], hs[0], hs[1]} {
					s := e.geo.houseSet[h].and(w.pos[dg-1])
					s.remove(c)
					if s.count() != 1 {
						continue
					}
					q := mkPot(n, s.first(), dg, true)
					e.par = append(e.par[:0], p)
					if e.mode.dynamic {
						gone := e.geo.houseSet[h].and(e.g.pos[dg-1]).andNot(w.pos[dg-1])
						for x := gone.first(); x >= 0; x = gone.next(x) {
							e.par = append(e.par, mkPot(n, x, dg, false))
						}
					}
					if e.onFound(cl, q, d+1, &qOn) {
						return
					}
				}
			}
			if e.mode.dynamic {
				w.cand[c] &^= bit(dg)
				w.pos[dg-1].remove(c)
			}
			continue
		}
		if e.mode.level > 0 && e.advanced(cl, bound, &qOff, skip) {
			skip = 0
			continue
		}
		return
	}
}

// onFound records an on potential reached (parents in e.par); it reports a
// contradiction.
func (e *fcEngine) onFound(cl *closure, q pot, depth int, qOn *[]pot) bool {
	if cl.has(q.conj()) {
		cl.absurd, cl.absurdPot, cl.virt = true, q.conj(), q
		cl.virtParents = append(cl.virtParents[:0], e.par...)
		return true
	}
	if !cl.has(q) {
		cl.insert(q, e.par, depth)
		*qOn = append(*qOn, q)
	}
	return false
}

// ancestors counts the distinct potentials p rests on, p included, plus
// the complexity of each nested step they rest on that nestReset has not
// seen since, stopping once the count passes limit.
func (e *fcEngine) ancestors(cl *closure, p pot, limit int) int {
	e.epoch++
	if e.epoch == 0 {
		for i := range e.seen {
			e.seen[i] = 0
		}
		e.epoch = 1
	}
	count := 0
	e.stack = e.stack[:0]
	if cl.absurd && p == cl.virt {
		e.seen[p] = e.epoch
		count++
		for _, q := range cl.virtParents {
			if e.seen[q] != e.epoch {
				e.seen[q] = e.epoch
				e.stack = append(e.stack, q)
			}
		}
	} else {
		e.seen[p] = e.epoch
		e.stack = append(e.stack, p)
	}
	for len(e.stack) > 0 {
		q := e.stack[len(e.stack)-1]
		e.stack = e.stack[:len(e.stack)-1]
		count++
		nd := cl.node(q)
		if nd.nest > 0 && !e.nestCounted(nd.nestKey) {
			count += int(nd.nest)
		}
		if count > limit {
			return count
		}
		for _, r := range cl.parents[nd.parStart : nd.parStart+nd.parN] {
			if e.seen[r] != e.epoch {
				e.seen[r] = e.epoch
				e.stack = append(e.stack, r)
			}
		}
	}
	return count
}

// nestReset starts measuring a new step: no nested step counted yet.
func (e *fcEngine) nestReset() { e.nestSeen = e.nestSeen[:0] }

// nestCounted reports whether the nested step key was counted already,
// marking it counted.
func (e *fcEngine) nestCounted(key uint64) bool {
	for _, k := range e.nestSeen {
		if k == key {
			return true
		}
	}
	e.nestSeen = append(e.nestSeen, key)
	return false
}

// chainTo returns the chain from the closure's source to p, following the
// first parent of each potential.
//
// A closure recomputed for a step's text normally reaches p again; only a
// search stopped by its context can differ, and then the chain is just p.
func (cl *closure) chainTo(p pot) []pot {
	var rev []pot
	if cl.absurd && p == cl.virt {
		rev = append(rev, p)
		p = cl.virtParents[0]
	}
	for {
		rev = append(rev, p)
		if !cl.has(p) {
			break
		}
		ps := cl.parentsOf(p)
		if len(ps) == 0 {
			break
		}
		p = ps[0]
	}
	out := make([]pot, len(rev))
	for i, q := range rev {
		out[len(rev)-1-i] = q
	}
	return out
}

// fcHint is a candidate forcing-chain step.
type fcHint struct {
	key hintKey
	hit fcHit
	ok  bool
}

// fcHit is one step a pass found: its complexity and kind (Sudoku
// Explainer's sort key: 1 double, 5 cell, 6 region, 7 contradiction), the
// potential it proves (a contradiction proves src's opposite) and the
// closures it rests on, in chain order (a double: on, then off).
type fcHit struct {
	cx, sortKey int
	target      pot
	cls         []*closure
	label       string
}

// build turns a hit into a step, recomputing its closures afresh.
func (e *fcEngine) build(h fcHit) Step {
	switch h.sortKey {
	case 7:
		src := h.cls[0].src
		return e.contradictionStep(e.fresh(src), src)
	case 1:
		src := h.cls[0].src
		return e.outcomeStep("Double forcing chains", h.target, []*closure{e.fresh(src), e.fresh(src.conj())}, nil)
	}
	srcs := make([]pot, len(h.cls))
	for i, cl := range h.cls {
		srcs[i] = cl.src
	}
	fresh := make([]*closure, len(srcs))
	for i, s := range srcs {
		fresh[i] = e.fresh(s)
	}
	return e.outcomeStep(h.label, h.target, fresh, nil)
}

// onClosure returns the (cached) closure of "cell is digit".
//
// Closures are always followed to the end: a search cut at some depth would
// not know where the full search stops at a contradiction (it stops at once,
// before reaching all of the shallower potentials), and a step must rest on
// what Sudoku Explainer's full search sees. The depth bound only decides
// which steps a deepening pass considers.
func (e *fcEngine) onClosure(p pot, bound int) *closure {
	if cl, ok := e.onCache[p]; ok {
		return cl
	}
	cl := e.newClosure()
	e.onCache[p] = cl
	from, skip := e.finalBase(p)
	e.runFrom(p, 1<<29, cl, from, skip)
	e.keepFinal(p, cl)
	return cl
}

// Sudoku Explainer's levels share the start of their searches: levels 2,
// 3 and 4 differ from level 1 only once level 1's search has run out
// (where level 1 stops), and level 3 from level 2 only where level 2 stops.
// So the rating keeps the finished closures of levels 1 and 2 for the grid
// state, and the higher levels continue them instead of starting over.

// finalBase returns the kept closure of p this engine's level continues,
// and which rules its first round skips.
func (e *fcEngine) finalBase(p pot) (*closure, int) {
	if !e.top || !e.mode.dynamic || e.mode.lastResort {
		return nil, 0
	}
	base, skip := 0, 0
	switch e.mode.level {
	case 2, 4:
		base, skip = 1, 1
	case 3:
		base, skip = 2, 2
	default:
		return nil, 0
	}
	m := e.g.state().fcFinal[base]
	if m == nil {
		return nil, 0
	}
	return m[p], skip
}

// keepFinal keeps a copy of p's finished closure at levels 1 and 2.
func (e *fcEngine) keepFinal(p pot, cl *closure) {
	if !e.top || !e.mode.dynamic || e.mode.lastResort || (e.mode.level != 1 && e.mode.level != 2) {
		return
	}
	st := e.g.state()
	if st.fcFinal[e.mode.level] == nil {
		st.fcFinal[e.mode.level] = map[pot]*closure{}
	}
	c := &closure{}
	copyClosure(c, cl)
	st.fcFinal[e.mode.level][p] = c
}

// find runs the family's search and returns its best step. It deepens
// level by level: a pass at rating level r follows chains only as far as a
// step rated r can reach, so the first pass that finds anything has found
// the best step (lowest rating, then complexity, then kind, then the first
// in Sudoku Explainer's order), and short steps are found without paying
// for long searches. A pass that was never cut short proves there is none.
func (e *fcEngine) find() (Step, bool) {
	// Skipping levels is safe: a pass at level r finds every step rated up
	// to r and keeps the best, and the passes before proved nothing rates
	// lower. A last pass without a bound settles the rest.
	for _, add := range []int{0, 2, 5, 1 << 20} {
		maxC := 1 << 29
		if add < 1<<20 {
			maxC = maxComplexity(e.mode.base, e.mode.base+add)
		}
		e.truncated = false
		best := e.pass(maxC)
		if best.ok {
			st := e.build(best.hit)
			st.Rating = float64(best.key.rating) / 10
			return st, true
		}
		if !e.truncated {
			break
		}
	}
	return Step{}, false
}

// pass searches for steps of complexity at most maxC.
func (e *fcEngine) pass(maxC int) fcHint {
	g := e.g
	n := e.n
	best := fcHint{key: hintKey{rating: 1 << 30, complexity: maxC + 1}}
	// bound: the deepest potential a better step could use.
	bound := func() int { return best.key.complexity - 1 }
	limit := func() int { return best.key.complexity }
	consider := func(h fcHit) {
		if e.collect != nil {
			e.collect(h)
			return
		}
		cx := h.cx
		if cx > maxC {
			// A step exists but rates above this level: a later pass
			// will rate it.
			e.truncated = true
			return
		}
		key := hintKey{e.mode.base + lengthBonus(cx), cx, h.sortKey}
		if key.less(best.key) {
			best = fcHint{key, h, true}
		}
	}
	for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
		if g.stopped() {
			return fcHint{key: noHint}
		}
		card := g.cand[c].count()
		if !(card > 2 || (card > 1 && e.mode.dynamic)) {
			continue
		}
		// Without grid updates, what every branch implies is known in
		// advance: skip cells and houses whose branches share nothing.
		cellOK := true
		if e.static != nil && e.mode.multiple {
			cellOK = e.staticCommon(g.cand[c], func(d int) []pot { return []pot{mkPot(n, c, d, true)} }, c)
		}
		var cellOn []*closure
		for m := g.cand[c]; m != 0; m &= m - 1 {
			d := digitMask(m).first()
			pOn := mkPot(n, c, d, true)
			if e.static != nil && e.mode.multiple && !cellOK && !e.regionsPossible(c, d) {
				continue
			}
			if e.mode.nishio && e.nishioDigit(c, d, pOn, consider, bound, limit) {
				continue
			}
			on := e.onClosure(pOn, bound())
			cellOn = append(cellOn, on)
			contradiction := e.mode.dynamic || e.mode.nishio
			if contradiction {
				e.considerAbsurd(on, consider, limit)
			}
			if contradiction || (e.mode.dynamic && card >= 3) {
				offCl := e.onClosure(pOn.conj(), bound())
				if contradiction {
					e.considerAbsurd(offCl, consider, limit)
				}
				if e.mode.dynamic && card >= 3 {
					e.doubles(on, offCl, consider, limit)
				}
			}
			if !e.mode.nishio {
				e.regionChains(c, d, on, consider, bound, limit)
			}
		}
		if !e.mode.nishio && e.mode.multiple && cellOK {
			e.cellChains(c, cellOn, consider, limit)
		}
	}
	return best
}

// considerAbsurd offers the contradiction a closure reached, if it reached
// one: the closure's source is then false.
func (e *fcEngine) considerAbsurd(cl *closure, consider func(fcHit), limit func() int) {
	if !cl.absurd {
		return
	}
	e.nestReset()
	a := e.ancestors(cl, cl.absurdPot, limit())
	b := e.ancestors(cl, cl.virt, limit())
	consider(fcHit{cx: a + b, sortKey: 7, target: cl.src.conj(), cls: []*closure{cl}})
}

// nishioDigit is Nishio's look at digit d in cell c: single-digit
// reasoning only ever condemns a candidate in no template, or proves one
// in every template. It reports whether the templates settled the digit
// (so no other chain is tried from it).
func (e *fcEngine) nishioDigit(c, d int, pOn pot, consider func(fcHit), bound, limit func() int) bool {
	t := e.g.templates(d)
	if !t.ok {
		return false
	}
	if !t.some.has(c) {
		e.considerAbsurd(e.onClosure(pOn, bound()), consider, limit)
	}
	if t.all.has(c) {
		e.considerAbsurd(e.onClosure(pOn.conj(), bound()), consider, limit)
	}
	return true
}

// staticCommon reports whether the static implications of the potentials
// starts(d), for each digit d of m, share any potential (other than in
// cell skip).
func (e *fcEngine) staticCommon(m digitMask, starts func(d int) []pot, skip int) bool {
	ig := e.static
	var acc []uint64
	for x := m; x != 0; x &= x - 1 {
		for _, p := range starts(digitMask(x).first()) {
			r := ig.reachSet(p)
			if r == nil {
				return true
			}
			if acc == nil {
				acc = append(e.acc[:0], r...)
				continue
			}
			any := uint64(0)
			for i := range acc {
				acc[i] &= r[i]
				any |= acc[i]
			}
			if any == 0 {
				e.acc = acc
				return false
			}
		}
	}
	e.acc = acc
	return acc != nil
}

// regionsPossible reports whether some house where c is the first place of
// d could give a static region chain.
func (e *fcEngine) regionsPossible(c, d int) bool {
	g := e.g
	n := e.n
	hs := e.geo.cellHouse[c]
	for _, h := range [3]int{hs[2], hs[0], hs[1]} {
		places := g.housePos(h, d)
		if places.count() < 2 || places.first() != c {
			continue
		}
		var starts []pot
		for x := places.first(); x >= 0; x = places.next(x) {
			starts = append(starts, mkPot(n, x, d, true))
		}
		if e.staticCommon(bit(d), func(int) []pot { return starts }, -1) {
			return true
		}
	}
	return false
}

// fresh computes the full closure of p anew (for building a step's text).
// The step builders (contradictionStep, outcomeStep) give it back to the
// engine's free list once the step is built.
func (e *fcEngine) fresh(p pot) *closure {
	cl := e.newClosure()
	e.run(p, 1<<30, cl)
	return cl
}

func copyClosure(dst, src *closure) {
	dst.src = src.src
	dst.idx = append(dst.idx[:0], src.idx...)
	dst.nodes = append(dst.nodes[:0], src.nodes...)
	dst.parents = append(dst.parents[:0], src.parents...)
	dst.onList = append(dst.onList[:0], src.onList...)
	dst.offList = append(dst.offList[:0], src.offList...)
	dst.absurd, dst.absurdPot, dst.virt = src.absurd, src.absurdPot, src.virt
	dst.virtParents = append(dst.virtParents[:0], src.virtParents...)
	dst.bound = src.bound
}

// worth reports whether a target potential changes the grid: an on target
// must have other candidates to remove.
func (e *fcEngine) worth(t pot) bool {
	c, d := t.cell(e.n), t.digit(e.n)
	if t.on() {
		return e.g.cand[c]&^bit(d) != 0
	}
	return e.g.cand[c].has(d)
}

func (e *fcEngine) doubles(on, off *closure, consider func(fcHit), limit func() int) {
	for _, lists := range [2][]pot{on.onList, on.offList} {
		for _, p := range lists {
			if !off.has(p) || !e.worth(p) {
				continue
			}
			if on.depthOf(p)+off.depthOf(p)+2 > limit() {
				e.truncated = true // may rate above this level
				continue
			}
			e.nestReset()
			a := e.ancestors(on, p, limit())
			b := e.ancestors(off, p, limit())
			consider(fcHit{cx: a + b, sortKey: 1, target: p, cls: []*closure{on, off}})
		}
	}
}

// regionChains: for each house of cell c where c is the first place of d,
// every place of d leads somewhere; what they all lead to holds.
func (e *fcEngine) regionChains(c, d int, on *closure, consider func(fcHit), bound func() int, limit func() int) {
	g := e.g
	n := e.n
	hs := e.geo.cellHouse[c]
	for _, h := range [3]int{hs[2], hs[0], hs[1]} {
		places := g.housePos(h, d)
		if places.count() < 2 || places.first() != c {
			continue
		}
		if e.static != nil {
			var starts []pot
			for x := places.first(); x >= 0; x = places.next(x) {
				starts = append(starts, mkPot(n, x, d, true))
			}
			if !e.staticCommon(bit(d), func(int) []pot { return starts }, -1) {
				continue
			}
		}
		var cls []*closure
		for x := places.first(); x >= 0; x = places.next(x) {
			if x == c {
				cls = append(cls, on)
			} else {
				cls = append(cls, e.onClosure(mkPot(n, x, d, true), bound()))
			}
		}
		e.common(cls, consider, limit, 6, "Region forcing chains")
	}
}

func (e *fcEngine) cellChains(c int, cls []*closure, consider func(fcHit), limit func() int) {
	e.common(cls, consider, limit, 5, "Cell forcing chains")
}

// common considers every potential that all closures reach. The label
// says which kind of chain the closures make (see outcomeStep); it is a
// constant because common runs for every cell and house of every pass.
func (e *fcEngine) common(cls []*closure, consider func(fcHit), limit func() int, sortKey int, label string) {
	first := cls[0]
	for _, lists := range [2][]pot{first.onList, first.offList} {
		for _, p := range lists {
			lb := 0
			ok := true
			for _, cl := range cls {
				if !cl.has(p) {
					ok = false
					break
				}
				lb += cl.depthOf(p) + 1
			}
			if !ok || !e.worth(p) {
				continue
			}
			if lb > limit() {
				e.truncated = true // may rate above this level
				continue
			}
			cx := 0
			e.nestReset()
			for _, cl := range cls {
				cx += e.ancestors(cl, p, limit())
				if cx > limit() {
					break
				}
			}
			consider(fcHit{cx: cx, sortKey: sortKey, target: p, cls: append([]*closure(nil), cls...), label: label})
		}
	}
}

// Steps ------------------------------------------------------------------

func (e *fcEngine) targetElims(t pot) ([]Candidate, string) {
	c, d := t.cell(e.n), t.digit(e.n)
	if t.on() {
		var out []Candidate
		for m := e.g.cand[c] &^ bit(d); m != 0; m &= m - 1 {
			out = append(out, Candidate{c, digitMask(m).first()})
		}
		return out, fmt.Sprintf("%s is %d", e.geo.cellName(c), d)
	}
	return []Candidate{{c, d}}, fmt.Sprintf("%s is not %d", e.geo.cellName(c), d)
}

func (e *fcEngine) stepFrom(kind string, elims []Candidate, chains [][]pot, text string) Step {
	var cells cellSet
	var pat []Candidate
	var links []Link
	var cl []int
	for _, ch := range chains {
		for _, p := range ch {
			c := p.cell(e.n)
			if !cells.has(c) {
				cells.add(c)
				cl = append(cl, c)
			}
			pat = append(pat, p.candidate(e.n))
		}
		links = append(links, chainLinks(e.n, ch)...)
	}
	name := e.mode.name
	if kind != "" {
		name = kind
	}
	return Step{
		Technique:    name,
		Eliminations: sortCandidates(elims),
		Cells:        cl,
		Pattern:      sortCandidates(pat),
		Links:        links,
		Text:         text,
	}
}

func (e *fcEngine) contradictionStep(cl *closure, src pot) Step {
	var elims []Candidate
	var verdict string
	if src.on() {
		elims, verdict = e.targetElims(src.conj())
	} else {
		elims, verdict = e.targetElims(src.conj())
	}
	a := cl.chainTo(cl.absurdPot)
	b := cl.chainTo(cl.virt)
	text := fmt.Sprintf("%s: if %s, then %s; but also %s; so %s: %s", e.familyName("contradiction"), e.geo.potName(src),
		e.geo.chainText(a[1:]), e.geo.chainText(b[1:]), verdict, e.geo.elimText(elims))
	s := e.stepFrom(e.familyName("contradiction"), elims, [][]pot{a, b}, text)
	s.decides = !src.on()
	e.free = append(e.free, cl) // fresh: the step holds copies of its chains
	return s
}

// familyName names the step: "Nishio forcing chain", "Dynamic contradiction
// forcing chains", ...
func (e *fcEngine) familyName(kind string) string {
	switch {
	case e.mode.nishio:
		return "Nishio forcing chain"
	case kind == "contradiction":
		return strings.Replace(e.mode.name, "forcing chains", "contradiction forcing chains", 1)
	}
	return e.mode.name
}

func (e *fcEngine) outcomeStep(label string, t pot, cls []*closure, _ []string) Step {
	elims, verdict := e.targetElims(t)
	var chains [][]pot
	var parts []string
	for _, cl := range cls {
		ch := cl.chainTo(t)
		chains = append(chains, ch)
		parts = append(parts, "if "+e.geo.potName(ch[0])+", then "+e.geo.chainText(ch[1:]))
	}
	name := e.mode.name
	switch {
	case strings.HasPrefix(label, "Cell"):
		name = strings.Replace(name, "forcing chains", "cell forcing chains", 1)
	case strings.HasPrefix(label, "Region"):
		name = strings.Replace(name, "forcing chains", "region forcing chains", 1)
	case strings.HasPrefix(label, "Double"):
		name = strings.Replace(name, "forcing chains", "double forcing chains", 1)
	}
	text := fmt.Sprintf("%s: %s; either way %s: %s", name, strings.Join(parts, "; "), verdict, e.geo.elimText(elims))
	s := e.stepFrom(name, elims, chains, text)
	s.decides = t.on()
	e.free = append(e.free, cls...) // fresh: the step holds copies of its chains
	return s
}

// findForcing returns the finder of a forcing-chain family.
func findForcing(mode fcMode) func(g *Grid) (Step, bool) {
	return func(g *Grid) (Step, bool) {
		e, release := getFCEngine(g, mode)
		defer release()
		e.top = true
		defer func() { e.top = false }()
		if !mode.dynamic {
			e.static = g.implications(chainMode{x: true, y: !mode.nishio})
		}
		return e.find()
	}
}

var (
	techNishio      = Technique{Name: "Nishio forcing chain", Rating: 7.5, find: findForcing(fcNishio)}
	techMultipleFC  = Technique{Name: "Multiple forcing chains", Rating: 8.0, find: findForcing(fcMultiple)}
	techDynamicFC   = Technique{Name: "Dynamic forcing chains", Rating: 8.5, find: findForcing(fcDynamic)}
	techDynamicPlus = Technique{Name: "Dynamic forcing chains (+)", Rating: 9.0, find: findForcing(fcPlus)}
	techNestedFC    = Technique{Name: "Nested forcing chains", Rating: 9.5, find: findForcing(fcNested)}
)
