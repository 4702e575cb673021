package logic

import "fmt"

// Subsets: k cells of a house that hold only k digits between them (naked
// pair, triple, quad) keep those digits from the house's other cells; k
// digits of a house that fit only in k cells (hidden pair, triple, quad)
// keep those cells for themselves. A house with m empty cells that holds a
// naked set of k also holds a hidden set of m-k, so, as Sudoku Explainer
// does, only the smaller of the two is looked for.

var (
	nakedNames  = [...]string{2: "Naked pair", 3: "Naked triple", 4: "Naked quad"}
	hiddenNames = [...]string{2: "Hidden pair", 3: "Hidden triple", 4: "Hidden quad"}
	nakedRates  = [...]float64{2: 3.0, 3: 3.6, 4: 5.0}
	hiddenRates = [...]float64{2: 3.4, 3: 4.0, 4: 5.4}
	directRates = [...]float64{2: 2.0, 3: 2.5}
	directNames = [...]string{2: "Direct hidden pair", 3: "Direct hidden triple"}
)

// combinations calls fn with every k-subset of 0..n-1 (as increasing
// indexes, in lexicographic order) until fn returns true.
func combinations(n, k int, fn func(idx []int) bool) bool {
	if k > n || k <= 0 {
		return false
	}
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	for {
		if fn(idx) {
			return true
		}
		i := k - 1
		for i >= 0 && idx[i] == n-k+i {
			i--
		}
		if i < 0 {
			return false
		}
		idx[i]++
		for j := i + 1; j < k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

func findNaked(k int) func(g *Grid) (Step, bool) {
	return func(g *Grid) (Step, bool) {
		var cells []int
		for _, h := range g.geo.seHouseOrder() {
			e := g.houseEmpty(h)
			if e.count() < 2*k {
				continue
			}
			cells = cells[:0]
			for c := e.first(); c >= 0; c = e.next(c) {
				if n := g.cand[c].count(); n >= 2 && n <= k {
					cells = append(cells, c)
				}
			}
			var step Step
			if combinations(len(cells), k, func(idx []int) bool {
				var m digitMask
				var set cellSet
				for _, i := range idx {
					m |= g.cand[cells[i]]
					set.add(cells[i])
				}
				if m.count() != k {
					return false
				}
				others := e.andNot(set)
				elims := g.candidatesIn(others, m)
				if len(elims) == 0 {
					return false
				}
				pat := set.appendTo(nil)
				step = Step{
					Technique:    nakedNames[k],
					Rating:       nakedRates[k],
					Eliminations: elims,
					Cells:        pat,
					Pattern:      g.candidatesIn(set, m),
					Text: fmt.Sprintf("%s: in %s, %s hold only %s, so %s", nakedNames[k], g.geo.houseName(h),
						g.geo.cellList(pat), digitList(m.digits()), g.geo.elimText(elims)),
				}
				return true
			}) {
				return step, true
			}
		}
		return Step{}, false
	}
}

// hiddenSets calls fn for every hidden set of k digits in house h (each
// digit in 2..k cells, k cells between them) until fn returns true.
func hiddenSets(g *Grid, h, k int, fn func(digits digitMask, cells cellSet) bool) bool {
	n := g.geo.n
	var ds []int
	for d := 1; d <= n; d++ {
		if c := g.housePos(h, d).count(); c >= 2 && c <= k {
			ds = append(ds, d)
		}
	}
	return combinations(len(ds), k, func(idx []int) bool {
		var set cellSet
		var m digitMask
		for _, i := range idx {
			set = set.or(g.housePos(h, ds[i]))
			m |= bit(ds[i])
		}
		if set.count() != k {
			return false
		}
		return fn(m, set)
	})
}

func findHidden(k int) func(g *Grid) (Step, bool) {
	return func(g *Grid) (Step, bool) {
		full := digitMask(1)<<uint(g.geo.n) - 1
		for _, h := range g.geo.seHouseOrder() {
			if g.houseEmpty(h).count() <= 2*k {
				continue
			}
			var step Step
			if hiddenSets(g, h, k, func(m digitMask, set cellSet) bool {
				elims := g.candidatesIn(set, full&^m)
				if len(elims) == 0 {
					return false
				}
				pat := set.appendTo(nil)
				step = Step{
					Technique:    hiddenNames[k],
					Rating:       hiddenRates[k],
					Eliminations: elims,
					Cells:        pat,
					Pattern:      g.candidatesIn(set, m),
					Text: fmt.Sprintf("%s: in %s, %s can only go in %s, so %s", hiddenNames[k], g.geo.houseName(h),
						digitList(m.digits()), g.geo.cellList(pat), g.geo.elimText(elims)),
				}
				return true
			}) {
				return step, true
			}
		}
		return Step{}, false
	}
}

// findDirectHidden finds a hidden pair or triple that leaves another digit
// one place in the same house, and places that digit.
func findDirectHidden(k int) func(g *Grid) (Step, bool) {
	return func(g *Grid) (Step, bool) {
		n := g.geo.n
		for _, h := range g.geo.seHouseOrder() {
			if g.houseEmpty(h).count() <= k {
				continue
			}
			var step Step
			if hiddenSets(g, h, k, func(m digitMask, set cellSet) bool {
				for d := 1; d <= n; d++ {
					if m.has(d) {
						continue
					}
					p := g.housePos(h, d)
					if p.count() < 2 {
						continue
					}
					rest := p.andNot(set)
					if rest.count() != 1 {
						continue
					}
					c := rest.first()
					pat := set.appendTo(nil)
					step = Step{
						Technique:  directNames[k],
						Rating:     directRates[k],
						Placements: []Candidate{{c, d}},
						Cells:      append(pat, c),
						Pattern:    append(g.candidatesIn(set, m), Candidate{c, d}),
						Text: fmt.Sprintf("%s: in %s, %s can only go in %s, so %d can only go in %s", directNames[k],
							g.geo.houseName(h), digitList(m.digits()), g.geo.cellList(pat), d, g.geo.cellName(c)),
					}
					return true
				}
				return false
			}) {
				return step, true
			}
		}
		return Step{}, false
	}
}

var (
	techNakedPair          = Technique{Name: nakedNames[2], Rating: nakedRates[2], find: findNaked(2)}
	techNakedTriple        = Technique{Name: nakedNames[3], Rating: nakedRates[3], find: findNaked(3)}
	techNakedQuad          = Technique{Name: nakedNames[4], Rating: nakedRates[4], find: findNaked(4)}
	techHiddenPair         = Technique{Name: hiddenNames[2], Rating: hiddenRates[2], find: findHidden(2)}
	techHiddenTriple       = Technique{Name: hiddenNames[3], Rating: hiddenRates[3], find: findHidden(3)}
	techHiddenQuad         = Technique{Name: hiddenNames[4], Rating: hiddenRates[4], find: findHidden(4)}
	techDirectHiddenPair   = Technique{Name: directNames[2], Rating: directRates[2], find: findDirectHidden(2)}
	techDirectHiddenTriple = Technique{Name: directNames[3], Rating: directRates[3], find: findDirectHidden(3)}
)
