package optimize

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"
)

// Evolvable is a problem the cultural genetic algorithm can work on: it
// makes, scores, breeds and mutates individuals of type G, and describes
// each by a row of traits (position -> value) that the belief space
// counts. A trait might be the value of a cell, the row of a queen, or the
// city that follows a city on a tour.
type Evolvable[G any] interface {
	// Random returns a new random individual.
	Random(rng *rand.Rand) G
	// Cost scores g; lower is better.
	Cost(g G) float64
	// TraitSpace returns the number of trait positions and of values a
	// trait may take (values are 0..values-1).
	TraitSpace() (positions, values int)
	// Traits writes g's traits into dst (len positions).
	Traits(g G, dst []int)
	// Breed returns a child of a and b. child is an individual that has
	// left the population (or the zero G at first): Breed may overwrite
	// and return it, sparing an allocation. It must not return a or b,
	// nor change them. bel says what good individuals share.
	Breed(rng *rand.Rand, child, a, b G, bel *Belief) G
	// Mutate changes g in place, guided by bel.
	Mutate(rng *rand.Rand, g G, bel *Belief)
}

// Belief is the belief space of the cultural algorithm: what the accepted
// individuals (the best AcceptFraction of each generation) have in common
// (normative knowledge: for every trait position, how many of them give it
// each value) and the best individual seen so far (situational knowledge).
// Breeding and mutation read it to keep what good individuals agree on and
// change what they do not.
type Belief struct {
	positions, values int
	count             []int32 // count[pos*values+v]: accepted individuals with v at pos
	accepted          int
	best              []int // traits of the best individual seen
	bestCost          float64
	scratch           []int
}

func newBelief(positions, values int) *Belief {
	return &Belief{
		positions: positions,
		values:    values,
		count:     make([]int32, positions*values),
		best:      make([]int, positions),
		scratch:   make([]int, positions),
	}
}

// Share returns the fraction of the accepted individuals that give
// position pos the value v (0 before the first generation is accepted).
func (b *Belief) Share(pos, v int) float64 {
	if b.accepted == 0 || pos < 0 || pos >= b.positions || v < 0 || v >= b.values {
		return 0
	}
	return float64(b.count[pos*b.values+v]) / float64(b.accepted)
}

// Best returns the value the best individual seen gives position pos.
func (b *Belief) Best(pos int) int { return b.best[pos] }

// BestCost returns the cost of the best individual seen.
func (b *Belief) BestCost() float64 { return b.bestCost }

// Accepted returns how many individuals the normative counts are over.
func (b *Belief) Accepted() int { return b.accepted }

// accept rebuilds the normative counts from the accepted individuals.
func accept[G any](b *Belief, p Evolvable[G], accepted []G) {
	clear(b.count)
	b.accepted = len(accepted)
	for _, g := range accepted {
		p.Traits(g, b.scratch)
		for pos, v := range b.scratch {
			if v >= 0 && v < b.values {
				b.count[pos*b.values+v]++
			}
		}
	}
}

// EvolveConfig tunes Evolve. The zero value of a field picks its default.
type EvolveConfig struct {
	Seed uint64
	// Population is the number of individuals (default 100).
	Population int
	// Elite individuals, the best of a generation, pass to the next
	// unchanged (default 2).
	Elite int
	// Tournament is the number of individuals drawn to pick each parent,
	// the best of them winning (default 3; more means more pressure).
	Tournament int
	// Mutation is the probability that a child is mutated (default 0.9).
	Mutation float64
	// AcceptFraction of each generation, the best, updates the belief
	// space (default 0.2).
	AcceptFraction float64
	// RestartAfter generations without improving the best cost since the
	// last restart replace all but the best individual by random ones
	// (0: never).
	RestartAfter int
	// Target is the cost at which the run stops, done.
	Target float64
	// MaxGenerations bounds the run (0: no bound but the context).
	MaxGenerations int
}

func (c EvolveConfig) withDefaults() EvolveConfig {
	if c.Population <= 1 {
		c.Population = 100
	}
	if c.Elite <= 0 {
		c.Elite = 2
	}
	c.Elite = min(c.Elite, c.Population-1)
	if c.Tournament <= 0 {
		c.Tournament = 3
	}
	if c.Mutation <= 0 {
		c.Mutation = 0.9
	}
	if c.AcceptFraction <= 0 || c.AcceptFraction > 1 {
		c.AcceptFraction = 0.2
	}
	return c
}

