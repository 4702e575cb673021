package optimize_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/optimize"
)

// queensOK reports whether perm places n queens with no two attacking.
func queensOK(perm []int) bool {
	for a := range perm {
		for b := a + 1; b < len(perm); b++ {
			if perm[a] == perm[b] || abs(perm[a]-perm[b]) == b-a {
				return false
			}
		}
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func isPerm(p []int) bool {
	s := slices.Clone(p)
	slices.Sort(s)
	for i, v := range s {
		if v != i {
			return false
		}
	}
	return true
}

func TestAnnealSolvesToyProblems(t *testing.T) {
	tsp := newCircleTSP(30, 7)
	cases := []struct {
		name  string
		run   func(seed uint64) (optimize.Result[[]int], error)
		check func(best []int) error
	}{
		{"8 queens", func(seed uint64) (optimize.Result[[]int], error) {
			return optimize.Anneal(context.Background(), newQueens(8), optimize.AnnealConfig{Seed: seed, Moves: 50, ReheatAfter: 20, MaxMoves: 1e6})
		}, func(b []int) error {
			if !isPerm(b) || !queensOK(b) {
				return fmt.Errorf("queens attack each other: %v", b)
			}
			return nil
		}},
		{"64 queens", func(seed uint64) (optimize.Result[[]int], error) {
			return optimize.Anneal(context.Background(), newQueens(64), optimize.AnnealConfig{Seed: seed, Moves: 500, Cooling: 0.95, ReheatAfter: 20, MaxMoves: 5e6})
		}, func(b []int) error {
			if !isPerm(b) || !queensOK(b) {
				return fmt.Errorf("queens attack each other")
			}
			return nil
		}},
		{"30-city circle", func(seed uint64) (optimize.Result[[]int], error) {
			a := &tspAnneal{circleTSP: tsp}
			return optimize.Anneal(context.Background(), a, optimize.AnnealConfig{Seed: seed, Moves: 2000, Cooling: 0.95, ReheatAfter: 30, RestartAfter: 3, Target: tsp.best() + 1e-9, MaxMoves: 2e7})
		}, func(b []int) error {
			if !isPerm(b) || math.Abs(tsp.length(b)-tsp.best()) > 1e-9 {
				return fmt.Errorf("tour %.6f, best %.6f", tsp.length(b), tsp.best())
			}
			return nil
		}},
		{"ripple function", func(seed uint64) (optimize.Result[[]int], error) {
			return optimize.Anneal(context.Background(), &rippleAnneal{}, optimize.AnnealConfig{Seed: seed, Moves: 200, Cooling: 0.95, ReheatAfter: 30, MaxMoves: 5e6})
		}, func(b []int) error {
			if !slices.Equal(b, want) {
				return fmt.Errorf("minimum at %v, want %v", b, want)
			}
			return nil
		}},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 3; seed++ {
			res, err := c.run(seed)
			if err != nil {
				t.Fatalf("%s seed %d: %v", c.name, seed, err)
			}
			if !res.Reached {
				t.Errorf("%s seed %d: stopped at cost %g after %d moves", c.name, seed, res.Cost, res.Stats.Moves)
				continue
			}
			if err := c.check(res.Best); err != nil {
				t.Errorf("%s seed %d: %v", c.name, seed, err)
			}
			if res.Stats.Moves == 0 || res.Stats.Accepted > res.Stats.Moves {
				t.Errorf("%s seed %d: stats %+v", c.name, seed, res.Stats)
			}
		}
	}
}

func TestEvolveSolvesToyProblems(t *testing.T) {
	tsp := newCircleTSP(20, 3)
	cases := []struct {
		name  string
		run   func(seed uint64) (optimize.Result[[]int], error)
		check func(best []int) error
	}{
		{"8 queens", func(seed uint64) (optimize.Result[[]int], error) {
			return optimize.Evolve(context.Background(), queensGA{8}, optimize.EvolveConfig{Seed: seed, Population: 50, RestartAfter: 50, MaxGenerations: 5000})
		}, func(b []int) error {
			if !isPerm(b) || !queensOK(b) {
				return fmt.Errorf("queens attack each other: %v", b)
			}
			return nil
		}},
		{"20-city circle", func(seed uint64) (optimize.Result[[]int], error) {
			return optimize.Evolve(context.Background(), tspGA{tsp}, optimize.EvolveConfig{Seed: seed, Population: 60, RestartAfter: 100, Target: tsp.best() + 1e-9, MaxGenerations: 5000})
		}, func(b []int) error {
			if !isPerm(b) || math.Abs(tsp.length(b)-tsp.best()) > 1e-9 {
				return fmt.Errorf("tour %.6f, best %.6f", tsp.length(b), tsp.best())
			}
			return nil
		}},
		{"ripple function", func(seed uint64) (optimize.Result[[]int], error) {
			return optimize.Evolve(context.Background(), rippleGA{}, optimize.EvolveConfig{Seed: seed, Population: 60, RestartAfter: 100, MaxGenerations: 5000})
		}, func(b []int) error {
			if !slices.Equal(b, want) {
				return fmt.Errorf("minimum at %v, want %v", b, want)
			}
			return nil
		}},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 3; seed++ {
			res, err := c.run(seed)
			if err != nil {
				t.Fatalf("%s seed %d: %v", c.name, seed, err)
			}
			if !res.Reached {
				t.Errorf("%s seed %d: stopped at cost %g after %d generations", c.name, seed, res.Cost, res.Stats.Generations)
				continue
			}
			if err := c.check(res.Best); err != nil {
				t.Errorf("%s seed %d: %v", c.name, seed, err)
			}
		}
	}
}

func TestSameSeedSameRun(t *testing.T) {
	a1, _ := optimize.Anneal(context.Background(), newQueens(32), optimize.AnnealConfig{Seed: 5, ReheatAfter: 10, MaxMoves: 1e5})
	a2, _ := optimize.Anneal(context.Background(), newQueens(32), optimize.AnnealConfig{Seed: 5, ReheatAfter: 10, MaxMoves: 1e5})
	if !slices.Equal(a1.Best, a2.Best) || a1.Stats.Moves != a2.Stats.Moves || a1.Stats.Accepted != a2.Stats.Accepted {
		t.Errorf("annealing with one seed differs: %v %+v / %v %+v", a1.Best, a1.Stats, a2.Best, a2.Stats)
	}
	e1, _ := optimize.Evolve(context.Background(), queensGA{12}, optimize.EvolveConfig{Seed: 5, MaxGenerations: 30})
	e2, _ := optimize.Evolve(context.Background(), queensGA{12}, optimize.EvolveConfig{Seed: 5, MaxGenerations: 30})
	if !slices.Equal(e1.Best, e2.Best) || e1.Cost != e2.Cost || e1.Stats.Evaluations != e2.Stats.Evaluations {
		t.Errorf("evolution with one seed differs: %v %g / %v %g", e1.Best, e1.Cost, e2.Best, e2.Cost)
	}
}

// A run that cannot reach its target stops when the context ends, says
// why, and still returns the best state it saw.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// The target cannot be reached: only noticing the deadline returns.
	res, err := optimize.Anneal(ctx, newQueens(16), optimize.AnnealConfig{Seed: 1, Target: -1})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("anneal err = %v, want deadline exceeded", err)
	}
	// The best state and its cost agree (how good it is depends on how
	// much CPU the 50 ms gave on a busy machine).
	q := newQueens(16)
	if isPerm(res.Best) {
		q.load(res.Best)
	}
	if !isPerm(res.Best) || q.Cost() != res.Cost || res.Reached {
		t.Errorf("anneal best %v cost %g reached %v", res.Best, res.Cost, res.Reached)
	}

	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	res2, err := optimize.Evolve(ctx2, queensGA{16}, optimize.EvolveConfig{Seed: 1, Target: -1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("evolve err = %v, want canceled", err)
	}
	if !isPerm(res2.Best) {
		t.Errorf("evolve best %v is not a permutation", res2.Best)
	}
}

func TestBeliefShares(t *testing.T) {
	var b optimize.Belief
	if b.Share(0, 0) != 0 || b.Accepted() != 0 {
		t.Error("an empty belief space should share nothing")
	}
	// After a run the counts are over the accepted fifth of the
	// population, so every share lies in [0, 1] and the shares of one
	// position add up to 1.
	p := queensGA{6}
	var last *optimize.Belief
	spy := spyGA{queensGA: p, seen: &last}
	if _, err := optimize.Evolve(context.Background(), spy, optimize.EvolveConfig{Seed: 2, Population: 20, MaxGenerations: 3, Target: -1}); err != nil {
		t.Fatal(err)
	}
	if last == nil || last.Accepted() != 4 {
		t.Fatalf("belief space accepted %v, want 4 of 20", last)
	}
	for pos := range 6 {
		sum := 0.0
		for v := range 6 {
			sum += last.Share(pos, v)
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("shares of position %d add up to %g", pos, sum)
		}
	}
}

type spyGA struct {
	queensGA
	seen **optimize.Belief
}

func (s spyGA) Mutate(rng *randRand, p []int, bel *optimize.Belief) {
	*s.seen = bel
	s.queensGA.Mutate(rng, p, bel)
}
