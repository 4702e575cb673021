package pipeline

import (
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// Result is what the pipeline made of one frame. The tagged fields are the
// JSON line that `scan --json` and `live --json` print; the others carry what
// an overlay needs to draw it back.
type Result struct {
	File     string        `json:"file,omitempty"`
	Frame    *int          `json:"frame,omitempty"` // live only: the frame index recognised
	Found    bool          `json:"found"`
	Corners  [4][2]float64 `json:"corners"` // TL, TR, BR, BL in the frame's pixels
	Box      [2]int        `json:"box"`     // box rows, box columns (0,0 when no grid)
	Given    string        `json:"given"`   // N² chars, '0' = empty
	Solution string        `json:"solution"`
	Status   Status        `json:"status"`
	Ms       float64       `json:"ms"`
	Error    string        `json:"error,omitempty"`

	// Conflicts lists the cells (row-major index) of givens that break a
	// rule; an overlay paints them red.
	Conflicts []int `json:"conflicts,omitempty"`
	// Changed lists the cells whose reading the OCR's repair replaced by a
	// less likely value.
	Changed []int `json:"changed,omitempty"`
	// Grids lists the grids found in the frame when there are several (a
	// page with two puzzles), the most Sudoku-like first, with the one
	// read marked; ProcessPick reads another.
	Grids []GridChoice `json:"grids,omitempty"`
	// Check lists the cells to check on the page before trusting a
	// solution (status "check cells"), with the reason for each.
	Check []Check `json:"check,omitempty"`
	// Symbols is how the page writes values above 9 ("numbers", "letters"
	// or "0-F"), for grids larger than 9×9. Given and Solution always
	// write 10.. as A.. whatever the page does.
	Symbols string `json:"symbols,omitempty"`
	// Conf is, per cell (row-major, in Given's layout), how sure the
	// reading is of the value in Given (calibrated probability, three
	// decimals); 1 for cells vision saw no ink in.
	Conf []float64 `json:"conf,omitempty"`
	// Prob is, per cell (in Given's layout), the reader's probabilities
	// of the values 0..N (0: empty), nil for a cell vision found empty
	// and gave no pixels for: what live combines over a page's frames.
	Prob [][]float32 `json:"-"`
	// Turns is how many clockwise quarter turns the page lay away from
	// upright in the frame (0 normally); Puzzle, Grid and Corners are
	// already turned to match. Apply vision.Grid.Turn to a grid Locate finds later.
	Turns int `json:"turns,omitempty"`
	// CellPx is the side of a cell in the pixels it was read from (the
	// frame scaled down to vision's working size): what the gate calls
	// small (SmallCellPx) whatever the camera's resolution.
	CellPx float64 `json:"cell_px,omitempty"`
	// Own is, in live, what the recognised frame read alone (Given and
	// Status above are the vote's), and Fused what the mean of the page's
	// latest views read when the gate held the vote and fusion ran: to
	// tell a gate holding a right vote from a vote that never settles.
	Own   *Reading `json:"own,omitempty"`
	Fused *Reading `json:"fused,omitempty"`

	// What the player wrote on the page (see CheckEntries): Entries the
	// handwritten digits (N² chars, '0' = none); Mistakes the entries read
	// surely that disagree with the givens' solution (only when solved);
	// Clashes the surely read entries that repeat a given or another
	// entry in a house (even unsolved); Notes the cells of pencil notes;
	// EntryCheck the entries and ink not read surely ("check rXcY",
	// never called wrong); Progress the counts in words, or "solved".
	Entries    string  `json:"entries,omitempty"`
	Mistakes   []int   `json:"mistakes,omitempty"`
	Clashes    []int   `json:"clashes,omitempty"`
	Notes      []int   `json:"notes,omitempty"`
	EntryCheck []Check `json:"entry_check,omitempty"`
	Progress   string  `json:"progress,omitempty"`
	// Pen is the reader's word on the ink per cell, what live votes over.
	Pen Pen `json:"-"`

	Puzzle sudoku.Grid `json:"-"` // the givens as read (Shape zero when no grid)
	Solved sudoku.Grid `json:"-"` // the full solution (Cells nil unless solved)
	Grid   vision.Grid `json:"-"` // where the grid is in the frame
}

// Reading is one reading of the givens beside the one a Result reports.
type Reading struct {
	Given  string `json:"given"`
	Status Status `json:"status"`
	// Views is how many views were averaged into the reading (fused).
	Views int `json:"views,omitempty"`
}

// GridChoice is one of several grids found in one frame.
type GridChoice struct {
	Corners [4][2]float64 `json:"corners"` // TL, TR, BR, BL in the frame's pixels
	// Score says how Sudoku-like its lattice looks (see vision.Candidate).
	Score float64 `json:"score"`
	Read  bool    `json:"read,omitempty"` // the grid this Result read
}

// Check is one cell to check on the page.
type Check struct {
	Cell   int    `json:"cell"`   // row-major index
	Name   string `json:"name"`   // "r3c8"
	Reason string `json:"reason"` // why, e.g. "read 7 (p=0.97); 9 (p=0.0001) would also give a unique solution"
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
