package live

import (
	"math"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Voter merges the readings of successive recognitions of one puzzle, cell
// by cell, so that one bad frame does not flip a digit. It also tells a new
// puzzle from a misread old one.
//
// The zero value is not usable; call NewVoter.
type Voter struct {
	depth   int
	shape   sudoku.Shape
	history []reading // newest last, at most depth
	// pending is a reading that disagreed too much with the history to be
	// a misread but did not prove itself a new puzzle (it did not solve);
	// a second reading like it adopts it.
	pending *reading
}

type reading struct {
	cells []int
	conf  []float64
	check map[int]bool // cells the reader said to check
	// prob is, per cell, the reader's probabilities of the values 0..N
	// (pipeline.Result.Prob; nil: not known, or a cell without ink).
	prob [][]float32
}

// NewVoter returns a voter that remembers the last depth readings.
func NewVoter(depth int) *Voter {
	if depth < 1 {
		depth = 1
	}
	return &Voter{depth: depth}
}

// Reset forgets every reading.
func (v *Voter) Reset() {
	v.history = v.history[:0]
	v.shape = sudoku.Shape{}
	v.pending = nil
}

// Disputed reports whether the latest reading disagreed with the vote
// too much to be a misread (a pending reading that may be a new puzzle):
// until a reading agrees again, the vote is not to be trusted either.
func (v *Voter) Disputed() bool { return v.pending != nil }

// Len reports how many readings the current vote rests on.
func (v *Voter) Len() int { return len(v.history) }

// Add records a reading of the givens g with per-cell confidences conf (nil
// counts every cell as 1), the reader's per-cell probabilities prob (nil:
// not known; see Sure) and the cells the reader said to check, and
// returns the voted givens. solvable says
// whether g on its own has exactly one solution: a reading that differs a
// lot from the voted puzzle is taken at once as a new puzzle when it
// solves, and otherwise only once a second reading agrees with it. fresh
// reports that the voter started over with a new puzzle.
func (v *Voter) Add(g sudoku.Grid, conf []float64, prob [][]float32, check []int, solvable bool) (voted sudoku.Grid, fresh bool) {
	r := reading{cells: append([]int(nil), g.Cells...), conf: conf, prob: prob, check: map[int]bool{}}
	for _, c := range check {
		r.check[c] = true
	}
	if len(conf) != len(g.Cells) {
		r.conf = nil
	}
	if len(prob) != len(g.Cells) {
		r.prob = nil
	}
	switch {
	case len(v.history) == 0 || g.Shape != v.shape:
		v.start(g.Shape, r)
		fresh = true
	case !differs(v.vote().Cells, r.cells):
		v.pending = nil
		v.push(r)
	case solvable || (v.pending != nil && !differs(v.pending.cells, r.cells)):
		v.start(g.Shape, r)
		fresh = true
	default:
		// Keep the vote; remember the outlier in case it is the start of
		// a new puzzle.
		v.pending = &r
	}
	return v.vote(), fresh
}

func (v *Voter) start(s sudoku.Shape, r reading) {
	v.Reset()
	v.shape = s
	v.push(r)
}

func (v *Voter) push(r reading) {
	if len(v.history) == v.depth {
		copy(v.history, v.history[1:])
		v.history = v.history[:v.depth-1]
	}
	v.history = append(v.history, r)
}

// Voted returns the current vote (a grid with nil Cells before any reading).
func (v *Voter) Voted() sudoku.Grid {
	if len(v.history) == 0 {
		return sudoku.Grid{}
	}
	return v.vote()
}

// Check returns the cells of the voted givens still to check: a given that
// at least half of the readings agreeing with its voted value said to check.
func (v *Voter) Check() []int {
	if len(v.history) == 0 {
		return nil
	}
	g := v.vote()
	var out []int
	for i, val := range g.Cells {
		if val == 0 {
			continue
		}
		agree, doubt := 0, 0
		for _, r := range v.history {
			if r.cells[i] == val {
				agree++
				if r.check[i] {
					doubt++
				}
			}
		}
		if agree > 0 && 2*doubt >= agree {
			out = append(out, i)
		}
	}
	return out
}

// Conf returns, per cell of the vote, its support: the summed confidence
// of the readings that agree with the voted value over the number of
// readings voted on, in [0, 1]. A cell every reading read the same, surely,
// is near 1; a cell the readings disagree on, or read unsurely, is low
// however the vote came out. Nil before any reading.
func (v *Voter) Conf() []float64 {
	if len(v.history) == 0 {
		return nil
	}
	g := v.vote()
	out := make([]float64, len(g.Cells))
	for i, val := range g.Cells {
		sum := 0.0
		for _, r := range v.history {
			if r.cells[i] != val {
				continue
			}
			w := 1.0
			if r.conf != nil {
				w = r.conf[i]
			}
			sum += w
		}
		out[i] = min(1, sum/float64(len(v.history)))
	}
	return out
}

// Sure returns, per cell of the vote, the naive-Bayes posterior of the
// voted value over the readings voted on, each reading's probabilities
// (floored at probFloor) raised to 1/rho: k successive frames count as
// k/rho independent views, since their errors come together. A reading
// without probabilities counts its value at its conf; an empty cell
// without ink counts as empty, sure to 1-probFloor. Nil before any
// reading or when rho < 1.
func (v *Voter) Sure(rho float64) []float64 {
	if len(v.history) == 0 || rho < 1 {
		return nil
	}
	g := v.vote()
	n := v.shape.N()
	out := make([]float64, len(g.Cells))
	ll := make([]float64, n+1)
	for i, val := range g.Cells {
		clear(ll)
		for _, r := range v.history {
			for x := range ll {
				ll[x] += math.Log(readingProb(r, i, x, n)) / rho
			}
		}
		top := ll[val]
		sum := 0.0
		for _, l := range ll {
			sum += math.Exp(l - top)
		}
		out[i] = 1 / sum
	}
	return out
}

// probFloor is the least probability a reading gives any value: a
// reader's 1e-9 is not that sure, and one such view must not outvote
// the others alone.
const probFloor = 1e-3

// readingProb is the probability reading r gives value x of cell i of an
// n×n grid (see Sure), at least probFloor.
func readingProb(r reading, i, x, n int) float64 {
	var p float64
	switch {
	case r.prob != nil && len(r.prob[i]) == n+1:
		p = float64(r.prob[i][x])
	case r.prob != nil && r.prob[i] == nil && r.cells[i] == 0:
		// No ink: empty, as sure as anything is.
		p = probFloor
		if x == 0 {
			p = 1
		}
	default:
		c := 1.0
		if r.conf != nil {
			c = r.conf[i]
		}
		if x == r.cells[i] {
			p = c
		} else {
			p = (1 - c) / float64(n)
		}
	}
	return max(probFloor, p)
}

// vote picks, per cell, the value with the largest summed confidence; a tie
// goes to the newest reading.
func (v *Voter) vote() sudoku.Grid {
	g := sudoku.NewGrid(v.shape)
	n := v.shape.N()
	score := make([]float64, n+1)
	for i := range g.Cells {
		clear(score)
		for k, r := range v.history {
			val := r.cells[i]
			if val < 0 || val > n {
				continue
			}
			w := 1.0
			if r.conf != nil {
				w = r.conf[i]
			}
			// A hair of recency breaks ties without outvoting anything.
			score[val] += w + 1e-6*float64(k+1)
		}
		best := 0
		for val, s := range score {
			if s > score[best] {
				best = val
			}
		}
		g.Cells[i] = best
	}
	return g
}

// differs reports whether two readings disagree on more cells than a
// misread explains: more than 4 cells and more than a quarter of the cells
// that either of them fills.
func differs(a, b []int) bool {
	if len(a) != len(b) {
		return true
	}
	diff, union := 0, 0
	for i := range a {
		if a[i] != 0 || b[i] != 0 {
			union++
			if a[i] != b[i] {
				diff++
			}
		}
	}
	return diff > 4 && 4*diff > union
}
