package logic

// stateCache holds what several techniques compute from one grid state, so
// that it is computed once per state: it is thrown away as soon as the grid
// changes (the grid's version moves on).
type stateCache struct {
	version uint64
	als     []als // almost locked sets up to alsMax cells
	alsMax  int
	sdLinks [][]sdLink // strong links per digit
	sdDone  []bool
	sdJoins [][][]sdJoin // per digit: which link ends join which starts
}

// state returns the cache of g's current state, resetting it if g changed.
func (g *Grid) state() *stateCache {
	if g.cache == nil || g.cache.version != g.version {
		g.cache = &stateCache{version: g.version}
	}
	return g.cache
}
