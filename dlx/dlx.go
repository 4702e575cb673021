// Package dlx solves exact-cover problems with Algorithm X and dancing
// links (Knuth, "Dancing Links", 2000, arXiv:cs/0011047).
//
//  1. Declare the matrix: New(primary, secondary), then AddRow per row.
//  2. Optionally Select rows in advance (a puzzle's clues).
//  3. Search (or SearchContext, SearchThenReset) delivers each set of rows
//     covering every primary column once and every secondary at most once,
//     with counters for benchmarks; Reset undoes the selections.
package dlx

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"unsafe"
)

// ErrBudget is returned by Search when the node budget set by SetBudget runs
// out before the search finished.
var ErrBudget = errors.New("dlx: node budget exhausted")

// The matrix is stored as in the paper, in flat slices indexed by node
// number (int32 links instead of pointers): node 0 is the root, nodes
// 1..primary the primary column headers, node primary+1 the root of the
// secondary headers, then the secondary headers, then the 1s of the rows,
// row after row, so a row's nodes sit side by side. The links the search
// changes (up, down) and those it only reads (left, right, column) are in
// two slices, so that ResetFast copies half as much; the column headers'
// list links and sizes are kept apart, where choose scans them.

// node holds the links that cover and uncover change: up and down in the
// node's column (the paper's U and D). They are all that ResetFast has to
// copy back, so they live apart from the links that never change.
type node struct{ up, down int32 }

// link holds what never changes once the row is added: the node's left
// and right neighbours in its row (L and R) and its column header (C).
type link struct{ left, right, col int32 }

// column is a column header's place in the list of active columns (the
// paper's L and R for headers) and its number of live rows (S).
type column struct{ left, right, size int32 }

// Stats counts the work done by Search since the matrix was built or
// ResetStats was called.
type Stats struct {
	Nodes   uint64 // search-tree nodes visited (calls of search)
	Updates uint64 // rows removed from the matrix by cover
}

// Matrix is a sparse exact-cover matrix with its search state. Build it with
// New and AddRow; it is not safe for concurrent use.
type Matrix struct {
	node     []node   // every node's column links
	link     []link   // every node's row links and header; only col for headers
	head     []column // headers, the root and the secondary root
	rowStart []int32  // first node of each row; rowStart[len-1] ends the last
	rowOf    []int32  // row number of each node (headers: -1)
	primary  int
	cols     int
	secRoot  int32

	// The state as built, for ResetFast; taken at the first Select or Search.
	baseNode []node
	baseHead []column

	// Columns that cover saw drop to 0 or 1 rows (see choose): a stack
	// that wraps around, overwriting the oldest, when more than 256 pile
	// up; a uint8 index needs no bounds check.
	hint     [256]int32
	nhint    uint8
	dead     int32     // a column that cover saw drop to 0 rows, or 0
	selected []int32   // rows fixed by Select, in order
	choice   []int32   // the row node chosen at each search level
	rows     []int     // solution passed to the callback
	order    [][]int32 // per-level row buffers for the random order
	rng      *rand.Rand

	limit   int
	found   int
	visit   func(rows []int) bool
	stop    bool
	broke   bool // the budget ran out
	abandon bool // on stop, leave the links for ResetFast instead of unwinding
	open    int  // search levels whose row has untried rows below it
	budget  uint64
	ctx     context.Context // nil: never cancelled
	ctxErr  error           // why ctx stopped the search
	stats   Stats
}

