package ocr

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// MaxSide is the largest grid side the model can read: it knows the digits
// 1..9 only.
const MaxSide = 9

// ErrGridTooLarge is returned (wrapped) by Read for grids whose symbols go
// beyond 9 (10×10, 12×12, 16×16): the model has no classes for them.
var ErrGridTooLarge = errors.New("grid too large for the digit model (symbols 1..9 only)")

// Change is one correction made while making a reading consistent.
type Change struct {
	Cell     int    // row-major index
	From, To int    // value read before and after (0 = empty)
	Reason   string // why, in words, e.g. "5 twice in row 1 (r1c2, r1c7); r1c7 less sure (0.61 < 0.99)"
}

// Reading is what Read makes of a grid's cells.
type Reading struct {
	// Given is the puzzle as read after corrections (0 = empty).
	Given sudoku.Grid
	// Prob holds, per cell, the 10 class probabilities (index 0 = empty,
	// 1..9 the digits; digits above N are zeroed for smaller grids), or nil
	// for a cell vision found empty and that was not classified (Read only
	// classifies an empty cell when vision gave its pixels and the grid as
	// read has no unique solution).
	Prob [][]float32
	// Conf is, per cell, the probability of the value in Given; 1 for cells
	// vision found empty that Read left empty.
	Conf []float32
	// Changes lists the corrections, in the order they were made.
	Changes []Change
	// Solutions is how many solutions Given has: 0, 1, or 2 meaning "two or
	// more" (all real puzzles have exactly one).
	Solutions int
	// Turns is how many quarter turns clockwise the cell images were turned
	// to read the digits upright: 0 unless the page was photographed
	// sideways (1 or 3) or upside down (2). Given keeps the photo's layout
	// either way (a turned Sudoku is a Sudoku with the same solution, turned).
	Turns int
}

// Limits of the search for a uniquely solvable reading: how many
// alternative readings are tried, and how much work the solver may spend on
// each (a misread grid can be slow to refute).
const (
	maxTries     = 300
	searchBudget = 200000
	altFloor     = 1e-6 // alternatives less likely than this are not tried
	// maxCost bounds how much less likely (in log-probability) a corrected
	// reading may be than the reading it replaces: e^6 ≈ 400 times. Without
	// it the search "fixes" a grid by blanking confident cells.
	maxCost = 6.0
)

// Read classifies the non-empty cells of a grid of the given shape in one
// batch and makes the result consistent.
//
// Conflicts first: while two givens share a value in a row, column or box,
// the least confident cell in any conflict falls back to its next most
// likely class. Then, if the grid does not have exactly one solution, Read
// tries the alternatives of the least confident cells (single changes, then
// pairs, cheapest in probability first, at most maxTries grids, none more
// than e^maxCost times less likely than the reading) and keeps the first
// reading with a unique solution. Each correction is listed in
// Changes. A grid that stays unsolvable is returned as read, with Solutions
// saying so; that is not an error. Cells vision called empty but kept
// pixels for are classified only at that stage and may join the search.
//
// Turned pages: when the upright reading is unsure of its digits (mean top
// digit probability below 0.9) or breaks the rules, the cells are also read
// turned by one, two and three quarter turns (one more batch) and the surest
// turn is kept (Reading.Turns).
//
// Cost: one batch (two for a doubtful reading) plus at most maxTries
// solver runs, each with a bounded budget; about 40 ms on this project's
// machine for a grid of random readings, a few ms for a real one.
//
// cells must hold shape.N()² cells in row-major order (as vision cuts
// them). Errors: ErrGridTooLarge (wrapped) for N > 9, *InputError for bad
// cells, and the classifier's errors.
func Read(c Classifier, shape sudoku.Shape, cells []vision.Cell) (Reading, error) {
	n := shape.N()
	if n > MaxSide {
		return Reading{}, fmt.Errorf("read %v grid (%d×%d): %w", shape, n, n, ErrGridTooLarge)
	}
	if shape.BoxRows <= 0 || shape.BoxCols <= 0 {
		return Reading{}, fmt.Errorf("read grid: bad box shape %v", shape)
	}
	if len(cells) != n*n {
		return Reading{}, &InputError{Cell: len(cells), Reason: fmt.Sprintf("%d cells for a %d×%d grid", len(cells), n, n)}
	}
	var batch [][]float32
	var index []int
	for i, cell := range cells {
		if cell.Row != i/n || cell.Col != i%n {
			return Reading{}, &InputError{Cell: i, Reason: fmt.Sprintf("cell at r%dc%d, want r%dc%d (row-major order)", cell.Row+1, cell.Col+1, i/n+1, i%n+1)}
		}
		if !cell.Empty {
			batch = append(batch, cell.Pixels)
			index = append(index, i)
		}
	}
	probs, err := classify(c, batch)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.Cell < len(index) {
			i := index[ie.Cell]
			return Reading{}, &InputError{Cell: i, Reason: fmt.Sprintf("r%dc%d: %s", i/n+1, i%n+1, ie.Reason)}
		}
		return Reading{}, err
	}
	r := Reading{Given: sudoku.NewGrid(shape), Prob: make([][]float32, n*n), Conf: make([]float32, n*n)}
	if doubtful(probs, index, shape) {
		// Maybe the page is turned: read the cells turned each other way
		// (one batch) and keep the turn the model is surest about.
		var turned [][]float32
		for k := 1; k < 4; k++ {
			for _, px := range batch {
				turned = append(turned, TurnCell(px, k))
			}
		}
		more, err := classify(c, turned)
		if err != nil {
			return Reading{}, err
		}
		best := sureness(probs, n)
		for k := 1; k < 4; k++ {
			p := more[(k-1)*len(batch) : k*len(batch)]
			if s := sureness(p, n); s > best {
				best, probs, r.Turns = s, p, k
			}
		}
	}
	for i := range r.Conf {
		r.Conf[i] = 1
	}
	for k, i := range index {
		r.Prob[i] = restrict(probs[k], n)
	}
	res := newResolver(&r)
	res.resolveConflicts()
	if err := res.resolveSolutions(c, cells); err != nil {
		return Reading{}, err
	}
	return r, nil
}

