package kakuro

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoSolution is returned when a well-formed puzzle has no solution.
var ErrNoSolution = errors.New("kakuro: no solution")

// ErrMultipleSolutions is returned by Solve when a puzzle has more than one
// solution; errors.As finds the *MultipleError that carries two of them.
var ErrMultipleSolutions = errors.New("kakuro: more than one solution")

// MultipleError reports a puzzle with two or more solutions and shows two.
type MultipleError struct {
	First, Second *Board
}

func (e *MultipleError) Error() string {
	diff := 0
	for i := range e.First.Cells {
		if e.First.Cells[i].Digit != e.Second.Cells[i].Digit {
			diff++
		}
	}
	return fmt.Sprintf("kakuro: more than one solution (two of them differ in %d cells)", diff)
}

func (e *MultipleError) Unwrap() error { return ErrMultipleSolutions }

// FormatError reports text that is not a Kakuro in the text format.
// It names the input line and, for a bad token, the cell it stands for.
type FormatError struct {
	Line     int    // 1-based input line; 0 when none
	Row, Col int    // 1-based cell of a bad token; 0 when none
	Token    string // the offending token, if any
	Reason   string
}

func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("kakuro format")
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d", e.Line)
	}
	if e.Row > 0 {
		fmt.Fprintf(&b, ", row %d col %d", e.Row, e.Col)
	}
	if e.Token != "" {
		fmt.Fprintf(&b, " (%q)", e.Token)
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	return b.String()
}

// Problem is one broken rule of a board, at a cell.
type Problem struct {
	Line     int // 1-based input line of the cell; 0 when the board was not read from text
	Row, Col int // 1-based cell
	Reason   string
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d, row %d col %d: %s", p.Line, p.Row, p.Col, p.Reason)
	}
	return fmt.Sprintf("row %d col %d: %s", p.Row, p.Col, p.Reason)
}

// RuleError reports a board that reads well but breaks the rules of
// Kakuro: a run longer than 9, a sum its run cannot make, a clue that heads
// no run, a run without a clue, a white cell in no run, a repeated digit.
type RuleError struct {
	Problems []Problem
}

func (e *RuleError) Error() string {
	if len(e.Problems) == 0 {
		return "kakuro: invalid board"
	}
	more := ""
	if n := len(e.Problems) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	return "kakuro: " + e.Problems[0].String() + more
}
