package solvers

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/sudokuar/sudokuar/optimize"
	"github.com/sudokuar/sudokuar/sudoku"
)

// AnnealParams tunes the simulated-annealing solver. The zero value of a
// field picks the default, tuned on one puzzle set and reported on another
// (docs/performance.md, "Tuning").
type AnnealParams struct {
	// NoSingles skips filling naked and hidden singles before annealing.
	NoSingles bool
	// Cooling multiplies the temperature after each level (default 0.99).
	Cooling float64
	// ChainFactor sets the moves per temperature level to ChainFactor
	// times the square of the number of free cells, Lewis's chain length
	// being factor 1 (default 0.01).
	ChainFactor float64
	// ReheatAfter levels without improvement raise the temperature back
	// to the start (default 5).
	ReheatAfter int
	// RestartAfter fruitless reheats in a row start from a fresh random
	// state (default 4).
	RestartAfter int
	// Focus is how many cells a move may draw for its first cell until
	// it finds one whose value clashes in its row or column (default 6;
	// 1 is no focus: any free cell, as in Lewis's algorithm).
	Focus int
}

func (p AnnealParams) withDefaults() AnnealParams {
	if p.Cooling <= 0 {
		p.Cooling = 0.99
	}
	if p.ChainFactor <= 0 {
		p.ChainFactor = 0.01
	}
	if p.ReheatAfter <= 0 {
		p.ReheatAfter = 5
	}
	if p.RestartAfter <= 0 {
		p.RestartAfter = 4
	}
	if p.Focus <= 0 {
		p.Focus = 6
	}
	return p
}

// Anneal solves by simulated annealing (optimize.Anneal) over boxes kept
// as permutations of their missing values, moving by swapping two free
// cells of a box. It is stochastic: it may run out of time, and then says
// how many conflicts its best grid still had.
type Anneal struct {
	seed   uint64
	params AnnealParams
}

// NewAnneal returns a simulated-annealing solver seeded by seed.
func NewAnneal(seed uint64, params AnnealParams) *Anneal {
	return &Anneal{seed: seed, params: params.withDefaults()}
}

// Name returns "anneal".
func (*Anneal) Name() string { return "anneal" }

// Solve anneals until g is solved or ctx ends.
func (a *Anneal) Solve(ctx context.Context, g sudoku.Grid) (Result, error) {
	start := time.Now()
	p, err := prepare(g, !a.params.NoSingles)
	if err != nil {
		return Result{}, err
	}
	if p.solved() {
		return solvedByPrep(a.Name(), g, p, start)
	}
	bp, err := newBoxPuzzle(p)
	if err != nil {
		return Result{}, err
	}
	st := newAnnealState(bp)
	st.focus = a.params.Focus
	moves := max(10, int(a.params.ChainFactor*float64(bp.nfree*bp.nfree)))
	res, err := optimize.Anneal(ctx, st, optimize.AnnealConfig{
		Seed:         a.seed,
		Cooling:      a.params.Cooling,
		Moves:        moves,
		ReheatAfter:  a.params.ReheatAfter,
		RestartAfter: a.params.RestartAfter,
		Target:       0,
	})
	stats := Stats{Elapsed: time.Since(start), Iterations: res.Stats.Moves, Restarts: res.Stats.Restarts + res.Stats.Reheats}
	if err != nil && !errors.Is(err, ctx.Err()) {
		return Result{Stats: stats}, err
	}
	return bp.finish(a.Name(), g, res.Best, res.Reached, stats, ctx.Err())
}

// solvedByPrep returns the grid singles alone filled.
func solvedByPrep(name string, g sudoku.Grid, p *prepared, start time.Time) (Result, error) {
	sol := sudoku.Grid{Shape: g.Shape, Cells: append([]int(nil), p.cells...)}
	if err := Check(g, sol); err != nil {
		return Result{}, err
	}
	return Result{Solution: sol, Stats: Stats{Elapsed: time.Since(start)}}, nil
}

