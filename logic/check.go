package logic

import (
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// UnsoundError reports a step that contradicts a puzzle's solution: it
// places a digit the solution does not have there, or eliminates one it
// does. It should never happen; CheckSteps exists to prove that it does not.
type UnsoundError struct {
	Index  int  // 0-based position of the step in the path
	Step   Step // the step itself
	Cell   int  // row-major index of the offending cell
	Side   int  // grid side, to name the cell
	Digit  int  // the digit placed or eliminated
	Placed bool // true: a wrong placement; false: a true candidate eliminated
	Truth  int  // the solution's digit in Cell
}

func (e *UnsoundError) Error() string {
	cell := sudoku.CellName(e.Cell, e.Side)
	if e.Placed {
		return fmt.Sprintf("logic: step %d (%s) places %d in %s where the solution has %d: %s", e.Index+1, e.Step.Technique, e.Digit, cell, e.Truth, e.Step.Text)
	}
	return fmt.Sprintf("logic: step %d (%s) eliminates %d from %s, the solution's digit: %s", e.Index+1, e.Step.Technique, e.Digit, cell, e.Step.Text)
}

// CheckSteps replays steps from puzzle p and checks each against the
// solution sol (from a solver the engine does not share, such as DLX): no
// placement differs from sol, no elimination removes sol's digit, and the
// steps end on sol itself. It returns the first *UnsoundError, or an error
// saying the steps do not apply or stop short of the solution.
func CheckSteps(p sudoku.Grid, steps []Step, sol sudoku.Grid) error {
	g, err := NewGrid(p)
	if err != nil {
		return err
	}
	if len(sol.Cells) != len(p.Cells) {
		return fmt.Errorf("logic: solution has %d cells, puzzle %d", len(sol.Cells), len(p.Cells))
	}
	n := g.N()
	for i, s := range steps {
		for _, c := range s.Placements {
			if c.Cell >= 0 && c.Cell < len(sol.Cells) && sol.Cells[c.Cell] != c.Digit {
				return &UnsoundError{Index: i, Step: s, Cell: c.Cell, Side: n, Digit: c.Digit, Placed: true, Truth: sol.Cells[c.Cell]}
			}
		}
		for _, c := range s.Eliminations {
			if c.Cell >= 0 && c.Cell < len(sol.Cells) && sol.Cells[c.Cell] == c.Digit {
				return &UnsoundError{Index: i, Step: s, Cell: c.Cell, Side: n, Digit: c.Digit, Truth: sol.Cells[c.Cell]}
			}
		}
		if err := g.Apply(s); err != nil {
			return fmt.Errorf("logic: step %d does not apply: %w", i+1, err)
		}
	}
	if !g.Solved() || !g.Values().Equal(sol) {
		return fmt.Errorf("logic: %d steps stop short of the solution", len(steps))
	}
	return nil
}
