package logic

import (
	"fmt"
	"math/bits"
	"sort"
)

// Single-digit patterns: strong links on one digit (a house where it has two
// places, or two groups of places) joined by weak links make a chain, one of
// whose ends holds the digit, so it leaves every cell seeing both ends. Two
// links: skyscraper, 2-string kite, turbot fish; grouped: empty rectangle.
// Ratings: Sudoku Explainer's "N strong links" (4.0, 5.4, 5.8 for 2, 3, 4
// links; +0.1 to +0.3 for mixed kinds and grouped links).

// sdNode is one end of a strong link: the cells that hold the digit there
// (one cell, or a group) plus, for Sudoku Explainer's box groups, the
// crossing cell it counts with the group.
type sdNode struct {
	cells  cellSet
	houses uint64  // houses holding every cell of the node
	seen   cellSet // cells that see every cell of the node
}

func (geo *geometry) node(cells cellSet) sdNode {
	return sdNode{cells: cells, houses: geo.housesOf(cells), seen: geo.seenByAll(cells)}
}

// housesOf returns the houses (as bits) that hold every cell of s.
func (geo *geometry) housesOf(s cellSet) uint64 {
	m := ^uint64(0)
	for c := s.first(); c >= 0; c = s.next(c) {
		hs := geo.cellHouse[c]
		m &= 1<<uint(hs[0]) | 1<<uint(hs[1]) | 1<<uint(hs[2])
	}
	return m
}

// pickHouse chooses among houses (bits) as sharedHouse does: a column, then
// a row, then a box; -1 if none.
func (geo *geometry) pickHouse(m uint64) int {
	n := uint(geo.n)
	for _, kind := range [3]uint{kindCol, kindRow, kindBox} {
		if x := m >> (kind * n) & (1<<n - 1); x != 0 {
			return int(kind*n) + bits.TrailingZeros64(x)
		}
	}
	return -1
}

type sdLink struct {
	house   int
	kind    int // kindBox, kindRow, kindCol
	grouped bool
	a, b    sdNode
	places  cellSet // every place of the digit in the house
}

// strongLinks lists the strong links of digit d, cached per state.
func (g *Grid) strongLinks(d int) []sdLink {
	dc := g.digitInfo(d)
	if dc.linksOK {
		return dc.links
	}
	geo := g.geo
	n := geo.n
	out := dc.links[:0]
	for _, h := range geo.seHouseOrder() {
		p := g.housePos(h, d)
		k := p.count()
		kind := h / n
		switch {
		case k == 2:
			a := p.first()
			b := p.next(a)
			if kind == kindBox && (a/n == b/n || a%n == b%n) {
				continue // a box link on one line: Sudoku Explainer leaves it to the line
			}
			out = append(out, sdLink{house: h, kind: kind, a: geo.node(cellSetOf(a)), b: geo.node(cellSetOf(b)), places: p})
		case k > 2 && k <= 6 && kind == kindBox:
			if l, ok := g.boxGroupLink(h, p); ok {
				out = append(out, l)
			}
		case k > 2 && k <= 6:
			// A line whose places lie in exactly two of its boxes.
			var segs [3]cellSet
			ns := 0
			for _, b := range geo.crossing[h] {
				if s := p.and(geo.houseSet[b]); !s.empty() {
					if ns < len(segs) {
						segs[ns] = s
					}
					ns++
				}
			}
			if ns == 2 {
				out = append(out, sdLink{house: h, kind: kind, grouped: true, a: geo.node(segs[0]), b: geo.node(segs[1]), places: p})
			}
		}
	}
	dc.links, dc.linksOK = out, true
	return out
}