// New returns an empty matrix with the given numbers of primary columns
// (covered exactly once) and secondary columns (covered at most once).
// Columns are numbered 0..primary-1 for the primary ones, then
// primary..primary+secondary-1 for the secondary ones.
func New(primary, secondary int) *Matrix {
	if primary < 0 || secondary < 0 || primary+secondary > math.MaxInt32/4 {
		panic(fmt.Sprintf("dlx.New(%d, %d): bad column count", primary, secondary))
	}
	cols := primary + secondary
	m := &Matrix{
		primary:  primary,
		cols:     cols,
		secRoot:  int32(primary + 1),
		node:     make([]node, cols+2),
		link:     make([]link, cols+2),
		head:     make([]column, cols+2),
		rowOf:    make([]int32, cols+2),
		rowStart: []int32{int32(cols + 2)},
	}
	for h := range m.node {
		m.node[h] = node{up: int32(h), down: int32(h)}
		m.link[h] = link{col: int32(h)}
		m.rowOf[h] = -1
	}
	// The active primary headers form a circular list through the root;
	// the secondary ones a list of their own, which search never walks
	// but which lets Select tell a covered column from a free one.
	link := func(root int32, first, last int) {
		prev := root
		for c := first; c <= last; c++ {
			h := int32(c)
			m.head[h].left = prev
			m.head[prev].right = h
			prev = h
		}
		m.head[prev].right = root
		m.head[root].left = prev
	}
	link(0, 1, primary)
	link(m.secRoot, primary+2, cols+1)
	m.choice = make([]int32, 0, primary+1)
	return m
}

// Columns returns the number of primary and secondary columns.
func (m *Matrix) Columns() (primary, secondary int) { return m.primary, m.cols - m.primary }

// Rows returns the number of rows added so far.
func (m *Matrix) Rows() int { return len(m.rowStart) - 1 }

// header returns the header node of column c (0-based).
func (m *Matrix) header(c int) int32 {
	if c < 0 || c >= m.cols {
		panic(fmt.Sprintf("dlx: column %d out of range [0,%d)", c, m.cols))
	}
	h := int32(c + 1)
	if c >= m.primary {
		h++ // skip the secondary root, which sits between the two groups
	}
	return h
}

// AddRow appends a row with 1s in the given columns and returns its number
// (rows are numbered from 0 in the order added). A column may appear only
// once in a row. A row without primary columns is allowed but never part
// of a solution found by Search (the search only chooses rows through the
// primary column they cover). Rows must be added before the first Select or
// Search.
func (m *Matrix) AddRow(cols ...int) int {
	if m.baseNode != nil {
		panic("dlx: AddRow after Select or Search")
	}
	r := int32(len(m.rowStart) - 1)
	first := int32(len(m.node))
	for i, c := range cols {
		h := m.header(c)
		for _, d := range cols[:i] {
			if d == c {
				panic(fmt.Sprintf("dlx: column %d twice in row %d", c, r))
			}
		}
		x := int32(len(m.node))
		// Append at the bottom of column h and at the right end of the row.
		up := m.node[h].up
		m.node = append(m.node, node{up: up, down: h})
		m.link = append(m.link, link{left: x - 1, right: x + 1, col: h})
		m.node[up].down = x
		m.node[h].up = x
		m.head[h].size++
		m.rowOf = append(m.rowOf, r)
	}
	last := int32(len(m.node)) - 1
	if last >= first {
		m.link[first].left = last
		m.link[last].right = first
	}
	m.rowStart = append(m.rowStart, last+1)
	if len(m.node) > math.MaxInt32/4 {
		panic("dlx: matrix too large")
	}
	return int(r)
}

// freeze records the matrix as built, the state ResetFast returns to.
func (m *Matrix) freeze() {
	if m.baseNode == nil {
		m.baseNode = append([]node(nil), m.node...)
		m.baseHead = append([]column(nil), m.head...)
	}
}

