package logic

import (
	"sort"
)

// Nested forcing chains, Sudoku Explainer's levels 2 to 4: a dynamic search
// that, once its implications run out, looks on the grid it reached for a
// whole forcing-chain step of a simpler family (level 2, 9.5: static
// chains; 3, 10.0: multiple forcing chains; 4, 10.5: dynamic chains of
// nesting limit 0 to 3) and follows its eliminations, each resting on the
// outer search's removals the nested step needed and adding its complexity.
// Unlike SE, levels 2 and 3 leave cycles out, for speed.

// seMode returns Sudoku Explainer's dynamic forcing-chain family of the
// given level (0: plain dynamic chains) and, at level 4, nesting limit.
func seMode(level, nest int) fcMode {
	m := fcMode{multiple: true, dynamic: true, level: level, nest: nest, base: 85 + 5*level}
	m.name = "Dynamic forcing chains" + nestedSuffix(level, nest)
	return m
}

// nestedSuffix names what a level nests, as Sudoku Explainer does.
func nestedSuffix(level, nest int) string {
	switch {
	case level == 1:
		return " (+)"
	case level == 2:
		return " (+ forcing chains)"
	case level == 3:
		return " (+ multiple forcing chains)"
	case level >= 4:
		return " (+ dynamic forcing chains" + nestedSuffix(nest, 0) + ")"
	}
	return ""
}

// subGrid returns a copy of the search's grid for a nested rule. The
// engine keeps it (and the memory of its implication graphs) from call to
// call: the nested rules run at the end of most searches.
func (e *fcEngine) subGrid() *Grid {
	if e.sub == nil || e.sub.geo != e.geo {
		e.sub = e.work.Clone()
	} else {
		e.sub.copyFrom(e.work)
	}
	e.sub.unique = false
	e.sub.ctx = e.g.ctx
	return e.sub
}

// removedIn appends to out, as off potentials, the candidates d of the
// cells of s that the outer search has removed (present in e.g, gone from
// sub).
func (e *fcEngine) removedIn(sub *Grid, s cellSet, d int, out []pot) []pot {
	gone := s.and(e.g.pos[d-1]).andNot(sub.pos[d-1])
	for c := gone.first(); c >= 0; c = gone.next(c) {
		out = append(out, mkPot(e.n, c, d, false))
	}
	return out
}

// removedCell appends the candidates of cell c the outer search removed.
func (e *fcEngine) removedCell(sub *Grid, c int, out []pot) []pot {
	for m := e.g.cand[c] &^ sub.cand[c]; m != 0; m &= m - 1 {
		out = append(out, mkPot(e.n, c, digitMask(m).first(), false))
	}
	return out
}

// linkHouse returns the house (box, row, column, in that order) in which
// "a off" makes "b on" for digit d in grid w: the first house holding both
// cells where every other place of d is off (ok says which potentials are).
func linkHouse(w *Grid, a, b pot, ok func(pot) bool) int {
	n := w.geo.n
	ca, cb, d := a.cell(n), b.cell(n), b.digit(n)
	hs := w.geo.cellHouse[cb]
	for _, h := range [3]int{hs[2], hs[0], hs[1]} {
		if !w.geo.houseSet[h].has(ca) {
			continue
		}
		others := w.housePos(h, d)
		others.remove(cb)
		good := true
		for x := others.first(); x >= 0; x = others.next(x) {
			if x != ca && !ok(mkPot(n, x, d, false)) {
				good = false
				break
			}
		}
		if good {
			return h
		}
	}
	return -1
}

// nestedPick is the nested step chosen for one eliminated candidate:
// Sudoku Explainer's order (hintKey), then the order it was found in.
type nestedPick struct {
	key   hintKey
	order int
}

func (a nestedPick) less(b nestedPick) bool {
	if a.key != b.key {
		return a.key.less(b.key)
	}
	return a.order < b.order
}

// nestedHint is one nested step: what it eliminates and what it rests on.
type nestedHint struct {
	pick    nestedPick
	elims   []Candidate
	parents []pot
	key     uint64
}