// boxGroupLink finds the grouped strong link of a box whose places p lie on
// one row and one column through a cell (the first such cell in box order):
// the places on the row against those on the column. With only one place
// on one side, that cell alone is one end and the crossing cell joins the
// other side.
func (g *Grid) boxGroupLink(h int, p cellSet) (sdLink, bool) {
	geo := g.geo
	n := geo.n
	for _, heart := range geo.houses[h] {
		row := geo.houseSet[geo.cellHouse[heart][kindRow]].and(geo.houseSet[h])
		col := geo.houseSet[geo.cellHouse[heart][kindCol]].and(geo.houseSet[h])
		if !p.subsetOf(row.or(col)) {
			continue
		}
		blade1 := p.and(row)
		blade1.remove(heart)
		blade2 := p.and(col)
		blade2.remove(heart)
		if blade1.empty() || blade2.empty() {
			return sdLink{}, false
		}
		withHeart := func(s cellSet) cellSet {
			s.add(heart)
			return s
		}
		var a, b cellSet
		switch {
		case blade1.count() == 1:
			a, b = blade1, withHeart(blade2)
		case blade2.count() == 1:
			a, b = withHeart(blade1), blade2
		default:
			a, b = blade1, blade2
			if p.has(heart) {
				a = withHeart(a)
			}
		}
		return sdLink{house: h, kind: kindBox, grouped: true, a: geo.node(a), b: geo.node(b), places: p}, true
	}
	// Places on two rows (or two columns) of the box, the third empty.
	if p.count() >= 4 {
		for _, kind := range []int{kindRow, kindCol} {
			var segs []cellSet
			for _, l := range geo.crossing[h] {
				if l/n != kind {
					continue
				}
				if s := p.and(geo.houseSet[l]); !s.empty() {
					segs = append(segs, s)
				}
			}
			if len(segs) == 2 {
				return sdLink{house: h, kind: kindBox, grouped: true, a: geo.node(segs[0]), b: geo.node(segs[1]), places: p}, true
			}
		}
	}
	return sdLink{}, false
}

// sharedHouse returns a house holding every cell of s (column, row, then
// box, as Sudoku Explainer checks), or -1.
func (geo *geometry) sharedHouse(s cellSet) int {
	c := s.first()
	if c < 0 {
		return -1
	}
	for _, kind := range [3]int{kindCol, kindRow, kindBox} {
		h := geo.cellHouse[c][kind]
		if s.subsetOf(geo.houseSet[h]) {
			return h
		}
	}
	return -1
}

// sdChain is a chain of strong links in order, each with its orientation.
type sdChain struct {
	links  []*sdLink
	flip   []bool // link i runs from b to a
	shared []int  // house joining link i's end to link i+1's start
}

func (c *sdChain) start(i int) cellSet { return c.startNode(i).cells }
func (c *sdChain) end(i int) cellSet   { return c.endNode(i).cells }

func (c *sdChain) startNode(i int) *sdNode {
	if c.flip[i] {
		return &c.links[i].b
	}
	return &c.links[i].a
}

func (c *sdChain) endNode(i int) *sdNode {
	if c.flip[i] {
		return &c.links[i].a
	}
	return &c.links[i].b
}

// sdRating is Sudoku Explainer's rating of a chain of strong links of the
// given kinds (tenths).
func sdRating(links []*sdLink) int { return sdRatingFloor(links, len(links)) }

// sdJoin is a link end that can follow another: link j read in direction
// flip, joined through house h.
type sdJoin struct {
	j    int
	flip bool
	h    int
}

// strongJoins returns, for each link and direction (index 2*i+flip), the
// links whose start shares a house with that end, cached per state.
func (g *Grid) strongJoins(d int, links []sdLink) [][]sdJoin {
	dc := g.digitInfo(d)
	if dc.joinsOK {
		return dc.joins
	}
	geo := g.geo
	out := grow(dc.joins, 2*len(links))
	flat := dc.joinsFlat[:0]
	bounds := grow(dc.joinsBounds, 2*len(links)+1)
	for i := range links {
		l := &links[i]
		for f := 0; f < 2; f++ {
			bounds[2*i+f] = len(flat)
			end := l.b.houses
			if f == 1 {
				end = l.a.houses
			}
			for j := range links {
				m := &links[j]
				if (m.a.houses|m.b.houses)&end == 0 || j == i || m.places.intersects(l.places) {
					continue
				}
				if h := geo.pickHouse(end & m.a.houses); h >= 0 {
					flat = append(flat, sdJoin{j, false, h})
				}
				if h := geo.pickHouse(end & m.b.houses); h >= 0 {
					flat = append(flat, sdJoin{j, true, h})
				}
			}
		}
	}
	bounds[2*len(links)] = len(flat)
	for i := range out {
		out[i] = flat[bounds[i]:bounds[i+1]:bounds[i+1]]
	}
	dc.joins, dc.joinsOK = out, true
	dc.joinsFlat, dc.joinsBounds = flat, bounds
	return out
}

