package sudoku

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/sudokuar/sudokuar/dlx"
)

// Search budgets for generation, in search nodes (DLX nodes; for 9×9
// uniqueness checks, propagations of the bit-parallel engine, which needs
// far fewer). A full random grid takes a few hundred nodes even at 25x25;
// a uniqueness check on a nearly-full grid a handful. A check that runs
// out keeps the clue: the puzzle stays unique, only a little less sparse.
const (
	fillBudget   = 200_000
	uniqueBudget = 20_000
)

// Generate returns a puzzle of shape s with exactly one solution: a random
// full grid found by the exact-cover search in shuffled row order, from
// which clues are removed, in random order, while the solution stays
// unique (checked by NewSolver's engine, bits for 9×9), until about clues
// givens are left (clues <= 0: as few as uniqueness allows). The same
// shape, seed and clues give the same puzzle.
// Removal stops early, keeping more givens than asked, where every further
// clue is needed for uniqueness.
func Generate(s Shape, seed int64, clues int) (Grid, error) {
	sv, err := NewSolver(s)
	if err != nil {
		return Grid{}, err
	}
	full, err := sv.randomFill(uint64(seed))
	if err != nil {
		return Grid{}, fmt.Errorf("generate %v: %w", s, err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	puzzle := full.Clone()
	givens := len(puzzle.Cells)
	sv.SetBudget(uniqueBudget)
	defer sv.SetBudget(0)
	for _, i := range rng.Perm(len(puzzle.Cells)) {
		if givens <= clues {
			break
		}
		v := puzzle.Cells[i]
		puzzle.Cells[i] = 0
		n, err := sv.Count(puzzle, 2)
		if err != nil && !errors.Is(err, dlx.ErrBudget) {
			return Grid{}, fmt.Errorf("generate %v: %w", s, err)
		}
		if n != 1 || err != nil {
			puzzle.Cells[i] = v // needed for uniqueness, or too costly to tell
			continue
		}
		givens--
	}
	return puzzle, nil
}

// randomFill returns a random full grid: the first solution of the empty
// grid with the rows tried in an order shuffled by seed. A search that
// wanders past the budget is restarted with another seed.
func (sv *Solver) randomFill(seed uint64) (Grid, error) {
	out := NewGrid(sv.shape)
	m := sv.matrix()
	defer m.SetRandom(false, 0)
	m.SetBudget(fillBudget)
	defer m.SetBudget(sv.budget)
	for try := uint64(0); try < 20; try++ {
		m.SetRandom(true, seed+try*0x9e3779b97f4a7c15)
		sv.dst = out.Cells
		n, err := m.SearchThenReset(1, sv.record)
		sv.dst = nil
		if err == nil && n == 1 {
			return out, nil
		}
		if err != nil && !errors.Is(err, dlx.ErrBudget) {
			return Grid{}, err
		}
	}
	return Grid{}, errors.New("no full grid found within the search budget")
}
