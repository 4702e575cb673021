// Package dlx solves exact-cover problems with Algorithm X and dancing links,
// as described in Donald E. Knuth, "Dancing Links", Millennial Perspectives
// in Computer Science (2000), arXiv:cs/0011047.
//
// In: a 0/1 matrix, declared as a number of primary and secondary columns and
// then row by row (the columns in which a row has a 1).
// Out: the sets of rows that hold exactly one 1 in every primary column and at
// most one 1 in every secondary column, delivered one at a time to a callback,
// plus counters (search nodes, link updates) for benchmarks.
//
// The matrix lives in one flat slice of nodes linked by int32 indices, so a
// search allocates nothing per step, and a Matrix can be reused: Select fixes
// rows in advance (the clues of a puzzle), Search leaves the links exactly as
// it found them, and Reset undoes the selections.
package dlx

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// ErrBudget is returned by Search when the node budget set by SetBudget runs
// out before the search finished.
var ErrBudget = errors.New("dlx: node budget exhausted")

// node is one 1 in the matrix, or a column header, or the root. Following the
// paper, left/right link the nodes of a row (or the headers of the active
// columns), up/down link the nodes of a column, and col names the header.
type node struct {
	left, right, up, down, col int32
}

// Stats counts the work done by Search since the matrix was built or
// ResetStats was called.
type Stats struct {
	Nodes   uint64 // search-tree nodes visited (calls of search)
	Updates uint64 // links removed by cover (Knuth's measure of work)
}

// Matrix is a sparse exact-cover matrix with its search state. Build it with
// New and AddRow; it is not safe for concurrent use.
type Matrix struct {
	node     []node  // 0 is the root, 1..cols the headers, then secondary root, then rows
	size     []int32 // number of live rows in each column, indexed by header node
	rowStart []int32 // first node of each row; rowStart[len] is the end sentinel
	rowOf    []int32 // row number of each node (headers: -1)
	primary  int
	cols     int
	secRoot  int32

	selected []int32   // rows fixed by Select, in order
	choice   []int32   // the row node chosen at each search level
	rows     []int     // solution passed to the callback
	order    [][]int32 // per-level row buffers for the random order
	rng      *rand.Rand

	limit  int
	found  int
	visit  func(rows []int) bool
	stop   bool
	broke  bool // the budget ran out
	budget uint64
	stats  Stats
}

