package logic

import (
	"fmt"
	"sort"
)

// Almost locked sets: k cells of one house holding k+1 digits. ALS-XZ: two
// ALSs whose common digit x is restricted (every place in one sees every
// place in the other) hold x in at most one, so another common digit z
// leaves the cells that see all its places in both; with two restricted
// commons both lock whole. Sudoku Explainer knows it only with a bivalue
// cell as one ALS (XY-, XYZ-, WXYZ- to TUVWXYZ-wings); hints use any two.

// als is an almost locked set.
type als struct {
	cells   cellSet
	digits  digitMask
	house   int
	size    int
	maxCard int // largest number of candidates in one of its cells
}

// alsList returns the ALSs of up to maxSize cells: by size, then house,
// then cells.
func (g *Grid) alsList(maxSize int) []als {
	var out []als
	for k := 1; k <= maxSize; k++ {
		out = append(out, g.alsOfSize(k)...)
	}
	return out
}

// alsOfSize returns the ALSs of exactly k cells, cached per grid state. Each
// set is listed once, under the first house that holds it.
func (g *Grid) alsOfSize(k int) []als {
	st := g.state()
	for len(st.als) <= k {
		st.als = append(st.als, nil)
		st.alsDone = append(st.alsDone, false)
	}
	if st.alsDone[k] {
		return st.als[k]
	}
	var out []als
	if k := len(g.spareALS); k > 0 {
		out = g.spareALS[k-1]
		g.spareALS = g.spareALS[:k-1]
	}
	geo := g.geo
	var cells []int
	for h := 0; h < 3*geo.n; h++ {
		cells = g.houseEmpty(h).appendTo(cells[:0])
		var set cellSet
		var rec func(from, size int, m digitMask, maxCard int)
		rec = func(from, size int, m digitMask, maxCard int) {
			if size == k {
				if m.count() != k+1 {
					return
				}
				if k > 1 {
					if hs := geo.commonHouses(set); len(hs) > 0 && hs[0] != h {
						return // listed under its first house
					}
				}
				out = append(out, als{cells: set, digits: m, house: h, size: k, maxCard: maxCard})
				return
			}
			for i := from; i <= len(cells)-(k-size); i++ {
				c := cells[i]
				nm := m | g.cand[c]
				if nm.count() > k+1 {
					continue
				}
				mc := maxCard
				if x := g.cand[c].count(); x > mc {
					mc = x
				}
				set.add(c)
				rec(i+1, size+1, nm, mc)
				set.remove(c)
			}
		}
		rec(0, 0, 0, 0)
	}
	st.als[k], st.alsDone[k] = out, true
	return out
}

// alsXZ is one ALS-XZ deduction.
type alsXZ struct {
	a, b   als
	x, z   int  // restricted common; eliminated digit (0 when doubly linked)
	double bool // both common digits restricted
	elims  []Candidate
}

// restricted reports whether digit d is a restricted common of a and b:
// both hold it and every place of d in one sees every place in the other.
func (g *Grid) restricted(a, b als, d int) bool {
	if !a.digits.has(d) || !b.digits.has(d) {
		return false
	}
	pa, pb := a.cells.and(g.pos[d-1]), b.cells.and(g.pos[d-1])
	if pa.intersects(pb) {
		return false
	}
	for c := pa.first(); c >= 0; c = pa.next(c) {
		if !pb.subsetOf(g.geo.peers[c]) {
			return false
		}
	}
	return true
}

// alsXZElims works out an ALS-XZ on a and b (cells apart), or ok=false.
func (g *Grid) alsXZElims(a, b als) (alsXZ, bool) {
	if a.cells.intersects(b.cells) {
		return alsXZ{}, false
	}
	common := a.digits & b.digits
	if common.count() < 2 {
		return alsXZ{}, false
	}
	var rcc []int
	for m := common; m != 0; m &= m - 1 {
		if d := digitMask(m).first(); g.restricted(a, b, d) {
			rcc = append(rcc, d)
		}
	}
	if len(rcc) == 0 {
		return alsXZ{}, false
	}
	both := a.cells.or(b.cells)
	var elims []Candidate
	// seeAll returns the cells outside both sets that see every place of d
	// in the given set.
	seeAll := func(s cellSet, d int) cellSet {
		return g.geo.seenByAll(s.and(g.pos[d-1])).andNot(both).and(g.pos[d-1])
	}
	r := alsXZ{a: a, b: b, x: rcc[0]}
	if len(rcc) >= 2 {
		// Doubly linked: every digit of each set is locked in it, and the
		// restricted commons lock across both.
		r.double = true
		for _, s := range []als{a, b} {
			for m := s.digits; m != 0; m &= m - 1 {
				d := digitMask(m).first()
				isRcc := false
				for _, x := range rcc {
					isRcc = isRcc || x == d
				}
				if isRcc {
					continue
				}
				elims = append(elims, g.elimsOf(seeAll(s.cells, d), d)...)
			}
		}
		for _, x := range rcc {
			elims = append(elims, g.elimsOf(seeAll(both, x), x)...)
		}
	} else {
		for m := common &^ bit(r.x); m != 0; m &= m - 1 {
			d := digitMask(m).first()
			e := g.elimsOf(seeAll(both, d), d)
			if len(e) > 0 && r.z == 0 {
				r.z = d
			}
			elims = append(elims, e...)
		}
	}
	if len(elims) == 0 {
		return alsXZ{}, false
	}
	r.elims = sortCandidates(elims)
	return r, true
}

