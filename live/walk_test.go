package live

import (
	"testing"

	"github.com/sudokuar/sudokuar/logic"
)

func TestStepWalk(t *testing.T) {
	steps := []logic.Step{
		{Technique: "a", Placements: []logic.Candidate{{Cell: 1, Digit: 5}}},
		{Technique: "b", Placements: []logic.Candidate{{Cell: 2, Digit: 6}}},
		{Technique: "c"},
	}
	var w StepWalk
	if w.Holds("p") || w.Next() {
		t.Fatal("the zero walk holds steps")
	}
	if _, _, _, ok := w.Step(); ok {
		t.Fatal("the zero walk shows a step")
	}
	w.Start("p", steps)
	if !w.Holds("p") || w.Holds("q") {
		t.Fatal("Holds after Start")
	}
	var got []string
	for {
		st, k, n, ok := w.Step()
		if !ok {
			break
		}
		got = append(got, st.Technique)
		if n != 3 || k != len(got) || len(w.Placed()) != min(k-1, 2) {
			t.Errorf("step %d of %d with %d placed before it", k, n, len(w.Placed()))
		}
		if !w.Next() {
			break
		}
	}
	if len(got) != 3 || got[0] != "a" || got[2] != "c" || w.Holds("p") {
		t.Errorf("walked %v, holds after the end: %v", got, w.Holds("p"))
	}
	w.Start("p", nil)
	if w.Holds("p") {
		t.Error("a walk of no steps holds them")
	}
}