// SetRandom makes Search try the rows of each chosen column in an order
// shuffled by a generator seeded with seed, so that different seeds give
// different first solutions (used to generate puzzles). With random false
// Search goes back to trying rows top to bottom, as added.
func (m *Matrix) SetRandom(random bool, seed uint64) {
	if !random {
		m.rng = nil
		return
	}
	m.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// SetBudget limits every later Search to about n search nodes; 0 means no
// limit. A search that runs out returns ErrBudget.
func (m *Matrix) SetBudget(n uint64) { m.budget = n }

// Stats returns the work counters.
func (m *Matrix) Stats() Stats { return m.stats }

// ResetStats sets the work counters to zero.
func (m *Matrix) ResetStats() { m.stats = Stats{} }

// cover removes column c from the header list and every row that has a 1
// in c from the other columns it occupies.
func (m *Matrix) cover(c int32) {
	nd, lk, hd := m.nodes(), m.links(), m.heads()
	y := hd.at(c)
	hd.at(y.left).right = y.right
	hd.at(y.right).left = y.left
	m.stats.Updates += uint64(y.size)
	nhint := m.nhint
	for i := nd.at(c).down; i != c; i = nd.at(i).down {
		for j := lk.at(i).right; j != i; {
			x, l := nd.at(j), lk.at(j)
			u, d, h := x.up, x.down, l.col
			j = l.right
			nd.at(u).down = d
			nd.at(d).up = u
			y := hd.at(h)
			y.size--
			if y.size <= 1 {
				// A hint for choose, maybe of a secondary column:
				// choose skips those.
				if y.size == 0 {
					m.dead = h
				}
				m.hint[nhint] = h
				nhint++
			}
		}
	}
	m.nhint = nhint
}

// uncover is cover's mirror image: it puts back, in the reverse order, every
// link that cover(c) removed.
func (m *Matrix) uncover(c int32) {
	nd, hd, lk := m.nodes(), m.heads(), m.links()
	for i := nd.at(c).up; i != c; i = nd.at(i).up {
		for j := lk.at(i).left; j != i; j = lk.at(j).left {
			x := nd.at(j)
			hd.at(lk.at(j).col).size++
			nd.at(x.up).down = j
			nd.at(x.down).up = j
		}
	}
	y := hd.at(c)
	hd.at(y.left).right = c
	hd.at(y.right).left = c
}

// Cover, uncover, choose and search, where the time goes, follow links
// through these unchecked views of the node, link and header slices. A
// link is always the index of an existing node or header: New and AddRow
// make them so and only cover and uncover change them, exchanging valid
// links (the instructions this saves: docs/performance.md, "Tuning").
type (
	nodeView struct{ p unsafe.Pointer }
	headView struct{ p unsafe.Pointer }
	linkView struct{ p unsafe.Pointer }
)

func (m *Matrix) nodes() nodeView { return nodeView{unsafe.Pointer(unsafe.SliceData(m.node))} }
func (m *Matrix) heads() headView { return headView{unsafe.Pointer(unsafe.SliceData(m.head))} }
func (m *Matrix) links() linkView { return linkView{unsafe.Pointer(unsafe.SliceData(m.link))} }

func (v nodeView) at(i int32) *node {
	return (*node)(unsafe.Add(v.p, uintptr(uint32(i))*unsafe.Sizeof(node{})))
}

func (v headView) at(i int32) *column {
	return (*column)(unsafe.Add(v.p, uintptr(uint32(i))*unsafe.Sizeof(column{})))
}

func (v linkView) at(i int32) *link {
	return (*link)(unsafe.Add(v.p, uintptr(uint32(i))*unsafe.Sizeof(link{})))
}

// Select fixes row r as part of every solution, as if the search had
// chosen it: the columns of r are covered. It reports false, and changes
// nothing, when r clashes with a row selected before (shares a column).
func (m *Matrix) Select(r int) bool {
	if r < 0 || r >= m.Rows() {
		panic(fmt.Sprintf("dlx: row %d out of range [0,%d)", r, m.Rows()))
	}
	m.freeze()
	start, end := m.rowStart[r], m.rowStart[r+1]
	for j := start; j < end; j++ {
		h := m.link[j].col
		if m.head[m.head[h].left].right != h { // header unlinked: column covered
			return false
		}
	}
	for j := start; j < end; j++ {
		m.cover(m.link[j].col)
	}
	m.selected = append(m.selected, int32(r))
	return true
}

// Selected returns the number of rows fixed by Select and not yet undone.
func (m *Matrix) Selected() int { return len(m.selected) }

// Unselect undoes the most recent Select; it does nothing when no row is
// selected.
func (m *Matrix) Unselect() {
	k := len(m.selected) - 1
	if k < 0 {
		return
	}
	r := m.selected[k]
	m.selected = m.selected[:k]
	start, end := m.rowStart[r], m.rowStart[r+1]
	for j := end - 1; j >= start; j-- {
		m.uncover(m.link[j].col)
	}
}

// Reset undoes every Select, in reverse order, restoring the matrix as built.
func (m *Matrix) Reset() {
	for len(m.selected) > 0 {
		m.Unselect()
	}
}

// ResetFast restores the matrix as built, like Reset, but by copying the
// links saved at the first Select or Search instead of uncovering one
// column at a time: cheaper when many rows are selected.
func (m *Matrix) ResetFast() {
	if m.baseNode == nil {
		return
	}
	copy(m.node, m.baseNode)
	copy(m.head, m.baseHead)
	m.selected = m.selected[:0]
	m.nhint, m.dead = 0, 0
}

// Search looks for sets of rows that, together with the selected rows,
// cover every primary column exactly once and no secondary column twice.
// It calls visit, if not nil, with each solution's row numbers (the selected
// rows first, then the search's choices; the slice is reused, so copy it to
// keep it), stops when visit returns false or after limit solutions (limit
// <= 0: no limit), and returns how many solutions it found. The matrix is
// left as it was, so Search may be called again. It returns ErrBudget with
// the count so far when the budget set by SetBudget runs out.
func (m *Matrix) Search(limit int, visit func(rows []int) bool) (int, error) {
	return m.run(context.Background(), limit, visit, false)
}

// SearchContext is Search that also stops when ctx is done: it looks at
// ctx every ctxCheckNodes search nodes (well under a millisecond) and
// returns the count so far with an error wrapping ctx.Err().
func (m *Matrix) SearchContext(ctx context.Context, limit int, visit func(rows []int) bool) (int, error) {
	return m.run(ctx, limit, visit, false)
}

// SearchThenResetContext is SearchThenReset that stops when ctx is done,
// as SearchContext does.
func (m *Matrix) SearchThenResetContext(ctx context.Context, limit int, visit func(rows []int) bool) (int, error) {
	n, err := m.run(ctx, limit, visit, true)
	m.ResetFast()
	return n, err
}

// ctxCheckNodes is how often (in search nodes, a power of two) a search
// under a context looks at it.
const ctxCheckNodes = 1 << 12

// cancelled reports whether the search's context is done, and notes why.
// It also yields the processor (a search under a context is a server's:
// its other requests then wait at most ctxCheckNodes nodes behind it, not
// a scheduler's time slice per hop).
func (m *Matrix) cancelled() bool {
	runtime.Gosched()
	if err := m.ctx.Err(); err != nil {
		m.ctxErr = err
		return true
	}
	return false
}

// SearchThenReset is Search followed by ResetFast: when the search stops
// early it leaves its links as they are, since the copy puts everything
// back anyway. Solving many small instances on one matrix (select the
// givens, SearchThenReset) is fastest this way.
func (m *Matrix) SearchThenReset(limit int, visit func(rows []int) bool) (int, error) {
	n, err := m.run(context.Background(), limit, visit, true)
	m.ResetFast()
	return n, err
}

func (m *Matrix) run(ctx context.Context, limit int, visit func(rows []int) bool, abandon bool) (int, error) {
	m.freeze()
	m.limit, m.visit, m.found, m.stop, m.broke, m.abandon = limit, visit, 0, false, false, abandon
	if ctx != nil && ctx.Done() == nil {
		ctx = nil // a context that can never end: skip the checks in the search
	}
	m.ctx, m.ctxErr = ctx, nil
	m.choice = m.choice[:0]
	m.open = 0
	start := m.stats.Nodes
	var err error
	if m.rng == nil {
		m.search(start)
	} else {
		m.searchRandom(start)
	}
	switch {
	case m.ctxErr != nil:
		err = fmt.Errorf("dlx: search stopped after %d nodes: %w", m.stats.Nodes-start, m.ctxErr)
	case m.broke:
		err = ErrBudget
	}
	m.visit, m.ctx = nil, nil
	return m.found, err
}

// choose returns an active primary column with the fewest rows (Knuth's S
// heuristic), or 0 if every primary column is covered. To spare scans it
// first takes what cover noted: a column left with no rows, then hinted
// columns left with at most one, most recent first; else it scans, taking
// a two-row column on sight. The choice changes the speed, never the
// solutions.
func (m *Matrix) choose() int32 {
	hd, primary := m.heads(), int32(m.primary)
	if d := m.dead; d != 0 {
		m.dead = 0
		if y := hd.at(d); d <= primary && y.size == 0 && hd.at(y.left).right == d {
			return d
		}
	}
	for m.nhint > 0 {
		m.nhint--
		h := m.hint[m.nhint]
		if y := hd.at(h); h <= primary && y.size <= 1 && hd.at(y.left).right == h {
			return h
		}
	}
	best, min := int32(0), int32(math.MaxInt32)
	for c := hd.at(0).right; c != 0; c = hd.at(c).right {
		if s := hd.at(c).size; s < min {
			best, min = c, s
			if s <= 2 {
				break
			}
		}
	}
	return best
}

// solution hands the current solution to the callback and decides whether
// the search goes on.
func (m *Matrix) solution() {
	m.found++
	if m.visit != nil {
		m.rows = m.rows[:0]
		for _, r := range m.selected {
			m.rows = append(m.rows, int(r))
		}
		for _, x := range m.choice {
			m.rows = append(m.rows, int(m.rowOf[x]))
		}
		if !m.visit(m.rows) {
			m.stop = true
		}
	}
	if m.limit > 0 && m.found >= m.limit {
		m.stop = true
	}
}

// search is the paper's recursive procedure search(k), with the level k
// kept as the length of m.choice. start is the node count when Search
// began, for the budget.
func (m *Matrix) search(start uint64) {
	m.stats.Nodes++
	if m.budget > 0 && m.stats.Nodes-start > m.budget ||
		m.ctx != nil && m.stats.Nodes&(ctxCheckNodes-1) == 0 && m.cancelled() {
		m.stop, m.broke = true, true
		return
	}
	c := m.choose()
	if c == 0 {
		m.solution()
		return
	}
	nd, lk := m.nodes(), m.links()
	if m.heads().at(c).size == 0 {
		return
	}
	m.cover(c)
	k := len(m.choice)
	m.choice = append(m.choice, 0)
	for r := nd.at(c).down; r != c; r = nd.at(r).down {
		m.choice[k] = r
		for j := lk.at(r).right; j != r; j = lk.at(j).right {
			m.cover(lk.at(j).col)
		}
		last := nd.at(r).down == c
		if !last {
			m.open++
		}
		m.search(start)
		if !last {
			m.open--
		} else if m.open == 0 && m.abandon {
			// This level and all above are on their last rows: the
			// search is over, and ResetFast puts the links back.
			return
		}
		if m.stop && m.abandon {
			return // ResetFast follows
		}
		for j := lk.at(r).left; j != r; j = lk.at(j).left {
			m.uncover(lk.at(j).col)
		}
		if m.stop {
			break
		}
	}
	m.choice = m.choice[:k]
	m.uncover(c)
}

// searchRandom is search with the rows of each chosen column tried in a
// shuffled order. The rows of c stay linked in c while c is covered, so
// they can be gathered before the loop.
func (m *Matrix) searchRandom(start uint64) {
	m.stats.Nodes++
	if m.budget > 0 && m.stats.Nodes-start > m.budget ||
		m.ctx != nil && m.stats.Nodes&(ctxCheckNodes-1) == 0 && m.cancelled() {
		m.stop, m.broke = true, true
		return
	}
	c := m.choose()
	if c == 0 {
		m.solution()
		return
	}
	nd, lk := m.node, m.link
	if m.head[c].size == 0 {
		return
	}
	m.cover(c)
	k := len(m.choice)
	if len(m.order) <= k {
		m.order = append(m.order, nil)
	}
	order := m.order[k][:0]
	for r := nd[c].down; r != c; r = nd[r].down {
		order = append(order, r)
	}
	for i := len(order) - 1; i > 0; i-- { // Fisher-Yates
		j := m.rng.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	m.order[k] = order
	m.choice = append(m.choice, 0)
	for i, r := range order {
		m.choice[k] = r
		for j := lk[r].right; j != r; j = lk[j].right {
			m.cover(lk[j].col)
		}
		last := i == len(order)-1
		if !last {
			m.open++
		}
		m.searchRandom(start)
		if !last {
			m.open--
		} else if m.open == 0 && m.abandon {
			return // the search is over (see search)
		}
		if m.stop && m.abandon {
			return // ResetFast follows
		}
		for j := lk[r].left; j != r; j = lk[j].left {
			m.uncover(lk[j].col)
		}
		if m.stop {
			break
		}
	}
	m.choice = m.choice[:k]
	m.uncover(c)
}
