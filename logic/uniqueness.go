package logic

import "fmt"

// Uniqueness: a puzzle with one solution never ends in a deadly pattern
// (cells that could swap two digits unnoticed: a unique rectangle of four
// cells, a loop of 6, 8, ...), so what keeps it from being deadly is true
// (types 1-4). BUG: if every cell had two candidates and every digit two
// places per house there would be two solutions, so the extras hold the
// truth. Only for puzzles known to be unique (Grid tracks it); ratings are
// Sudoku Explainer's. docs/logic.md describes each type.

type uniqueLoop struct {
	cells  []int
	v1, v2 int
}

// findUniqueLoops is Sudoku Explainer's UniqueLoops: of all unique
// rectangles and loops (types 1–4), the lowest rated, then lowest type.
func findUniqueLoops(g *Grid) (Step, bool) {
	if !g.unique {
		return Step{}, false
	}
	var best Step
	bestKey := [2]int{1 << 30, 0}
	for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
		if g.cand[c].count() != 2 {
			continue
		}
		ds := g.cand[c].digits()
		v1, v2 := ds[0], ds[1]
		for _, loop := range g.findLoops(c, v1, v2) {
			if !g.validLoop(loop) {
				continue
			}
			for _, s := range g.loopHints(uniqueLoop{loop, v1, v2}) {
				key := [2]int{int(s.Rating*10 + 0.5), loopType(s)}
				if key[0] < bestKey[0] || (key[0] == bestKey[0] && key[1] < bestKey[1]) {
					best, bestKey = s, key
				}
			}
		}
	}
	return best, bestKey[0] < 1<<30
}

// loopType reads the type back from a step's name ("... type 3").
func loopType(s Step) int {
	t := s.Technique
	return int(t[len(t)-1] - '0')
}

// findLoops lists the closed loops through cells holding v1 and v2 that
// start at c, moving each time along a house of another kind than the
// last, with at most two cells with extra digits (or any number sharing a
// single extra digit), as Sudoku Explainer searches them.
func (g *Grid) findLoops(start, v1, v2 int) [][]int {
	geo := g.geo
	pair := bit(v1) | bit(v2)
	var out [][]int
	loop := []int{start}
	var inLoop cellSet
	inLoop.add(start)
	var rec func(cell int, allowedEx int, ex digitMask, lastKind int)
	rec = func(cell int, allowedEx int, ex digitMask, lastKind int) {
		if len(loop) > 14 || len(out) > 64 {
			return
		}
		for _, kind := range [3]int{kindBox, kindRow, kindCol} {
			if kind == lastKind {
				continue
			}
			h := geo.cellHouse[cell][kind]
			for _, next := range geo.houses[h] {
				if next == start && len(loop) >= 4 {
					out = append(out, append([]int(nil), loop...))
					continue
				}
				if inLoop.has(next) || g.cand[next]&pair != pair {
					continue
				}
				newEx := ex | g.cand[next]&^pair
				card := g.cand[next].count()
				if card == 2 || newEx.count() == 1 || allowedEx > 0 {
					na := allowedEx
					if card > 2 {
						na--
					}
					loop = append(loop, next)
					inLoop.add(next)
					rec(next, na, newEx, kind)
					loop = loop[:len(loop)-1]
					inLoop.remove(next)
				}
			}
		}
	}
	rec(start, 2, 0, -1)
	return out
}

// validLoop reports whether every house the loop visits holds exactly two
// of its cells, one at an odd and one at an even position.
func (g *Grid) validLoop(loop []int) bool {
	seen := map[int]int{} // house -> parity bits
	for i, c := range loop {
		par := 1 << uint(i%2)
		for _, h := range g.geo.cellHouse[c] {
			if seen[h]&par != 0 {
				return false
			}
			seen[h] |= par
		}
	}
	for _, v := range seen {
		if v != 3 {
			return false
		}
	}
	return true
}

func loopBaseRating(size int) int {
	r := 45
	if size >= 10 {
		r += 3
	}
	if size >= 8 {
		r += 2
	} else if size >= 6 {
		r++
	}
	return r
}