// classify runs the classifier and checks the result's length.
func classify(c Classifier, batch [][]float32) ([][]float32, error) {
	probs, err := c.Classify(batch)
	if err != nil {
		return nil, fmt.Errorf("classify %d cells: %w", len(batch), err)
	}
	if len(probs) != len(batch) {
		return nil, fmt.Errorf("classifier returned %d results for %d cells", len(probs), len(batch))
	}
	return probs, nil
}

// doubtfulConf is the mean top digit probability below which a reading may
// come from a turned page. Upright readings of printed digits score above
// 0.97; turned digits are often called "empty" with confidence, so class 0
// does not count.
const doubtfulConf = 0.9

// doubtful reports whether an upright reading looks wrong: unsure of the
// digits on average, or with givens that break the rules.
func doubtful(probs [][]float32, index []int, shape sudoku.Shape) bool {
	if len(probs) == 0 {
		return false
	}
	n := shape.N()
	g := sudoku.NewGrid(shape)
	var sum float64
	for k, p := range probs {
		q := restrict(p, n)
		best, digit := 0, 1
		for v := range q {
			if q[v] > q[best] {
				best = v
			}
			if v > 0 && q[v] > q[digit] {
				digit = v
			}
		}
		g.Cells[index[k]] = best
		sum += float64(q[digit])
	}
	return sum/float64(len(probs)) < doubtfulConf || len(sudoku.Validate(g)) > 0
}

// sureness is the mean log of the top digit probability of a batch of
// readings. Class 0 is left out: vision saw ink in these cells, and a model
// that calls a turned digit "empty" is not sure of any digit.
func sureness(probs [][]float32, n int) float64 {
	var sum float64
	for _, p := range probs {
		q := restrict(p, n)
		best := float32(0)
		for _, v := range q[1:] {
			best = max(best, v)
		}
		sum += math.Log(float64(best) + 1e-12)
	}
	return sum / float64(len(probs))
}

// TurnCell returns a copy of a CellSize×CellSize image turned a quarter turn
// clockwise k times (k may be 0..3).
func TurnCell(px []float32, k int) []float32 {
	const s = vision.CellSize
	out := append([]float32(nil), px...)
	if len(px) != s*s {
		return out
	}
	for ; k%4 > 0; k-- {
		src := append([]float32(nil), out...)
		for r := 0; r < s; r++ {
			for c := 0; c < s; c++ {
				out[r*s+c] = src[(s-1-c)*s+r]
			}
		}
	}
	return out
}

// restrict zeroes the digits a grid of side n cannot hold and renormalises.
func restrict(p []float32, n int) []float32 {
	q := append([]float32(nil), p...)
	var sum float64
	for v := range q {
		if v > n {
			q[v] = 0
		}
		sum += float64(q[v])
	}
	if sum > 0 {
		for v := range q {
			q[v] = float32(float64(q[v]) / sum)
		}
	}
	return q
}

