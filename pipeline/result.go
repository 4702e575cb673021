package pipeline

import (
	"math"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// Result is what the pipeline made of one frame: where the grid is, the
// givens read and their solution, the status, and what an overlay needs to
// draw it back. Front ends encode it (internal/wire); it has no wire form
// of its own.
type Result struct {
	File   string // the picture's file, when it came from one
	Found  bool   // a grid was found (Grid says where)
	Status Status
	Ms     float64 // the time taken, in milliseconds (hundredths)
	Error  string  // why it failed, or what the picture's fault was

	// Conflicts lists the cells (row-major index) of givens that break a
	// rule; an overlay paints them red.
	Conflicts []int
	// Changed lists the cells whose reading the OCR's repair replaced by a
	// less likely value.
	Changed []int
	// Grids lists the grids found in the frame when there are several (a
	// page with two puzzles), the most Sudoku-like first, with the one
	// read marked; ProcessPick reads another.
	Grids []GridChoice
	// Check lists the cells to check on the page before trusting a
	// solution (status "check cells"), with the reason for each.
	Check []Check
	// Symbols is how the page writes values above 9 ("numbers", "letters"
	// or "0-F"), for grids larger than 9×9. Puzzle and Solved, as text,
	// always write 10.. as A.. whatever the page does.
	Symbols string
	// Conf is, per cell (row-major, in Puzzle's layout), how sure the
	// reading is of the value in Puzzle (calibrated probability, three
	// decimals); 1 for cells vision saw no ink in.
	Conf []float64
	// Prob is, per cell (in Puzzle's layout), the reader's probabilities
	// of the values 0..N (0: empty), nil for a cell vision found empty
	// and gave no pixels for: what live combines over a page's frames.
	Prob [][]float32
	// Turns is how many clockwise quarter turns the page lay away from
	// upright in the frame (0 normally); Puzzle and Grid are already
	// turned to match. Apply vision.Grid.Turn to a grid Locate finds later.
	Turns int
	// CellPx is the side of a cell in the pixels it was read from (the
	// frame scaled down to vision's working size): what the gate calls
	// small (SmallCellPx) whatever the camera's resolution.
	CellPx float64

	// What the player wrote on the page (see CheckEntries): Entries the
	// handwritten digits (N² chars, '0' = none); Mistakes the entries read
	// surely that disagree with the givens' solution (only when solved);
	// Clashes the surely read entries that repeat a given or another
	// entry in a house (even unsolved); Notes the cells of pencil notes;
	// EntryCheck the entries and ink not read surely ("check rXcY",
	// never called wrong); Progress the counts in words, or "solved".
	Entries    string
	Mistakes   []int
	Clashes    []int
	Notes      []int
	EntryCheck []Check
	Progress   string
	// Pen is the reader's word on the ink per cell, what live votes over.
	Pen Pen

	Puzzle sudoku.Grid // the givens as read (Shape zero when no grid)
	Solved sudoku.Grid // the full solution (Cells nil unless solved)
	Grid   vision.Grid // where the grid is in the frame (zero when none)
}

// Given is the givens as text: N² characters, '0' for an empty cell,
// 10.. written A.. ("" when no grid was read).
func (r Result) Given() string { return sudoku.CellString(r.Puzzle.Cells) }

// Solution is the solution as text, like Given ("" unless solved).
func (r Result) Solution() string { return sudoku.CellString(r.Solved.Cells) }

// Corners are g's corners (TL, TR, BR, BL, in the frame's pixels) in
// hundredths of a pixel: all the precision there is, and short JSON.
func Corners(g vision.Grid) [4][2]float64 {
	var out [4][2]float64
	for i, c := range g.Corners {
		out[i] = [2]float64{math.Round(float64(c.X)*100) / 100, math.Round(float64(c.Y)*100) / 100}
	}
	return out
}

// GridChoice is one of several grids found in one frame.
type GridChoice struct {
	Corners [4][2]float64 // TL, TR, BR, BL in the frame's pixels, hundredths
	// Score says how Sudoku-like its lattice looks (see vision.Candidate).
	Score float64
	Read  bool // the grid this Result read
}

// Check is one cell to check on the page.
type Check struct {
	Cell   int    // row-major index
	Name   string // "r3c8"
	Reason string // why, e.g. "read 7 (p=0.97); 9 (p=0.0001) would also give a unique solution"
}

// CheckCells returns the row-major indices of r.Check.
func (r Result) CheckCells() []int {
	out := make([]int, len(r.Check))
	for i, c := range r.Check {
		out[i] = c.Cell
	}
	return out
}

// IsSolved reports whether the result carries a solution.
func (r Result) IsSolved() bool { return r.Status == StatusSolved && len(r.Solved.Cells) > 0 }
