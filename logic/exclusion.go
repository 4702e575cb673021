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
	cells, ex, _ := g.exclusionCellsSingles(degree)
	return cells, ex
}

// exclusionCellsSingles is exclusionCells that also says whether a cell was
// left out because a naked single waits among its peers.
func (g *Grid) exclusionCellsSingles(degree int) ([]int, []cellSet, bool) {
	skipped := false
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
		if single {
			skipped = true
		}
		if !single && !e.empty() {
			cells = append(cells, c)
			ex[c] = e
		}
	}
	return cells, ex, skipped
}

// emptiableExcluders returns the candidates of the excluders (at most 32)
// whose candidates all lie among the base cells': only those can ever be
// emptied. It also returns how many there are and their union.
func (g *Grid) emptiableExcluders(base []int, excluders cellSet) (ex [32]digitMask, ne int, exUnion digitMask) {
	var union digitMask
	for _, c := range base {
		union |= g.cand[c]
	}
	for c := excluders.first(); c >= 0 && ne < len(ex); c = excluders.next(c) {
		if g.cand[c]&^union == 0 {
			ex[ne] = g.cand[c]
			exUnion |= ex[ne]
			ne++
		}
	}
	return ex, ne, exUnion
}

// alignedElims works out the exclusions for two or three base cells with
// the common excluders, returning the removable candidates.
func (g *Grid) alignedElims(base []int, excluders cellSet) []Candidate {
	k := len(base)
	ex, ne, exUnion := g.emptiableExcluders(base, excluders)
	a, b := base[0], base[1]
	sab := g.geo.sees(a, b)
	if ne == 0 && !sab && (k == 2 || (!g.geo.sees(a, base[2]) && !g.geo.sees(b, base[2]))) {
		return nil // every combination is allowed
	}
	// A quick proof that nothing goes: a value is surely allowed when the
	// other cells can take values no excluder holds (no excluder can then
	// be emptied) without repeating a digit in a house.
	if allAllowedQuick(g, base, exUnion) {
		return nil
	}
	excluded := func(used digitMask) bool {
		for i := 0; i < ne; i++ {
			if ex[i]&^used == 0 {
				return true
			}
		}
		return false
	}
	var allowed [3]digitMask
	full := [3]digitMask{g.cand[a], g.cand[b]}
	if k == 3 {
		full[2] = g.cand[base[2]]
	}
	done := func() bool { return allowed == full }
	for ma := g.cand[a]; ma != 0 && !done(); ma &= ma - 1 {
		da := digitMask(ma).first()
		for mb := g.cand[b]; mb != 0; mb &= mb - 1 {
			db := digitMask(mb).first()
			if da == db && sab {
				continue
			}
			if k == 2 {
				if !excluded(bit(da) | bit(db)) {
					allowed[0] |= bit(da)
					allowed[1] |= bit(db)
				}
				continue
			}
			c := base[2]
			if allowed[0].has(da) && allowed[1].has(db) && allowed[2] == full[2] {
				continue // nothing new to learn from this pair
			}
			for mc := g.cand[c]; mc != 0; mc &= mc - 1 {
				dc := digitMask(mc).first()
				if (dc == da && g.geo.sees(a, c)) || (dc == db && g.geo.sees(b, c)) {
					continue
				}
				if !excluded(bit(da) | bit(db) | bit(dc)) {
					allowed[0] |= bit(da)
					allowed[1] |= bit(db)
					allowed[2] |= bit(dc)
				}
			}
		}
	}
	if done() {
		return nil
	}
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

// findAlignedTriple tries every triple of cells with at least two common
// excluders. It is the slowest technique below the chains and rarely fires,
// so it remembers a grid state (g.ate) in which it found nothing at all: a
// triple whose cells and common excluders still hold the candidates they
// held then must still find nothing (the outcome depends on those
// candidates alone, and excluders that have since dropped out can only
// allow more), and is skipped.
func findAlignedTriple(g *Grid) (Step, bool) {
	cells, ex, skipped := g.exclusionCellsSingles(3)
	var changed cellSet
	cached := g.ate != nil
	if cached {
		for c, m := range g.cand {
			if m != g.ate[c] {
				changed.add(c)
			}
		}
	}
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
				if cached && !changed.has(a) && !changed.has(b) && !changed.has(c) && common.and(changed).empty() {
					continue
				}
				if elims := g.alignedElims([]int{a, b, c}, common); len(elims) > 0 {
					return g.alignedStep([]int{a, b, c}, common, elims), true
				}
			}
		}
	}
	// Nothing anywhere: remember this state, unless a cell sat out because
	// of a waiting naked single (its triples were not tried).
	if !skipped && !g.stopped() {
		g.ate = append(g.ate[:0], g.cand...)
	}
	return Step{}, false
}

var (
	techAlignedPair   = Technique{Name: "Aligned pair exclusion", Rating: 6.2, find: findAlignedPair}
	techAlignedTriple = Technique{Name: "Aligned triple exclusion", Rating: 7.5, find: findAlignedTriple}
)

// allAllowedQuick reports, without enumerating combinations, whether every
// candidate of every base cell has a combination no excluder can block:
// the other cells take values outside exUnion (the excluders' candidates),
// distinct where the cells share a house.
func allAllowedQuick(g *Grid, base []int, exUnion digitMask) bool {
	k := len(base)
	for i := 0; i < k; i++ {
		others := make([]int, 0, 2)
		for j := 0; j < k; j++ {
			if j != i {
				others = append(others, base[j])
			}
		}
		a := base[i]
		for m := g.cand[a]; m != 0; m &= m - 1 {
			va := digitMask(m).first()
			free := func(c int) digitMask {
				f := g.cand[c] &^ exUnion
				if g.geo.sees(a, c) {
					f &^= bit(va)
				}
				return f
			}
			if k == 2 {
				if free(others[0]) == 0 {
					return false
				}
				continue
			}
			fb, fc := free(others[0]), free(others[1])
			if fb == 0 || fc == 0 {
				return false
			}
			if g.geo.sees(others[0], others[1]) && fb == fc && fb.count() == 1 {
				return false
			}
		}
	}
	return true
}
