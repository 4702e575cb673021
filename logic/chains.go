package logic

import (
	"fmt"
	"sync"
)

// Chains and loops of implications in the grid as it is (Sudoku Explainer's
// "Forcing Chains & Cycles", 6.5 and up): on → off through a cell's other
// candidates (y-links) and the digit's other places in its houses; off → on
// through a bivalue cell or a house with two places (x-links). A chain back
// to its start with the opposite value settles the start (X-chains: x-links
// only; XY- and alternating inference chains: both); a loop with the same
// value makes its weak links strong. Ratings: SE's, plus lengthBonus.

// chainMode selects the kinds of link a static chain may use.
type chainMode struct {
	x, y     bool
	sortKey  int // Sudoku Explainer's tie-break between kinds
	loopBase int // rating of a cycle, tenths
	fcBase   int // rating of a forcing chain, tenths (0: none in this mode)
}

var (
	modeX  = chainMode{x: true, sortKey: 2, loopBase: 65, fcBase: 66}
	modeY  = chainMode{y: true, sortKey: 3, loopBase: 65}
	modeXY = chainMode{x: true, y: true, sortKey: 4, loopBase: 70, fcBase: 70}
)

// staticSearch runs breadth-first searches over the implications of one
// grid state. Its arrays are indexed by potential and reused between
// searches (epoch marks what the current search visited).
type staticSearch struct {
	g      *Grid
	geo    *geometry
	n      int
	mark   []uint32
	epoch  uint32
	depth  []int32
	parent []pot
	order  []pot // visit order
	buf    []pot
}

var staticPools sync.Map // int (potentials) -> *sync.Pool

// getStaticSearch returns a search for g, reusing a pooled one.
func getStaticSearch(g *Grid) (*staticSearch, func()) {
	np := g.geo.size * g.geo.n * 2
	pi, _ := staticPools.LoadOrStore(np, &sync.Pool{})
	pool := pi.(*sync.Pool)
	s, _ := pool.Get().(*staticSearch)
	if s == nil || s.geo != g.geo {
		s = newStaticSearch(g)
	}
	s.g = g
	return s, func() { s.g = nil; pool.Put(s) }
}

func newStaticSearch(g *Grid) *staticSearch {
	np := g.geo.size * g.geo.n * 2
	return &staticSearch{
		g: g, geo: g.geo, n: g.geo.n,
		mark:   make([]uint32, np),
		depth:  make([]int32, np),
		parent: make([]pot, np),
	}
}

// onToOff appends to dst the potentials that become off when p (on) holds,
// in Sudoku Explainer's order: the cell's other candidates (with y-links),
// then the digit's other places in the box, the row, the column.
func onToOff(g *Grid, p pot, y bool, dst []pot) []pot {
	n := g.geo.n
	c, d := p.cell(n), p.digit(n)
	if y {
		for m := g.cand[c] &^ bit(d); m != 0; m &= m - 1 {
			dst = append(dst, mkPot(n, c, digitMask(m).first(), false))
		}
	}
	// One bit test per peer: this runs for every potential of every
	// implication graph and dynamic search.
	pd := &g.pos[d-1]
	for _, x := range g.geo.sePeers[c] {
		if pd.has(x) {
			dst = append(dst, mkPot(n, x, d, false))
		}
	}
	return dst
}

// offToOn appends to dst the potentials that become on when p (off) holds:
// the cell's other candidate if it has two (with y-links), the digit's
// other place in the box, row and column if it has two there (x-links).
func offToOn(g *Grid, p pot, x, y bool, dst []pot) []pot {
	n := g.geo.n
	c, d := p.cell(n), p.digit(n)
	if y && g.cand[c].count() == 2 {
		dst = append(dst, mkPot(n, c, (g.cand[c]&^bit(d)).first(), true))
	}
	if x {
		hs := g.geo.cellHouse[c]
		for _, h := range [3]int{hs[2], hs[0], hs[1]} {
			s := g.geo.houseSet[h].and(g.pos[d-1])
			s.remove(c)
			if s.count() == 1 {
				dst = append(dst, mkPot(n, s.first(), d, true))
			}
		}
	}
	return dst
}

