package optimize_test

// Three toy problems that the optimisers must solve without knowing them:
// N queens as a permutation, a travelling salesman on cities round a
// circle (whose best tour is known: the circle's order) and an integer
// function with one minimum among many local ones.

import (
	"math"
	"math/rand/v2"

	"github.com/sudokuar/sudokuar/optimize"
)

// --- N queens: queen in column c sits on row perm[c]; cost = pairs of
// queens on a shared diagonal (rows and columns are distinct by
// construction).

type queens struct {
	n          int
	perm       []int
	diag, anti []int // queens per diagonal (r-c+n-1) and anti-diagonal (r+c)
	a, b       int   // proposed swap
}

func newQueens(n int) *queens {
	return &queens{n: n, perm: make([]int, n), diag: make([]int, 2*n-1), anti: make([]int, 2*n-1)}
}

func (q *queens) load(perm []int) {
	copy(q.perm, perm)
	clear(q.diag)
	clear(q.anti)
	for c, r := range q.perm {
		q.diag[r-c+q.n-1]++
		q.anti[r+c]++
	}
}

func (q *queens) Randomize(rng *rand.Rand) { q.load(rng.Perm(q.n)) }

func pairs(counts []int) float64 {
	s := 0
	for _, k := range counts {
		s += k * (k - 1) / 2
	}
	return float64(s)
}

func (q *queens) Cost() float64 { return pairs(q.diag) + pairs(q.anti) }

// move adds sign times the queens of columns a and b to the diagonal
// counts and returns the change in conflicting pairs this caused.
func (q *queens) move(a, b, sign int) int {
	d := 0
	for _, c := range [2]int{a, b} {
		r := q.perm[c]
		for _, k := range [2]*int{&q.diag[r-c+q.n-1], &q.anti[r+c]} {
			if sign < 0 {
				*k--
				d -= *k
			} else {
				d += *k
				*k++
			}
		}
	}
	return d
}

func (q *queens) Propose(rng *rand.Rand) float64 {
	q.a = rng.IntN(q.n)
	q.b = rng.IntN(q.n - 1)
	if q.b >= q.a {
		q.b++
	}
	d := q.move(q.a, q.b, -1)
	q.perm[q.a], q.perm[q.b] = q.perm[q.b], q.perm[q.a]
	d += q.move(q.a, q.b, +1)
	// Undo: Accept redoes it; proposing must not change the state.
	q.move(q.a, q.b, -1)
	q.perm[q.a], q.perm[q.b] = q.perm[q.b], q.perm[q.a]
	q.move(q.a, q.b, +1)
	return float64(d)
}

func (q *queens) Accept() {
	q.move(q.a, q.b, -1)
	q.perm[q.a], q.perm[q.b] = q.perm[q.b], q.perm[q.a]
	q.move(q.a, q.b, +1)
}

func (q *queens) State() []int { return append([]int(nil), q.perm...) }

// queensGA is N queens for the cultural GA: individuals are permutations.
type queensGA struct{ n int }

func (q queensGA) Random(rng *rand.Rand) []int { return rng.Perm(q.n) }

func (q queensGA) Cost(p []int) float64 {
	s := newQueens(q.n)
	s.load(p)
	return s.Cost()
}

func (q queensGA) TraitSpace() (int, int) { return q.n, q.n }

func (q queensGA) Traits(p []int, dst []int) { copy(dst, p) }

// Breed keeps the columns where the parents agree or the belief space
// strongly agrees with a parent, then fills the rest in the order of the
// other parent (an order crossover that keeps a permutation).
func (q queensGA) Breed(rng *rand.Rand, child, a, b []int, bel *optimize.Belief) []int {
	if child == nil {
		child = make([]int, q.n)
	}
	used := make([]bool, q.n)
	for c := range child {
		child[c] = -1
		keep := a[c] == b[c] || bel.Share(c, a[c]) > 0.5 || rng.IntN(2) == 0
		if keep && !used[a[c]] {
			child[c] = a[c]
			used[a[c]] = true
		}
	}
	j := 0
	for c := range child {
		if child[c] >= 0 {
			continue
		}
		for used[b[j]] {
			j++
		}
		child[c] = b[j]
		used[b[j]] = true
	}
	return child
}