// findStrongLinks finds the best chain of k strong links on one digit:
// lowest rating, then most eliminations.
func findStrongLinks(k int) func(g *Grid) (Step, bool) {
	return func(g *Grid) (Step, bool) {
		var best *sdChain
		var bestElims []Candidate
		bestRating, bestD := 1<<30, 0
		// The best chain of each digit depends on that digit's cells alone
		// (its links and the cells that lose it), so it is kept with the
		// digit's cache. Taking the digits' bests in order with the same
		// rule picks the same chain as one search over every digit.
		for d := 1; d <= g.geo.n; d++ {
			dc := g.digitInfo(d)
			b := &dc.strong[k]
			if !b.done {
				b.chain, b.elims, b.rating = g.bestStrongChain(d, k)
				b.done = true
			}
			if b.chain == nil {
				continue
			}
			if b.rating < bestRating || (b.rating == bestRating && len(b.elims) > len(bestElims)) {
				best, bestElims, bestRating, bestD = b.chain, b.elims, b.rating, d
			}
		}
		if best == nil {
			return Step{}, false
		}
		// The chain and its eliminations stay in the cache: the step gets
		// its own copy of what it might be handed on with.
		return g.sdStep(best, bestD, bestRating, append([]Candidate(nil), bestElims...)), true
	}
}

// bestStrongChain returns digit d's chain of k strong links with the lowest
// rating (tenths) and, among those, the most eliminations (the first found
// on a tie), or nil when no chain eliminates anything.
func (g *Grid) bestStrongChain(d, k int) (*sdChain, []Candidate, int) {
	var best *sdChain
	var bestElims []Candidate
	bestRating := 1 << 30
	links := g.strongLinks(d)
	if len(links) < k {
		return nil, nil, 0
	}
	joins := g.strongJoins(d, links)
	ch := &sdChain{}
	var used cellSet
	var rec func()
	push := func(l *sdLink, flip bool, sh int) {
		ch.links = append(ch.links, l)
		ch.flip = append(ch.flip, flip)
		if len(ch.links) > 1 {
			ch.shared = append(ch.shared, sh)
		}
	}
	pop := func() {
		depth := len(ch.links) - 1
		ch.links = ch.links[:depth]
		ch.flip = ch.flip[:depth]
		if depth > 0 {
			ch.shared = ch.shared[:depth-1]
		}
	}
	var last []int // link index of each level
	rec = func() {
		depth := len(ch.links)
		if sdRatingFloor(ch.links, k) > bestRating {
			return
		}
		if depth == k {
			e := g.sdElimSet(ch, d)
			if e.empty() {
				return
			}
			r := sdRating(ch.links)
			if r < bestRating || (r == bestRating && e.count() > len(bestElims)) {
				elims := g.elimsOf(e, d)
				cp := &sdChain{
					links:  append([]*sdLink(nil), ch.links...),
					flip:   append([]bool(nil), ch.flip...),
					shared: append([]int(nil), ch.shared...),
				}
				best, bestElims, bestRating = cp, elims, r
			}
			return
		}
		f := 0
		if ch.flip[depth-1] {
			f = 1
		}
		for _, jn := range joins[2*last[depth-1]+f] {
			l := &links[jn.j]
			if l.places.intersects(used) {
				continue
			}
			push(l, jn.flip, jn.h)
			last = append(last, jn.j)
			prev := used
			used = used.or(l.places)
			rec()
			used = prev
			last = last[:len(last)-1]
			pop()
		}
	}
	for i := range links {
		l := &links[i]
		for _, flip := range []bool{false, true} {
			push(l, flip, -1)
			last = append(last[:0], i)
			used = l.places
			rec()
			pop()
		}
	}
	return best, bestElims, bestRating
}

