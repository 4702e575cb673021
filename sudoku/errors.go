package sudoku

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoSolution is returned when a puzzle's givens do not conflict directly
// but no way to fill the grid exists.
var ErrNoSolution = errors.New("sudoku: no solution")

// ErrInvalidGrid is wrapped by errors about a Grid that is malformed as a
// value: a bad shape, a wrong number of cells or a value out of range.
var ErrInvalidGrid = errors.New("sudoku: invalid grid")

// ParseError reports puzzle text that could not be read. The CLI and other
// callers use Line and Col to point at the problem.
type ParseError struct {
	Format string // "line", "grid" or "dat"
	Line   int    // 1-based line of the input; 0 when unknown (ParseLine sees one line)
	Col    int    // 1-based character (one-line format) or field (grid, .dat); 0 when none
	Cell   int    // 0-based cell index the problem concerns; -1 when none
	Reason string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.Format)
	b.WriteString(" format")
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d", e.Line)
	}
	if e.Col > 0 {
		if e.Format == "line" {
			fmt.Fprintf(&b, ", char %d", e.Col)
		} else {
			fmt.Fprintf(&b, ", field %d", e.Col)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	return b.String()
}

// ConflictError is returned when givens break the rules (two equal values in
// a row, column or box), so the puzzle cannot have a solution.
type ConflictError struct {
	Conflicts []Conflict
}

func (e *ConflictError) Error() string {
	if len(e.Conflicts) == 0 {
		return "sudoku: conflicting givens"
	}
	more := ""
	if len(e.Conflicts) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(e.Conflicts)-1)
	}
	return fmt.Sprintf("sudoku: conflicting givens: %v%s", e.Conflicts[0], more)
}
