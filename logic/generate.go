package logic

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/sudokuar/sudokuar/dlx"
	"github.com/sudokuar/sudokuar/sudoku"
)

// MaxLevel returns the hardest level Generate offers for a box shape, as
// random minimal puzzles reach them: 4×4 only easy (every one falls to
// hidden singles), 6×6 up to expert, 8×8 to 16×16 every level (16×16
// minimal puzzles are all extreme, and rating one takes seconds).
// BenchmarkGenerate times every pair (docs/performance.md).
func MaxLevel(s sudoku.Shape) Level {
	switch n := s.N(); {
	case n <= 4:
		return Easy
	case n <= 6:
		return Expert
	}
	return Extreme
}

// Generate returns a puzzle of shape s with exactly one solution whose
// rating lies in level's band, with its rating. The same arguments give the
// same puzzle. With symmetric set the givens are symmetric under a half
// turn of the grid. Errors: *SizeError for an unsupported shape, *LevelError
// when the shape cannot reach the level.
func Generate(s sudoku.Shape, level Level, seed int64, symmetric bool) (sudoku.Grid, Rating, error) {
	return GenerateContext(context.Background(), s, level, seed, symmetric)
}

// GenerateContext is Generate that gives up, with ctx's error, when ctx is
// done.
func GenerateContext(ctx context.Context, s sudoku.Shape, level Level, seed int64, symmetric bool) (sudoku.Grid, Rating, error) {
	geo, err := geometryFor(s)
	if err != nil {
		return sudoku.Grid{}, Rating{}, err
	}
	if level < Easy || level > Extreme {
		return sudoku.Grid{}, Rating{}, fmt.Errorf("logic: unknown level %d", int(level))
	}
	if max := MaxLevel(s); level > max {
		return sudoku.Grid{}, Rating{}, &LevelError{Shape: s, Level: level, Max: max}
	}
	lo, hi := level.Band()
	sv, release, err := getSolver(s)
	if err != nil {
		return sudoku.Grid{}, Rating{}, err
	}
	defer release()
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	// Every level but extreme caps each removal at the band's top (the
	// puzzle must stay solvable by the techniques rated below it), so the
	// removal itself keeps the puzzle in reach; extreme removes down to a
	// minimal puzzle and keeps it if it lands in the band.
	capped := level < Extreme
	var capOrder []Technique
	if capped {
		for _, t := range rateOrder {
			if t.Rating < hi {
				capOrder = append(capOrder, t)
			}
		}
	}
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return sudoku.Grid{}, Rating{}, err
		}
		full, err := sudoku.Generate(s, int64(rng.Uint64()>>1), geo.size)
		if err != nil {
			return sudoku.Grid{}, Rating{}, err
		}
		p := removeClues(geo, sv, full, rng, symmetric, func(p sudoku.Grid) bool {
			return !capped || ratesBelow(geo, p, capOrder)
		})
		g := newGrid(geo, p.Cells)
		g.unique = true
		r, err := rateGrid(ctx, g, true)
		if err != nil {
			if errors.Is(err, ErrStuck) {
				continue
			}
			return sudoku.Grid{}, Rating{}, err
		}
		if r.SE >= lo && r.SE < hi {
			return p, r, nil
		}
	}
}

// removeClues empties cells of the full grid in random order (in pairs
// symmetric under a half turn when symmetric is set), keeping each removal
// that leaves exactly one solution and that keep accepts.
func removeClues(geo *geometry, sv *sudoku.Solver, full sudoku.Grid, rng *rand.Rand, symmetric bool, keep func(sudoku.Grid) bool) sudoku.Grid {
	p := full.Clone()
	sv.SetBudget(50_000)
	defer sv.SetBudget(0)
	for _, c := range rng.Perm(geo.size) {
		twin := geo.size - 1 - c
		if p.Cells[c] == 0 || (symmetric && twin < c) {
			continue
		}
		v, tv := p.Cells[c], p.Cells[twin]
		p.Cells[c] = 0
		if symmetric {
			p.Cells[twin] = 0
		}
		n, err := sv.Count(p, 2)
		if err != nil && !errors.Is(err, dlx.ErrBudget) {
			n = 0
		}
		if n != 1 || err != nil || !keep(p) {
			p.Cells[c] = v
			if symmetric {
				p.Cells[twin] = tv
			}
		}
	}
	return p
}

// ratesBelow reports whether the techniques of order (all rated below some
// cap) solve p.
func ratesBelow(geo *geometry, p sudoku.Grid, order []Technique) bool {
	g := newGrid(geo, p.Cells)
	g.unique = true
	for !g.Solved() {
		s, ok := nextStep(g, order)
		if !ok {
			return false
		}
		if g.Apply(s) != nil {
			return false
		}
	}
	return true
}

// solverPools keeps one pool of DLX solvers per shape, since building the
// exact-cover matrix costs more than solving a 9×9 puzzle.
var solverPools sync.Map // sudoku.Shape -> *sync.Pool

func getSolver(s sudoku.Shape) (*sudoku.Solver, func(), error) {
	pi, _ := solverPools.LoadOrStore(s, &sync.Pool{})
	pool := pi.(*sync.Pool)
	if sv, ok := pool.Get().(*sudoku.Solver); ok {
		return sv, func() { pool.Put(sv) }, nil
	}
	sv, err := sudoku.NewSolver(s)
	if err != nil {
		return nil, nil, err
	}
	return sv, func() { pool.Put(sv) }, nil
}