// bfs searches from src with the links of mode, expanding potentials up to
// depth maxDepth. It calls found(parent, child) for every implication it
// follows from an expanded potential (also to potentials already visited),
// in search order; found returns false to stop.
func (s *staticSearch) bfs(src pot, mode chainMode, maxDepth int, found func(par, child pot) bool) {
	ig := s.g.implications(mode)
	s.begin(src)
	for head := 0; head < len(s.order); head++ {
		p := s.order[head]
		if int(s.depth[p]) >= maxDepth {
			continue
		}
		for _, q := range ig.succ(p) {
			if found != nil && !found(p, q) {
				return
			}
			if s.mark[q] != s.epoch {
				s.mark[q] = s.epoch
				s.depth[q] = s.depth[p] + 1
				s.parent[q] = p
				s.order = append(s.order, q)
			}
		}
	}
}

// directBFS searches from src, following the implications of mode in the
// grid as it is (no implication graph: for the few searches on a grid
// that is only looked at once), until it meets target; it returns
// target's parent on the shortest chain, or -1.
func (s *staticSearch) directBFS(src, target pot, mode chainMode) pot {
	g := s.g
	s.begin(src)
	for head := 0; head < len(s.order); head++ {
		p := s.order[head]
		if p.on() {
			s.buf = onToOff(g, p, mode.y, s.buf[:0])
		} else {
			s.buf = offToOn(g, p, mode.x, mode.y, s.buf[:0])
		}
		for _, q := range s.buf {
			if q == target {
				return p
			}
			if s.mark[q] != s.epoch {
				s.mark[q] = s.epoch
				s.depth[q] = s.depth[p] + 1
				s.parent[q] = p
				s.order = append(s.order, q)
			}
		}
	}
	return -1
}

// begin starts a search from src: nothing visited but src.
func (s *staticSearch) begin(src pot) {
	s.epoch++
	if s.epoch == 0 {
		for i := range s.mark {
			s.mark[i] = 0
		}
		s.epoch = 1
	}
	s.mark[src] = s.epoch
	s.depth[src] = 0
	s.parent[src] = -1
	s.order = append(s.order[:0], src)
}

// path returns the chain from the search's source to p (visited).
func (s *staticSearch) path(p pot) []pot {
	out := make([]pot, s.depth[p]+1)
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = p
		p = s.parent[p]
	}
	return out
}

// onPath reports whether q lies on the search path to p.
func (s *staticSearch) onPath(p, q pot) bool {
	for p >= 0 {
		if p == q {
			return true
		}
		p = s.parent[p]
	}
	return false
}

// cycleElims returns what a bidirectional cycle eliminates: candidates
// outside the cycle that see an on potential and an off potential of the
// cycle with their digit.
func cycleElims(g *Grid, cycle []pot) []Candidate {
	n := g.geo.n
	var cells cellSet
	for _, p := range cycle {
		cells.add(p.cell(n))
	}
	// Arrays, not slices: this runs for every loop the searches meet, most
	// of which eliminate nothing, so it should not allocate.
	var forw, back [maxDigits]cellSet
	for _, p := range cycle {
		d := p.digit(n)
		if p.on() {
			forw[d-1] = forw[d-1].or(g.geo.peers[p.cell(n)])
		} else {
			back[d-1] = back[d-1].or(g.geo.peers[p.cell(n)])
		}
	}
	var out []Candidate
	for d := 1; d <= n; d++ {
		e := forw[d-1].and(back[d-1]).and(g.pos[d-1]).andNot(cells)
		out = append(out, g.elimsOf(e, d)...)
	}
	return sortCandidates(out)
}

// chainCandidate is a chain step found by a search, kept until a better
// one shows up.
type chainCandidate struct {
	key   hintKey
	build func() Step
}

// findChainsAndCycles is Sudoku Explainer's "Forcing Chains & Cycles": the
// best (lowest rated, then shortest) cycle or forcing chain over the three
// kinds of link.
func findChainsAndCycles(g *Grid) (Step, bool) {
	return searchStatic(g, []chainMode{modeX, modeY, modeXY}, noHint)
}