// Mutate swaps a column the elite disagree on with another.
func (q queensGA) Mutate(rng *rand.Rand, p []int, bel *optimize.Belief) {
	a := rng.IntN(q.n)
	for range 3 {
		if bel.Share(a, p[a]) < 0.5 {
			break
		}
		a = rng.IntN(q.n)
	}
	b := rng.IntN(q.n)
	p[a], p[b] = p[b], p[a]
}

// --- Travelling salesman on n cities spaced round a unit circle in a
// shuffled order: the best tour is the circle's order, of length
// n * 2 sin(pi/n).

type circleTSP struct {
	x, y []float64
}

func newCircleTSP(n int, seed uint64) circleTSP {
	rng := rand.New(rand.NewPCG(seed, 1))
	t := circleTSP{x: make([]float64, n), y: make([]float64, n)}
	for i, k := range rng.Perm(n) {
		a := 2 * math.Pi * float64(k) / float64(n)
		t.x[i], t.y[i] = math.Cos(a), math.Sin(a)
	}
	return t
}

func (t circleTSP) best() float64 {
	n := float64(len(t.x))
	return n * 2 * math.Sin(math.Pi/n)
}

func (t circleTSP) dist(a, b int) float64 { return math.Hypot(t.x[a]-t.x[b], t.y[a]-t.y[b]) }

func (t circleTSP) length(tour []int) float64 {
	s := 0.0
	for i := range tour {
		s += t.dist(tour[i], tour[(i+1)%len(tour)])
	}
	return s
}

// tspAnneal moves by 2-opt: reversing the tour between two positions.
type tspAnneal struct {
	circleTSP
	tour []int
	i, j int
}

func (t *tspAnneal) Randomize(rng *rand.Rand) { t.tour = rng.Perm(len(t.x)) }
func (t *tspAnneal) Cost() float64            { return t.length(t.tour) }
func (t *tspAnneal) State() []int             { return append([]int(nil), t.tour...) }

func (t *tspAnneal) Propose(rng *rand.Rand) float64 {
	n := len(t.tour)
	i, j := rng.IntN(n), rng.IntN(n)
	if i > j {
		i, j = j, i
	}
	if j-i < 1 || (i == 0 && j == n-1) {
		t.i, t.j = 0, 0
		return 0
	}
	t.i, t.j = i, j
	a, b := t.tour[(i-1+n)%n], t.tour[i]
	c, d := t.tour[j], t.tour[(j+1)%n]
	return t.dist(a, c) + t.dist(b, d) - t.dist(a, b) - t.dist(c, d)
}

func (t *tspAnneal) Accept() {
	for i, j := t.i, t.j; i < j; i, j = i+1, j-1 {
		t.tour[i], t.tour[j] = t.tour[j], t.tour[i]
	}
}

// tspGA breeds tours; a trait is the city that follows each city.
type tspGA struct{ circleTSP }

func (t tspGA) Random(rng *rand.Rand) []int { return rng.Perm(len(t.x)) }
func (t tspGA) Cost(p []int) float64        { return t.length(p) }
func (t tspGA) TraitSpace() (int, int)      { return len(t.x), len(t.x) }

func (t tspGA) Traits(p []int, dst []int) {
	for i, c := range p {
		dst[c] = p[(i+1)%len(p)]
	}
}