// sdRatingFloor is the rating of a chain of k strong links whose kinds
// are those of links (tenths): the lowest a chain starting with links can
// reach, as more links only add kinds.
func sdRatingFloor(links []*sdLink, k int) int {
	if len(links) == 0 {
		return 0
	}
	base := [...]int{2: 40, 3: 54, 4: 58}[k]
	box, rows, cols, grouped := false, false, false, false
	for _, l := range links {
		grouped = grouped || l.grouped
		switch l.kind {
		case kindBox:
			box = true
		case kindRow:
			rows = true
		case kindCol:
			cols = true
		}
	}
	both := rows && cols
	switch {
	case grouped:
		return base + 3
	case !box && !both:
		return base
	case box && both:
		return base + 2
	}
	return base + 1
}

func (g *Grid) sdElimSet(ch *sdChain, d int) cellSet {
	geo := g.geo
	k := len(ch.links)
	start, end := ch.startNode(0), ch.endNode(k-1)
	var base cellSet
	for _, l := range ch.links {
		base = base.or(geo.houseSet[l.house])
	}
	victims := start.seen.and(end.seen).andNot(base)
	if start.houses&end.houses == 0 {
		for _, h := range ch.shared {
			victims = victims.andNot(geo.houseSet[h])
		}
	} else {
		for i := 0; i+1 < k; i++ {
			victims = victims.or(ch.endNode(i).seen.and(ch.startNode(i + 1).seen).andNot(base))
		}
	}
	return victims.and(g.pos[d-1])
}

func sdName(ch *sdChain, ring bool) string {
	k := len(ch.links)
	grouped := false
	box, rows, cols := false, false, false
	for _, l := range ch.links {
		grouped = grouped || l.grouped
		switch l.kind {
		case kindBox:
			box = true
		case kindRow:
			rows = true
		case kindCol:
			cols = true
		}
	}
	var name string
	switch {
	case ring:
		name = "X-loop"
	case k == 2 && box && grouped:
		return "Empty rectangle"
	case k == 2 && !box && !(rows && cols):
		name = "Skyscraper"
	case k == 2 && !box:
		name = "2-string kite"
	case k == 2:
		name = "Turbot fish"
	default:
		name = fmt.Sprintf("%d-link turbot chain", k)
	}
	if grouped {
		return "Grouped " + lowerName(name)
	}
	return name
}

func lowerName(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' || (len(s) > 1 && s[1] == '-') {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

func (g *Grid) sdStep(ch *sdChain, d, rating int, elims []Candidate) Step {
	geo := g.geo
	k := len(ch.links)
	ring := geo.sharedHouse(ch.start(0).or(ch.end(k-1))) >= 0
	name := sdName(ch, ring)
	var cells cellSet
	var parts []string
	var links []Link
	node := func(s cellSet) string {
		if s.count() == 1 {
			return geo.cellName(s.first())
		}
		return "(" + geo.cellList(s.appendTo(nil)) + ")"
	}
	for i, l := range ch.links {
		cells = cells.or(l.places)
		parts = append(parts, fmt.Sprintf("%s=%s in %s", node(ch.start(i)), node(ch.end(i)), geo.houseName(l.house)))
		a, b := ch.start(i).first(), ch.end(i).first()
		links = append(links, Link{From: Candidate{a, d}, To: Candidate{b, d}, Strong: true})
		if i+1 < k {
			links = append(links, Link{From: Candidate{b, d}, To: Candidate{ch.start(i + 1).first(), d}})
		}
	}
	cl := cells.appendTo(nil)
	sort.Ints(cl)
	return Step{
		Technique:    name,
		Rating:       float64(rating) / 10,
		Eliminations: elims,
		Cells:        cl,
		Pattern:      g.elimsOf(cells, d),
		Links:        links,
		Text: fmt.Sprintf("%s on %d: strong links %s; one end of the chain holds %d, so %s", name, d,
			joinAnd(parts), d, geo.elimText(elims)),
	}
}

var (
	techStrongLinks2 = Technique{Name: "Skyscraper, kite, turbot fish", Rating: 4.0, find: findStrongLinks(2)}
	techStrongLinks3 = Technique{Name: "Three strong links", Rating: 5.4, find: findStrongLinks(3)}
	techStrongLinks4 = Technique{Name: "Four strong links", Rating: 5.8, find: findStrongLinks(4)}
)
