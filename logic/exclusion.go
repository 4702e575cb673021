package logic

import "fmt"

// Aligned exclusion: take two (or three) cells and every combination of
// their candidates. A combination is impossible if it puts one digit twice
// in a house, or if it takes every candidate of a cell that sees all of
// them. A candidate that appears in no possible combination goes. Sudoku
// Explainer rates the pair form 6.2 and the triple form 7.5.

// exclusionCells returns the cells that may take part in an aligned
// exclusion of the given degree and, for each, the cells that may exclude
// combinations (peers with 2..degree candidates). None when a naked single
// is waiting (as Sudoku Explainer skips the technique then).
func (g *Grid) exclusionCells(degree int) ([]int, []cellSet) {
	var cells []int
	ex := make([]cellSet, g.geo.size)
	for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
		if g.cand[c].count() < 2 {
			continue
		}
		var e cellSet
		single := false
		for _, p := range g.geo.peerList[c] {
			if g.value[p] != 0 {
				continue
			}
			k := g.cand[p].count()
			if k == 1 {
				single = true
			} else if k >= 2 && k <= degree {
				e.add(p)
			}
		}
		if !single && !e.empty() {
			cells = append(cells, c)
			ex[c] = e
		}
	}
	return cells, ex
}

// alignedElims works out the exclusions for the base cells with the common
// excluders, returning the removable candidates.
func (g *Grid) alignedElims(base []int, excluders cellSet) []Candidate {
	k := len(base)
	ds := make([][]int, k)
	for i, c := range base {
		ds[i] = g.cand[c].digits()
	}
	allowed := make([]digitMask, k)
	combo := make([]int, k)
	var exList []digitMask
	for c := excluders.first(); c >= 0; c = excluders.next(c) {
		exList = append(exList, g.cand[c])
	}
	var rec func(i int)
	rec = func(i int) {
		if i == k {
			var used digitMask
			for j := 0; j < k; j++ {
				used |= bit(combo[j])
			}
			for _, m := range exList {
				if m&^used == 0 {
					return
				}
			}
			for j := 0; j < k; j++ {
				allowed[j] |= bit(combo[j])
			}
			return
		}
		for _, d := range ds[i] {
			ok := true
			for j := 0; j < i; j++ {
				if combo[j] == d && g.geo.sees(base[j], base[i]) {
					ok = false
					break
				}
			}
			if ok {
				combo[i] = d
				rec(i + 1)
			}
		}
	}
	rec(0)
	var out []Candidate
	for i, c := range base {
		for m := g.cand[c] &^ allowed[i]; m != 0; m &= m - 1 {
			out = append(out, Candidate{c, digitMask(m).first()})
		}
	}
	return out
}

func (g *Grid) alignedStep(base []int, excluders cellSet, elims []Candidate) Step {
	name, rating := "Aligned pair exclusion", 6.2
	if len(base) == 3 {
		name, rating = "Aligned triple exclusion", 7.5
	}
	cells := cellSetOf(base...).or(excluders)
	return Step{
		Technique:    name,
		Rating:       rating,
		Eliminations: sortCandidates(elims),
		Cells:        cells.appendTo(nil),
		Pattern:      g.candidatesIn(cells, ^digitMask(0)),
		Text: fmt.Sprintf("%s: every way to fill %s either repeats a digit in a house or empties one of %s, except ways that avoid these candidates: %s",
			name, g.geo.cellList(base), g.geo.cellList(excluders.appendTo(nil)), g.geo.elimText(elims)),
	}
}

func findAlignedPair(g *Grid) (Step, bool) {
	cells, ex := g.exclusionCells(2)
	for i, a := range cells {
		for _, b := range cells[i+1:] {
			common := ex[a].and(ex[b])
			if common.count() < 2 {
				continue
			}
			if elims := g.alignedElims([]int{a, b}, common); len(elims) > 0 {
				return g.alignedStep([]int{a, b}, common, elims), true
			}
		}
	}
	return Step{}, false
}

func findAlignedTriple(g *Grid) (Step, bool) {
	cells, ex := g.exclusionCells(3)
	var cand cellSet
	for _, c := range cells {
		cand.add(c)
	}
	for i, a := range cells {
		for _, b := range cells[i+1:] {
			if ex[a].and(ex[b]).count() < 2 {
				continue // the third cell can only shrink the common excluders
			}
			twin := ex[a].or(ex[b]).and(cand)
			twin.remove(a)
			twin.remove(b)
			for c := twin.first(); c >= 0; c = twin.next(c) {
				common := ex[a].and(ex[b]).and(ex[c])
				if common.count() < 2 {
					continue
				}
				if elims := g.alignedElims([]int{a, b, c}, common); len(elims) > 0 {
					return g.alignedStep([]int{a, b, c}, common, elims), true
				}
			}
		}
	}
	return Step{}, false
}

var (
	techAlignedPair   = Technique{Name: "Aligned pair exclusion", Rating: 6.2, find: findAlignedPair}
	techAlignedTriple = Technique{Name: "Aligned triple exclusion", Rating: 7.5, find: findAlignedTriple}
)
