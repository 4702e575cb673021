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
// mode, cached per state.
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
	ig := buildImplGraph(g, mode)
	st.impl[key] = ig
	return ig
}

func buildImplGraph(g *Grid, mode chainMode) *implGraph {
	n := g.geo.n
	ig := &implGraph{local: make([]int32, g.geo.size*n)}
	for i := range ig.local {
		ig.local[i] = -1
	}
	for c := g.empty.first(); c >= 0; c = g.empty.next(c) {
		for m := g.cand[c]; m != 0; m &= m - 1 {
			ci := c*n + digitMask(m).first() - 1
			ig.local[ci] = int32(len(ig.cands))
			ig.cands = append(ig.cands, int32(ci))
		}
	}
	nv := 2 * len(ig.cands)
	ig.words = (nv + 63) / 64
	// Adjacency in compressed rows.
	start := make([]int32, nv+1)
	var adj []int32
	var buf []pot
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
	start[nv] = int32(len(adj))
	ig.start = start
	ig.adj = make([]pot, len(adj))
	for i, l := range adj {
		ig.adj[i] = pot(ig.cands[l/2])*2 + pot(l&1)
	}
	// Tarjan's algorithm, iteratively. Components come out in reverse
	// topological order: every component's successors are finished first.
	ig.comp = make([]int32, nv)
	index := make([]int32, nv)
	low := make([]int32, nv)
	onStack := make([]bool, nv)
	for i := range index {
		index[i] = -1
	}
	var stack, call []int32
	var edgePos []int32
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
	// Closure over the condensation, successors before predecessors.
	members := make([][]int32, ncomp)
	for v := 0; v < nv; v++ {
		members[ig.comp[v]] = append(members[ig.comp[v]], int32(v))
	}
	ig.reach = make([]uint64, int(ncomp)*ig.words)
	ig.cyc = make([]bool, ncomp)
	for k := int32(0); k < ncomp; k++ {
		r := ig.reach[int(k)*ig.words : int(k+1)*ig.words]
		if len(members[k]) > 1 {
			ig.cyc[k] = true
		}
		for _, v := range members[k] {
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
	return ig
}