// resolver holds, per classified cell, its classes ranked by probability and
// which rank it currently uses.
type resolver struct {
	r     *Reading
	n     int
	rank  [][]int // classes by decreasing probability; nil for unclassified cells
	at    []int   // current rank per cell
	cells []int   // classified cells
}

func newResolver(r *Reading) *resolver {
	n := r.Given.N()
	s := &resolver{r: r, n: n, rank: make([][]int, n*n), at: make([]int, n*n)}
	for i, p := range r.Prob {
		if p == nil {
			continue
		}
		s.cells = append(s.cells, i)
		order := make([]int, 0, len(p))
		for v := 0; v < len(p) && v <= n; v++ {
			order = append(order, v)
		}
		sort.SliceStable(order, func(a, b int) bool { return p[order[a]] > p[order[b]] })
		s.rank[i] = order
		s.set(i, 0)
	}
	return s
}

// set makes cell i use its k-th ranked class.
func (s *resolver) set(i, k int) {
	s.at[i] = k
	v := s.rank[i][k]
	s.r.Given.Cells[i] = v
	s.r.Conf[i] = s.r.Prob[i][v]
}

func (s *resolver) name(i int) string { return fmt.Sprintf("r%dc%d", i/s.n+1, i%s.n+1) }

// resolveConflicts repeatedly moves the least confident cell involved in a
// conflict to its next class. Each step advances one cell's rank, so it ends
// after at most 10 steps per cell.
func (s *resolver) resolveConflicts() {
	for {
		conflicts := sudoku.Validate(s.r.Given)
		if len(conflicts) == 0 {
			return
		}
		worst, other, why := -1, -1, sudoku.Conflict{}
		for _, c := range conflicts {
			for _, pair := range [2][2]int{{c.A, c.B}, {c.B, c.A}} {
				i := pair[0]
				if s.rank[i] == nil || s.at[i]+1 >= len(s.rank[i]) {
					continue
				}
				if worst < 0 || s.r.Conf[i] < s.r.Conf[worst] {
					worst, other, why = i, pair[1], c
				}
			}
		}
		if worst < 0 {
			return // nothing left to move; the solver step will report it
		}
		from := s.r.Given.Cells[worst]
		s.set(worst, s.at[worst]+1)
		s.r.Changes = append(s.r.Changes, Change{
			Cell: worst, From: from, To: s.r.Given.Cells[worst],
			Reason: fmt.Sprintf("%v; %s less sure than %s (%.2f < %.2f)", why, s.name(worst), s.name(other), s.r.Prob[worst][from], s.r.Conf[other]),
		})
	}
}

// edit is one alternative reading of one cell and its cost in
// log-probability against the current reading.
type edit struct {
	cell, to int
	cost     float64
}

// resolveSolutions counts solutions and, unless there is exactly one,
// searches the cheapest alternatives for a reading that has one.
//
// Cells vision called empty but still handed pixels for (faint ink) are
// classified here, only when the grid lacks a unique solution, and join the
// search with their digits as alternatives to "empty".
func (s *resolver) resolveSolutions(c Classifier, cells []vision.Cell) error {
	sv, err := sudoku.NewSolver(s.r.Given.Shape)
	if err != nil {
		return nil // shapes the solver does not take are reported unsolved
	}
	sv.SetBudget(searchBudget)
	count := func(g sudoku.Grid) int {
		k, err := sv.Count(g, 2)
		if err != nil {
			return -1 // out of budget: treat as unknown, not as a fix
		}
		return k
	}
	s.r.Solutions = max(0, count(s.r.Given))
	if s.r.Solutions == 1 {
		return s.confirmFaint(c, cells, sv)
	}
	faint, err := s.classifyFaint(c, cells)
	if err != nil {
		return err
	}
	var edits []edit
	for _, i := range append(append([]int(nil), s.cells...), faint...) {
		cur := s.r.Given.Cells[i]
		pcur := s.r.Prob[i][cur]
		for _, v := range s.rank[i] {
			p := s.r.Prob[i][v]
			if v == cur || p < altFloor {
				continue
			}
			edits = append(edits, edit{i, v, math.Log(float64(pcur)+1e-12) - math.Log(float64(p))})
		}
	}
	sort.Slice(edits, func(a, b int) bool { return edits[a].cost < edits[b].cost })
	// Candidate sets: every single edit, then pairs among the cheapest.
	type trial struct {
		e    []edit
		cost float64
	}
	var trials []trial
	for _, e := range edits {
		if e.cost <= maxCost {
			trials = append(trials, trial{[]edit{e}, e.cost})
		}
	}
	top := edits[:min(len(edits), 24)]
	for a := range top {
		for b := a + 1; b < len(top); b++ {
			if top[a].cell != top[b].cell && top[a].cost+top[b].cost <= maxCost {
				trials = append(trials, trial{[]edit{top[a], top[b]}, top[a].cost + top[b].cost})
			}
		}
	}
	sort.SliceStable(trials, func(a, b int) bool { return trials[a].cost < trials[b].cost })
	g := s.r.Given.Clone()
	for k, t := range trials {
		if k >= maxTries {
			break
		}
		for _, e := range t.e {
			g.Cells[e.cell] = e.to
		}
		ok := len(sudoku.Validate(g)) == 0 && count(g) == 1
		for _, e := range t.e {
			g.Cells[e.cell] = s.r.Given.Cells[e.cell]
		}
		if !ok {
			continue
		}
		was := map[int]string{0: "no solution", 2: "several solutions"}[s.r.Solutions]
		for _, e := range t.e {
			from := s.r.Given.Cells[e.cell]
			for k, v := range s.rank[e.cell] {
				if v == e.to {
					s.set(e.cell, k)
				}
			}
			s.r.Changes = append(s.r.Changes, Change{
				Cell: e.cell, From: from, To: e.to,
				Reason: fmt.Sprintf("grid had %s; %s read as %d (p=%.2f) instead of %d (p=%.2f) gives a unique solution", was, s.name(e.cell), e.to, s.r.Prob[e.cell][e.to], from, s.r.Prob[e.cell][from]),
			})
		}
		s.r.Solutions = 1
		return nil
	}
	return nil
}

