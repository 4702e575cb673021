package logic

// The static implication graph of one grid state and its transitive
// closure: for every potential, the set of potentials it implies through
// any chain. Chain searches use it as a filter: a start that cannot reach
// what a step needs is skipped before the (exact, order-following) search
// runs. Computed once per state and kind of link, with Tarjan's strongly
// connected components and bit sets over the components' condensation.

type implGraph struct {
	cands []int32  // candidate index (cell*n+d-1) of each local candidate
	local []int32  // candidate index -> local index, -1 if not a candidate
	words int      // words of a potential set
	comp  []int32  // local potential -> component
	reach []uint64 // per component: potentials reachable (words each), itself included
	cyc   []bool   // per component: lies on a cycle (size > 1 or a self loop)
	// The implications themselves, in Sudoku Explainer's order, by local
	// potential: succ(lp) = adj[start[lp]:start[lp+1]] as global potentials.
	start []int32
	adj   []pot
}

// succ returns what p implies directly (p must be a potential of the grid).
func (ig *implGraph) succ(p pot) []pot {
	l := ig.lp(p)
	return ig.adj[ig.start[l]:ig.start[l+1]]
}

// lp is a local potential: local candidate*2 + on.
func (ig *implGraph) lp(p pot) int32 {
	l := ig.local[p.cand()]
	if l < 0 {
		return -1
	}
	return l*2 + int32(p&1)
}

// reaches reports whether from implies to (both existing potentials).
func (ig *implGraph) reaches(from, to pot) bool {
	a, b := ig.lp(from), ig.lp(to)
	if a < 0 || b < 0 {
		return false
	}
	r := ig.reach[int(ig.comp[a])*ig.words:]
	return r[b>>6]&(1<<uint(b&63)) != 0
}

// reachSet returns the potentials from implies (a view, do not change it).
func (ig *implGraph) reachSet(from pot) []uint64 {
	a := ig.lp(from)
	if a < 0 {
		return nil
	}
	return ig.reach[int(ig.comp[a])*ig.words : int(ig.comp[a]+1)*ig.words]
}

// implications returns the closure of the static graph with the links of
// mode, cached per state. The graph is valid until g changes: its memory
// is then reused for the next state's graphs.
func (g *Grid) implications(mode chainMode) *implGraph {
	st := g.state()
	key := 0
	if mode.x {
		key |= 1
	}
	if mode.y {
		key |= 2
	}
	if st.impl[key] != nil {
		return st.impl[key]
	}
	var ig *implGraph
	if k := len(g.spareImpl); k > 0 {
		ig = g.spareImpl[k-1]
		g.spareImpl = g.spareImpl[:k-1]
	} else {
		ig = &implGraph{}
	}
	if g.implBuf == nil {
		g.implBuf = &implScratch{}
	}
	buildImplGraph(g, mode, ig, g.implBuf)
	st.impl[key] = ig
	return ig
}

// implScratch is the working memory of buildImplGraph, kept on the Grid:
// rating builds a graph for most states of a hard puzzle, and allocating
// it every time made the garbage collector a good part of the cost.
type implScratch struct {
	adj                     []int32 // edges by local potential
	buf                     []pot
	index, low              []int32
	onStack                 []bool
	stack, call, edgePos    []int32
	memberStart, memberList []int32 // potentials of each component
}

// grow returns s with length n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// numberCandidates numbers g's candidates (ig.cands, and ig.local from a
// candidate to its number).
func (ig *implGraph) numberCandidates(g *Grid) {
	n := g.geo.n
	ig.local = grow(ig.local, g.geo.size*n)
	for i := range ig.local {
		ig.local[i] = -1
	}
	ig.cands = ig.cands[:0]
	for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
		for m := g.cand[c]; m != 0; m &= m - 1 {
			ci := c*n + digitMask(m).first() - 1
			ig.local[ci] = int32(len(ig.cands))
			ig.cands = append(ig.cands, int32(ci))
		}
	}
}

