package ocr

import (
	"container/heap"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Limits and thresholds of the repair search and the doubt check. Costs are
// in log-probability: a reading of cost c is e^c times less likely than the
// most likely one.
const (
	// maxCost bounds how much less likely than the most likely reading a
	// repaired one may be: e^8 ≈ 3000 times. Without a bound the search
	// "fixes" a grid by blanking or rewriting confident cells.
	maxCost = 8.0
	// faintCost is added for reading a digit into a cell vision called
	// empty (too little or too faint ink): the cutter's judgement counts
	// as evidence, e^3 ≈ 20 to 1 for "empty".
	faintCost = 3.0
	// maxEdits is the most cells one repair changes.
	maxEdits = 3
	// maxEditList is how many of the cheapest single-cell alternatives the
	// search combines.
	maxEditList = 150
	// maxTries bounds the readings the search looks at, and maxSolves the
	// solver runs among them (the rest break a rule, which is cheap to see).
	maxTries  = 4000
	maxSolves = 150
	// maxChecks bounds the solver runs of the doubt check.
	maxChecks = 150
	// editFloor: the search leaves out alternatives less likely than this
	// share of the value read (maxCost bounds them anyway).
	editFloor = 1e-6
	// searchBudget bounds one solver run (a misread grid can be slow to
	// refute); a run out of budget counts as "not unique".
	searchBudget = 20000
	// faintConf is how sure the model must be of a faint cell's digit
	// before confirmFaint takes it as a given.
	faintConf = 0.9
)

// Bounds of the wide repair (see resolver.wide). sureTiers: confidences from
// which a given is kept as read (the lower tried first). An unsure given may
// take values within wideCellCost of the one read (e^2.5, about 12 times less
// likely; empty among them). wideLeaves, wideNodes, wideSolves and wideBudget
// bound the readings listed, their search, the solver runs and each run's
// nodes; their cost is in performance.md (BenchmarkWideRepair).
var sureTiers = []float64{0.9, 0.99}

// wideMinSide is the smallest grid the wide repair is for: three edits are
// a far larger share of a 9×9's givens than of a 16×16's, and on 9×9 webcam
// frames it found readings changing four to six givens, too many to trust.
const wideMinSide = 12

const (
	wideCellCost = 2.5
	wideLeaves   = 5000
	wideNodes    = 100000
	wideSolves   = 300
	wideBudget   = 2000
)

// Settings are the thresholds of the repair and the doubt check.
type Settings struct {
	// AcceptMargin is how much more likely (in log-probability) a reading
	// must be than any other reading with a unique and different solution
	// to be taken without doubt.
	AcceptMargin float64
	// AltFloor: the doubt check looks at the other values of a given that
	// are at least this share as likely as the value read.
	AltFloor float64
	// CheckBelow is the confidence under which a given is always listed in
	// Reading.Doubt, whatever the rules say.
	CheckBelow float64
	// SecondLook: cells whose top glyph probability is below this are read
	// again from their half-way view (vision.Cell.Half) and the two
	// readings combined (0: never).
	SecondLook float64
	// LookCertainBelow: a reading that is already certain without the
	// second look (one solution, nothing to check) gets it only when some
	// given is under this sure, for there the half-way view may still
	// disagree and put the cell in doubt; a reading whose givens are all
	// at least this sure is kept as read (1: always look).
	LookCertainBelow float64
	// Pen, when set, is the pen model (NewPen, DefaultPen): it tells
	// printed digits from handwritten ones, pencil notes and unclear ink
	// before the digits are read, and the cells it calls anything but
	// printed or empty never become givens. It reads 9×9 grids, upright
	// (other sizes are read without it). nil reads every digit as
	// printed.
	Pen Classifier
	// entries are a pen page's handwritten digits (Reading.EntryProb),
	// set by readPrinted: a rival reading whose solution they rule out
	// is no doubt (rivalRuledOut). nil: no entries to weigh.
	entries [][]float32
}

// DefaultSettings are the thresholds Read uses, one rule in two places: a
// reading is taken as certain only when every other reading that also has
// a unique solution is at least e^4.6 ≈ 100 times less likely (AltFloor
// 0.01 for one cell, AcceptMargin for a repair), and no given is under
// CheckBelow. Chosen by a sweep over real photos (docs/performance.md,
// Tuning; models/README.md).
var DefaultSettings = Settings{AcceptMargin: 4.6, AltFloor: 0.01, CheckBelow: 0.5, SecondLook: 0.999, LookCertainBelow: 0.95}

// resolver repairs and checks one Reading.
type resolver struct {
	set    Settings
	r      *Reading
	n      int
	faint  map[int]bool // cells vision called empty but gave ink for
	sv     *sudoku.Solver
	solves int
	// wideSolves is how many solver runs the wide repair made.
	wideSolves int
	// solution is the reading's own solution once check needed it.
	solution []int
}

func newResolver(r *Reading, faint []int, set Settings) *resolver {
	s := &resolver{set: set, r: r, n: r.Given.N(), faint: map[int]bool{}}
	for _, i := range faint {
		s.faint[i] = true
	}
	for i, p := range r.Prob {
		if p == nil {
			continue
		}
		v := 0
		if !s.faint[i] {
			v = argmax(p)
		}
		s.r.Given.Cells[i] = v
		s.r.Conf[i] = p[v]
	}
	if sv, err := sudoku.NewSolver(r.Given.Shape); err == nil {
		sv.SetBudget(searchBudget)
		s.sv = sv
	}
	return s
}

func argmax(p []float32) int {
	best := 0
	for v := range p {
		if p[v] > p[best] {
			best = v
		}
	}
	return best
}

func (s *resolver) name(i int) string { return sudoku.CellName(i, s.n) }

// count returns the number of solutions of g (0, 1 or 2 = several), or -1
// when the solver's budget ran out or there is no solver.
func (s *resolver) count(g sudoku.Grid) int {
	if s.sv == nil {
		return -1
	}
	s.solves++
	k, err := s.sv.Count(g, 2)
	if err != nil {
		return -1
	}
	return k
}

// valid reports whether g breaks no rule (no value twice in a unit).
func valid(g sudoku.Grid) bool {
	u := newUnits(g.Shape)
	for i, v := range g.Cells {
		if !u.place(i, v) {
			return false
		}
	}
	return true
}

// units holds the values placed in each row, column and box of a grid,
// one bit a value, so that a value twice in a unit is seen at once.
type units struct {
	n, br, bc         int
	rows, cols, boxes []uint64
}

func newUnits(sh sudoku.Shape) units {
	n := sh.N()
	return units{n: n, br: sh.BoxRows, bc: sh.BoxCols, rows: make([]uint64, n), cols: make([]uint64, n), boxes: make([]uint64, n)}
}

func (u *units) of(i int) (r, c, b int) {
	r, c = i/u.n, i%u.n
	return r, c, (r/u.br)*(u.n/u.bc) + c/u.bc
}

// place puts v in cell i unless it clashes; an empty cell (v <= 0)
// always fits.
func (u *units) place(i, v int) bool {
	if v <= 0 {
		return true
	}
	r, c, b := u.of(i)
	bit := uint64(1) << uint(v)
	if (u.rows[r]|u.cols[c]|u.boxes[b])&bit != 0 {
		return false
	}
	u.rows[r] |= bit
	u.cols[c] |= bit
	u.boxes[b] |= bit
	return true
}

// remove takes back a value place put in cell i.
func (u *units) remove(i, v int) {
	if v <= 0 {
		return
	}
	r, c, b := u.of(i)
	bit := uint64(1) << uint(v)
	u.rows[r] &^= bit
	u.cols[c] &^= bit
	u.boxes[b] &^= bit
}

// edit is one alternative value of one cell and its cost against the value
// the most likely reading has there.
type edit struct {
	cell, to int
	cost     float64
}

// cost of reading value v in cell i, against the value most likely there.
func (s *resolver) editCost(i, from, v int) float64 {
	p := s.r.Prob[i]
	c := math.Log(float64(p[from])+1e-12) - math.Log(float64(p[v])+1e-12)
	if s.faint[i] && from == 0 && v != 0 {
		c += faintCost
	}
	return c
}

// subset is a set of edits (indices into the sorted edit list, increasing)
// with its total cost; the heap hands them out cheapest first.
type subset struct {
	idx  []int
	cost float64
}

type subsetHeap []subset

func (h subsetHeap) Len() int           { return len(h) }
func (h subsetHeap) Less(a, b int) bool { return h[a].cost < h[b].cost }
func (h subsetHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *subsetHeap) Push(x any)        { *h = append(*h, x.(subset)) }
func (h *subsetHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// candidate is a reading that breaks no rule and has one solution.
type candidate struct {
	edits    []edit
	cost     float64
	solution []int
}

// repair searches readings in order of joint probability (cheapest set of
// edits first, the unchanged reading being the first) for those that break
// no rule and have exactly one solution. It keeps the cheapest, provided
// no reading with a different solution comes within AcceptMargin of it; the
// cells where such a rival differs go to Doubt. Readings with no unique
// solution within the limits are left as read.
func (s *resolver) repair() {
	base := s.r.Given.Clone()
	found := s.search(base, s.candidateEdits(base))
	if len(found) == 0 && s.n >= wideMinSide {
		found = s.wide(base)
	}
	if len(found) == 0 {
		s.r.Solutions = max(0, s.count(base))
		return
	}
	s.applyBest(base, found)
	s.r.Solutions = 1
	s.doubtRivals(base, found)
}

// wide repairs a reading with more misread givens than maxEdits (a blurred
// 16×16 in a thin font). For each of sureTiers it keeps the givens read that
// surely and lists readings of the others (values within wideCellCost, no
// rule broken, cost at most maxCost, cheapest first), then asks the solver
// which have one solution, up to AcceptMargin beyond the first. Costs are
// log-probabilities, so applyBest and doubtRivals judge them as the search's.
func (s *resolver) wide(base sudoku.Grid) []candidate {
	if s.sv == nil {
		return nil
	}
	start := s.solves
	s.sv.SetBudget(wideBudget)
	defer func() {
		s.sv.SetBudget(searchBudget)
		s.wideSolves = s.solves - start
	}()
	end := start + wideSolves
	for _, tier := range sureTiers {
		w := s.wideCells(base, tier)
		if w == nil {
			continue
		}
		var found []candidate
		g := base.Clone()
		for _, c := range w.readings(maxCost) {
			if len(found) > 0 && c.cost > found[0].cost+s.set.AcceptMargin || s.solves >= end {
				break
			}
			for _, e := range c.edits {
				g.Cells[e.cell] = e.to
			}
			if s.count(g) == 1 {
				if sol, err := s.sv.Solve(g); err == nil {
					c.solution = sol.Cells
					found = append(found, c)
				}
			}
			for _, e := range c.edits {
				g.Cells[e.cell] = base.Cells[e.cell]
			}
		}
		if len(found) > 0 {
			return found
		}
	}
	return nil
}

// wideSearch is the state of the wide repair's search over the unsure
// givens' values.
type wideSearch struct {
	units           // the kept givens and the values chosen so far
	cells  []int    // the unsure givens
	opts   [][]edit // per unsure given, its values within wideCellCost, cheapest first (the value read first, at cost 0)
	chosen []edit
	out    []candidate
	nodes  int
}

// wideCells sets up the search: the givens read less surely than tier
// are unsure, the others kept; nil when there are none or the kept ones
// break a rule.
func (s *resolver) wideCells(base sudoku.Grid, tier float64) *wideSearch {
	w := &wideSearch{units: newUnits(base.Shape)}
	for i, p := range s.r.Prob {
		from := base.Cells[i]
		if from == 0 {
			continue
		}
		if p == nil || float64(p[from]) >= tier {
			if !w.place(i, from) {
				return nil
			}
			continue
		}
		o := []edit{{i, from, 0}}
		for v := range p {
			if c := s.editCost(i, from, v); v != from && c <= wideCellCost {
				o = append(o, edit{i, v, c})
			}
		}
		sort.SliceStable(o, func(a, b int) bool { return o[a].cost < o[b].cost })
		w.cells = append(w.cells, i)
		w.opts = append(w.opts, o)
	}
	if len(w.cells) == 0 {
		return nil
	}
	return w
}

// readings lists the readings of the unsure givens that break no rule and
// cost at most bound, cheapest first (at most wideLeaves of them), the
// reading as read left out.
func (w *wideSearch) readings(bound float64) []candidate {
	w.walk(0, 0, bound)
	sort.SliceStable(w.out, func(a, b int) bool { return w.out[a].cost < w.out[b].cost })
	return w.out
}

func (w *wideSearch) walk(k int, cost, bound float64) {
	w.nodes++
	if len(w.out) >= wideLeaves || w.nodes > wideNodes {
		return
	}
	if k == len(w.cells) {
		if len(w.chosen) > 0 {
			w.out = append(w.out, candidate{edits: append([]edit(nil), w.chosen...), cost: cost})
		}
		return
	}
	i := w.cells[k]
	for j, e := range w.opts[k] {
		if cost+e.cost > bound {
			break
		}
		if !w.place(i, e.to) {
			continue
		}
		if j > 0 {
			w.chosen = append(w.chosen, e)
		}
		w.walk(k+1, cost+e.cost, bound)
		if j > 0 {
			w.chosen = w.chosen[:len(w.chosen)-1]
		}
		w.remove(i, e.to)
	}
}

// candidateEdits lists the alternative values worth trying, cheapest
// first: those within editFloor of the value read and maxCost of it, at
// most maxEditList of them.
func (s *resolver) candidateEdits(base sudoku.Grid) []edit {
	var edits []edit
	for i, p := range s.r.Prob {
		if p == nil {
			continue
		}
		from := base.Cells[i]
		for v := range p {
			if v == from || float64(p[v]) < editFloor*float64(p[from]) {
				continue
			}
			if c := s.editCost(i, from, v); c <= maxCost {
				edits = append(edits, edit{i, v, c})
			}
		}
	}
	sort.SliceStable(edits, func(a, b int) bool { return edits[a].cost < edits[b].cost })
	if len(edits) > maxEditList {
		edits = edits[:maxEditList]
	}
	return edits
}

// search tries sets of edits on base, cheapest first, until the limits or
// the margin behind the first unique reading, and returns the unique
// readings found (cheapest first). It sets r.Tries.
func (s *resolver) search(base sudoku.Grid, edits []edit) []candidate {
	var found []candidate
	g := base.Clone()
	// The unchanged reading first: most grids stop here, unique, with no
	// rival within the margin possible (checked below by the same loop).
	h := &subsetHeap{{idx: nil, cost: 0}}
	tries := 0
	for h.Len() > 0 && tries < maxTries && s.solves < maxSolves {
		sub := heap.Pop(h).(subset)
		if sub.cost > maxCost || (len(found) > 0 && sub.cost > found[0].cost+s.set.AcceptMargin) {
			break
		}
		pushSuccessors(h, sub, edits)
		if !distinctCells(sub, edits) {
			continue
		}
		tries++
		if c, ok := s.tryEdits(g, base, sub, edits); ok {
			found = append(found, c)
		}
	}
	s.r.Tries = tries
	return found
}

// pushSuccessors adds sub's successors to h: sub with the next edit
// added, and sub with its last edit moved on to the next.
func pushSuccessors(h *subsetHeap, sub subset, edits []edit) {
	last := -1
	if len(sub.idx) > 0 {
		last = sub.idx[len(sub.idx)-1]
	}
	if last+1 >= len(edits) {
		return
	}
	if len(sub.idx) < maxEdits {
		next := append(append([]int(nil), sub.idx...), last+1)
		heap.Push(h, subset{next, sub.cost + edits[last+1].cost})
	}
	if last >= 0 {
		moved := append(append([]int(nil), sub.idx[:len(sub.idx)-1]...), last+1)
		heap.Push(h, subset{moved, sub.cost - edits[last].cost + edits[last+1].cost})
	}
}

// distinctCells reports whether no two of sub's edits touch the same cell.
func distinctCells(sub subset, edits []edit) bool {
	for a, x := range sub.idx {
		for _, y := range sub.idx[a+1:] {
			if edits[x].cell == edits[y].cell {
				return false
			}
		}
	}
	return true
}

// tryEdits applies sub's edits to g (a copy of base, restored before it
// returns) and returns the reading as a candidate when it breaks no rule
// and has one solution.
func (s *resolver) tryEdits(g, base sudoku.Grid, sub subset, edits []edit) (candidate, bool) {
	for _, x := range sub.idx {
		g.Cells[edits[x].cell] = edits[x].to
	}
	defer func() {
		for _, x := range sub.idx {
			g.Cells[edits[x].cell] = base.Cells[edits[x].cell]
		}
	}()
	if !valid(g) || s.count(g) != 1 {
		return candidate{}, false
	}
	c := candidate{cost: sub.cost}
	for _, x := range sub.idx {
		c.edits = append(c.edits, edits[x])
	}
	if sol, err := s.sv.Solve(g); err == nil {
		c.solution = sol.Cells
	}
	return c, true
}

// whyRepaired says what was wrong with the reading as read: the first
// broken rule, or how many solutions it had.
func (s *resolver) whyRepaired(base sudoku.Grid) string {
	if conf := sudoku.Validate(base); len(conf) > 0 {
		return conf[0].String()
	}
	switch s.count(base) {
	case 0:
		return "grid had no solution"
	case 2:
		return "grid had several solutions"
	}
	return "grid had no unique solution within the solver's budget"
}

// applyBest writes the cheapest unique reading's edits into r.Given, each
// with its confidence (its share of the probability of the unique
// readings found) and a Change saying why.
func (s *resolver) applyBest(base sudoku.Grid, found []candidate) {
	best := found[0]
	was := ""
	if len(best.edits) > 0 {
		was = s.whyRepaired(base)
	}
	var z float64
	for _, c := range found {
		z += math.Exp(-(c.cost - best.cost))
	}
	for _, e := range best.edits {
		from := base.Cells[e.cell]
		s.r.Given.Cells[e.cell] = e.to
		share := 0.0
		for _, c := range found {
			if valueIn(c, e.cell, base) == e.to {
				share += math.Exp(-(c.cost - best.cost))
			}
		}
		// At most as sure as the new value is likely next to the
		// reader's likeliest one: the search sees only readings within a
		// few edits of the one read, so a unique reading it finds by
		// taking values the model gave little chance (a 12×12 read far
		// away, 8 at p=0.05 for 4 at p=0.41) may be the only one found
		// and still wrong. The likeliest, not the value taken: a faint
		// cell is taken as empty, and a printed 9 read there at p=0.9999
		// and "repaired" into an 8 at p=5e-5 was shown sure.
		conf := share / z
		if pf := float64(slices.Max(s.r.Prob[e.cell])); pf > 0 {
			conf = min(conf, float64(s.r.Prob[e.cell][e.to])/pf)
		}
		s.r.Conf[e.cell] = float32(conf)
		s.r.Changes = append(s.r.Changes, Change{
			Cell: e.cell, From: from, To: e.to,
			Reason: fmt.Sprintf("%s; %s read as %d (p=%.2f) instead of %d (p=%.2f) gives the most likely unique solution", was, s.name(e.cell), e.to, s.r.Prob[e.cell][e.to], from, s.r.Prob[e.cell][from]),
		})
	}
}

// doubtRivals marks the cells of rivals: unique readings with another
// solution within the margin of the best. The cells to check are those
// the rival reads as another value (a given it merely leaves out cannot be
// what changes the solution), or every cell it differs in if there are
// none.
func (s *resolver) doubtRivals(base sudoku.Grid, found []candidate) {
	best := found[0]
	for _, c := range found[1:] {
		if c.cost > best.cost+s.set.AcceptMargin || sameCells(c.solution, best.solution) || s.rivalRuledOut(best.solution, c.solution) {
			continue
		}
		for _, i := range s.rivalCells(c, base) {
			alt, v := valueIn(c, i, base), s.r.Given.Cells[i]
			s.doubt(i, alt, fmt.Sprintf("read %s (p=%.2f); reading %s instead (p=%.2g) also gives a unique solution, only %.3g times less likely",
				s.symbol(v), s.r.Prob[i][v], s.symbol(alt), s.r.Prob[i][alt], math.Exp(c.cost-best.cost)))
		}
	}
}

// rivalCells returns the cells where rival c reads another value than
// r.Given: those where it reads a digit, or all of them if it only leaves
// givens out.
func (s *resolver) rivalCells(c candidate, base sudoku.Grid) []int {
	var diff, nonEmpty []int
	for i := range s.r.Given.Cells {
		if alt := valueIn(c, i, base); alt != s.r.Given.Cells[i] {
			diff = append(diff, i)
			if alt != 0 {
				nonEmpty = append(nonEmpty, i)
			}
		}
	}
	if len(nonEmpty) > 0 {
		return nonEmpty
	}
	return diff
}

// ruledOutBy reports whether the player's entries rule out g, a reading
// with one solution, as a rival of the reading's own (rivalRuledOut).
func (s *resolver) ruledOutBy(g sudoku.Grid) bool {
	if s.set.entries == nil || s.sv == nil {
		return false
	}
	if s.solution == nil {
		s.solves++
		sol, err := s.sv.Solve(s.r.Given)
		if err != nil {
			return false
		}
		s.solution = sol.Cells
	}
	s.solves++
	rival, err := s.sv.Solve(g)
	if err != nil {
		return false
	}
	return s.rivalRuledOut(s.solution, rival.Cells)
}

// valueIn returns the value candidate c reads in cell i.
func valueIn(c candidate, i int, base sudoku.Grid) int {
	for _, e := range c.edits {
		if e.cell == i {
			return e.to
		}
	}
	return base.Cells[i]
}

func sameCells(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// symbol writes value v for a message ("empty" for 0).
func (s *resolver) symbol(v int) string {
	if v == 0 {
		return "empty"
	}
	return s.r.Symbols.Symbol(v)
}

// doubt lists cell i in Doubt once.
func (s *resolver) doubt(i, alt int, reason string) {
	for _, d := range s.r.Doubt {
		if d.Cell == i {
			return
		}
	}
	s.r.Doubt = append(s.r.Doubt, Doubt{Cell: i, Value: s.r.Given.Cells[i], Alt: alt, Reason: reason})
}

// confirmFaint looks at the faint cells once the reading has a unique
// solution. A faded given the puzzle did not need for uniqueness would
// otherwise be lost from the reading. A faint cell becomes a given only
// when the model is sure of a digit and it is the digit the unique solution
// puts there, so a smudge read as a digit cannot change the answer.
func (s *resolver) confirmFaint() {
	if s.r.Solutions != 1 || len(s.faint) == 0 || s.sv == nil {
		return
	}
	sol, err := s.sv.Solve(s.r.Given)
	if err != nil {
		return
	}
	cells := make([]int, 0, len(s.faint))
	for i := range s.faint {
		cells = append(cells, i)
	}
	sort.Ints(cells)
	for _, i := range cells {
		p := s.r.Prob[i]
		v := argmax(p)
		if s.r.Given.Cells[i] != 0 || v == 0 || p[v] < faintConf || sol.Cells[i] != v {
			continue
		}
		s.r.Given.Cells[i] = v
		s.r.Conf[i] = p[v]
		s.r.Changes = append(s.r.Changes, Change{
			Cell: i, From: 0, To: v,
			Reason: fmt.Sprintf("faint ink in %s read as %d (p=%.2f), the digit the unique solution puts there", s.name(i), v, p[v]),
		})
	}
}

// check lists the givens of a solved reading that need a look: those the
// reading is less than CheckBelow sure of, and those for which another
// value (at least AltFloor as likely) also gives a unique solution. Only a
// changed given can give another solution: a given missed or a smudge read
// as one leaves a unique solution unchanged or makes it impossible.
func (s *resolver) check() {
	if s.r.Solutions != 1 {
		return
	}
	g := s.r.Given.Clone()
	// The check's own solver runs come after the search's and the wide
	// repair's.
	end := maxSolves + s.wideSolves + maxChecks
	for i, v := range s.r.Given.Cells {
		p := s.r.Prob[i]
		if v == 0 || p == nil {
			continue
		}
		if s.r.Conf[i] < float32(s.set.CheckBelow) {
			s.doubt(i, -1, fmt.Sprintf("read %s, only %.0f%% sure", s.symbol(v), 100*s.r.Conf[i]))
			continue
		}
		var alts []int
		for w := 1; w < len(p); w++ {
			if w == v || float64(p[w]) < s.set.AltFloor*float64(p[v]) {
				continue
			}
			g.Cells[i] = w
			if valid(g) {
				alts = append(alts, w)
			}
		}
		g.Cells[i] = v
		if len(alts) == 0 {
			continue
		}
		if s.solves >= end {
			s.doubt(i, -1, fmt.Sprintf("read %s (p=%.2f); the check of its alternatives ran out of budget", s.symbol(v), p[v]))
			continue
		}
		// Without this given, does the grid still have one solution? Then
		// no other value here can give any (one solver run for all).
		g.Cells[i] = 0
		forced := s.count(g) == 1
		g.Cells[i] = v
		if forced {
			continue
		}
		for _, w := range alts {
			g.Cells[i] = w
			if s.count(g) == 1 && !s.ruledOutBy(g) {
				s.doubt(i, w, fmt.Sprintf("read %s (p=%.2f); %s (p=%.2g) would also give a unique solution",
					s.symbol(v), p[v], s.symbol(w), p[w]))
			}
			g.Cells[i] = v
			if len(s.r.Doubt) > 0 && s.r.Doubt[len(s.r.Doubt)-1].Cell == i {
				break
			}
		}
	}
	sort.Slice(s.r.Doubt, func(a, b int) bool { return s.r.Doubt[a].Cell < s.r.Doubt[b].Cell })
}