// addNested hands the nested hints to add the way Sudoku Explainer does:
// its hints sorted (rating, complexity, kind), each elimination from the
// first hint that makes it.
func addNested(hints []nestedHint, add addFunc) {
	sort.SliceStable(hints, func(i, j int) bool { return hints[i].pick.less(hints[j].pick) })
	done := map[Candidate]bool{}
	var fresh []Candidate
	for _, h := range hints {
		fresh = fresh[:0]
		for _, el := range h.elims {
			if !done[el] {
				done[el] = true
				fresh = append(fresh, el)
			}
		}
		if len(fresh) > 0 {
			add(fresh, h.parents, h.pick.key.complexity, h.key)
		}
	}
}

// advStaticChains is level 2's nested rule: every X-chain and XY-chain
// (static forcing chain) of the search's grid that rests on a removal the
// search made.
func (e *fcEngine) advStaticChains(add addFunc) {
	sub := e.subGrid()
	s, release := getStaticSearch(sub)
	defer release()
	n := e.n
	var hints []nestedHint
	// X-chains are XY-chains too: the XY closure says which starts can
	// lead to their opposite, and a search per such start and kind of
	// link finds the chain.
	ig := sub.implications(modeXY)
	for c := sub.empty.first(); c >= 0; c = sub.empty.next(c) {
		if sub.cand[c].count() < 2 {
			continue
		}
		for m := sub.cand[c]; m != 0; m &= m - 1 {
			d := digitMask(m).first()
			on := mkPot(n, c, d, true)
			for _, src := range [2]pot{on, on.conj()} {
				if !ig.reaches(src, src.conj()) {
					continue
				}
				for _, mode := range []chainMode{modeX, modeXY} {
					if h, ok := e.staticChainHint(sub, s, mode, src, len(hints)); ok {
						hints = append(hints, h)
					}
				}
			}
		}
	}
	addNested(hints, add)
}

// staticChainHint searches the shortest forcing chain of mode from src to
// its opposite in sub, as a nested hint.
func (e *fcEngine) staticChainHint(sub *Grid, s *staticSearch, mode chainMode, src pot, order int) (nestedHint, bool) {
	n := e.n
	target := src.conj()
	par := s.directBFS(src, target, mode)
	if par < 0 {
		return nestedHint{}, false
	}
	chain := append(s.path(par), target)
	parents := e.chainParents(sub, chain)
	if len(parents) == 0 {
		return nestedHint{}, false
	}
	c, d := src.cell(n), src.digit(n)
	cx := len(chain)
	var elims []Candidate
	if target.on() {
		for x := sub.cand[c] &^ bit(d); x != 0; x &= x - 1 {
			elims = append(elims, Candidate{c, digitMask(x).first()})
		}
	} else {
		elims = []Candidate{{c, d}}
	}
	return nestedHint{
		pick:    nestedPick{hintKey{mode.fcBase + lengthBonus(cx), cx, mode.sortKey}, order},
		elims:   elims,
		parents: parents,
		key:     uint64(1)<<60 | uint64(mode.sortKey)<<52 | uint64(src)<<26 | uint64(cx),
	}, true
}

// chainParents returns the rule parents of a static chain in sub: for
// every link that turns a candidate on, the removals of the outer search in
// its cell (a cell link) or its house (a house link).
func (e *fcEngine) chainParents(sub *Grid, chain []pot) []pot {
	n := e.n
	var out []pot
	for i := 1; i < len(chain); i++ {
		a, b := chain[i-1], chain[i]
		if !b.on() {
			continue
		}
		if a.cell(n) == b.cell(n) {
			out = e.removedCell(sub, b.cell(n), out)
			continue
		}
		h := linkHouse(sub, a, b, func(q pot) bool { return q == a })
		if h >= 0 {
			out = e.removedIn(sub, sub.geo.houseSet[h], b.digit(n), out)
		}
	}
	return dedupPots(out)
}

