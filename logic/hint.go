package logic

import (
	"context"
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// HintResult is the answer to "what next?": a wrong entry of the player,
// if there is one (then Step is nil), else the simplest next step, or
// Solved when the grid is already complete and right.
type HintResult struct {
	Wrong  *WrongEntry `json:"wrong,omitempty"`
	Step   *Step       `json:"step,omitempty"`
	Solved bool        `json:"solved,omitempty"`
}

// String returns the hint as one sentence.
func (h HintResult) String() string {
	switch {
	case h.Wrong != nil:
		return h.Wrong.Text
	case h.Step != nil:
		return h.Step.Text
	case h.Solved:
		return "Solved: every cell is filled in correctly"
	}
	return ""
}

// WrongEntry is a digit the player entered that contradicts the solution.
type WrongEntry struct {
	Cell    int    `json:"cell"`            // row-major index
	Entered int    `json:"entered"`         // the player's digit
	Correct int    `json:"correct"`         // the solution's digit
	Clash   []int  `json:"clash,omitempty"` // cells in the same house holding the same digit, if any
	Text    string `json:"text"`
}

// Hint returns the next hint for a player who works on puzzle and has
// reached current (the givens plus their own entries; 0 for empty cells).
// A wrong entry comes first, as the cell whose digit contradicts the
// solution, since reasoning from it would mislead; otherwise the hint is
// the simplest step that the techniques, in the order people learn them,
// find from current. Errors: those of Rate for the puzzle, and *StateError
// when current does not fit the puzzle (other shape, a given changed, a
// value out of range).
func Hint(puzzle, current sudoku.Grid) (HintResult, error) {
	g0, sol, err := prepare(puzzle)
	if err != nil {
		return HintResult{}, err
	}
	geo := g0.geo
	if current.Shape != puzzle.Shape || len(current.Cells) != len(puzzle.Cells) {
		return HintResult{}, &StateError{Cell: -1, Side: geo.n, Reason: "the grid in progress has another shape than the puzzle"}
	}
	for i, v := range current.Cells {
		if v < 0 || v > geo.n {
			return HintResult{}, &StateError{Cell: i, Side: geo.n, Reason: fmt.Sprintf("value %d out of range", v)}
		}
		if p := puzzle.Cells[i]; p != 0 && v != p {
			return HintResult{}, &StateError{Cell: i, Side: geo.n, Reason: fmt.Sprintf("given %d changed to %d", p, v)}
		}
	}
	// The first wrong entry, in reading order.
	for i, v := range current.Cells {
		if v == 0 || puzzle.Cells[i] != 0 || v == sol.Cells[i] {
			continue
		}
		w := &WrongEntry{Cell: i, Entered: v, Correct: sol.Cells[i]}
		for _, p := range geo.peerList[i] {
			if current.Cells[p] == v {
				w.Clash = append(w.Clash, p)
			}
		}
		if len(w.Clash) > 0 {
			w.Text = fmt.Sprintf("Wrong entry: %d in %s clashes with the %d in %s", v, geo.cellName(i), v, geo.cellList(w.Clash))
		} else {
			w.Text = fmt.Sprintf("Wrong entry: %d in %s contradicts the solution", v, geo.cellName(i))
		}
		return HintResult{Wrong: w}, nil
	}
	g := newGrid(geo, current.Cells)
	g.unique = true
	if g.Solved() {
		return HintResult{Solved: true}, nil
	}
	s, ok := NextStep(g)
	if !ok {
		return HintResult{}, ErrStuck
	}
	return HintResult{Step: &s}, nil
}

// HintContext is Hint that returns ctx's error when ctx ends first: the
// front ends bound how long a player waits. One step's search cannot be
// interrupted, so it finishes in the background and its answer is dropped.
func HintContext(ctx context.Context, puzzle, current sudoku.Grid) (HintResult, error) {
	type answer struct {
		h   HintResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		h, err := Hint(puzzle, current)
		done <- answer{h, err}
	}()
	select {
	case a := <-done:
		return a.h, a.err
	case <-ctx.Done():
		return HintResult{}, ctx.Err()
	}
}
