package kakuro

import (
	"math/bits"
	"math/rand/v2"
	"slices"
)

// engine is the constraint model every solver here shares: the white cells
// numbered 0..n-1, each with a domain (a mask of the digits it may still
// take), and the runs over them. Its propagation makes every run
// generalised-arc-consistent: a digit stays in a cell's domain only if the
// run can be completed with that digit there, every cell taking a digit of
// its own domain, no digit twice, and the digits adding up to the clue. A
// run with sum 0 has no clue: its digits need only differ (the generator
// fills shapes that way).
type engine struct {
	cellOf   []int      // white cell -> board index
	runs     []erun     // the runs, over white-cell numbers
	cellRuns [][2]int32 // the (at most two) runs through each cell; -1 = none
	init     []uint16   // domains of the puzzle: givens single, the rest all digits
	order    []int32    // runs by decreasing number of combinations (the last is revised first)

	// Scratch for propagation, reused to keep the search allocation-free.
	queue   []int32
	inQueue []bool
	stamp   uint32
	reach   [512]uint32 // reach[m] == stamp: digit set m fills a prefix of the run
	good    [512]uint32 // good[m] == stamp: ... and can be completed to the sum
	level   [512]uint16 // the reached sets, level by level (by prefix length)

	nodes uint64 // search nodes visited
	props uint64 // runs revised

	// weak limits revise to what a player reads off a combination table:
	// a cell keeps the digits of the clue's combinations that hold every
	// digit already placed in the run and fit the run's candidates, minus
	// the placed digits (the rater's first technique).
	weak bool
}

// erun is one run in the engine.
type erun struct {
	cells []int32
	sum   uint8 // 0 = no clue
	board Run   // the run as on the board, for the rater's explanations
}

// newEngine compiles b (which must satisfy Validate, except that runs
// without a clue are allowed and mean "all different").
func newEngine(b *Board) *engine {
	e := &engine{}
	num := make([]int32, len(b.Cells))
	for i, c := range b.Cells {
		num[i] = -1
		if c.White {
			num[i] = int32(len(e.cellOf))
			e.cellOf = append(e.cellOf, i)
			d := uint16(allDigits)
			if c.Digit > 0 {
				d = digitBit(c.Digit)
			}
			e.init = append(e.init, d)
		}
	}
	e.cellRuns = make([][2]int32, len(e.cellOf))
	for i := range e.cellRuns {
		e.cellRuns[i] = [2]int32{-1, -1}
	}
	for _, r := range b.Runs() {
		er := erun{sum: uint8(r.Sum), board: r}
		for _, c := range r.Cells {
			er.cells = append(er.cells, num[c])
		}
		k := int32(len(e.runs))
		e.runs = append(e.runs, er)
		for _, c := range er.cells {
			if e.cellRuns[c][0] < 0 {
				e.cellRuns[c][0] = k
			} else {
				e.cellRuns[c][1] = k
			}
		}
	}
	// Start every empty cell at the digits that some combination of each
	// of its runs holds: one table look-up per run that spares the first
	// revisions most of their work.
	for _, r := range e.runs {
		u := combos.union[len(r.cells)][r.sum]
		for _, c := range r.cells {
			if e.init[c]&(e.init[c]-1) != 0 {
				e.init[c] &= u
			}
		}
	}
	// The queue is a stack: push the runs with many combinations first, so
	// that the tightest clues (one combination, like 3 in two) are revised
	// first and narrow the rest cheaply.
	for k := range e.runs {
		e.order = append(e.order, int32(k))
	}
	ways := func(k int32) int { r := e.runs[k]; return len(combos.sets[len(r.cells)][r.sum]) }
	slices.SortStableFunc(e.order, func(a, b int32) int { return ways(b) - ways(a) })
	e.inQueue = make([]bool, len(e.runs))
	return e
}

// propagateAll revises every run of dom until nothing changes. It returns
// false when some run cannot be completed.
func (e *engine) propagateAll(dom []uint16) bool {
	for _, k := range e.order {
		e.push(k)
	}
	return e.drain(dom)
}

// propagateCell revises the runs through cell c (whose domain changed) and
// whatever that changes in turn.
func (e *engine) propagateCell(dom []uint16, c int32) bool {
	for _, k := range e.cellRuns[c] {
		if k >= 0 {
			e.push(k)
		}
	}
	return e.drain(dom)
}

func (e *engine) push(k int32) {
	if !e.inQueue[k] {
		e.inQueue[k] = true
		e.queue = append(e.queue, k)
	}
}

// drain revises queued runs until the queue is empty or a run fails; on
// failure the queue is cleared.
func (e *engine) drain(dom []uint16) bool {
	for len(e.queue) > 0 {
		k := e.queue[len(e.queue)-1]
		e.queue = e.queue[:len(e.queue)-1]
		e.inQueue[k] = false
		if !e.revise(dom, k) {
			e.clearQueue()
			return false
		}
	}
	e.queue = e.queue[:0]
	return true
}

// fittingUnion returns the union of run r's combinations that hold
// every placed digit (fixed) and nothing no cell can take (outside
// union); 0 when there is none. A run without a clue takes any digits,
// as long as its cells can hold that many.
func fittingUnion(r *erun, fixed, union uint16) uint16 {
	n := len(r.cells)
	if r.sum == 0 {
		if bits.OnesCount16(union) < n {
			return 0
		}
		return allDigits
	}
	var allowed uint16
	for _, m := range combos.sets[n][r.sum] {
		if m&fixed == fixed && m&^union == 0 {
			allowed |= m
		}
	}
	return allowed
}

