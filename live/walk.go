package live

import "github.com/sudokuar/sudokuar/logic"

// StepWalk is where the H key has got to in the logical solution of the
// puzzle in view, one step per press: the live window and the web camera
// both walk with it. The steps come from package logic; the walk only
// says which of them is shown and what the steps before it placed.
// The zero value holds no steps.
type StepWalk struct {
	key   string // which puzzle the steps are for
	steps []logic.Step
	at    int // index of the step shown
}

// Holds reports whether the walk has the steps of the puzzle key (any
// string naming a puzzle: its givens, a session's puzzle number).
func (w *StepWalk) Holds(key string) bool { return w.steps != nil && w.key == key }

// Start begins a walk through steps, of the puzzle key, at the first step.
// With no steps the walk holds nothing.
func (w *StepWalk) Start(key string, steps []logic.Step) {
	*w = StepWalk{}
	if len(steps) > 0 {
		*w = StepWalk{key: key, steps: steps}
	}
}

// Next moves to the next step and reports whether there is one; past the
// last the walk is over and holds nothing.
func (w *StepWalk) Next() bool {
	if w.steps == nil {
		return false
	}
	w.at++
	if w.at >= len(w.steps) {
		*w = StepWalk{}
		return false
	}
	return true
}

// Reset forgets the walk.
func (w *StepWalk) Reset() { *w = StepWalk{} }

// Step returns the step shown, its number counted from 1, and how many
// steps there are; ok is false when the walk holds nothing.
func (w *StepWalk) Step() (st logic.Step, k, n int, ok bool) {
	if w.steps == nil {
		return logic.Step{}, 0, 0, false
	}
	return w.steps[w.at], w.at + 1, len(w.steps), true
}

// Placed returns the digits placed by the steps before the one shown.
func (w *StepWalk) Placed() []logic.Candidate {
	var out []logic.Candidate
	for _, s := range w.steps[:min(w.at, len(w.steps))] {
		out = append(out, s.Placements...)
	}
	return out
}