func dedupPots(ps []pot) []pot {
	if len(ps) < 2 {
		return ps
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
	out := ps[:1]
	for _, p := range ps[1:] {
		if p != out[len(out)-1] {
			out = append(out, p)
		}
	}
	return out
}

// advNestedChains is the nested rule of levels 3 and 4: every step the
// family mode finds on the search's grid that rests on a removal the
// search made.
func (e *fcEngine) advNestedChains(mode fcMode, add addFunc) {
	sub := e.subGrid()
	inner, release := getFCEngine(sub, mode)
	defer release()
	if !mode.dynamic {
		inner.static = sub.implications(chainMode{x: true, y: true})
	}
	var hits []fcHit
	inner.collect = func(h fcHit) { hits = append(hits, h) }
	inner.pass(1 << 29)
	inner.collect = nil
	if len(hits) == 0 {
		return
	}
	hints := make([]nestedHint, 0, len(hits))
	for i, h := range hits {
		elims, _ := inner.targetElims(h.target)
		if len(elims) == 0 {
			continue
		}
		parents := e.hitParents(sub, inner, h)
		if len(parents) == 0 {
			continue
		}
		key := uint64(2)<<60 | uint64(mode.level)<<56 | uint64(h.sortKey)<<52 | uint64(h.cls[0].src)<<36 | uint64(h.target)<<16 | uint64(h.cx&0xffff)
		hints = append(hints, nestedHint{
			pick:    nestedPick{hintKey{mode.base + lengthBonus(h.cx), h.cx, h.sortKey}, i},
			elims:   elims,
			parents: parents,
			key:     key,
		})
	}
	addNested(hints, add)
}

// hitParents returns the rule parents of a nested step found by inner on
// sub: the outer search's removals that its singles needed.
func (e *fcEngine) hitParents(sub *Grid, inner *fcEngine, h fcHit) []pot {
	var out []pot
	n := e.n
	switch h.sortKey {
	case 7:
		cl := h.cls[0]
		out = e.walkParents(sub, cl, cl.absurdPot, out)
		out = e.walkParents(sub, cl, cl.virt, out)
	case 5: // cell: the source cell's single
		for _, cl := range h.cls {
			out = e.walkParents(sub, cl, h.target, out)
		}
		out = e.removedCell(sub, h.cls[0].src.cell(n), out)
	case 6: // region: the house's single
		for _, cl := range h.cls {
			out = e.walkParents(sub, cl, h.target, out)
		}
		var cells cellSet
		for _, cl := range h.cls {
			cells.add(cl.src.cell(n))
		}
		d := h.cls[0].src.digit(n)
		hs := sub.geo.cellHouse[h.cls[0].src.cell(n)]
		for _, x := range [3]int{hs[2], hs[0], hs[1]} {
			if cells.andNot(sub.geo.houseSet[x]).empty() {
				out = e.removedIn(sub, sub.geo.houseSet[x], d, out)
				break
			}
		}
	default:
		for _, cl := range h.cls {
			out = e.walkParents(sub, cl, h.target, out)
		}
	}
	return dedupPots(out)
}

// walkParents appends the rule parents of the chain to p in cl (a closure
// on sub).
func (e *fcEngine) walkParents(sub *Grid, cl *closure, p pot, out []pot) []pot {
	var todo []pot
	seen := map[pot]bool{}
	if cl.absurd && p == cl.virt {
		// The contradiction's last step: virt reached from its parents.
		if p.on() && len(cl.virtParents) > 0 {
			out = e.singleParents(sub, cl, p, cl.virtParents, out)
		}
		todo = append(todo, cl.virtParents...)
	} else {
		todo = append(todo, p)
	}
	for len(todo) > 0 {
		q := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[q] || !cl.has(q) {
			continue
		}
		seen[q] = true
		ps := cl.parentsOf(q)
		if q.on() && len(ps) > 0 {
			out = e.singleParents(sub, cl, q, ps, out)
		}
		todo = append(todo, ps...)
	}
	return out
}

// singleParents appends the outer removals behind the single that made q
// on (its parents ps, the first being the candidate whose going made it).
func (e *fcEngine) singleParents(sub *Grid, cl *closure, q pot, ps []pot, out []pot) []pot {
	n := e.n
	a := ps[0]
	if a.cell(n) == q.cell(n) {
		return e.removedCell(sub, q.cell(n), out)
	}
	in := func(x pot) bool {
		for _, y := range ps {
			if y == x {
				return true
			}
		}
		return false
	}
	if h := linkHouse(sub, a, q, in); h >= 0 {
		out = e.removedIn(sub, sub.geo.houseSet[h], q.digit(n), out)
	}
	return out
}

// Sudoku Explainer's nested levels, as techniques.
var (
	techNested2  = seTechnique(2, 0)
	techNested3  = seTechnique(3, 0)
	techNested40 = seTechnique(4, 0)
	techNested41 = seTechnique(4, 1)
	techNested42 = seTechnique(4, 2)
	techNested43 = seTechnique(4, 3)
)

func seTechnique(level, nest int) Technique {
	m := seMode(level, nest)
	return Technique{Name: m.name, Rating: float64(m.base) / 10, find: findForcing(m)}
}