// searchStatic searches cycles and forcing chains of the given modes and
// returns the best one rated at most limit.
func searchStatic(g *Grid, modes []chainMode, limit hintKey) (Step, bool) {
	s, release := getStaticSearch(g)
	defer release()
	best := chainCandidate{key: limit}
	n := s.n
	var strong []pot
	for _, mode := range modes {
		for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
			card := g.cand[c].count()
			if card < 2 || (!mode.x && card != 2) {
				continue
			}
			for m := g.cand[c]; m != 0; m &= m - 1 {
				d := digitMask(m).first()
				if !mode.y && !g.templateUseful(d) {
					continue // single-digit chains on d can find nothing
				}
				src := mkPot(n, c, d, true)
				// What could this start lead to at all?
				ig := g.implications(mode)
				strong = offToOnPartners(g, src, mode, strong[:0])
				canLoop := false
				for _, q := range strong {
					canLoop = canLoop || ig.reaches(src, q)
				}
				canOn := mode.fcBase > 0 && ig.reaches(src, src.conj())
				canOff := mode.fcBase > 0 && ig.reaches(src.conj(), src)
				if !canLoop && !canOn && !canOff {
					continue
				}
				maxC := maxComplexity(mode.loopBase, best.key.rating)
				if mode.fcBase > 0 {
					if fc := maxComplexity(mode.fcBase, best.key.rating); fc > maxC {
						maxC = fc
					}
				}
				if maxC < 0 {
					continue
				}
				var fcTarget, fcParent pot = -1, -1
				s.bfs(src, mode, maxC-2, func(par, child pot) bool {
					if child == src.conj() && fcParent < 0 {
						fcTarget, fcParent = child, par
					}
					return true
				})
				// Cycles, in the order Sudoku Explainer meets them.
				if canLoop {
					s.cycles(src, mode, strong, maxC, &best)
				}
				if mode.fcBase > 0 && fcParent >= 0 {
					s.keepForcing(g, mode, fcParent, fcTarget, &best)
				}
				if canOff {
					s.offBackOn(g, src, mode, &best)
				}
			}
		}
	}
	if best.build == nil {
		return Step{}, false
	}
	return best.build(), true
}

// keepForcing keeps in best the forcing chain that reaches par and ends
// in end, when it rates better.
func (s *staticSearch) keepForcing(g *Grid, mode chainMode, par, end pot, best *chainCandidate) {
	cx := int(s.depth[par]) + 2
	key := hintKey{mode.fcBase + lengthBonus(cx), cx, mode.sortKey}
	if key.less(best.key) {
		chain := append(s.path(par), end)
		*best = chainCandidate{key, func() Step { return forcingChainStep(g, mode, chain, key) }}
	}
}

// offBackOn looks for the chain from src off that comes back to src on,
// keeping it in best when it rates better.
func (s *staticSearch) offBackOn(g *Grid, src pot, mode chainMode, best *chainCandidate) {
	maxC := maxComplexity(mode.fcBase, best.key.rating)
	if maxC < 0 {
		return
	}
	var fcParent pot = -1
	s.bfs(src.conj(), mode, maxC-2, func(par, child pot) bool {
		if child == src && fcParent < 0 {
			fcParent = par
			return false
		}
		return true
	})
	if fcParent >= 0 {
		s.keepForcing(g, mode, fcParent, src, best)
	}
}

// offToOnPartners lists the off potentials q whose being off turns src on
// under mode: src's bivalue partner, src's conjugates in its houses.
func offToOnPartners(g *Grid, src pot, mode chainMode, dst []pot) []pot {
	n := g.geo.n
	c, d := src.cell(n), src.digit(n)
	if mode.y && g.cand[c].count() == 2 {
		dst = append(dst, mkPot(n, c, (g.cand[c]&^bit(d)).first(), false))
	}
	if mode.x {
		hs := g.geo.cellHouse[c]
		for _, h := range [3]int{hs[2], hs[0], hs[1]} {
			s := g.geo.houseSet[h].and(g.pos[d-1])
			s.remove(c)
			if s.count() == 1 {
				dst = append(dst, mkPot(n, s.first(), d, false))
			}
		}
	}
	return dst
}

// cycles looks, after a search from src (on), for loops back to src: an on
// potential u at depth >= 2 implies some q off, not on u's path, and q off
// implies src on. The loop's complexity is depth(u)+2.
func (s *staticSearch) cycles(src pot, mode chainMode, strong []pot, maxC int, best *chainCandidate) {
	if len(strong) == 0 {
		return
	}
	for _, u := range s.order {
		if !u.on() || s.depth[u] < 2 {
			continue
		}
		cx := int(s.depth[u]) + 2
		if cx > maxC {
			break // s.order is by depth
		}
		key := hintKey{mode.loopBase + lengthBonus(cx), cx, mode.sortKey}
		if !key.less(best.key) {
			break
		}
		for _, q := range s.g.implications(mode).succ(u) {
			isStrong := false
			for _, t := range strong {
				if t == q {
					isStrong = true
					break
				}
			}
			if !isStrong || s.onPath(u, q) {
				continue
			}
			cycle := append(s.path(u), q)
			elims := cycleElims(s.g, cycle)
			if len(elims) == 0 {
				continue
			}
			g := s.g
			*best = chainCandidate{key, func() Step { return cycleStep(g, mode, cycle, elims, key) }}
			return
		}
	}
}