// individual is a member of the population with its cost.
type individual[G any] struct {
	g    G
	cost float64
}

// Evolve minimises p's cost with a cultural genetic algorithm: a
// population of random individuals, each generation keeping its Elite
// best and filling the rest with children of tournament-selected parents,
// mutated with probability Mutation; after every generation the best
// AcceptFraction update the belief space that Breed and Mutate consult. It
// stops when the best cost reaches Target, after MaxGenerations, or when
// ctx ends (then the error wraps ctx's error), returning the best
// individual seen.
func Evolve[G any](ctx context.Context, p Evolvable[G], cfg EvolveConfig) (Result[G], error) {
	cfg = cfg.withDefaults()
	start := time.Now()
	rng := newRand(cfg.Seed)
	var st Stats
	positions, values := p.TraitSpace()
	bel := newBelief(positions, values)

	pop := make([]individual[G], cfg.Population)
	next := make([]individual[G], cfg.Population)
	for i := range pop {
		pop[i].g = p.Random(rng)
		pop[i].cost = p.Cost(pop[i].g)
		st.Evaluations++
	}
	byCost := func(a, b individual[G]) int {
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		}
		return 0
	}
	slices.SortStableFunc(pop, byCost)
	res := Result[G]{Cost: pop[0].cost}
	finish := func(err error) (Result[G], error) {
		st.Elapsed = time.Since(start)
		res.Stats = st
		res.Reached = res.Cost <= cfg.Target
		return res, err
	}
	// keepBest records pop[0] (the population is sorted) if it beats
	// the best so far. No copy is needed: the best individual stays first
	// in the elite, which is never recycled or mutated, until a better
	// one replaces it here.
	var zero G
	keepBest := func() bool {
		if pop[0].cost < res.Cost || st.Generations == 0 {
			res.Cost = pop[0].cost
			res.Best = pop[0].g
			bel.bestCost = pop[0].cost
			p.Traits(pop[0].g, bel.best)
			return true
		}
		return false
	}
	keepBest()
	if res.Cost <= cfg.Target {
		return finish(nil)
	}
	nAccept := max(1, int(cfg.AcceptFraction*float64(cfg.Population)+0.5))
	accepted := make([]G, 0, nAccept)
	pick := func() G {
		w := rng.IntN(len(pop))
		for range cfg.Tournament - 1 {
			if j := rng.IntN(len(pop)); pop[j].cost < pop[w].cost {
				w = j
			}
		}
		return pop[w].g
	}
	sinceBest := 0
	free := make([]G, 0, cfg.Population)
	for {
		if cfg.MaxGenerations > 0 && st.Generations >= cfg.MaxGenerations {
			return finish(nil)
		}
		accepted = accepted[:0]
		for i := range nAccept {
			accepted = append(accepted, pop[i].g)
		}
		accept(bel, p, accepted)

		// The elite pass on; the children reuse individuals that left
		// the population in the previous generation (free), never one
		// that may still be picked as a parent. The best individual
		// stays in the elite (Elite >= 1), so res.Best is never reused.
		copy(next, pop[:cfg.Elite])
		for i := cfg.Elite; i < len(next); i++ {
			if st.Evaluations%checkEvery == 0 && ctx.Err() != nil {
				return finish(canceled(ctx, "evolution"))
			}
			a, b := pick(), pick()
			child := zero
			if k := len(free); k > 0 {
				child, free = free[k-1], free[:k-1]
			}
			child = p.Breed(rng, child, a, b, bel)
			if rng.Float64() < cfg.Mutation {
				p.Mutate(rng, child, bel)
			}
			next[i] = individual[G]{g: child, cost: p.Cost(child)}
			st.Evaluations++
		}
		for _, ind := range pop[cfg.Elite:] {
			free = append(free, ind.g)
		}
		pop, next = next, pop
		slices.SortStableFunc(pop, byCost)
		st.Generations++
		if keepBest() {
			sinceBest = 0
			if res.Cost <= cfg.Target {
				return finish(nil)
			}
		} else {
			sinceBest++
		}
		if cfg.RestartAfter > 0 && sinceBest >= cfg.RestartAfter {
			// Keep the best individual; the rest start afresh.
			for i := 1; i < len(pop); i++ {
				pop[i].g = p.Random(rng)
				pop[i].cost = p.Cost(pop[i].g)
				st.Evaluations++
			}
			slices.SortStableFunc(pop, byCost)
			st.Restarts++
			sinceBest = 0
		}
	}
}
