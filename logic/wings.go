package logic

import "fmt"

// Wings: a pivot cell and two pincer cells it sees. XY-wing: pivot {x,y},
// pincers {x,z} and {y,z}: whichever the pivot is, one pincer is z, so z
// leaves every cell that sees both pincers. XYZ-wing: the pivot is {x,y,z}
// and z leaves the cells that see all three. W-wing: two cells {x,y} that
// do not see each other, joined by a strong link on x (the only two places
// of x in a house, one seen by each): one of the two cells is y.

const (
	rateXYWing  = 4.2
	rateXYZWing = 4.4
	rateWWing   = 4.4 // not in Sudoku Explainer; rated like an XYZ-wing, as HoDoKu ranks them together
)

func findXYWing(xyz bool) func(g *Grid) (Step, bool) {
	return func(g *Grid) (Step, bool) {
		geo := g.geo
		pivotCard := 2
		if xyz {
			pivotCard = 3
		}
		for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
			pv := g.cand[c]
			if pv.count() != pivotCard {
				continue
			}
			for _, a := range geo.peerList[c] {
				av := g.cand[a]
				if av.count() != 2 || (pv&^av).count() != 1 {
					continue
				}
				for _, b := range geo.peerList[c] {
					bv := g.cand[b]
					if b == a || bv.count() != 2 {
						continue
					}
					union := pv | av | bv
					inter := pv & av & bv
					if union.count() != 3 || (xyz && inter.count() != 1) || (!xyz && inter != 0) {
						continue
					}
					z := (av & bv).first()
					if z == 0 {
						continue
					}
					victims := geo.peers[a].and(geo.peers[b])
					if xyz {
						victims = victims.and(geo.peers[c])
					}
					victims.remove(c)
					elims := g.elimsOf(victims, z)
					if len(elims) == 0 {
						continue
					}
					name, rating := "XY-wing", rateXYWing
					if xyz {
						name, rating = "XYZ-wing", rateXYZWing
					}
					var cells cellSet
					cells.add(c)
					cells.add(a)
					cells.add(b)
					return Step{
						Technique:    name,
						Rating:       rating,
						Eliminations: elims,
						Cells:        []int{c, a, b},
						Pattern:      g.candidatesIn(cells, union),
						Text: fmt.Sprintf("%s: pivot %s (%s) with pincers %s (%s) and %s (%s): one of them is %d, so %s", name,
							geo.cellName(c), digitList(pv.digits()), geo.cellName(a), digitList(av.digits()),
							geo.cellName(b), digitList(bv.digits()), z, geo.elimText(elims)),
					}, true
				}
			}
		}
		return Step{}, false
	}
}

func findWWing(g *Grid) (Step, bool) {
	geo := g.geo
	var bivalue []int
	for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
		if g.cand[c].count() == 2 {
			bivalue = append(bivalue, c)
		}
	}
	for i, a := range bivalue {
		for _, b := range bivalue[i+1:] {
			if g.cand[a] != g.cand[b] || geo.sees(a, b) {
				continue
			}
			ds := g.cand[a].digits()
			for k, x := range ds {
				y := ds[1-k]
				victims := geo.peers[a].and(geo.peers[b])
				elim := victims.and(g.pos[y-1])
				if elim.empty() {
					continue
				}
				// A strong link on x: a house where x has exactly two places,
				// one seen by a, the other by b.
				for h := 0; h < 3*geo.n; h++ {
					p := g.housePos(h, x)
					if p.count() != 2 {
						continue
					}
					c1 := p.first()
					c2 := p.next(c1)
					for _, pair := range [2][2]int{{c1, c2}, {c2, c1}} {
						ca, cb := pair[0], pair[1]
						if ca == a || cb == b || ca == b || cb == a || !geo.sees(ca, a) || !geo.sees(cb, b) {
							continue
						}
						elims := g.elimsOf(elim, y)
						pat := append(g.candidatesIn(cellSetOf(a, b), g.cand[a]), Candidate{ca, x}, Candidate{cb, x})
						return Step{
							Technique:    "W-wing",
							Rating:       rateWWing,
							Eliminations: elims,
							Cells:        []int{a, b, ca, cb},
							Pattern:      sortCandidates(pat),
							Links: []Link{
								{From: Candidate{a, x}, To: Candidate{ca, x}},
								{From: Candidate{ca, x}, To: Candidate{cb, x}, Strong: true},
								{From: Candidate{cb, x}, To: Candidate{b, x}},
							},
							Text: fmt.Sprintf("W-wing: %s and %s both hold %d and %d, and %d can only go in %s or %s in %s, so one of %s and %s is %d: %s",
								geo.cellName(a), geo.cellName(b), x, y, x, geo.cellName(ca), geo.cellName(cb), geo.houseName(h),
								geo.cellName(a), geo.cellName(b), y, geo.elimText(elims)),
						}, true
					}
				}
			}
		}
	}
	return Step{}, false
}

// cellSetOf makes a cell set of the given cells.
func cellSetOf(cells ...int) cellSet {
	var s cellSet
	for _, c := range cells {
		s.add(c)
	}
	return s
}

var (
	techXYWing  = Technique{Name: "XY-wing", Rating: rateXYWing, find: findXYWing(false)}
	techXYZWing = Technique{Name: "XYZ-wing", Rating: rateXYZWing, find: findXYWing(true)}
	techWWing   = Technique{Name: "W-wing", Rating: rateWWing, find: findWWing}
)
