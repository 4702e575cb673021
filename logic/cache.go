package logic

// stateCache holds what several techniques compute from one grid state, so
// that it is computed once per state: it is thrown away as soon as the grid
// changes (the grid's version moves on).
type stateCache struct {
	version uint64
	als     [][]als // almost locked sets by size
	alsDone []bool
	impl    [4]*implGraph // static implication closures by kind of link (x=1, y=2)
	// fcFinal: finished dynamic forcing-chain closures of levels 1 and 2
	// by source, which the higher levels continue (forcing.go).
	fcFinal [3]map[pot]*closure
}

// state returns the cache of g's current state, resetting it if g changed.
func (g *Grid) state() *stateCache {
	if g.cache == nil || g.cache.version != g.version {
		if g.cache != nil {
			// The old state's implication graphs and ALS lists are
			// dead: keep their memory for the new state's.
			for _, ig := range g.cache.impl {
				if ig != nil {
					g.spareImpl = append(g.spareImpl, ig)
				}
			}
			for _, a := range g.cache.als {
				if cap(a) > 0 {
					g.spareALS = append(g.spareALS, a[:0])
				}
			}
		}
		g.cache = &stateCache{version: g.version}
	}
	return g.cache
}

// digitCache holds what depends only on one digit's candidate cells (its
// strong links and their joins, its templates). It outlives grid states:
// it stays valid while a step leaves that digit's cells alone, which most
// steps do.
type digitCache struct {
	pos     cellSet // the digit's candidate cells it was computed for
	valid   bool
	links   []sdLink
	linksOK bool
	joins   [][]sdJoin
	joinsOK bool
	// The arrays behind joins, kept for reuse.
	joinsFlat   []sdJoin
	joinsBounds []int
	tmpl        templateInfo
	tmplOK      bool
	// strong[k]: the digit's best chain of k strong links (findStrongLinks).
	strong [5]struct {
		done   bool
		chain  *sdChain
		elims  []Candidate
		rating int
	}
}

// digitInfo returns digit d's cache, cleared if its cells changed. (A
// digit placed anywhere leaves its cells too, so the cells say everything
// these depend on.)
func (g *Grid) digitInfo(d int) *digitCache {
	if g.digits == nil {
		g.digits = make([]digitCache, g.geo.n)
	}
	dc := &g.digits[d-1]
	if !dc.valid || dc.pos != g.pos[d-1] {
		// Keep the arrays of the links and joins for the new cells: the
		// cache is rebuilt for most digits at most steps of a hard puzzle.
		// (Nothing outside the cache points into them: the chains that do
		// go with it.)
		links, joins, flat, bounds := dc.links[:0], dc.joins[:0], dc.joinsFlat[:0], dc.joinsBounds[:0]
		*dc = digitCache{pos: g.pos[d-1], valid: true}
		dc.links, dc.joins, dc.joinsFlat, dc.joinsBounds = links, joins, flat, bounds
	}
	return dc
}
