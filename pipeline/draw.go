package pipeline

import (
	"fmt"
	"image/color"
	"strings"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/overlay"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// Picture says what to paint for one grid on one frame; Draw paints it.
// Scan and live both describe their frames this way, so they look alike.
type Picture struct {
	Outline bool // the grid's border
	// Puzzle is the givens as read. With Solution set, the solution digits
	// of its empty cells are drawn; with ShowGivens, the givens themselves
	// are drawn over the print (so the user sees what was read).
	Puzzle     sudoku.Grid
	Solution   sudoku.Grid
	ShowGivens bool
	Conflicts  []int          // cells tinted red
	Check      []int          // cells outlined in orange: check them on the page
	Symbols    sudoku.Symbols // how the page writes values above 9
	HUD        []string       // status lines, top left
}

// Colours of the annotations.
var (
	outlineSolved = color.RGBA{R: 40, G: 200, B: 60, A: 255}
	outlineOther  = color.RGBA{R: 240, G: 190, B: 30, A: 255}
	conflictRed   = color.RGBA{R: 230, G: 30, B: 30, A: 255}
	checkOrange   = color.RGBA{R: 255, G: 140, B: 0, A: 255}
	givenGreen    = color.RGBA{R: 0, G: 160, B: 60, A: 255}
)

// Picture describes r for drawing: the solution when there is one (and
// solve is true), otherwise the givens as read, with conflicts, plus a
// one-line HUD with the status.
func (r Result) Picture(solve bool) Picture {
	p := Picture{Outline: r.Found, Puzzle: r.Puzzle, Conflicts: r.Conflicts, Check: r.CheckCells()}
	p.Symbols, _ = sudoku.ParseSymbols(r.Symbols)
	switch {
	case solve && r.IsSolved():
		p.Solution = r.Solved
	case len(r.Puzzle.Cells) > 0:
		p.ShowGivens = true
	}
	msg := r.Status.String()
	if len(r.Conflicts) > 0 {
		msg = fmt.Sprintf("%s: %d conflicting cells", r.Status, len(r.Conflicts))
	}
	if len(r.Check) > 0 {
		msg = CheckMessage(r.CheckCells(), r.Puzzle.N())
	}
	p.HUD = []string{msg}
	return p
}

// Draw paints p onto frame (in place) for the grid g; found false means
// there is no grid to draw into, and only the HUD is drawn. g needs its
// Shape (from Analyze, or set by the caller after Locate) for digits and
// conflicts.
func Draw(frame *gocv.Mat, g vision.Grid, found bool, p Picture) error {
	if found {
		if p.Outline {
			c := outlineOther
			if len(p.Solution.Cells) > 0 {
				c = outlineSolved
			}
			if err := overlay.Outline(frame, g, c); err != nil {
				return err
			}
		}
		digits := g.Shape.N() > 0 && len(p.Puzzle.Cells) == g.Shape.N()*g.Shape.N()
		if digits && len(p.Conflicts) > 0 {
			if err := overlay.Highlight(frame, g, p.Conflicts, conflictRed); err != nil {
				return err
			}
		}
		if digits && len(p.Check) > 0 {
			if err := overlay.OutlineCells(frame, g, p.Check, checkOrange); err != nil {
				return err
			}
		}
		switch {
		case digits && len(p.Solution.Cells) == len(p.Puzzle.Cells):
			st := overlay.DefaultStyle()
			st.Symbols = p.Symbols
			if err := overlay.Solution(frame, g, p.Puzzle, p.Solution, st); err != nil {
				return err
			}
		case digits && p.ShowGivens:
			// Every given is the "solution" of an empty puzzle: draw them
			// all, small, thin and green over the print, so a misread
			// digit stands out against the printed one.
			st := overlay.DefaultStyle()
			st.Color, st.HeightFrac, st.Weight, st.Alpha = givenGreen, 0.35, 0.1, 0.9
			st.Symbols = p.Symbols
			if err := overlay.Solution(frame, g, sudoku.NewGrid(p.Puzzle.Shape), p.Puzzle, st); err != nil {
				return err
			}
		}
	}
	if len(p.HUD) > 0 {
		return overlay.HUD(frame, p.HUD)
	}
	return nil
}

// CheckMessage is the words for cells to check: "check cell r3c8", or
// "check cells r3c8 r5c1" (at most four named, then "and N more").
func CheckMessage(cells []int, n int) string {
	if len(cells) == 0 || n <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("check cell")
	if len(cells) > 1 {
		b.WriteString("s")
	}
	for i, c := range cells {
		if i == 4 {
			fmt.Fprintf(&b, " and %d more", len(cells)-4)
			break
		}
		fmt.Fprintf(&b, " r%dc%d", c/n+1, c%n+1)
	}
	return b.String()
}