func cycleName(mode chainMode) string {
	switch {
	case mode.x && mode.y:
		return "Nice loop"
	case mode.x:
		return "X-cycle"
	}
	return "XY-cycle"
}

func cycleStep(g *Grid, mode chainMode, cycle []pot, elims []Candidate, key hintKey) Step {
	n := g.geo.n
	name := cycleName(mode)
	closed := append(append([]pot(nil), cycle...), cycle[0])
	return Step{
		Technique:    name,
		Rating:       float64(key.rating) / 10,
		Eliminations: elims,
		Cells:        chainCells(n, cycle),
		Pattern:      chainPattern(n, cycle),
		Links:        chainLinks(n, closed),
		Text: fmt.Sprintf("%s: %s, and back to the start, so every link holds both ways; %s", name,
			g.geo.chainText(closed), g.geo.elimText(elims)),
	}
}

// chainName names a forcing chain by the links it uses.
func chainName(g *Grid, mode chainMode, chain []pot) string {
	if !mode.y {
		return "X-chain"
	}
	n := g.geo.n
	cellLinks, houseLinks := 0, 0
	for i := 1; i < len(chain); i++ {
		a, b := chain[i-1], chain[i]
		if !a.on() && b.on() {
			if a.cell(n) == b.cell(n) {
				cellLinks++
			} else {
				houseLinks++
			}
		}
	}
	if houseLinks == 0 {
		return "XY-chain"
	}
	return "Alternating inference chain"
}

func forcingChainStep(g *Grid, mode chainMode, chain []pot, key hintKey) Step {
	n := g.geo.n
	src := chain[0]
	c, d := src.cell(n), src.digit(n)
	var elims []Candidate
	var verdict string
	if src.on() {
		elims = []Candidate{{c, d}}
		verdict = fmt.Sprintf("%s cannot be %d", g.geo.cellName(c), d)
	} else {
		for m := g.cand[c] &^ bit(d); m != 0; m &= m - 1 {
			elims = append(elims, Candidate{c, digitMask(m).first()})
		}
		verdict = fmt.Sprintf("%s must be %d", g.geo.cellName(c), d)
	}
	name := chainName(g, mode, chain)
	return Step{
		decides:      !src.on(),
		Technique:    name,
		Rating:       float64(key.rating) / 10,
		Eliminations: elims,
		Cells:        chainCells(n, chain),
		Pattern:      chainPattern(n, chain),
		Links:        chainLinks(n, chain),
		Text:         fmt.Sprintf("%s: if %s, then %s; so %s: %s", name, g.geo.potName(src), g.geo.chainText(chain[1:]), verdict, g.geo.elimText(elims)),
	}
}

// chainCells lists the cells of a chain, each once, in chain order.
func chainCells(n int, chain []pot) []int {
	var seen cellSet
	var out []int
	for _, p := range chain {
		if c := p.cell(n); !seen.has(c) {
			seen.add(c)
			out = append(out, c)
		}
	}
	return out
}

// chainPattern lists the candidates of a chain, each once.
func chainPattern(n int, chain []pot) []Candidate {
	out := make([]Candidate, 0, len(chain))
	for _, p := range chain {
		out = append(out, p.candidate(n))
	}
	return sortCandidates(out)
}

var (
	techChainsAndCycles = Technique{Name: "Forcing chains and cycles", Rating: 6.5, find: findChainsAndCycles}
	techXChains         = Technique{Name: "X-chains and cycles", Rating: 6.5, find: func(g *Grid) (Step, bool) {
		return searchStatic(g, []chainMode{modeX}, noHint)
	}}
	techXYChains = Technique{Name: "XY-chains and alternating inference chains", Rating: 6.5, find: func(g *Grid) (Step, bool) {
		return searchStatic(g, []chainMode{modeY, modeXY}, noHint)
	}}
)
