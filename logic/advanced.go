package logic

// Dynamic forcing chains (+), Sudoku Explainer's level 1: when a dynamic
// search runs out of implications, simple techniques (pointing, claiming,
// hidden and naked pairs, X-wings) run on the grid it left; their
// eliminations become "off" potentials resting on the removals they needed
// (a pattern needing none existed before and is skipped). The first that
// yields ends the round; level 2 also runs a dynamic forcing-chain search.

// addFunc records eliminations found on the search's grid: each becomes
// an off potential resting on parents (the search's removals the finding
// needed), carrying the complexity of the nested step that found it (0 for
// a simple technique) and that step's identity.
type addFunc func(elims []Candidate, parents []pot, nest int, key uint64)

// advanced adds the potentials of one round; it reports whether any were
// added. As in Sudoku Explainer, the rules run in order and the first one
// that yields anything ends the round.
//
// skip leaves out the rules a lower level already ran on this closure (1:
// the simple techniques; 2: also forcing chains).
func (e *fcEngine) advanced(cl *closure, bound int, qOff *[]pot, skip int) bool {
	added := false
	add := func(elims []Candidate, parents []pot, nest int, key uint64) {
		if len(parents) == 0 {
			return
		}
		depth := 0
		for _, p := range parents {
			if !cl.has(p) {
				return // a removal this search did not make
			}
			if d := cl.depthOf(p); d > depth {
				depth = d
			}
		}
		for _, el := range elims {
			q := mkPot(e.n, el.Cell, el.Digit, false)
			if cl.has(q) || cl.has(q.conj()) {
				continue
			}
			cl.insertNested(q, parents, depth+1, nest, key)
			*qOff = append(*qOff, q)
			added = true
		}
	}
	simple := func(elims []Candidate, parents []pot) { add(elims, parents, 0, 0) }
	if skip < 1 {
		for _, rule := range []func(add func([]Candidate, []pot)){
			e.advLocked, e.advHiddenPairs, e.advNakedPairs, e.advXWings,
		} {
			rule(simple)
			if added {
				return true
			}
		}
	}
	switch {
	case e.mode.lastResort:
		e.advNested(simple)
	case e.mode.level == 2 || e.mode.level == 3:
		if skip < 2 {
			e.advStaticChains(add)
		}
		if !added && e.mode.level == 3 {
			e.advNestedChains(fcMultiple, add)
		}
	case e.mode.level >= 4:
		e.advNestedChains(seMode(e.mode.nest, 0), add)
	}
	return added
}

// removed lists, as off potentials, candidate d of the cells of s that the
// search has removed.
func (e *fcEngine) removed(s cellSet, d int, out []pot) []pot {
	gone := s.and(e.g.pos[d-1]).andNot(e.work.pos[d-1])
	for c := gone.first(); c >= 0; c = gone.next(c) {
		out = append(out, mkPot(e.n, c, d, false))
	}
	return out
}

func (e *fcEngine) advLocked(add func([]Candidate, []pot)) {
	w := e.work
	lockedPatterns(w, func(lp lockedPair) bool {
		elim := w.housePos(lp.cover, lp.d).andNot(w.geo.houseSet[lp.base])
		if elim.empty() {
			return false
		}
		base := w.geo.houseSet[lp.base].andNot(w.geo.houseSet[lp.cover])
		add(w.elimsOf(elim, lp.d), e.removed(base, lp.d, nil))
		return false
	})
}