// loopHints returns the type 1–4 steps a valid loop gives.
func (g *Grid) loopHints(l uniqueLoop) []Step {
	pair := bit(l.v1) | bit(l.v2)
	var extra []int
	for _, c := range l.cells {
		if g.cand[c].count() > 2 {
			extra = append(extra, c)
		}
	}
	base := loopBaseRating(len(l.cells))
	var out []Step
	switch {
	case len(extra) == 1:
		c := extra[0]
		elims := g.candidatesIn(cellSetOf(c), pair)
		out = append(out, g.loopStep(l, 1, base, elims, extra, fmt.Sprintf("%s must keep an extra digit, so it is neither %d nor %d", g.geo.cellName(c), l.v1, l.v2)))
	case len(extra) > 2:
		if s, ok := g.loopType2(l, extra, base); ok {
			out = append(out, s)
		}
	case len(extra) == 2:
		rest := (g.cand[extra[0]] | g.cand[extra[1]]) &^ pair
		if rest.count() == 1 {
			if s, ok := g.loopType2(l, extra, base); ok {
				out = append(out, s)
			}
		} else if rest.count() >= 2 {
			out = append(out, g.loopType3(l, extra[0], extra[1], base)...)
		}
		if s, ok := g.loopType4(l, extra[0], extra[1], base); ok {
			out = append(out, s)
		}
	}
	return out
}

func (g *Grid) loopStep(l uniqueLoop, typ, rating int, elims []Candidate, extra []int, why string) Step {
	name := "Unique rectangle"
	if len(l.cells) > 4 {
		name = "Unique loop"
	}
	name = fmt.Sprintf("%s type %d", name, typ)
	var set cellSet
	for _, c := range l.cells {
		set.add(c)
	}
	return Step{
		Technique:    name,
		Rating:       float64(rating) / 10,
		Eliminations: sortCandidates(elims),
		Cells:        append([]int(nil), l.cells...),
		Pattern:      g.candidatesIn(set, bit(l.v1)|bit(l.v2)),
		Text: fmt.Sprintf("%s: %s would be a deadly pattern of %d and %d; %s: %s", name, g.geo.cellList(l.cells),
			l.v1, l.v2, why, g.geo.elimText(elims)),
	}
}

func (g *Grid) loopType2(l uniqueLoop, extra []int, base int) (Step, bool) {
	pair := bit(l.v1) | bit(l.v2)
	z := (g.cand[extra[0]] &^ pair).first()
	victims := g.geo.all
	var ex cellSet
	for _, c := range extra {
		victims = victims.and(g.geo.peers[c])
		ex.add(c)
	}
	elims := g.elimsOf(victims.andNot(ex), z)
	if len(elims) == 0 {
		return Step{}, false
	}
	return g.loopStep(l, 2, base, elims, extra, fmt.Sprintf("one of %s is %d", g.geo.cellList(extra), z)), true
}

func (g *Grid) loopType4(l uniqueLoop, c1, c2, base int) (Step, bool) {
	for _, h := range g.geo.cellHouse[c1] {
		if !g.geo.houseSet[h].has(c2) {
			continue
		}
		for _, vs := range [2][2]int{{l.v1, l.v2}, {l.v2, l.v1}} {
			lock, rem := vs[0], vs[1]
			others := g.housePos(h, lock)
			others.remove(c1)
			others.remove(c2)
			if !others.empty() {
				continue
			}
			elims := g.elimsOf(cellSetOf(c1, c2), rem)
			if len(elims) == 0 {
				return Step{}, false
			}
			return g.loopStep(l, 4, base, elims, []int{c1, c2}, fmt.Sprintf("in %s, %d can only go in %s and %s, so neither can be %d",
				g.geo.houseName(h), lock, g.geo.cellName(c1), g.geo.cellName(c2), rem)), true
		}
	}
	return Step{}, false
}

