package kakuro

import "github.com/sudokuar/sudokuar/dlx"

// Kakuro as exact cover, a cross-check of the fast solver. Primary columns:
// one per white cell (exactly one digit), one per run (exactly one of its
// clue's combinations), one per run and digit d (d accounted for once: by
// the run's cell holding it, or by its combination leaving d out). Row
// (cell c, digit d) covers c and (r, d) for c's runs r; row (run r,
// combination m) covers r and (r, d) for each d not in m, so the run's
// cells then hold exactly m's digits.

// ExactCover is a board compiled to an exact-cover matrix.
type ExactCover struct {
	board  *Board
	m      *dlx.Matrix
	rowOf  []cellDigit // matrix row -> (cell, digit); digit 0 for combination rows
	whites []int
}

type cellDigit struct {
	cell  int // board index
	digit int
}

// NewExactCover validates b and builds its exact-cover matrix. Errors are
// *RuleError.
func NewExactCover(b *Board) (*ExactCover, error) {
	if err := Validate(b); err != nil {
		return nil, err
	}
	e := newEngine(b) // for the runs and the cells' starting candidates
	nc, nr := len(e.cellOf), len(e.runs)
	runCol := func(k int32) int { return nc + int(k) }
	digitCol := func(k int32, d int) int { return nc + nr + 9*int(k) + d - 1 }
	x := &ExactCover{board: b, m: dlx.New(nc+nr+9*nr, 0), whites: e.cellOf}
	for c, dom := range e.init {
		for d := 1; d <= 9; d++ {
			if dom&digitBit(d) == 0 {
				continue
			}
			cols := []int{c}
			for _, k := range e.cellRuns[c] {
				if k >= 0 {
					cols = append(cols, digitCol(k, d))
				}
			}
			x.m.AddRow(cols...)
			x.rowOf = append(x.rowOf, cellDigit{e.cellOf[c], d})
		}
	}
	for k, r := range e.runs {
		for _, set := range combos.sets[len(r.cells)][r.sum] {
			cols := []int{runCol(int32(k))}
			for d := 1; d <= 9; d++ {
				if set&digitBit(d) == 0 {
					cols = append(cols, digitCol(int32(k), d))
				}
			}
			x.m.AddRow(cols...)
			x.rowOf = append(x.rowOf, cellDigit{-1, 0})
		}
	}
	return x, nil
}

// Solve returns up to limit solutions and the search nodes visited.
func (x *ExactCover) Solve(limit int) ([]*Board, uint64) {
	var sols []*Board
	x.m.ResetStats()
	// Search fails only when a budget set by SetBudget runs out; none is
	// set on this matrix.
	_, _ = x.m.Search(limit, func(rows []int) bool {
		sol := x.board.Clone()
		for _, r := range rows {
			if cd := x.rowOf[r]; cd.cell >= 0 {
				sol.Cells[cd.cell].Digit = cd.digit
			}
		}
		sols = append(sols, sol)
		return true
	})
	return sols, x.m.Stats().Nodes
}

// SolveDLX returns up to limit solutions of b found by the exact-cover
// solver (limit 2 proves uniqueness).
func SolveDLX(b *Board, limit int) ([]*Board, error) {
	x, err := NewExactCover(b)
	if err != nil {
		return nil, err
	}
	sols, _ := x.Solve(limit)
	return sols, nil
}