func (e *fcEngine) advXWings(add func([]Candidate, []pot)) {
	w := e.work
	n := w.geo.n
	missing := w.missingAll()
	for _, kind := range []int{kindCol, kindRow} {
		coverKind := kindRow
		if kind == kindRow {
			coverKind = kindCol
		}
		for d := 1; d <= n; d++ {
			if missing[d-1] < 4 {
				continue
			}
			for i := 0; i < n; i++ {
				pi := w.housePos(kind*n+i, d)
				if pi.count() != 2 {
					continue
				}
				for j := i + 1; j < n; j++ {
					pj := w.housePos(kind*n+j, d)
					if pj.count() != 2 {
						continue
					}
					var cover uint32
					for _, p := range []cellSet{pi, pj} {
						for c := p.first(); c >= 0; c = p.next(c) {
							cover |= 1 << uint(w.geo.across(kind, c))
						}
					}
					if popcount32(cover) != 2 {
						continue
					}
					var coverSet cellSet
					for x := 0; x < n; x++ {
						if cover&(1<<uint(x)) != 0 {
							coverSet = coverSet.or(w.geo.houseSet[coverKind*n+x])
						}
					}
					base := pi.or(pj)
					elim := coverSet.and(w.pos[d-1]).andNot(base)
					if elim.empty() {
						continue
					}
					lines := w.geo.houseSet[kind*n+i].or(w.geo.houseSet[kind*n+j]).andNot(coverSet)
					add(w.elimsOf(elim, d), e.removed(lines, d, nil))
				}
			}
		}
	}
}

func (e *fcEngine) advNakedPairs(add func([]Candidate, []pot)) {
	w := e.work
	for _, h := range w.geo.seHouseOrder() {
		em := w.houseEmpty(h)
		if em.count() < 4 {
			continue
		}
		cells := em.appendTo(nil)
		for i, a := range cells {
			if w.cand[a].count() != 2 {
				continue
			}
			for _, b := range cells[i+1:] {
				if w.cand[b] != w.cand[a] {
					continue
				}
				m := w.cand[a]
				elims := w.candidatesIn(em.andNot(cellSetOf(a, b)), m)
				if len(elims) == 0 {
					continue
				}
				var parents []pot
				for _, c := range []int{a, b} {
					for x := e.g.cand[c] &^ m; x != 0; x &= x - 1 {
						parents = append(parents, mkPot(e.n, c, digitMask(x).first(), false))
					}
				}
				add(elims, parents)
			}
		}
	}
}

func (e *fcEngine) advHiddenPairs(add func([]Candidate, []pot)) {
	w := e.work
	full := digitMask(1)<<uint(w.geo.n) - 1
	for _, h := range w.geo.seHouseOrder() {
		if w.houseEmpty(h).count() <= 4 {
			continue
		}
		hiddenSets(w, h, 2, func(m digitMask, set cellSet) bool {
			elims := w.candidatesIn(set, full&^m)
			if len(elims) == 0 {
				return false
			}
			var parents []pot
			others := w.geo.houseSet[h].andNot(set)
			for x := m; x != 0; x &= x - 1 {
				parents = e.removed(others, digitMask(x).first(), parents)
			}
			add(elims, parents)
			return false
		})
	}
}

// advNested looks, on the grid the search has reached, for a candidate
// whose dynamic chain ends in a contradiction; that candidate goes, resting
// on every candidate the search removed.
func (e *fcEngine) advNested(add func([]Candidate, []pot)) {
	sub := e.work.Clone()
	sub.unique = false
	sub.ctx = e.g.ctx
	inner, release := getFCEngine(sub, fcDynamic)
	defer release()
	cl := inner.newClosure()
	defer func() { inner.free = append(inner.free, cl) }()
	for c := sub.empty.first(); c >= 0; c = sub.empty.next(c) {
		if sub.stopped() {
			return
		}
		if sub.cand[c].count() < 2 {
			continue
		}
		for m := sub.cand[c]; m != 0; m &= m - 1 {
			d := digitMask(m).first()
			inner.run(mkPot(e.n, c, d, true), 1<<29, cl)
			if !cl.absurd {
				continue
			}
			var parents []pot
			for x := 1; x <= e.n; x++ {
				parents = e.removed(e.geo.all, x, parents)
			}
			add([]Candidate{{c, d}}, parents)
			return
		}
	}
}