// loopType3 finds the naked and hidden sets that the two extra cells c1 and
// c2 (seen as one cell with their extra digits) form in a house they share.
func (g *Grid) loopType3(l uniqueLoop, c1, c2, base int) []Step {
	pair := bit(l.v1) | bit(l.v2)
	extra := (g.cand[c1] | g.cand[c2]) &^ pair
	var out []Step
	geo := g.geo
	for degree := 2; degree <= 7; degree++ {
		for _, h := range [3]int{geo.cellHouse[c1][kindBox], geo.cellHouse[c1][kindRow], geo.cellHouse[c1][kindCol]} {
			if !geo.houseSet[h].has(c2) {
				continue
			}
			empties := g.houseEmpty(h).count()
			// Naked set: the virtual cell plus degree-1 other cells.
			if degree*2 <= empties && degree >= extra.count() {
				var others []int
				for _, c := range geo.houses[h] {
					if c != c1 && c != c2 && g.cand[c].count() >= 2 {
						others = append(others, c)
					}
				}
				combinations(len(others), degree-1, func(idx []int) bool {
					set := extra & g.cand[c1] & g.cand[c2]
					union := extra
					var cells cellSet
					for _, i := range idx {
						set |= g.cand[others[i]]
						union |= g.cand[others[i]]
						cells.add(others[i])
					}
					if set.count() != degree || union.count() != degree {
						return false
					}
					victims := g.houseEmpty(h).andNot(cells)
					victims.remove(c1)
					victims.remove(c2)
					elims := g.candidatesIn(victims, union)
					if len(elims) == 0 {
						return false
					}
					out = append(out, g.loopStep(l, 3, base+degree-1, elims, []int{c1, c2},
						fmt.Sprintf("%s and %s hold %s between them, which with %s makes a naked set of %s in %s",
							geo.cellName(c1), geo.cellName(c2), digitOr(extra.digits()), geo.cellList(cells.appendTo(nil)),
							digitList(union.digits()), geo.houseName(h))))
					return false
				})
			}
			// Hidden set: v1, v2 and degree-2 other digits confined to c1
			// (standing for both) and degree-1 other cells.
			if degree*2 < empties {
				var rem []int
				for d := 1; d <= geo.n; d++ {
					if d != l.v1 && d != l.v2 && !extra.has(d) {
						rem = append(rem, d)
					}
				}
				combinations(len(rem), degree-2, func(idx []int) bool {
					values := pair
					for _, i := range idx {
						values |= bit(rem[i])
					}
					var where cellSet
					for m := values; m != 0; m &= m - 1 {
						p := g.housePos(h, digitMask(m).first())
						p.remove(c2)
						if p.empty() {
							return false
						}
						where = where.or(p)
					}
					if where.count() != degree {
						return false
					}
					where.remove(c1)
					where.remove(c2)
					var elims []Candidate
					for c := where.first(); c >= 0; c = where.next(c) {
						for m := g.cand[c] &^ values; m != 0; m &= m - 1 {
							elims = append(elims, Candidate{c, digitMask(m).first()})
						}
					}
					if len(elims) == 0 {
						return false
					}
					out = append(out, g.loopStep(l, 3, base+where.count()-1, elims, []int{c1, c2},
						fmt.Sprintf("in %s, %s can only go in %s or %s and %s, a hidden set", geo.houseName(h),
							digitList(values.digits()), geo.cellList(where.appendTo(nil)), geo.cellName(c1), geo.cellName(c2))))
					return false
				})
			}
		}
	}
	return out
}

// findBUG is Sudoku Explainer's bivalue universal grave, types 1, 2 and 4.
func findBUG(g *Grid) (Step, bool) {
	if !g.unique {
		return Step{}, false
	}
	b := &bugSearch{g: g, geo: g.geo, values: map[int]digitMask{}, common: g.geo.all, temp: g.Clone()}
	if !b.collect() || len(b.cells) == 0 || !b.temp.isGrave() {
		return Step{}, false
	}
	return b.step()
}

// bugSearch gathers the BUG cells: those whose extra candidates (beyond
// two per cell and two places per digit and house) stand between the
// grid and a bivalue universal grave.
type bugSearch struct {
	g          *Grid
	geo        *geometry
	cells      []int             // the BUG cells, in the order found
	in         cellSet           // the same as a set
	values     map[int]digitMask // each BUG cell's extra digits
	all        digitMask         // all extra digits
	common     cellSet           // the cells that see every BUG cell (and are none)
	haveCommon bool
	temp       *Grid // the grid without the extra candidates
}

