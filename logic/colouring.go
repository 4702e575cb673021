package logic

import "fmt"

// Simple colouring: for one digit, join the cells of each house where it has
// two places and colour each group in two alternating colours. Colour wrap:
// two cells of one colour share a house, so that colour is false; colour
// trap: a cell seeing both colours loses the digit. Sudoku Explainer has no
// colouring: these are its X-chains and X-cycles, rated as those.

func findColouring(g *Grid) (Step, bool) {
	geo := g.geo
	n := geo.n
	for d := 1; d <= n; d++ {
		if !g.templateUseful(d) {
			continue // nothing single-digit reasoning could find
		}
		// Conjugate pairs of d.
		adj := map[int][]int{}
		for h := 0; h < 3*n; h++ {
			p := g.housePos(h, d)
			if p.count() == 2 {
				a := p.first()
				b := p.next(a)
				adj[a] = append(adj[a], b)
				adj[b] = append(adj[b], a)
			}
		}
		var done cellSet
		for c := g.pos[d-1].first(); c >= 0; c = g.pos[d-1].next(c) {
			if done.has(c) || len(adj[c]) == 0 {
				continue
			}
			// Colour the group of c.
			var col [2]cellSet
			colour := map[int]int{c: 0}
			queue := []int{c}
			col[0].add(c)
			for len(queue) > 0 {
				x := queue[0]
				queue = queue[1:]
				for _, y := range adj[x] {
					if _, ok := colour[y]; !ok {
						colour[y] = 1 - colour[x]
						col[colour[y]].add(y)
						queue = append(queue, y)
					}
				}
			}
			group := col[0].or(col[1])
			done = done.or(group)
			if group.count() < 4 {
				continue // a lone pair proves nothing
			}
			// Wrap: a colour seeing itself.
			for k := 0; k < 2; k++ {
				for x := col[k].first(); x >= 0; x = col[k].next(x) {
					if g.geo.peers[x].intersects(col[k]) {
						elims := g.elimsOf(col[k], d)
						return g.colourStep(d, col, "Colour wrap", 6.6, elims,
							"two cells of one colour share a house, so that colour is false"), true
					}
				}
			}
			// Trap: outside cells seeing both colours.
			var seen [2]cellSet
			for k := 0; k < 2; k++ {
				for x := col[k].first(); x >= 0; x = col[k].next(x) {
					seen[k] = seen[k].or(geo.peers[x])
				}
			}
			trap := seen[0].and(seen[1]).and(g.pos[d-1]).andNot(group)
			if !trap.empty() {
				return g.colourStep(d, col, "Colour trap", 6.5, g.elimsOf(trap, d),
					"one colour holds the digit, and these cells see both"), true
			}
		}
	}
	return Step{}, false
}

func (g *Grid) colourStep(d int, col [2]cellSet, kind string, rating float64, elims []Candidate, why string) Step {
	group := col[0].or(col[1])
	name := "Simple colouring"
	return Step{
		Technique:    name,
		Rating:       rating,
		Eliminations: elims,
		Cells:        group.appendTo(nil),
		Pattern:      g.elimsOf(group, d),
		Text: fmt.Sprintf("%s (%s) on %d: %s against %s; %s: %s", name, lowerName(kind), d,
			g.geo.cellList(col[0].appendTo(nil)), g.geo.cellList(col[1].appendTo(nil)), why, g.geo.elimText(elims)),
	}
}

var techColouring = Technique{Name: "Simple colouring", Rating: 6.5, find: findColouring}
