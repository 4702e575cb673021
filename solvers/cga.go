package solvers

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/sudokuar/sudokuar/optimize"
	"github.com/sudokuar/sudokuar/sudoku"
)

// CGAParams tunes the cultural-genetic-algorithm solver. The zero value of
// a field picks the default (docs/performance.md, "Tuning", says how
// they were chosen).
type CGAParams struct {
	// NoSingles skips filling naked and hidden singles first.
	NoSingles bool
	// Population size (default 100), Elite kept unchanged each generation
	// (default 2), Tournament size for choosing parents (default 3).
	Population, Elite, Tournament int
	// Mutation is the probability a child is mutated (default 0.9);
	// Swaps is how many swaps a mutation makes at most (default 2).
	Mutation float64
	Swaps    int
	// Believe is the probability that breeding takes a box from the
	// parent whose box the belief space agrees with more, rather than
	// from either at random (default 0.5).
	Believe float64
	// RestartAfter generations without a better grid start all but the
	// best afresh (default 200).
	RestartAfter int
}

func (p CGAParams) withDefaults() CGAParams {
	if p.Population <= 1 {
		p.Population = 100
	}
	if p.Elite <= 0 {
		p.Elite = 2
	}
	if p.Tournament <= 0 {
		p.Tournament = 3
	}
	if p.Mutation <= 0 {
		p.Mutation = 0.9
	}
	if p.Swaps <= 0 {
		p.Swaps = 2
	}
	if p.Believe <= 0 {
		p.Believe = 0.5
	}
	if p.RestartAfter <= 0 {
		p.RestartAfter = 200
	}
	return p
}

// CGA solves with a cultural genetic algorithm (optimize.Evolve), as the
// Java seed describes it: random grids whose boxes are permutations of
// their missing values; children take whole boxes from one parent or the
// other; mutation swaps two free cells of a box; a belief space of what
// the best grids agree on steers both. Stochastic: it may run out of time,
// and then says how many conflicts its best grid still had.
type CGA struct {
	seed   uint64
	params CGAParams
}

// NewCGA returns a cultural-genetic-algorithm solver seeded by seed.
func NewCGA(seed uint64, params CGAParams) *CGA {
	return &CGA{seed: seed, params: params.withDefaults()}
}

// Name returns "cga".
func (*CGA) Name() string { return "cga" }

// Solve evolves grids until one solves g or ctx ends.
func (c *CGA) Solve(ctx context.Context, g sudoku.Grid) (Result, error) {
	start := time.Now()
	p, err := prepare(g, !c.params.NoSingles)
	if err != nil {
		return Result{}, err
	}
	if p.solved() {
		return solvedByPrep(c.Name(), g, p, start)
	}
	bp, err := newBoxPuzzle(p)
	if err != nil {
		return Result{}, err
	}
	prob := &cgaProblem{bp: bp, params: c.params, masks: make([]uint32, 2*bp.n)}
	res, err := optimize.Evolve(ctx, prob, optimize.EvolveConfig{
		Seed:         c.seed,
		Population:   c.params.Population,
		Elite:        c.params.Elite,
		Tournament:   c.params.Tournament,
		Mutation:     c.params.Mutation,
		RestartAfter: c.params.RestartAfter,
		Target:       0,
	})
	stats := Stats{Elapsed: time.Since(start), Iterations: uint64(res.Stats.Generations), Restarts: res.Stats.Restarts}
	if err != nil && !errors.Is(err, ctx.Err()) {
		return Result{Stats: stats}, err
	}
	return bp.finish(c.Name(), g, res.Best, res.Reached, stats, ctx.Err())
}

// cgaProblem is optimize.Evolvable over box-permutation grids: an
// individual is the grid's cells; its traits are the cells' values.
type cgaProblem struct {
	bp     *boxPuzzle
	params CGAParams
	masks  []uint32
}

func (c *cgaProblem) Random(rng *rand.Rand) []int {
	cells := append([]int(nil), c.bp.cells...)
	c.bp.fill(rng, cells)
	return cells
}

func (c *cgaProblem) Cost(cells []int) float64 { return float64(c.bp.cost(cells, c.masks)) }

func (c *cgaProblem) TraitSpace() (int, int) { return c.bp.n * c.bp.n, c.bp.n + 1 }

func (c *cgaProblem) Traits(cells, dst []int) { copy(dst, cells) }

// agreement returns how much the belief space agrees with the free cells
// of box b as cells fills them.
func (c *cgaProblem) agreement(cells []int, b int, bel *optimize.Belief) float64 {
	s := 0.0
	for _, i := range c.bp.free[b] {
		s += bel.Share(int(i), cells[i])
	}
	return s
}

// Breed takes each box whole from a or b: with probability Believe from
// the parent whose box the accepted grids agree with more, otherwise from
// either at random.
func (c *cgaProblem) Breed(rng *rand.Rand, child, a, b []int, bel *optimize.Belief) []int {
	if child == nil {
		child = make([]int, len(a))
	}
	copy(child, a)
	for _, box := range c.bp.swappable {
		var fromB bool
		if rng.Float64() < c.params.Believe {
			fromB = c.agreement(b, int(box), bel) > c.agreement(a, int(box), bel)
		} else {
			fromB = rng.IntN(2) == 0
		}
		if fromB {
			for _, i := range c.bp.free[box] {
				child[i] = b[i]
			}
		}
	}
	return child
}

// Mutate makes one to Swaps swaps inside random boxes. The first cell of a
// swap is the one, of two drawn, whose value fewer accepted grids share:
// the belief space points at what the good grids have not settled.
func (c *cgaProblem) Mutate(rng *rand.Rand, cells []int, bel *optimize.Belief) {
	bp := c.bp
	if len(bp.swappable) == 0 {
		return
	}
	swaps := 1 + rng.IntN(c.params.Swaps)
	for range swaps {
		free := bp.free[bp.swappable[rng.IntN(len(bp.swappable))]]
		x := free[rng.IntN(len(free))]
		if y := free[rng.IntN(len(free))]; bel.Share(int(y), cells[y]) < bel.Share(int(x), cells[x]) {
			x = y
		}
		for range 8 {
			y := free[rng.IntN(len(free))]
			if y != x && bp.canSwap(cells, x, y) {
				cells[x], cells[y] = cells[y], cells[x]
				break
			}
		}
	}
}
