package optimize

import (
	"context"
	"math"
	"math/rand/v2"
	"time"
)

// Annealable is a problem simulated annealing can work on: it holds one
// current state of type S and changes it by small random moves. Moves are
// proposed and then taken or dropped, so that a problem can compute the
// change in cost of a move without making it (the fast path on large
// states).
type Annealable[S any] interface {
	// Randomize replaces the current state by a random one (the start of
	// a run, and every restart).
	Randomize(rng *rand.Rand)
	// Cost returns the current state's cost; lower is better.
	Cost() float64
	// Propose chooses a random move from the current state and returns
	// by how much it would change the cost, without making it.
	Propose(rng *rand.Rand) (delta float64)
	// Accept makes the move last proposed.
	Accept()
	// State returns a copy of the current state, kept as the best seen.
	State() S
}

// AnnealConfig tunes Anneal. The zero value of a field picks its default.
type AnnealConfig struct {
	Seed uint64
	// T0 is the starting temperature, to which a reheat returns. 0: the
	// standard deviation of the cost changes of 200 random moves from the
	// first random state, so that most worsening moves are taken at first
	// (the recipe of R. Lewis, "Metaheuristics can solve sudoku puzzles",
	// J. Heuristics 2007).
	T0 float64
	// Cooling multiplies the temperature after each level (default 0.99).
	Cooling float64
	// Moves is the number of moves proposed at each temperature level
	// (default 100).
	Moves int
	// ReheatAfter levels without improving on the best cost of the
	// current restart raise the temperature back to T0 (0: never).
	ReheatAfter int
	// RestartAfter reheats in a row that do not improve that best cost
	// replace the state by a random one (0: never).
	RestartAfter int
	// Target is the cost at which the run stops, done (for example 0 when
	// a cost of 0 means solved).
	Target float64
	// MaxMoves bounds the moves of the run (0: no bound but the context).
	MaxMoves uint64
}

func (c AnnealConfig) withDefaults() AnnealConfig {
	if c.Cooling <= 0 || c.Cooling >= 1 {
		c.Cooling = 0.99
	}
	if c.Moves <= 0 {
		c.Moves = 100
	}
	return c
}

// Anneal minimises p's cost by simulated annealing: at temperature T a move
// that raises the cost by d > 0 is taken with probability exp(-d/T), one
// that does not raise it always; T falls by Cooling after every level of
// Moves moves, goes back to T0 when the search stagnates and, after
// RestartAfter fruitless reheats, the state starts afresh at random. It
// stops when the cost reaches Target, after MaxMoves moves, or when ctx
// ends (then the error wraps ctx's error). The result holds the best state
// seen in any restart.
func Anneal[S any](ctx context.Context, p Annealable[S], cfg AnnealConfig) (Result[S], error) {
	cfg = cfg.withDefaults()
	start := time.Now()
	rng := newRand(cfg.Seed)
	var st Stats
	p.Randomize(rng)
	cost := p.Cost()
	res := Result[S]{Best: p.State(), Cost: cost}
	finish := func(err error) (Result[S], error) {
		st.Elapsed = time.Since(start)
		res.Stats = st
		res.Reached = res.Cost <= cfg.Target
		return res, err
	}
	if cost <= cfg.Target {
		return finish(nil)
	}
	t0 := cfg.T0
	if t0 <= 0 {
		t0 = estimateT0(p, rng)
	}
	temp := t0
	runBest := cost       // best cost since the last restart
	stagnant := 0         // levels without improving runBest
	fruitlessReheats := 0 // reheats in a row without improving runBest
	for {
		improved := false
		for range cfg.Moves {
			if st.Moves%checkEvery == 0 && ctx.Err() != nil {
				return finish(canceled(ctx, "annealing"))
			}
			if cfg.MaxMoves > 0 && st.Moves >= cfg.MaxMoves {
				return finish(nil)
			}
			d := p.Propose(rng)
			st.Moves++
			if d > 0 && rng.Float64() >= math.Exp(-d/temp) {
				continue
			}
			p.Accept()
			st.Accepted++
			cost += d
			if cost < runBest {
				runBest = cost
				improved = true
			}
			if cost < res.Cost {
				// Resynchronise: the running sum of deltas could drift
				// for costs that are not whole numbers.
				cost = p.Cost()
				res.Best, res.Cost = p.State(), cost
				if cost <= cfg.Target {
					return finish(nil)
				}
			}
		}
		st.Levels++
		temp *= cfg.Cooling
		if improved {
			stagnant, fruitlessReheats = 0, 0
			continue
		}
		stagnant++
		if cfg.ReheatAfter <= 0 || stagnant < cfg.ReheatAfter {
			continue
		}
		temp, stagnant = t0, 0
		st.Reheats++
		fruitlessReheats++
		if cfg.RestartAfter > 0 && fruitlessReheats >= cfg.RestartAfter {
			p.Randomize(rng)
			cost = p.Cost()
			runBest, fruitlessReheats = cost, 0
			st.Restarts++
			if cost < res.Cost {
				res.Best, res.Cost = p.State(), cost
				if cost <= cfg.Target {
					return finish(nil)
				}
			}
		}
	}
}

// estimateT0 returns the standard deviation of the cost changes of 200
// proposed (not taken) moves, or 1 when they are all equal.
func estimateT0[S any](p Annealable[S], rng *rand.Rand) float64 {
	const samples = 200
	var sum, sq float64
	for range samples {
		d := p.Propose(rng)
		sum += d
		sq += d * d
	}
	mean := sum / samples
	v := sq/samples - mean*mean
	if v <= 1e-12 {
		return 1
	}
	return math.Sqrt(v)
}
