// Package kakuro knows the rules of Kakuro (cross sums).
//
//  1. Read a Board from the text format (Parse, ReadFile; docs/kakuro.md
//     describes it) or build one; Validate names the rows, columns and lines
//     of its problems (*RuleError).
//  2. Solve and count it (NewSolver), as an ILP (NewILPModel) or as exact
//     cover (NewExactCover).
//  3. Rate it (Rate), or Generate new puzzles with exactly one solution.
package kakuro

import "fmt"

// Cell is one square of a board: a white cell to fill, or a block that may
// carry the sums of the runs below it (Down) and to its right (Across).
type Cell struct {
	White  bool
	Down   int // block: sum of the run of white cells below; 0 = none
	Across int // block: sum of the run of white cells to the right; 0 = none
	Digit  int // white cell: 1-9 when given or filled, 0 when empty
}

// IsClue reports whether c is a block holding at least one sum.
func (c Cell) IsClue() bool { return !c.White && (c.Down > 0 || c.Across > 0) }

// Board is a whole Kakuro, clue row and column included, in row-major order.
type Board struct {
	Rows, Cols int
	Cells      []Cell
}

// NewBoard returns a rows x cols board of blocks.
func NewBoard(rows, cols int) *Board {
	return &Board{Rows: rows, Cols: cols, Cells: make([]Cell, rows*cols)}
}

// At returns the cell at row r, column c (0-based).
func (b *Board) At(r, c int) Cell { return b.Cells[r*b.Cols+c] }

// Set replaces the cell at row r, column c (0-based).
func (b *Board) Set(r, c int, cell Cell) { b.Cells[r*b.Cols+c] = cell }

// Clone returns a deep copy of b.
func (b *Board) Clone() *Board {
	return &Board{Rows: b.Rows, Cols: b.Cols, Cells: append([]Cell(nil), b.Cells...)}
}

// Whites returns the board indices of the white cells in row-major order;
// solutions list digits in this order.
func (b *Board) Whites() []int {
	var w []int
	for i, c := range b.Cells {
		if c.White {
			w = append(w, i)
		}
	}
	return w
}

// Filled reports whether every white cell holds a digit.
func (b *Board) Filled() bool {
	for _, c := range b.Cells {
		if c.White && c.Digit == 0 {
			return false
		}
	}
	return true
}

// Blank returns a copy of b with every white cell emptied: the puzzle of a
// solved board.
func (b *Board) Blank() *Board {
	out := b.Clone()
	for i := range out.Cells {
		out.Cells[i].Digit = 0
	}
	return out
}

// Run is a maximal horizontal (Across) or vertical line of white cells.
type Run struct {
	Across bool
	Sum    int   // the clue; 0 when the cell before the run holds none
	Clue   int   // board index of the cell before the run (its clue cell), -1 at the edge
	Cells  []int // board indices of the white cells, in reading order
}

// Name describes r for messages: "across run at row 3 col 2" (1-based, the
// first white cell).
func (r Run) Name(cols int) string {
	dir := "down"
	if r.Across {
		dir = "across"
	}
	return fmt.Sprintf("%s run at row %d col %d", dir, r.Cells[0]/cols+1, r.Cells[0]%cols+1)
}

// Runs returns every run of b that the rules constrain: each maximal line of
// two or more white cells, and each single white cell that a clue points at
// (some sources clue single cells). Across runs come first, in reading
// order, then down runs, column by column.
func (b *Board) Runs() []Run {
	var runs []Run
	for _, across := range []bool{true, false} {
		outer, inner := b.Rows, b.Cols
		if !across {
			outer, inner = b.Cols, b.Rows
		}
		at := func(o, i int) int {
			if across {
				return o*b.Cols + i
			}
			return i*b.Cols + o
		}
		for o := 0; o < outer; o++ {
			for i := 0; i < inner; {
				if !b.Cells[at(o, i)].White {
					i++
					continue
				}
				run := Run{Across: across, Clue: -1}
				if i > 0 {
					run.Clue = at(o, i-1)
					clue := b.Cells[run.Clue]
					if across {
						run.Sum = clue.Across
					} else {
						run.Sum = clue.Down
					}
				}
				for ; i < inner && b.Cells[at(o, i)].White; i++ {
					run.Cells = append(run.Cells, at(o, i))
				}
				if len(run.Cells) >= 2 || run.Sum > 0 {
					runs = append(runs, run)
				}
			}
		}
	}
	return runs
}