// link fills the adjacency of the potentials (each candidate on and off)
// in compressed rows: ig.start and ig.adj, and returns it by local number
// (sc.adj) for the closure.
func (ig *implGraph) link(g *Grid, mode chainMode, sc *implScratch) []int32 {
	nv := 2 * len(ig.cands)
	start := grow(ig.start, nv+1)
	adj := sc.adj[:0]
	buf := sc.buf
	for v := 0; v < nv; v++ {
		start[v] = int32(len(adj))
		p := pot(ig.cands[v/2])*2 + pot(v&1)
		if p.on() {
			buf = onToOff(g, p, mode.y, buf[:0])
		} else {
			buf = offToOn(g, p, mode.x, mode.y, buf[:0])
		}
		for _, q := range buf {
			adj = append(adj, ig.lp(q))
		}
	}
	sc.adj, sc.buf = adj, buf
	start[nv] = int32(len(adj))
	ig.start = start
	ig.adj = grow(ig.adj, len(adj))
	for i, l := range adj {
		ig.adj[i] = pot(ig.cands[l/2])*2 + pot(l&1)
	}
	return adj
}

// buildImplGraph fills ig (whose slices it reuses) with the graph of g's
// implications under mode and its closure.
func buildImplGraph(g *Grid, mode chainMode, ig *implGraph, sc *implScratch) {
	ig.numberCandidates(g)
	nv := 2 * len(ig.cands)
	ig.words = (nv + 63) / 64
	adj := ig.link(g, mode, sc)
	start := ig.start
	// Tarjan's algorithm, iteratively. Components come out in reverse
	// topological order: every component's successors are finished first.
	ig.comp = grow(ig.comp, nv)
	index := grow(sc.index, nv)
	low := grow(sc.low, nv)
	onStack := grow(sc.onStack, nv)
	sc.index, sc.low, sc.onStack = index, low, onStack
	for i := range index {
		index[i] = -1
		onStack[i] = false
	}
	stack, call, edgePos := sc.stack[:0], sc.call[:0], sc.edgePos[:0]
	next := int32(0)
	ncomp := int32(0)
	for root := 0; root < nv; root++ {
		if index[root] >= 0 {
			continue
		}
		call = append(call[:0], int32(root))
		edgePos = append(edgePos[:0], start[root])
		index[root], low[root] = next, next
		next++
		stack = append(stack, int32(root))
		onStack[root] = true
		for len(call) > 0 {
			v := call[len(call)-1]
			ep := edgePos[len(edgePos)-1]
			if ep < start[v+1] {
				edgePos[len(edgePos)-1]++
				w := adj[ep]
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, w)
					edgePos = append(edgePos, start[w])
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			call = call[:len(call)-1]
			edgePos = edgePos[:len(edgePos)-1]
			if len(call) > 0 {
				u := call[len(call)-1]
				if low[v] < low[u] {
					low[u] = low[v]
				}
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					ig.comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
		}
	}
	sc.stack, sc.call, sc.edgePos = stack, call, edgePos
	// The members of each component, in increasing order (a counting sort).
	ms := grow(sc.memberStart, int(ncomp)+1)
	ml := grow(sc.memberList, nv)
	sc.memberStart, sc.memberList = ms, ml
	for i := range ms {
		ms[i] = 0
	}
	for v := 0; v < nv; v++ {
		ms[ig.comp[v]+1]++
	}
	for k := int32(0); k < ncomp; k++ {
		ms[k+1] += ms[k]
	}
	fill := index // Tarjan is done with index: reuse it as fill positions
	copy(fill, ms[:ncomp])
	for v := 0; v < nv; v++ {
		k := ig.comp[v]
		ml[fill[k]] = int32(v)
		fill[k]++
	}
	// Closure over the condensation, successors before predecessors.
	ig.reach = grow(ig.reach, int(ncomp)*ig.words)
	for i := range ig.reach {
		ig.reach[i] = 0
	}
	ig.cyc = grow(ig.cyc, int(ncomp))
	for k := int32(0); k < ncomp; k++ {
		r := ig.reach[int(k)*ig.words : int(k+1)*ig.words]
		members := ml[ms[k]:ms[k+1]]
		ig.cyc[k] = len(members) > 1
		for _, v := range members {
			r[v>>6] |= 1 << uint(v&63)
			for e := start[v]; e < start[v+1]; e++ {
				w := adj[e]
				cw := ig.comp[w]
				if cw == k {
					ig.cyc[k] = true
					continue
				}
				rw := ig.reach[int(cw)*ig.words : int(cw+1)*ig.words]
				for i := range r {
					r[i] |= rw[i]
				}
			}
		}
	}
}
