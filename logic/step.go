package logic

import (
	"fmt"
	"sort"
	"strings"
)

// Candidate is one digit in one cell: a pencil mark, or a placement.
type Candidate struct {
	Cell  int `json:"cell"`  // row-major index: row*N + column, 0-based
	Digit int `json:"digit"` // 1..N
}

// Link joins two candidates of a chain, for drawing. A strong link says at
// least one of the two is true, a weak link that they are not both true.
type Link struct {
	From   Candidate `json:"from"`
	To     Candidate `json:"to"`
	Strong bool      `json:"strong"`
}

// Step is one deduction: which technique found it, its difficulty on the
// Sudoku Explainer scale, what it places or eliminates, and what proves it
// (the pattern cells and candidates, the links of a chain), so a printer, a
// web page and the camera overlay can each draw it their own way. Text is
// the same step in one plain sentence with cells named rXcY.
type Step struct {
	Technique    string      `json:"technique"`
	Rating       float64     `json:"rating"`
	Placements   []Candidate `json:"placements,omitempty"`
	Eliminations []Candidate `json:"eliminations,omitempty"`
	Cells        []int       `json:"cells,omitempty"`   // cells of the pattern, to highlight
	Pattern      []Candidate `json:"pattern,omitempty"` // candidates of the pattern
	Links        []Link      `json:"links,omitempty"`   // chain links, in order
	Text         string      `json:"text"`
	// decides: the step proves a cell's digit without placing it (a chain
	// whose verdict is "rXcY is d", which eliminates the cell's other
	// candidates); such a step counts as a placement for the EP rating.
	decides bool
}

// placesDigit reports whether the step settles a cell, as Sudoku
// Explainer counts for its pearl rating (EP).
func (s Step) placesDigit() bool { return len(s.Placements) > 0 || s.decides }

// Sentence returns the step in one plain sentence, e.g. "Hidden single: 7
// can only go in r3c5 within box 2".
func (s Step) Sentence() string { return s.Text }

// String returns Sentence.
func (s Step) String() string { return s.Text }

// names of cells and candidates in sentences ---------------------------

// cellList names cells: "r1c1", "r1c1 and r1c5", "r1c1, r1c5 and r2c3".
func (g *geometry) cellList(cells []int) string {
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = g.cellName(c)
	}
	return joinAnd(names)
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// digitList names digits: "4", "4 and 7", "2, 4 and 7".
func digitList(ds []int) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = fmt.Sprint(d)
	}
	return joinAnd(names)
}

// digitOr names digits as alternatives: "4 or 7".
func digitOr(ds []int) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = fmt.Sprint(d)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// elimText says what a step removes: "remove 4 from r1c3 and r5c8", or
// for several digits "remove 2 and 9 from r5c1; 4 from r2c2".
func (g *geometry) elimText(elims []Candidate) string {
	byDigit := map[int][]int{}
	var digits []int
	for _, e := range elims {
		if _, ok := byDigit[e.Digit]; !ok {
			digits = append(digits, e.Digit)
		}
		byDigit[e.Digit] = append(byDigit[e.Digit], e.Cell)
	}
	sort.Ints(digits)
	// Digits removed from the same cells go together.
	var parts []string
	done := map[int]bool{}
	for _, d := range digits {
		if done[d] {
			continue
		}
		cells := byDigit[d]
		sort.Ints(cells)
		key := fmt.Sprint(cells)
		same := []int{d}
		for _, d2 := range digits {
			if d2 > d && !done[d2] {
				c2 := byDigit[d2]
				sort.Ints(c2)
				if fmt.Sprint(c2) == key {
					same = append(same, d2)
					done[d2] = true
				}
			}
		}
		parts = append(parts, fmt.Sprintf("%s from %s", digitList(same), g.cellList(cells)))
	}
	return "remove " + strings.Join(parts, "; ")
}

// sortCandidates orders candidates by cell, then digit, and drops duplicates.
func sortCandidates(cs []Candidate) []Candidate {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Cell != cs[j].Cell {
			return cs[i].Cell < cs[j].Cell
		}
		return cs[i].Digit < cs[j].Digit
	})
	out := cs[:0]
	for i, c := range cs {
		if i == 0 || c != cs[i-1] {
			out = append(out, c)
		}
	}
	return out
}

// elimsOf lists candidate d in the cells of s that still have it.
func (g *Grid) elimsOf(s cellSet, d int) []Candidate {
	s = s.and(g.pos[d-1])
	out := make([]Candidate, 0, s.count())
	for c := s.first(); c >= 0; c = s.next(c) {
		out = append(out, Candidate{c, d})
	}
	return out
}

// candidatesIn lists the candidates among digits m in the cells of s.
func (g *Grid) candidatesIn(s cellSet, m digitMask) []Candidate {
	var out []Candidate
	for c := s.first(); c >= 0; c = s.next(c) {
		for x := g.cand[c] & m; x != 0; x &= x - 1 {
			out = append(out, Candidate{c, digitMask(x).first()})
		}
	}
	return out
}