// faintConf is how sure the model must be of a faint cell's digit before
// confirmFaint takes it as a given.
const faintConf = 0.9

// confirmFaint looks at the cells vision called empty but kept faint ink for,
// once the reading already has a unique solution. A faded given the puzzle
// did not need for uniqueness would otherwise be lost from the reading. A
// faint cell becomes a given only when the model is sure of a digit and it
// is the digit the unique solution puts there, so a smudge read as a digit
// cannot change the answer.
func (s *resolver) confirmFaint(c Classifier, cells []vision.Cell, sv *sudoku.Solver) error {
	faint, err := s.classifyFaint(c, cells)
	if err != nil || len(faint) == 0 {
		return err
	}
	sol, err := sv.Solve(s.r.Given)
	if err != nil {
		return nil // out of budget: keep the reading as it is
	}
	for _, i := range faint {
		v := s.rank[i][0]
		if v == 0 || s.r.Prob[i][v] < faintConf || sol.Cells[i] != v {
			continue
		}
		s.set(i, 0)
		s.r.Changes = append(s.r.Changes, Change{
			Cell: i, From: 0, To: v,
			Reason: fmt.Sprintf("faint ink in %s read as %d (p=%.2f), the digit the unique solution puts there", s.name(i), v, s.r.Prob[i][v]),
		})
	}
	return nil
}

// classifyFaint classifies, in one batch and turned like the rest, the
// cells vision called empty but gave pixels for, and ranks their classes.
func (s *resolver) classifyFaint(c Classifier, cells []vision.Cell) ([]int, error) {
	var idx []int
	var batch [][]float32
	for i, cell := range cells {
		if cell.Empty && len(cell.Pixels) == CellLen {
			idx = append(idx, i)
			batch = append(batch, TurnCell(cell.Pixels, s.r.Turns))
		}
	}
	if len(batch) == 0 {
		return nil, nil
	}
	probs, err := classify(c, batch)
	if err != nil {
		return nil, err
	}
	for k, i := range idx {
		p := restrict(probs[k], s.n)
		s.r.Prob[i] = p
		order := make([]int, 0, s.n+1)
		for v := 0; v <= s.n; v++ {
			order = append(order, v)
		}
		sort.SliceStable(order, func(a, b int) bool { return p[order[a]] > p[order[b]] })
		s.rank[i] = order
		for k, v := range order {
			if v == 0 {
				s.at[i] = k // stays empty unless the search says otherwise
			}
		}
	}
	return idx, nil
}

// Guess is one class of a cell with its probability.
type Guess struct {
	Class int // 0 = empty, 1..9
	P     float32
}

// Top returns the k most likely classes of one cell's probabilities (as in
// Reading.Prob), most likely first; nil for an unclassified cell.
func Top(prob []float32, k int) []Guess {
	if prob == nil || k <= 0 {
		return nil
	}
	out := make([]Guess, len(prob))
	for v, p := range prob {
		out[v] = Guess{v, p}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].P > out[b].P })
	return out[:min(k, len(out))]
}