func (g *Grid) alsStep(name string, rating float64, r alsXZ) Step {
	geo := g.geo
	cells := r.a.cells.or(r.b.cells)
	desc := func(s als) string {
		return fmt.Sprintf("%s (%s)", geo.cellList(s.cells.appendTo(nil)), digitList(s.digits.digits()))
	}
	var why string
	if r.double {
		why = fmt.Sprintf("%d and %d are each in only one of them, so both sets are locked", r.x, (r.a.digits & r.b.digits &^ bit(r.x)).first())
	} else {
		why = fmt.Sprintf("%d is in only one of them, so the other is locked and one of them holds %d", r.x, r.z)
	}
	return Step{
		Technique:    name,
		Rating:       rating,
		Eliminations: r.elims,
		Cells:        cells.appendTo(nil),
		Pattern:      g.candidatesIn(cells, r.a.digits|r.b.digits),
		Text:         fmt.Sprintf("%s: %s and %s; %s: %s", name, desc(r.a), desc(r.b), why, geo.elimText(r.elims)),
	}
}

// alsWingNames and their Sudoku Explainer ratings, by ALS size.
var alsWingNames = map[int]string{3: "WXYZ-wing", 4: "VWXYZ-wing", 5: "UVWXYZ-wing", 6: "TUVWXYZ-wing"}

// alsWingRating is Sudoku Explainer's rating of a bivalue cell + k-cell ALS
// wing whose largest ALS cell holds maxCard candidates (tenths).
func alsWingRating(k, maxCard int) int {
	abs := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	switch k {
	case 3:
		return 55 + (1 - abs(3-maxCard))
	case 4:
		return 62 + (2 - abs(3-maxCard))
	case 5:
		return 66
	}
	return 75
}

// findALSWing finds the best ALS-XZ between a bivalue cell and an ALS of k
// cells, as Sudoku Explainer ranks them: lowest rating, then most
// eliminations.
func findALSWing(k int) func(g *Grid) (Step, bool) {
	return func(g *Grid) (Step, bool) {
		geo := g.geo
		var bestA als
		bestY := -1
		bestRating, bestCount := 1<<30, -1
		for _, a := range g.alsOfSize(k) {
			rating := alsWingRating(k, a.maxCard)
			if rating > bestRating {
				continue
			}
			var near cellSet
			for c := a.cells.first(); c >= 0; c = a.cells.next(c) {
				near = near.or(geo.peers[c])
			}
			near = near.andNot(a.cells).and(g.empty)
			for y := near.first(); y >= 0; y = near.next(y) {
				yv := g.cand[y]
				if yv.count() != 2 || yv&^a.digits != 0 {
					continue
				}
				// Restricted commons: every place of the digit in the ALS
				// sees y.
				var rcc digitMask
				for m := yv; m != 0; m &= m - 1 {
					d := digitMask(m).first()
					if a.cells.and(g.pos[d-1]).subsetOf(geo.peers[y]) {
						rcc |= bit(d)
					}
				}
				if rcc == 0 {
					continue
				}
				count := 0
				if rcc.count() == 1 {
					z := (yv &^ rcc).first()
					zc := a.cells.and(g.pos[z-1])
					v := geo.peers[y].and(geo.seenByAll(zc)).and(g.pos[z-1]).andNot(a.cells)
					count = v.count()
				} else {
					b := als{cells: cellSetOf(y), digits: yv, size: 1, maxCard: 2}
					if r, ok := g.alsXZElims(b, a); ok {
						count = len(r.elims)
					}
				}
				if count == 0 {
					continue
				}
				if rating < bestRating || count > bestCount {
					bestA, bestY, bestRating, bestCount = a, y, rating, count
				}
			}
		}
		if bestY < 0 {
			return Step{}, false
		}
		b := als{cells: cellSetOf(bestY), digits: g.cand[bestY], house: geo.cellHouse[bestY][0], size: 1, maxCard: 2}
		r, _ := g.alsXZElims(b, bestA)
		return g.alsStep(alsWingNames[k], float64(bestRating)/10, r), true
	}
}

// findALSXZ finds an ALS-XZ between any two sets of up to 4 cells (the hint
// order's general form), preferring small sets and many eliminations.
func findALSXZ(g *Grid) (Step, bool) {
	list := g.alsList(4)
	type found struct {
		r     alsXZ
		cells int
	}
	var all []found
	for i, a := range list {
		for _, b := range list[i+1:] {
			if a.size+b.size > 6 {
				continue
			}
			if r, ok := g.alsXZElims(a, b); ok {
				all = append(all, found{r, a.size + b.size})
				if len(all) > 200 {
					break
				}
			}
		}
	}
	if len(all) == 0 {
		return Step{}, false
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].cells != all[j].cells {
			return all[i].cells < all[j].cells
		}
		return len(all[i].r.elims) > len(all[j].r.elims)
	})
	r := all[0].r
	rating := 5.5 + 0.1*float64(all[0].cells-3)
	return g.alsStep("ALS-XZ", round1(rating), r), true
}

var (
	techWXYZWing    = Technique{Name: "WXYZ-wing", Rating: 5.5, find: findALSWing(3)}
	techVWXYZWing   = Technique{Name: "VWXYZ-wing", Rating: 6.2, find: findALSWing(4)}
	techUVWXYZWing  = Technique{Name: "UVWXYZ-wing", Rating: 6.6, find: findALSWing(5)}
	techTUVWXYZWing = Technique{Name: "TUVWXYZ-wing", Rating: 7.5, find: findALSWing(6)}
	techALSXZ       = Technique{Name: "ALS-XZ", Rating: 5.5, find: findALSXZ}
)
