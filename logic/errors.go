package logic

import (
	"errors"
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// ErrStuck is returned when no technique the engine knows makes progress.
// With the forcing chains at the end of the list this happens only for
// puzzles without a unique solution (and, in principle, for grids beyond
// the nesting depth the engine allows).
var ErrStuck = errors.New("logic: no technique makes progress")

// ErrSeveralSolutions is wrapped by the errors of Rate, Hint and Generate
// for a puzzle with more than one solution: a human-style rating or hint
// assumes there is exactly one.
var ErrSeveralSolutions = errors.New("several solutions")

// SizeError reports a box shape the logic engine does not handle: grids from
// 4×4 to 16×16 are supported.
type SizeError struct {
	Shape sudoku.Shape
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("logic: %v boxes (%dx%d grid): only 4x4 to 16x16 grids are supported", e.Shape, e.Shape.N(), e.Shape.N())
}

// LevelError reports a level that puzzles of a shape cannot reach, such as an
// extreme 4×4: small grids are solved by singles alone.
type LevelError struct {
	Shape sudoku.Shape
	Level Level
	Max   Level // the hardest level the shape offers
}

func (e *LevelError) Error() string {
	return fmt.Sprintf("logic: no %v puzzles on a %dx%d grid (the hardest level there is %v)", e.Level, e.Shape.N(), e.Shape.N(), e.Max)
}

// StateError reports a grid in progress that does not fit its puzzle: a
// given changed, or a cell holds a value out of range.
type StateError struct {
	Cell   int // row-major index, -1 when the whole grid is concerned
	Side   int
	Reason string
}

func (e *StateError) Error() string {
	if e.Cell < 0 {
		return "logic: " + e.Reason
	}
	return fmt.Sprintf("logic: r%dc%d: %s", e.Cell/e.Side+1, e.Cell%e.Side+1, e.Reason)
}