// add makes digit v of cell c an extra candidate; it returns false when
// the BUG cells can no longer lead to a step (several cells, several
// digits, no cell seeing them all).
func (b *bugSearch) add(c, v int) bool {
	if !b.in.has(c) {
		b.in.add(c)
		b.cells = append(b.cells, c)
	}
	b.values[c] |= bit(v)
	b.all |= bit(v)
	b.temp.eliminate(c, v)
	if !b.haveCommon {
		b.common, b.haveCommon = b.geo.peers[c], true
	} else {
		b.common = b.common.and(b.geo.peers[c])
	}
	b.common = b.common.andNot(b.in)
	return !(len(b.cells) > 1 && b.all.count() > 1 && b.common.empty())
}

// collect finds, house by house in Sudoku Explainer's order, each digit
// with other than two places; the one place among them with three or more
// candidates holds an extra candidate. When a single digit is extra
// everywhere, every cell where it is so is added. It returns false when
// no BUG can be made.
func (b *bugSearch) collect() bool {
	g := b.g
	var allExtra cellSet
	extraInit, oneValue, onlyValue := false, true, 0
	for _, h := range b.geo.seHouseOrder() {
		for v := 1; v <= b.geo.n; v++ {
			p := g.housePos(h, v)
			k := p.count()
			if k == 0 || k == 2 {
				continue
			}
			var fresh []int
			for c := p.first(); c >= 0; c = p.next(c) {
				if g.cand[c].count() >= 3 {
					fresh = append(fresh, c)
				}
			}
			if !extraInit {
				allExtra, onlyValue, extraInit = cellSetOf(fresh...), v, true
			} else if oneValue {
				if onlyValue == v {
					allExtra = allExtra.or(cellSetOf(fresh...))
				} else {
					oneValue = false
				}
			}
			if len(fresh) == 1 && !b.add(fresh[0], v) {
				return false
			}
			if len(fresh) == 0 {
				return false
			}
		}
	}
	if oneValue && extraInit && allExtra.count() > len(b.cells) {
		rest := allExtra.andNot(b.in)
		for c := rest.first(); c >= 0; c = rest.next(c) {
			if !b.add(c, onlyValue) {
				return false
			}
		}
	}
	return true
}

// isGrave reports whether every empty cell of g has two candidates and
// every digit two places (or none) in every house.
func (g *Grid) isGrave() bool {
	n := g.geo.n
	for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
		if g.cand[c].count() != 2 {
			return false
		}
	}
	for h := 0; h < 3*n; h++ {
		for v := 1; v <= n; v++ {
			if k := g.housePos(h, v).count(); k != 0 && k != 2 {
				return false
			}
		}
	}
	return true
}

// pattern lists the BUG cells' extra candidates.
func (b *bugSearch) pattern() []Candidate {
	var out []Candidate
	for _, c := range b.cells {
		for m := b.values[c]; m != 0; m &= m - 1 {
			out = append(out, Candidate{c, digitMask(m).first()})
		}
	}
	return sortCandidates(out)
}

// step names the BUG found: BUG+1 for one cell, type 2 for one extra
// digit, types 4 and 3 for extra digits of cells that share a house.
func (b *bugSearch) step() (Step, bool) {
	g, geo := b.g, b.geo
	cells := append([]int(nil), b.cells...)
	switch {
	case len(b.cells) == 1:
		c := b.cells[0]
		var elims []Candidate
		for m := g.cand[c] &^ b.all; m != 0; m &= m - 1 {
			elims = append(elims, Candidate{c, digitMask(m).first()})
		}
		if len(elims) == 0 {
			return Step{}, false
		}
		return Step{
			Technique: "BUG+1", Rating: 5.6, Eliminations: elims, Cells: cells, Pattern: b.pattern(),
			Text: fmt.Sprintf("BUG+1: without %s's extra candidate every cell would have two candidates and every digit two places per house, a grid with two solutions; so %s is %s: %s",
				geo.cellName(c), geo.cellName(c), digitOr(b.all.digits()), geo.elimText(elims)),
		}, true
	case b.all.count() == 1:
		v := b.all.first()
		if elims := g.elimsOf(b.common, v); len(elims) > 0 {
			return Step{
				Technique: "BUG type 2", Rating: 5.7, Eliminations: elims, Cells: cells, Pattern: b.pattern(),
				Text: fmt.Sprintf("BUG type 2: one of %s is %d, or the grid would have two solutions: %s", geo.cellList(cells), v, geo.elimText(elims)),
			}, true
		}
		if len(b.cells) == 2 {
			return g.bug4(b.cells, b.values, b.all)
		}
	case b.haveCommon && !b.common.empty():
		if len(b.cells) == 2 {
			if s, ok := g.bug4(b.cells, b.values, b.all); ok {
				return s, true
			}
		}
		return g.bug3(b.cells, b.all, b.common)
	}
	return Step{}, false
}

