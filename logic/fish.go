package logic

import (
	"fmt"
	"strings"
)

// Fish: when a digit's places in k rows (the base) all lie in k columns
// (the cover), the digit fills those columns from the base rows, so the
// rest of the columns lose it (X-wing k=2, swordfish 3, jellyfish 4); the
// same with rows and columns swapped. A finned fish has extra places (fins)
// in the base outside the cover, all in one box: either the fish holds, or a
// fin is true, and both kill the cover cells in the fins' box. It is
// sashimi when a base line keeps fewer than two places inside the cover.

var (
	fishNames  = [...]string{2: "X-wing", 3: "Swordfish", 4: "Jellyfish"}
	fishRates  = [...]float64{2: 3.2, 3: 3.8, 4: 5.2}
	finnedRate = [...]float64{2: 3.4, 3: 4.0, 4: 5.4}
)

// across returns the position of cell c along a line of the other kind:
// its column for a row base, its row for a column base.
func (g *geometry) across(kind, c int) int {
	if kind == kindRow {
		return c % g.n
	}
	return c / g.n
}

func findFish(k int) func(g *Grid) (Step, bool) {
	return func(g *Grid) (Step, bool) {
		n := g.geo.n
		missing := g.missingAll()
		for _, kind := range []int{kindCol, kindRow} {
			coverKind := kindRow
			if kind == kindRow {
				coverKind = kindCol
			}
			// The digit's places along each line, as bits of the other
			// direction.
			masks := make([]uint32, n*n)
			for d := 1; d <= n; d++ {
				p := g.pos[d-1]
				for c := p.first(); c >= 0; c = p.next(c) {
					line := c / n
					if kind == kindCol {
						line = c % n
					}
					masks[(d-1)*n+line] |= 1 << uint(g.geo.across(kind, c))
				}
			}
			var step Step
			if combinations(n, k, func(idx []int) bool {
				for d := 1; d <= n; d++ {
					// As in Sudoku Explainer: the digit must still be
					// missing from at least 2k lines.
					if missing[d-1] < 2*k {
						continue
					}
					var cover uint32 // cover lines as bits
					ok := true
					for _, i := range idx {
						m := masks[(d-1)*n+i]
						if popcount32(m) < 2 {
							ok = false
							break
						}
						cover |= m
					}
					if !ok || popcount32(cover) != k {
						continue
					}
					var base cellSet
					for _, i := range idx {
						base = base.or(g.housePos(kind*n+i, d))
					}
					var coverSet cellSet
					var coverHouses []int
					for j := 0; j < n; j++ {
						if cover&(1<<uint(j)) != 0 {
							coverSet = coverSet.or(g.geo.houseSet[coverKind*n+j])
							coverHouses = append(coverHouses, coverKind*n+j)
						}
					}
					elim := coverSet.and(g.pos[d-1]).andNot(base)
					if elim.empty() {
						continue
					}
					baseHouses := make([]int, k)
					for j, i := range idx {
						baseHouses[j] = kind*n + i
					}
					step = g.fishStep(fishNames[k], fishRates[k], d, base, baseHouses, coverHouses, cellSet{}, elim)
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

func (g *Grid) fishStep(name string, rating float64, d int, base cellSet, baseHouses, coverHouses []int, fins, elim cellSet) Step {
	hn := func(hs []int) string {
		names := make([]string, len(hs))
		for i, h := range hs {
			names[i] = g.geo.houseName(h)
		}
		return joinAnd(names)
	}
	elims := g.elimsOf(elim, d)
	text := fmt.Sprintf("%s on %d: in %s, %d can only go in %s", name, d, hn(baseHouses), d, hn(coverHouses))
	if !fins.empty() {
		text = fmt.Sprintf("%s on %d: in %s, %d can only go in %s or in the fins %s", name, d, hn(baseHouses), d,
			hn(coverHouses), g.geo.cellList(fins.appendTo(nil)))
	}
	return Step{
		Technique:    name,
		Rating:       rating,
		Eliminations: elims,
		Cells:        base.appendTo(nil),
		Pattern:      g.elimsOf(base, d),
		Text:         text + ", so " + g.geo.elimText(elims),
	}
}

// findFinnedFish looks for finned and sashimi fish of size k.
func findFinnedFish(k int) func(g *Grid) (Step, bool) {
	return func(g *Grid) (Step, bool) {
		n := g.geo.n
		for _, kind := range []int{kindRow, kindCol} {
			coverKind := kindCol
			if kind == kindCol {
				coverKind = kindRow
			}
			for d := 1; d <= n; d++ {
				// Base lines: those with the digit in 1..k+2 places (a
				// sashimi line may keep one place inside the cover).
				var lines []int
				for i := 0; i < n; i++ {
					if c := g.housePos(kind*n+i, d).count(); c >= 1 && c <= k+2 {
						lines = append(lines, i)
					}
				}
				var step Step
				if combinations(len(lines), k, func(idx []int) bool {
					var base cellSet
					var used uint32
					for _, i := range idx {
						p := g.housePos(kind*n+lines[i], d)
						base = base.or(p)
						for c := p.first(); c >= 0; c = p.next(c) {
							used |= 1 << uint(g.geo.across(kind, c))
						}
					}
					var acrossList []int
					for j := 0; j < n; j++ {
						if used&(1<<uint(j)) != 0 {
							acrossList = append(acrossList, j)
						}
					}
					if len(acrossList) <= k {
						return false // a basic fish (or less): not finned
					}
					return combinations(len(acrossList), k, func(cidx []int) bool {
						var coverSet cellSet
						coverHouses := make([]int, k)
						for j, ci := range cidx {
							h := coverKind*n + acrossList[ci]
							coverHouses[j] = h
							coverSet = coverSet.or(g.geo.houseSet[h])
						}
						fins := base.andNot(coverSet)
						if fins.empty() {
							return false
						}
						box := g.geo.cellHouse[fins.first()][2]
						if !fins.subsetOf(g.geo.houseSet[box]) {
							return false
						}
						elim := coverSet.and(g.pos[d-1]).andNot(base).and(g.geo.houseSet[box])
						if elim.empty() {
							return false
						}
						// Every base line needs a place in the cover, or the
						// fish would not constrain it.
						sashimi := false
						for _, i := range idx {
							in := g.housePos(kind*n+lines[i], d).and(coverSet).count()
							if in == 0 {
								return false
							}
							if in == 1 {
								sashimi = true
							}
						}
						name := "Finned " + fishNameLower(k)
						if sashimi {
							name = "Sashimi " + fishNameLower(k)
						}
						baseHouses := make([]int, k)
						for j, i := range idx {
							baseHouses[j] = kind*n + lines[i]
						}
						step = g.fishStep(name, finnedRate[k], d, base, baseHouses, coverHouses, fins, elim)
						return true
					})
				}) {
					return step, true
				}
			}
		}
		return Step{}, false
	}
}

// fishNameLower names a fish inside a longer name: "X-wing", "swordfish".
func fishNameLower(k int) string {
	if k == 2 {
		return "X-wing"
	}
	return strings.ToLower(fishNames[k])
}

func popcount32(x uint32) int { return digitMask(x).count() }

var (
	techXWing           = Technique{Name: fishNames[2], Rating: fishRates[2], find: findFish(2)}
	techSwordfish       = Technique{Name: fishNames[3], Rating: fishRates[3], find: findFish(3)}
	techJellyfish       = Technique{Name: fishNames[4], Rating: fishRates[4], find: findFish(4)}
	techFinnedXWing     = Technique{Name: "Finned X-wing", Rating: finnedRate[2], find: findFinnedFish(2)}
	techFinnedSwordfish = Technique{Name: "Finned swordfish", Rating: finnedRate[3], find: findFinnedFish(3)}
	techFinnedJellyfish = Technique{Name: "Finned jellyfish", Rating: finnedRate[4], find: findFinnedFish(4)}
)