// reviseByUnion narrows the unplaced cells of run k (whose domains, as
// revise read them, are d) to allowed, the union of its fitting
// combinations, minus the digits placed in it (fixed). It reports false
// when a cell is left without a digit.
func (e *engine) reviseByUnion(dom []uint16, k int32, d *[9]uint16, allowed, fixed uint16) bool {
	for j, c := range e.runs[k].cells {
		if d[j]&(d[j]-1) == 0 {
			continue
		}
		nd := d[j] & allowed &^ fixed
		if nd == d[j] {
			continue
		}
		if nd == 0 {
			return false
		}
		e.set(dom, c, nd, k)
		if nd&(nd-1) == 0 {
			e.push(k) // a new placed digit leaves the rest of this run
		}
	}
	return true
}

// revise makes run k arc-consistent in dom, queueing the other run of each
// cell whose domain shrinks; false when the run cannot be completed. A
// dynamic program over digit sets: forward, level j holds the sets cells
// 0..j-1 can take (the last level only those summing to the clue);
// backward, a set is good if a digit of cell j's domain extends it to a good
// set, and that digit is supported. Sets of j digits sit only at level j,
// so one stamp array marks them all (at most 126 sets a level).
func (e *engine) revise(dom []uint16, k int32) bool {
	e.props++
	r := &e.runs[k]
	n := len(r.cells)
	var d [9]uint16
	var fixed, union uint16
	singles := 0
	for i, c := range r.cells {
		m := dom[c]
		d[i] = m
		union |= m
		if m&(m-1) == 0 {
			if m == 0 || fixed&m != 0 {
				return false
			}
			fixed |= m
			singles++
		}
	}
	// The clue's combinations that hold every fixed digit and nothing no
	// cell can take.
	allowed := fittingUnion(r, fixed, union)
	if allowed == 0 {
		return false
	}
	if singles == n {
		return true // fixed holds n distinct digits; allowed != 0 means they add up
	}
	if e.weak || r.sum == 0 {
		// Without a clue only "no digit twice" binds; that, and the weak
		// mode, keep the combinations' union minus the placed digits.
		return e.reviseByUnion(dom, k, &d, allowed, fixed)
	}

	e.stamp++
	if e.stamp == 0 { // wrapped: clear the marks once every 4 billion revisions
		e.reach, e.good = [512]uint32{}, [512]uint32{}
		e.stamp = 1
	}
	st := e.stamp
	var start [10]int
	e.level[0] = 0
	end := 1
	for j := 0; j < n; j++ {
		start[j+1] = end
		dj := d[j] & allowed
		last := j == n-1
		for _, f := range e.level[start[j]:start[j+1]] {
			for avail := dj &^ f; avail != 0; avail &= avail - 1 {
				g := f | avail&-avail
				if e.reach[g] == st {
					continue
				}
				if last && r.sum != 0 && maskSum[g] != r.sum {
					continue
				}
				e.reach[g] = st
				e.level[end] = g
				end++
			}
		}
		if end == start[j+1] {
			return false
		}
	}
	for _, g := range e.level[start[n]:end] {
		e.good[g] = st
	}
	var nd [9]uint16
	for j := n - 1; j >= 0; j-- {
		dj := d[j] & allowed
		for _, f := range e.level[start[j]:start[j+1]] {
			for avail := dj &^ f; avail != 0; avail &= avail - 1 {
				b := avail & -avail
				if e.good[f|b] == st {
					nd[j] |= b
					e.good[f] = st
				}
			}
		}
	}
	for j, c := range r.cells {
		if nd[j] == d[j] {
			continue
		}
		if nd[j] == 0 {
			return false
		}
		e.set(dom, c, nd[j], k)
	}
	return true
}

// set narrows cell c to m and queues the cell's other run than k.
func (e *engine) set(dom []uint16, c int32, m uint16, k int32) {
	dom[c] = m
	for _, o := range e.cellRuns[c] {
		if o >= 0 && o != k {
			e.push(o)
		}
	}
}

// chooseCell returns the unfixed cell with the fewest candidates, or -1
// when every cell is fixed.
func chooseCell(dom []uint16) int32 {
	best, bestN := int32(-1), 10
	for c, m := range dom {
		if m&(m-1) == 0 {
			continue
		}
		if n := bits.OnesCount16(m); n < bestN {
			best, bestN = int32(c), n
			if n == 2 {
				break
			}
		}
	}
	return best
}

// search is one depth-first search over propagated domains: it branches on
// the cell with the fewest candidates, counts solutions up to limit and
// hands each to found (the slice is reused: copy what you keep). It stops
// when found returns false, at the limit, or after budget nodes (0 = no
// budget; broke tells). With rng, digits are tried in random order (the
// generator's random fills).
type search struct {
	e      *engine
	limit  int
	budget uint64
	rng    *rand.Rand
	found  func(dom []uint16) bool
	stack  [][]uint16
	count  int
	stop   bool
	broke  bool
}

func (s *search) run(dom []uint16, depth int) {
	c := chooseCell(dom)
	if c < 0 {
		s.count++
		if !s.found(dom) || s.count >= s.limit {
			s.stop = true
		}
		return
	}
	s.e.nodes++
	if s.budget > 0 && s.e.nodes > s.budget {
		s.stop, s.broke = true, true
		return
	}
	if depth == len(s.stack) {
		s.stack = append(s.stack, make([]uint16, len(dom)))
	}
	next := s.stack[depth]
	var order [9]uint16
	n := 0
	for m := dom[c]; m != 0; m &= m - 1 {
		order[n] = m & -m
		n++
	}
	if s.rng != nil {
		s.rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	for _, b := range order[:n] {
		copy(next, dom)
		next[c] = b
		if s.e.propagateCell(next, c) {
			s.run(next, depth+1)
			if s.stop {
				return
			}
		}
	}
}