// bug3 looks for BUG type 3: the bug cells, standing as one cell with all
// their extra digits, form a naked set with other cells of a house they
// share.
func (g *Grid) bug3(bugCells []int, allBug digitMask, common cellSet) (Step, bool) {
	geo := g.geo
	if allBug.count() < 2 {
		return Step{}, false
	}
	bugs := cellSetOf(bugCells...)
	for degree := 2; degree <= 6; degree++ {
		for _, kind := range [3]int{kindBox, kindRow, kindCol} {
			h := geo.cellHouse[bugCells[0]][kind]
			if !bugs.subsetOf(geo.houseSet[h]) {
				continue
			}
			var others []int
			rc := common.and(geo.houseSet[h])
			for c := rc.first(); c >= 0; c = rc.next(c) {
				if g.cand[c].count() >= 2 {
					others = append(others, c)
				}
			}
			if rc.count() < degree {
				continue
			}
			var step Step
			if combinations(len(others), degree-1, func(idx []int) bool {
				var set digitMask
				var naked cellSet
				for _, i := range idx {
					set |= g.cand[others[i]]
					naked.add(others[i])
				}
				if set.count() != degree || (set|allBug).count() != degree {
					return false
				}
				erasable := rc.andNot(naked).andNot(bugs)
				elims := g.candidatesIn(erasable, set)
				if len(elims) == 0 {
					return false
				}
				step = Step{
					Technique: "BUG type 3", Rating: round1(5.7 + 0.1*float64(degree-1)), Eliminations: elims,
					Cells: append(append([]int(nil), bugCells...), naked.appendTo(nil)...),
					Text: fmt.Sprintf("BUG type 3: one of %s holds %s, which with %s makes a naked set of %s in %s: %s",
						geo.cellList(bugCells), digitOr(allBug.digits()), geo.cellList(naked.appendTo(nil)),
						digitList(set.digits()), geo.houseName(h), geo.elimText(elims)),
				}
				return true
			}) {
				return step, true
			}
		}
	}
	return Step{}, false
}

func (g *Grid) bug4(bugCells []int, bugValues map[int]digitMask, allBug digitMask) (Step, bool) {
	c1, c2 := bugCells[0], bugCells[1]
	shared := g.cand[c1] & g.cand[c2] &^ allBug
	if shared.count() != 1 {
		return Step{}, false
	}
	v := shared.first()
	for _, h := range g.geo.cellHouse[c1] {
		if !g.geo.houseSet[h].has(c2) {
			continue
		}
		var elims []Candidate
		for _, c := range []int{c1, c2} {
			for m := g.cand[c] &^ bugValues[c] &^ bit(v); m != 0; m &= m - 1 {
				elims = append(elims, Candidate{c, digitMask(m).first()})
			}
		}
		if len(elims) == 0 {
			return Step{}, false
		}
		return Step{
			Technique: "BUG type 4", Rating: 5.7, Eliminations: sortCandidates(elims), Cells: []int{c1, c2},
			Text: fmt.Sprintf("BUG type 4: %s and %s in %s: one of them holds its extra digit, the other %d: %s",
				g.geo.cellName(c1), g.geo.cellName(c2), g.geo.houseName(h), v, g.geo.elimText(elims)),
		}, true
	}
	return Step{}, false
}

var (
	techUniqueLoops = Technique{Name: "Unique rectangles and loops", Rating: 4.5, find: findUniqueLoops}
	techBUG         = Technique{Name: "BUG", Rating: 5.6, find: findBUG}
)