// annealState is a grid being annealed: optimize.Annealable over
// box-permutation grids, with the count of each value in each row and
// column so a swap's change in cost is found in a few steps.
type annealState struct {
	bp     *boxPuzzle
	cells  []int
	rowCnt []int16 // rowCnt[r*(n+1)+v]: cells of row r holding v
	colCnt []int16
	a, b   int32 // the proposed swap; a < 0: none
	focus  int
}

func newAnnealState(bp *boxPuzzle) *annealState {
	n := bp.n
	return &annealState{bp: bp, cells: append([]int(nil), bp.cells...), rowCnt: make([]int16, n*(n+1)), colCnt: make([]int16, n*(n+1)), a: -1}
}

func (s *annealState) Randomize(rng *rand.Rand) {
	s.bp.fill(rng, s.cells)
	n := s.bp.n
	clear(s.rowCnt)
	clear(s.colCnt)
	for i, v := range s.cells {
		s.rowCnt[int(s.bp.row[i])*(n+1)+v]++
		s.colCnt[int(s.bp.col[i])*(n+1)+v]++
	}
}

func (s *annealState) Cost() float64 {
	n := s.bp.n
	missing := 0
	for u := range n {
		for v := 1; v <= n; v++ {
			if s.rowCnt[u*(n+1)+v] == 0 {
				missing++
			}
			if s.colCnt[u*(n+1)+v] == 0 {
				missing++
			}
		}
	}
	return float64(missing)
}

// Propose picks a box and two of its free cells that may swap (a few
// tries; none found is a move that changes nothing).
func (s *annealState) Propose(rng *rand.Rand) float64 {
	bp := s.bp
	s.a = -1
	if len(bp.swappable) == 0 {
		return 0
	}
	n1 := bp.n + 1
	for range 8 {
		var free []int32
		var x int
		for range s.focus {
			free = bp.free[bp.swappable[rng.IntN(len(bp.swappable))]]
			x = rng.IntN(len(free))
			i, v := free[x], s.cells[free[x]]
			if s.rowCnt[int(bp.row[i])*n1+v] > 1 || s.colCnt[int(bp.col[i])*n1+v] > 1 {
				break
			}
		}
		y := rng.IntN(len(free) - 1)
		if y >= x {
			y++
		}
		i, j := free[x], free[y]
		if !bp.canSwap(s.cells, i, j) {
			continue
		}
		s.a, s.b = i, j
		return float64(s.delta(i, j))
	}
	return 0
}

// delta returns the change in missing values if cells i and j swapped.
func (s *annealState) delta(i, j int32) int {
	n1 := s.bp.n + 1
	v1, v2 := s.cells[i], s.cells[j]
	d := 0
	// unit u loses value v: one more missing if it held it once; gains
	// value w: one fewer missing if it held it not at all.
	change := func(cnt []int16, u int, lose, gain int) {
		if cnt[u*n1+lose] == 1 {
			d++
		}
		if cnt[u*n1+gain] == 0 {
			d--
		}
	}
	if r1, r2 := int(s.bp.row[i]), int(s.bp.row[j]); r1 != r2 {
		change(s.rowCnt, r1, v1, v2)
		change(s.rowCnt, r2, v2, v1)
	}
	if c1, c2 := int(s.bp.col[i]), int(s.bp.col[j]); c1 != c2 {
		change(s.colCnt, c1, v1, v2)
		change(s.colCnt, c2, v2, v1)
	}
	return d
}

func (s *annealState) Accept() {
	if s.a < 0 {
		return
	}
	n1 := s.bp.n + 1
	i, j := s.a, s.b
	v1, v2 := s.cells[i], s.cells[j]
	r1, r2 := int(s.bp.row[i]), int(s.bp.row[j])
	c1, c2 := int(s.bp.col[i]), int(s.bp.col[j])
	s.rowCnt[r1*n1+v1]--
	s.rowCnt[r1*n1+v2]++
	s.rowCnt[r2*n1+v2]--
	s.rowCnt[r2*n1+v1]++
	s.colCnt[c1*n1+v1]--
	s.colCnt[c1*n1+v2]++
	s.colCnt[c2*n1+v2]--
	s.colCnt[c2*n1+v1]++
	s.cells[i], s.cells[j] = v2, v1
	s.a = -1
}

func (s *annealState) State() []int { return append([]int(nil), s.cells...) }
