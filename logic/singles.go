package logic

import "fmt"

// Singles: a digit that has one place left in a house (hidden single; the
// house's last empty cell is a full house) and a cell with one candidate
// left (naked single).

// SE ratings of the singles.
const (
	rateFullHouse    = 1.0
	rateHiddenBox    = 1.2
	rateHiddenLine   = 1.5
	rateNakedSingle  = 2.3
	nameFullHouse    = "Full house"
	nameHiddenSingle = "Hidden single"
	nameNakedSingle  = "Naked single"
)

// seHouseOrder lists houses in Sudoku Explainer's order: boxes, then
// columns, then rows.
func (g *geometry) seHouseOrder() []int { return g.seOrder }

func (g *geometry) buildSEOrder() []int {
	n := g.n
	out := make([]int, 0, 3*n)
	for h := kindBox * n; h < 3*n; h++ {
		out = append(out, h)
	}
	for h := kindCol * n; h < 2*n; h++ {
		out = append(out, h)
	}
	for h := 0; h < n; h++ {
		out = append(out, h)
	}
	return out
}

func findFullHouse(g *Grid) (Step, bool) {
	for _, h := range g.geo.seHouseOrder() {
		e := g.houseEmpty(h)
		if e.count() != 1 {
			continue
		}
		c := e.first()
		if g.cand[c].count() != 1 {
			continue // broken grid: let other techniques (or none) speak
		}
		d := g.cand[c].first()
		return Step{
			Technique:  nameFullHouse,
			Rating:     rateFullHouse,
			Placements: []Candidate{{c, d}},
			Cells:      []int{c},
			Pattern:    []Candidate{{c, d}},
			Text:       fmt.Sprintf("Full house: %s is the last empty cell in %s, so it is %d", g.geo.cellName(c), g.geo.houseName(h), d),
		}, true
	}
	return Step{}, false
}

func findHiddenSingle(g *Grid) (Step, bool) {
	n := g.geo.n
	for _, h := range g.geo.seHouseOrder() {
		e := g.houseEmpty(h)
		if e.count() <= 1 {
			continue // full house (or nothing to do)
		}
		for d := 1; d <= n; d++ {
			p := g.housePos(h, d)
			if p.count() != 1 {
				continue
			}
			c := p.first()
			rating := rateHiddenLine
			if h/n == kindBox {
				rating = rateHiddenBox
			}
			return Step{
				Technique:  nameHiddenSingle,
				Rating:     rating,
				Placements: []Candidate{{c, d}},
				Cells:      []int{c},
				Pattern:    []Candidate{{c, d}},
				Text:       fmt.Sprintf("Hidden single: %d can only go in %s within %s", d, g.geo.cellName(c), g.geo.houseName(h)),
			}, true
		}
	}
	return Step{}, false
}

func findNakedSingle(g *Grid) (Step, bool) {
	for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
		if g.cand[c].count() == 1 {
			d := g.cand[c].first()
			return Step{
				Technique:  nameNakedSingle,
				Rating:     rateNakedSingle,
				Placements: []Candidate{{c, d}},
				Cells:      []int{c},
				Pattern:    []Candidate{{c, d}},
				Text:       fmt.Sprintf("Naked single: %d is the only candidate left in %s", d, g.geo.cellName(c)),
			}, true
		}
	}
	return Step{}, false
}

var (
	techFullHouse    = Technique{Name: nameFullHouse, Rating: rateFullHouse, find: findFullHouse}
	techHiddenSingle = Technique{Name: nameHiddenSingle, Rating: rateHiddenBox, find: findHiddenSingle}
	techNakedSingle  = Technique{Name: nameNakedSingle, Rating: rateNakedSingle, find: findNakedSingle}
)
