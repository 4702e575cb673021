package game

import (
	"errors"
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Errors for moves and questions the rules refuse. Front ends compare with
// errors.Is and choose their own words.
var (
	// ErrFixed: the cell is part of the puzzle.
	ErrFixed = errors.New("game: cell is fixed")
	// ErrWall: the cell is a wall of a Layout's board (a Kakuro's clue
	// square): no value or mark goes there.
	ErrWall = errors.New("game: cell is not part of the play area")
	// ErrNotSudoku: the question needs a Sudoku's grid (solving,
	// generating, the console's file format), not a Layout's board.
	ErrNotSudoku = errors.New("game: not a Sudoku board")
	// ErrFilled: a hint was asked for a cell that already holds a value.
	ErrFilled = errors.New("game: cell already contains a value")
	// ErrErroneous: the board breaks a rule, so it cannot be solved,
	// counted, autofilled or saved as a puzzle.
	ErrErroneous = errors.New("game: board contains erroneous values")
	// ErrUnsolvable: the board breaks no rule but has no solution.
	ErrUnsolvable = errors.New("game: board is unsolvable")
	// ErrNoUndo and ErrNoRedo: the move list has nothing to undo or redo.
	ErrNoUndo = errors.New("game: no moves to undo")
	ErrNoRedo = errors.New("game: no moves to redo")
	// ErrNotEmpty: a puzzle is generated only on an empty board.
	ErrNotEmpty = errors.New("game: board is not empty")
	// ErrGeneratorFailed: Generate found no puzzle in its tries.
	ErrGeneratorFailed = errors.New("game: puzzle generator failed")
)

// RangeError reports a number outside the range a move accepts: a row,
// column or value, or Generate's counts of cells.
type RangeError struct {
	What     string // "row", "column", "value", "mark", "fill" or "keep"
	Value    int
	Min, Max int
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("game: %s %d out of range %d..%d", e.What, e.Value, e.Min, e.Max)
}

// ShapeError reports a box shape the game cannot be played on.
type ShapeError struct {
	Shape sudoku.Shape
}

func (e *ShapeError) Error() string {
	return fmt.Sprintf("game: box shape %v: want at least 1x1 and a side of at most %d", e.Shape, sudoku.MaxN)
}

func (e *ShapeError) Unwrap() error { return sudoku.ErrInvalidGrid }

// SnapshotError reports a Snapshot that does not describe a game: the
// reason names the field and the entry.
type SnapshotError struct {
	Reason string
}

func (e *SnapshotError) Error() string { return "game: bad snapshot: " + e.Reason }
