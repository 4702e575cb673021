package kakuro

import (
	"fmt"
	"math/bits"
	"strings"
)

// Level is how hard a puzzle is for a person: the hardest technique its
// solution needs (see Rate).
type Level int

// The levels, from the techniques a person needs:
const (
	Easy   Level = iota + 1 // combination tables alone (TechCombinations)
	Medium                  // and reasoning about a whole run (TechRun)
	Hard                    // and reasoning across runs (TechCrossRun)
	Expert                  // and trial and error beyond one step (TechGuess)
)

var levelNames = [...]string{Easy: "easy", Medium: "medium", Hard: "hard", Expert: "expert"}

func (l Level) String() string {
	if l >= Easy && l <= Expert {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// ParseLevel reads a level name: easy, medium, hard or expert.
func ParseLevel(s string) (Level, error) {
	for l := Easy; l <= Expert; l++ {
		if strings.EqualFold(s, levelNames[l]) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("kakuro: unknown level %q (want easy, medium, hard or expert)", s)
}

// Technique is one kind of deduction the rater makes, from the simplest.
type Technique int

const (
	// TechCombinations: a cell keeps the digits of its clue's combinations
	// that contain every digit already placed in the run and fit the run's
	// candidates, minus those placed digits; a cell in two runs keeps what
	// both allow. This is reading a combination table: 3 in two is 1+2,
	// so the cell where 3-in-two crosses 4-in-two is 1.
	TechCombinations Technique = iota
	// TechRun: a cell keeps a digit only if the whole run can still be filled
	// with it there (every cell from its candidates, no digit twice, the
	// clue's sum): hidden singles inside a run, pairs, "only one cell of
	// this 4-in-two can hold a 3".
	TechRun
	// TechCrossRun: a digit is removed because placing it would, through the
	// runs that cross, leave some run impossible (reasoning one step ahead
	// across several runs).
	TechCrossRun
	// TechGuess: the puzzle needs trial and error deeper than one step; the
	// count is the search nodes the fast solver visits.
	TechGuess
	numTechniques
)

var techniqueNames = [...]string{"combinations", "run", "cross-run", "guess"}

func (t Technique) String() string {
	if t >= 0 && t < numTechniques {
		return techniqueNames[t]
	}
	return fmt.Sprintf("Technique(%d)", int(t))
}

// Rating is the rater's verdict on a puzzle with one solution.
type Rating struct {
	Level Level
	// Uses counts each technique's deductions: digits removed by
	// Combinations and CrossRun, runs narrowed by Run, search nodes for
	// Guess.
	Uses [numTechniques]int
	// Score weighs the uses (1, 5, 25 and 100 points) into one number
	// that orders puzzles of the same level.
	Score int
}

var techniqueWeight = [numTechniques]int{1, 5, 25, 100}

func (r Rating) String() string {
	return fmt.Sprintf("%s (score %d: combinations %d, run %d, cross-run %d, guess %d)",
		r.Level, r.Score, r.Uses[TechCombinations], r.Uses[TechRun], r.Uses[TechCrossRun], r.Uses[TechGuess])
}

// Rate solves b the way a person would, always with the simplest technique
// that makes progress, and returns its level: the hardest technique used.
// A puzzle that is not unique has no level: Rate returns ErrNoSolution or a
// *MultipleError for it, and a *RuleError for a malformed board.
func Rate(b *Board) (Rating, error) {
	s, err := NewSolver(b)
	if err != nil {
		return Rating{}, err
	}
	rt := newRater(s.e)
	dom := make([]uint16, len(rt.e.init))
	for c, i := range rt.e.cellOf {
		dom[c] = allDigits
		if d := b.Cells[i].Digit; d > 0 {
			dom[c] = digitBit(d)
		}
	}
	status := rt.solve(dom, TechCrossRun)
	if status == solved {
		return rt.rating(), nil
	}
	res := s.Count(2)
	switch res.Count {
	case 0:
		return Rating{}, ErrNoSolution
	case 1:
		rt.uses[TechGuess] = int(max(res.Nodes, 1))
		return rt.rating(), nil
	}
	return Rating{}, &MultipleError{First: res.Solutions[0], Second: res.Solutions[1]}
}

// rater applies the techniques in order on an engine's domains.
type rater struct {
	e    *engine
	uses [numTechniques]int
	tmp  []uint16
}

func newRater(e *engine) *rater {
	return &rater{e: e, tmp: make([]uint16, len(e.init))}
}

func (rt *rater) rating() Rating {
	r := Rating{Uses: rt.uses, Level: Easy}
	for t := TechCombinations; t < numTechniques; t++ {
		r.Score += techniqueWeight[t] * rt.uses[t]
		if rt.uses[t] > 0 {
			r.Level = Level(t + 1)
		}
	}
	return r
}

type status int

const (
	solved status = iota
	stuck         // the techniques allowed make no more progress
	broken        // a contradiction: the puzzle has no solution
)

// solve applies techniques up to top to dom until it is solved, stuck or
// broken, counting the uses. dom is left as far as the techniques got.
func (rt *rater) solve(dom []uint16, top Technique) status {
	e := rt.e
	defer func() { e.weak = false }()
	for {
		e.weak = true
		before := candidateCount(dom)
		if !e.propagateAll(dom) {
			return broken
		}
		rt.uses[TechCombinations] += before - candidateCount(dom)
		if chooseCell(dom) < 0 {
			return solved
		}
		if top < TechRun {
			return stuck
		}
		e.weak = false
		progress, ok := rt.runStep(dom)
		if !ok {
			return broken
		}
		if progress {
			rt.uses[TechRun]++
			continue
		}
		if top < TechCrossRun {
			return stuck
		}
		if !rt.crossStep(dom) {
			return stuck
		}
		rt.uses[TechCrossRun]++
	}
}

// runStep makes the first run that full run reasoning narrows consistent,
// reporting whether one was found and whether the board is still possible.
func (rt *rater) runStep(dom []uint16) (progress, ok bool) {
	e := rt.e
	var before [9]uint16
	for k := range e.runs {
		cells := e.runs[k].cells
		for i, c := range cells {
			before[i] = dom[c]
		}
		good := e.revise(dom, int32(k)) // changes only run k's cells
		e.clearQueue()
		if !good {
			return false, false
		}
		for i, c := range cells {
			if dom[c] != before[i] {
				return true, true
			}
		}
	}
	return false, true
}

// crossStep looks for a digit that, placed in its cell, makes some run
// impossible once every run is made consistent again, and removes it.
// Cells with fewer candidates are tried first, as a person would.
func (rt *rater) crossStep(dom []uint16) bool {
	e := rt.e
	for n := 2; n <= 9; n++ {
		for c, m := range dom {
			if bits.OnesCount16(m) != n {
				continue
			}
			for rest := m; rest != 0; rest &= rest - 1 {
				b := rest & -rest
				copy(rt.tmp, dom)
				rt.tmp[c] = b
				if !e.propagateCell(rt.tmp, int32(c)) {
					dom[c] &^= b
					return true
				}
			}
		}
	}
	return false
}

func (e *engine) clearQueue() {
	for _, q := range e.queue {
		e.inQueue[q] = false
	}
	e.queue = e.queue[:0]
}

func candidateCount(dom []uint16) int {
	n := 0
	for _, m := range dom {
		n += bits.OnesCount16(m)
	}
	return n
}
