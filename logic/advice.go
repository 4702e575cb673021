package logic

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Advice is a hint as a player meets it, in three stages: first the Nudge
// (the technique and the house to look at: "There is a hidden single in
// box 1"), then the pattern (Cells, the Eliminations and the Sentence),
// then the answer (Placements, or the Eliminations applied). It is the one
// form every front end (the play page, rooms, the camera's walk through a
// solution) turns into JSON; a wrong entry of the player is Advice too,
// with Wrong set and the clashing cells in Cells.
type Advice struct {
	Technique string  `json:"technique"`
	Rating    float64 `json:"rating,omitempty"`
	Nudge     string  `json:"nudge"`
	House     string  `json:"house,omitempty"` // "box 1", "row 3", "column 5"; "" when the step spans several
	Sentence  string  `json:"sentence"`
	// PlainNudge and Plain are Nudge and Sentence in plain words, for
	// players who know no technique's name: cells named "row 3, column
	// 5", the technique's name left out.
	PlainNudge   string      `json:"plainNudge"`
	Plain        string      `json:"plain"`
	Cells        []int       `json:"cells"` // pattern cells to highlight (row-major)
	Placements   []Candidate `json:"placements,omitempty"`
	Eliminations []Candidate `json:"eliminations,omitempty"`
	Wrong        []int       `json:"wrong,omitempty"` // entries that contradict the solution
}

// ErrSolved is Advise's answer for a grid that is already complete and right.
var ErrSolved = errors.New("the grid is already solved")

// Advise returns the next hint for current (see Hint) as Advice, with the
// house of its nudge found on current's pencil marks. Errors: those of
// HintContext, ErrSolved, and ErrStuck when no technique applies.
func Advise(ctx context.Context, puzzle, current sudoku.Grid) (Advice, error) {
	h, err := HintContext(ctx, puzzle, current)
	if err != nil {
		return Advice{}, err
	}
	geo, err := geometryFor(puzzle.Shape)
	if err != nil {
		return Advice{}, err
	}
	switch {
	case h.Wrong != nil:
		w := h.Wrong
		nudge := fmt.Sprintf("One of your digits is wrong: look again at %s", geo.houseName(geo.cellHouse[w.Cell][2]))
		return Advice{
			Technique: "Wrong entry", Sentence: w.Text, Cells: append([]int{}, w.Clash...), Wrong: []int{w.Cell},
			Nudge: nudge, House: geo.houseName(geo.cellHouse[w.Cell][2]),
			PlainNudge: nudge, Plain: geo.plainWrong(w.Cell, current.Cells[w.Cell], w.Clash),
		}, nil
	case h.Step != nil:
		return adviceOf(*h.Step, newGrid(geo, current.Cells)), nil
	case h.Solved:
		return Advice{}, ErrSolved
	}
	return Advice{}, ErrStuck
}

// AdviceFor turns the steps of a solution path (SolveSteps) into Advice:
// each step's house is found on the grid as it stood before that step.
func AdviceFor(puzzle sudoku.Grid, steps []Step) ([]Advice, error) {
	g, err := NewGrid(puzzle)
	if err != nil {
		return nil, err
	}
	out := make([]Advice, len(steps))
	for i, s := range steps {
		out[i] = adviceOf(s, g)
		if err := g.Apply(s); err != nil {
			return out[:i+1], fmt.Errorf("step %d (%s): %w", i+1, s.Technique, err)
		}
	}
	return out, nil
}

// adviceOf is step s, found on g, as Advice.
func adviceOf(s Step, g *Grid) Advice {
	a := Advice{
		Technique: s.Technique, Rating: s.Rating, Sentence: s.Text, Cells: append([]int{}, s.Cells...),
		Placements: append([]Candidate(nil), s.Placements...), Eliminations: append([]Candidate(nil), s.Eliminations...),
	}
	h := stepHouse(s, g)
	what := strings.ToLower(s.Technique)
	article := "a"
	if strings.ContainsAny(what[:1], "aeiou") {
		article = "an"
	}
	switch {
	case h >= 0:
		a.House = g.geo.houseName(h)
		a.Nudge = fmt.Sprintf("There is %s %s in %s", article, what, a.House)
	case len(stepDigits(s)) == 1:
		a.Nudge = fmt.Sprintf("There is %s %s on the digit %d", article, what, stepDigits(s)[0])
	default:
		a.Nudge = fmt.Sprintf("There is %s %s", article, what)
	}
	a.PlainNudge, a.Plain = plainWords(s, a.House, g)
	return a
}

// stepHouse is the house a player should look at for s on g, or -1: for a
// single, the house it completes (hidden single: where its digit has one
// place left; full house: the house with one empty cell; naked single: the
// cell's box); for any other step, a house that holds every pattern cell,
// a line before a box (a pointing pair lies in both: the line is where the
// digit goes away).
func stepHouse(s Step, g *Grid) int {
	geo := g.geo
	if len(s.Placements) == 1 && (s.Technique == nameHiddenSingle || s.Technique == nameFullHouse || s.Technique == nameNakedSingle) {
		p := s.Placements[0]
		hs := geo.cellHouse[p.Cell]
		for _, h := range [3]int{hs[2], hs[0], hs[1]} {
			switch {
			case s.Technique == nameHiddenSingle && g.housePos(h, p.Digit).count() == 1:
				return h
			case s.Technique == nameFullHouse && g.houseEmpty(h).count() == 1:
				return h
			}
		}
		return hs[2]
	}
	var cells cellSet
	for _, c := range s.Cells {
		cells.add(c)
	}
	if len(s.Cells) == 0 {
		for _, c := range s.Placements {
			cells.add(c.Cell)
		}
	}
	hs := geo.commonHouses(cells)
	if len(hs) == 0 {
		return -1
	}
	return hs[0] // cellHouse order: row, column, box
}

// stepDigits lists the digits s places or removes, each once.
func stepDigits(s Step) []int {
	var out []int
	seen := map[int]bool{}
	for _, cs := range [][]Candidate{s.Placements, s.Eliminations} {
		for _, c := range cs {
			if !seen[c.Digit] {
				seen[c.Digit] = true
				out = append(out, c.Digit)
			}
		}
	}
	return out
}