// Breed walks from a's first city, going next to the successor the belief
// space favours, else a's, else b's, else the nearest unvisited city.
func (t tspGA) Breed(rng *rand.Rand, child, a, b []int, bel *optimize.Belief) []int {
	n := len(a)
	if child == nil {
		child = make([]int, n)
	}
	succ := func(p []int) []int {
		s := make([]int, n)
		t.Traits(p, s)
		return s
	}
	sa, sb := succ(a), succ(b)
	used := make([]bool, n)
	cur := a[0]
	for k := 0; k < n; k++ {
		child[k] = cur
		used[cur] = true
		if k == n-1 {
			break
		}
		next := -1
		for _, c := range []int{sa[cur], sb[cur]} {
			if !used[c] && (next < 0 || bel.Share(cur, c) > bel.Share(cur, next)) {
				next = c
			}
		}
		if next < 0 {
			for c := range n {
				if !used[c] && (next < 0 || t.dist(cur, c) < t.dist(cur, next)) {
					next = c
				}
			}
		}
		cur = next
	}
	return child
}

// Mutate reverses a random stretch (2-opt).
func (t tspGA) Mutate(rng *rand.Rand, p []int, _ *optimize.Belief) {
	i, j := rng.IntN(len(p)), rng.IntN(len(p))
	if i > j {
		i, j = j, i
	}
	for ; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
}

// --- An integer function of 8 variables in 0..31 with its one minimum (0)
// at want and a ripple of local minima round it (Rastrigin-like).

var want = []int{3, 17, 29, 8, 12, 0, 31, 20}

func ripple(x []int) float64 {
	s := 0.0
	for i, v := range x {
		d := float64(v - want[i])
		s += d*d + 10*(1-math.Cos(2*math.Pi*d/4))
	}
	return s
}

type rippleAnneal struct {
	x     []int
	i, to int
}

func (r *rippleAnneal) Randomize(rng *rand.Rand) {
	r.x = make([]int, len(want))
	for i := range r.x {
		r.x[i] = rng.IntN(32)
	}
}
func (r *rippleAnneal) Cost() float64 { return ripple(r.x) }
func (r *rippleAnneal) State() []int  { return append([]int(nil), r.x...) }
func (r *rippleAnneal) Propose(rng *rand.Rand) float64 {
	r.i = rng.IntN(len(r.x))
	r.to = min(31, max(0, r.x[r.i]+rng.IntN(7)-3))
	old := ripple(r.x)
	v := r.x[r.i]
	r.x[r.i] = r.to
	d := ripple(r.x) - old
	r.x[r.i] = v
	return d
}
func (r *rippleAnneal) Accept() { r.x[r.i] = r.to }

type rippleGA struct{}

func (rippleGA) Random(rng *rand.Rand) []int {
	x := make([]int, len(want))
	for i := range x {
		x[i] = rng.IntN(32)
	}
	return x
}
func (rippleGA) Cost(x []int) float64      { return ripple(x) }
func (rippleGA) TraitSpace() (int, int)    { return len(want), 32 }
func (rippleGA) Traits(x []int, dst []int) { copy(dst, x) }

// Breed takes each variable from either parent at random.
func (rippleGA) Breed(rng *rand.Rand, child, a, b []int, _ *optimize.Belief) []int {
	if child == nil {
		child = make([]int, len(a))
	}
	for i := range child {
		if rng.IntN(2) == 0 {
			child[i] = a[i]
		} else {
			child[i] = b[i]
		}
	}
	return child
}

// Mutate redraws one variable. With a belief space it draws from the
// values the accepted individuals hold there (normative knowledge, as in
// Reynolds' cultural algorithms), nudged by at most 1; without, it nudges
// the variable by up to 3.
func (rippleGA) Mutate(rng *rand.Rand, x []int, bel *optimize.Belief) {
	i := rng.IntN(len(x))
	if bel.Accepted() == 0 {
		x[i] = min(31, max(0, x[i]+rng.IntN(7)-3))
		return
	}
	u := rng.Float64()
	for v := range 32 {
		if u -= bel.Share(i, v); u < 0 {
			x[i] = min(31, max(0, v+rng.IntN(3)-1))
			return
		}
	}
}

type randRand = rand.Rand
