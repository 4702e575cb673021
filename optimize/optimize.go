// Package optimize holds two stochastic minimisers that know nothing of the
// problems they solve: simulated annealing (Anneal) and a cultural genetic
// algorithm (Evolve).
//
// In: a problem behind a small interface (Annealable, Evolvable), a seed and
// a context. Out: the best state, its cost and the run's statistics; the
// error wraps ctx.Err() when the context ended first. A run stops at Target
// cost; the same problem, configuration and seed give the same moves.
package optimize

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// Result is the outcome of a run: the best state seen and its cost.
type Result[S any] struct {
	Best    S
	Cost    float64
	Reached bool // Cost <= the configuration's Target
	Stats   Stats
}

// Stats counts a run's work. Fields an optimiser has no use for stay zero.
type Stats struct {
	Elapsed     time.Duration
	Moves       uint64 // annealing: moves proposed
	Accepted    uint64 // annealing: moves taken (better or, by chance, worse)
	Levels      int    // annealing: temperature levels (each Moves long)
	Generations int    // evolution: generations bred
	Evaluations uint64 // evolution: individuals whose cost was computed
	Reheats     int    // annealing: temperature raised back after stagnation
	Restarts    int    // both: state or population replaced by random ones
}

// newRand returns the generator every run draws from, seeded by seed.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// checkEvery is how many moves (or evaluations) pass between looks at the
// context: often enough to stop within a millisecond, rarely enough to cost
// nothing.
const checkEvery = 1024

// canceled wraps the context's error with what was running.
func canceled(ctx context.Context, what string) error {
	return fmt.Errorf("optimize: %s stopped: %w", what, context.Cause(ctx))
}
