package logic

import "fmt"

// Intersections (locked candidates): when a digit's places in one house all
// lie where it crosses a second house, the digit goes in that crossing, so
// the rest of the second house loses it. Pointing: a box points along a
// line; claiming: a line claims a box. The direct forms (Sudoku Explainer's
// Direct Pointing and Direct Claiming) are the same pattern seen only when
// it leaves a hidden single, which they place at once.

const (
	namePointing       = "Pointing"
	nameClaiming       = "Claiming"
	nameDirectPointing = "Direct pointing"
	nameDirectClaiming = "Direct claiming"
	ratePointing       = 2.6
	rateClaiming       = 2.8
	rateDirectPointing = 1.7
	rateDirectClaiming = 1.9
)

// lockedPair is one intersection pattern: digit d's places in house base
// all lie in house cover.
type lockedPair struct {
	base, cover, d int
}

// lockedPatterns calls fn for each intersection pattern in Sudoku
// Explainer's order (box→column, box→row, column→box, row→box; then digit,
// base house, cover house) until fn returns true.
func lockedPatterns(g *Grid, fn func(lockedPair) bool) bool {
	n := g.geo.n
	type kinds struct{ base, cover int }
	for _, k := range []kinds{{kindBox, kindCol}, {kindBox, kindRow}, {kindCol, kindBox}, {kindRow, kindBox}} {
		for d := 1; d <= n; d++ {
			for b := k.base * n; b < (k.base+1)*n; b++ {
				p := g.housePos(b, d)
				if p.count() < 2 {
					continue
				}
				for _, c := range g.geo.crossing[b] {
					if c/n != k.cover || !p.subsetOf(g.geo.houseSet[c]) {
						continue
					}
					if fn(lockedPair{b, c, d}) {
						return true
					}
				}
			}
		}
	}
	return false
}

func findLocked(g *Grid) (Step, bool) {
	var step Step
	found := lockedPatterns(g, func(lp lockedPair) bool {
		elim := g.housePos(lp.cover, lp.d).andNot(g.geo.houseSet[lp.base])
		if elim.empty() {
			return false
		}
		step = g.lockedStep(lp, elim)
		return true
	})
	return step, found
}

func (g *Grid) lockedStep(lp lockedPair, elim cellSet) Step {
	n := g.geo.n
	name, rating := namePointing, ratePointing
	if lp.base/n != kindBox {
		name, rating = nameClaiming, rateClaiming
	}
	pat := g.housePos(lp.base, lp.d)
	cells := pat.appendTo(nil)
	elims := g.elimsOf(elim, lp.d)
	return Step{
		Technique:    name,
		Rating:       rating,
		Eliminations: elims,
		Cells:        cells,
		Pattern:      g.elimsOf(pat, lp.d),
		Text: fmt.Sprintf("%s: in %s, %d can only go in %s (%s), so %s", name, g.geo.houseName(lp.base), lp.d,
			g.geo.houseName(lp.cover), g.geo.cellList(cells), g.geo.elimText(elims)),
	}
}

// findDirectLocked finds an intersection that leaves a hidden single in a
// third house of the base's kind that crosses the cover, and places it.
func findDirectLocked(g *Grid) (Step, bool) {
	n := g.geo.n
	var step Step
	found := lockedPatterns(g, func(lp lockedPair) bool {
		coverSet := g.geo.houseSet[lp.cover]
		for _, third := range g.geo.crossing[lp.cover] {
			if third == lp.base || third/n != lp.base/n {
				continue
			}
			p := g.housePos(third, lp.d)
			if p.count() < 2 {
				continue
			}
			rest := p.andNot(coverSet)
			if rest.count() != 1 {
				continue
			}
			c := rest.first()
			name, rating := nameDirectPointing, rateDirectPointing
			if lp.base/n != kindBox {
				name, rating = nameDirectClaiming, rateDirectClaiming
			}
			pat := g.housePos(lp.base, lp.d)
			cells := pat.appendTo(nil)
			step = Step{
				Technique:  name,
				Rating:     rating,
				Placements: []Candidate{{c, lp.d}},
				Cells:      append(cells, c),
				Pattern:    append(g.elimsOf(pat, lp.d), Candidate{c, lp.d}),
				Text: fmt.Sprintf("%s: in %s, %d can only go in %s, so within %s it can only go in %s", name,
					g.geo.houseName(lp.base), lp.d, g.geo.houseName(lp.cover), g.geo.houseName(third), g.geo.cellName(c)),
			}
			return true
		}
		return false
	})
	return step, found
}

var (
	techLocked       = Technique{Name: "Locked candidates", Rating: ratePointing, find: findLocked}
	techDirectLocked = Technique{Name: "Direct locked candidates", Rating: rateDirectPointing, find: findDirectLocked}
)