// New returns an empty matrix with the given numbers of primary columns
// (covered exactly once) and secondary columns (covered at most once).
// Columns are numbered 0..primary-1 for the primary ones, then
// primary..primary+secondary-1 for the secondary ones.
func New(primary, secondary int) *Matrix {
	if primary < 0 || secondary < 0 || primary+secondary > math.MaxInt32/2 {
		panic(fmt.Sprintf("dlx.New(%d, %d): bad column count", primary, secondary))
	}
	cols := primary + secondary
	m := &Matrix{
		primary:  primary,
		cols:     cols,
		secRoot:  int32(primary + 1),
		node:     make([]node, cols+2),
		size:     make([]int32, cols+2),
		rowOf:    make([]int32, cols+2),
		rowStart: []int32{int32(cols + 2)},
	}
	// The active primary headers form a circular list through the root;
	// the secondary ones a list of their own, which search never walks
	// but which lets Select tell a covered column from a free one.
	link := func(root int32, first, last int) {
		prev := root
		for c := first; c <= last; c++ {
			h := int32(c)
			m.node[h] = node{left: prev, up: h, down: h, col: h}
			m.node[prev].right = h
			prev = h
		}
		m.node[prev].right = root
		m.node[root].left = prev
	}
	m.node[0] = node{up: 0, down: 0, col: 0}
	m.node[m.secRoot] = node{up: m.secRoot, down: m.secRoot, col: m.secRoot}
	link(0, 1, primary)
	link(m.secRoot, primary+2, cols+1)
	for i := range m.rowOf {
		m.rowOf[i] = -1
	}
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
// primary column they cover). Rows must be added before the first Select or Search.
func (m *Matrix) AddRow(cols ...int) int {
	if len(m.selected) > 0 {
		panic("dlx: AddRow after Select")
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
		m.node = append(m.node, node{
			left:  x - 1,
			right: x + 1,
			up:    m.node[h].up,
			down:  h,
			col:   h,
		})
		m.node[m.node[h].up].down = x
		m.node[h].up = x
		m.size[h]++
		m.rowOf = append(m.rowOf, r)
	}
	last := int32(len(m.node)) - 1
	if last >= first {
		m.node[first].left = last
		m.node[last].right = first
	}
	m.rowStart = append(m.rowStart, last+1)
	if len(m.node) > math.MaxInt32/2 {
		panic("dlx: matrix too large")
	}
	return int(r)
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
	nd := m.node
	l, r := nd[c].left, nd[c].right
	nd[l].right = r
	nd[r].left = l
	updates := uint64(1)
	for i := nd[c].down; i != c; i = nd[i].down {
		for j := nd[i].right; j != i; j = nd[j].right {
			u, d := nd[j].up, nd[j].down
			nd[u].down = d
			nd[d].up = u
			m.size[nd[j].col]--
			updates++
		}
	}
	m.stats.Updates += updates
}

// uncover is cover's mirror image: it puts back, in the reverse order, every
// link that cover(c) removed.
func (m *Matrix) uncover(c int32) {
	nd := m.node
	for i := nd[c].up; i != c; i = nd[i].up {
		for j := nd[i].left; j != i; j = nd[j].left {
			m.size[nd[j].col]++
			u, d := nd[j].up, nd[j].down
			nd[u].down = j
			nd[d].up = j
		}
	}
	l, r := nd[c].left, nd[c].right
	nd[l].right = c
	nd[r].left = c
}

// Select fixes row r as part of every solution, as if the search had
// chosen it: the columns of r are covered. It reports false, and changes
// nothing, when r clashes with a row selected before (shares a column).
func (m *Matrix) Select(r int) bool {
	if r < 0 || r >= m.Rows() {
		panic(fmt.Sprintf("dlx: row %d out of range [0,%d)", r, m.Rows()))
	}
	start, end := m.rowStart[r], m.rowStart[r+1]
	nd := m.node
	for j := start; j < end; j++ {
		h := nd[j].col
		if nd[nd[h].left].right != h { // header unlinked: column covered
			return false
		}
	}
	for j := start; j < end; j++ {
		m.cover(nd[j].col)
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
		m.uncover(m.node[j].col)
	}
}

// Reset undoes every Select, in reverse order, restoring the matrix as built.
func (m *Matrix) Reset() {
	for len(m.selected) > 0 {
		m.Unselect()
	}
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
	m.limit, m.visit, m.found, m.stop, m.broke = limit, visit, 0, false, false
	m.choice = m.choice[:0]
	start := m.stats.Nodes
	var err error
	if m.rng == nil {
		m.search(start)
	} else {
		m.searchRandom(start)
	}
	if m.broke {
		err = ErrBudget
	}
	m.visit = nil
	return m.found, err
}

// choose returns the active primary column with the fewest rows (Knuth's S
// heuristic; the first one on ties), or 0 if every primary column is
// covered. A column with zero or one row cannot be beaten, so the scan
// stops there.
func (m *Matrix) choose() int32 {
	nd := m.node
	best, min := int32(0), int32(math.MaxInt32)
	for c := nd[0].right; c != 0; c = nd[c].right {
		if s := m.size[c]; s < min {
			best, min = c, s
			if s <= 1 {
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
	if m.budget > 0 && m.stats.Nodes-start > m.budget {
		m.stop, m.broke = true, true
		return
	}
	c := m.choose()
	if c == 0 {
		m.solution()
		return
	}
	nd := m.node
	if m.size[c] == 0 {
		return
	}
	m.cover(c)
	k := len(m.choice)
	m.choice = append(m.choice, 0)
	for r := nd[c].down; r != c; r = nd[r].down {
		m.choice[k] = r
		for j := nd[r].right; j != r; j = nd[j].right {
			m.cover(nd[j].col)
		}
		m.search(start)
		for j := nd[r].left; j != r; j = nd[j].left {
			m.uncover(nd[j].col)
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
	if m.budget > 0 && m.stats.Nodes-start > m.budget {
		m.stop, m.broke = true, true
		return
	}
	c := m.choose()
	if c == 0 {
		m.solution()
		return
	}
	nd := m.node
	if m.size[c] == 0 {
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
	for _, r := range order {
		m.choice[k] = r
		for j := nd[r].right; j != r; j = nd[j].right {
			m.cover(nd[j].col)
		}
		m.searchRandom(start)
		for j := nd[r].left; j != r; j = nd[j].left {
			m.uncover(nd[j].col)
		}
		if m.stop {
			break
		}
	}
	m.choice = m.choice[:k]
	m.uncover(c)
}
