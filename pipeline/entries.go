package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
)

// Play on paper: a page the player has started with a pen holds printed
// givens and handwritten entries. The givens alone are solved and gated;
// CheckEntries then says what the entries come to, in the one place that
// scan, live and the web camera share. An entry is called wrong only when
// it was read surely and the givens' solution is certain; any other doubt
// is "check rXcY".

// StatusNoPrinted is the status of a page with ink but no printed digit:
// there are no givens to solve, and the pen is never solved from.
const StatusNoPrinted = "no printed digits (handwriting only)"

// ProgressSolved is Result.Progress for a page full and right.
const ProgressSolved = "solved"

// Pen is what the reader saw of the player's ink, per cell (row-major,
// in Given's layout). Empty slices: a reader without pen classes.
type Pen struct {
	Kinds   []ocr.Kind
	Entries []int // handwritten digit, 0 = none
	// Conf is how sure the reading of an entry is (0: none): the smaller
	// of its kind's and its digit's probability.
	Conf []float32
	// Sure is whether an entry is read surely enough to be called wrong
	// (ocr.Reading.EntrySure; for a vote, voted so over frames).
	Sure []bool
}

// PenOf takes the pen part of a reading.
func PenOf(rd ocr.Reading) Pen {
	n := len(rd.Kinds)
	if len(rd.Entries) != n || len(rd.EntryConf) != n || len(rd.KindConf) != n {
		return Pen{}
	}
	p := Pen{Kinds: slices.Clone(rd.Kinds), Entries: slices.Clone(rd.Entries), Conf: make([]float32, n), Sure: make([]bool, n)}
	for i := range p.Sure {
		p.Sure[i] = rd.EntrySure(i)
		p.Conf[i] = min(rd.EntryConf[i], rd.KindConf[i])
	}
	return p
}

// Valid reports whether p holds one value per cell of a grid of n² cells.
func (p Pen) Valid(cells int) bool {
	return cells > 0 && len(p.Kinds) == cells && len(p.Entries) == cells && len(p.Conf) == cells && len(p.Sure) == cells
}

// Ink reports whether the player wrote anything: an entry, notes, or ink
// the reader could not call.
func (p Pen) Ink() bool {
	return slices.ContainsFunc(p.Kinds, ocr.Kind.Ink)
}

// Turn is p with its cells turned k quarter turns clockwise in an n×n grid,
// as the givens are when the page lay turned.
func (p Pen) Turn(n, k int) Pen {
	if k%4 == 0 || !p.Valid(n*n) {
		return p
	}
	return Pen{Kinds: sudoku.TurnCells(p.Kinds, n, k), Entries: sudoku.TurnCells(p.Entries, n, k),
		Conf: sudoku.TurnCells(p.Conf, n, k), Sure: sudoku.TurnCells(p.Sure, n, k)}
}

// Marks is what a page's entries come to (see the Result fields of the
// same names).
type Marks struct {
	Entries    string
	Mistakes   []int
	Clashes    []int
	Notes      []int
	EntryCheck []Check
	// Counts is Progress without the wrong count: what a front end shows
	// while the player does not ask for checking.
	Progress, Counts string
	// Left is how many cells hold neither a given nor an entry.
	Left int
	// Solved: every cell holds a given or an entry read surely, and every
	// entry agrees with the certain solution.
	Solved bool
}

// CheckEntries judges the entries of pen against the givens and, when the
// gate released one, their solution (Cells nil otherwise: then nothing is
// called wrong). Zero Marks when pen says nothing of the page.
func CheckEntries(givens, solution sudoku.Grid, pen Pen) Marks {
	cells := len(givens.Cells)
	n := givens.N()
	if !pen.Valid(cells) || n <= 0 {
		return Marks{}
	}
	solved := len(solution.Cells) == cells
	var m Marks
	entries := make([]int, cells)
	sure := sudoku.Grid{Shape: givens.Shape, Cells: slices.Clone(givens.Cells)}
	count, unsure := 0, 0
	for i, k := range pen.Kinds {
		name := sudoku.CellName(i, n)
		switch {
		case givens.Cells[i] != 0:
			// A printed digit: the cell is the puzzle's, not the player's.
		case k == ocr.KindHand && pen.Entries[i] >= 1 && pen.Entries[i] <= n:
			entries[i] = pen.Entries[i]
			count++
			if pen.Sure[i] {
				sure.Cells[i] = pen.Entries[i]
				if solved && pen.Entries[i] != solution.Cells[i] {
					m.Mistakes = append(m.Mistakes, i)
				}
				continue
			}
			unsure++
			m.EntryCheck = append(m.EntryCheck, Check{Cell: i, Name: name,
				Reason: fmt.Sprintf("handwritten %d, only %s sure", pen.Entries[i], percent(pen.Conf[i]))})
		case k == ocr.KindNotes:
			m.Notes = append(m.Notes, i)
		case k == ocr.KindUnclear:
			unsure++
			m.EntryCheck = append(m.EntryCheck, Check{Cell: i, Name: name, Reason: "ink not read as a digit (crossed out, a scribble or half erased?)"})
		}
	}
	if count == 0 && len(m.Notes) == 0 && len(m.EntryCheck) == 0 {
		return Marks{}
	}
	m.Entries = sudoku.CellString(entries)
	// Clashes: surely read entries that repeat a given or another such
	// entry in a row, column or box, whatever the solution.
	for _, c := range sudoku.Validate(sure) {
		for _, i := range []int{c.A, c.B} {
			if givens.Cells[i] == 0 {
				m.Clashes = append(m.Clashes, i)
			}
		}
	}
	slices.Sort(m.Clashes)
	m.Clashes = slices.Compact(m.Clashes)
	for i, v := range givens.Cells {
		if v == 0 && entries[i] == 0 {
			m.Left++
		}
	}
	m.Solved = solved && m.Left == 0 && unsure == 0 && len(m.Mistakes) == 0 && len(m.Clashes) == 0
	m.Counts = progress(count, -1, len(m.Clashes), unsure, m.Left)
	m.Progress = progress(count, len(m.Mistakes), len(m.Clashes), unsure, m.Left)
	if !solved {
		m.Progress = m.Counts
	}
	if m.Solved {
		m.Progress = ProgressSolved
	}
	return m
}

// percent writes p as a percentage, with a decimal above 99% so that a
// doubt never reads "100% sure".
func percent(p float32) string {
	if p > 0.99 {
		return fmt.Sprintf("%.1f%%", min(99.9, 100*float64(p)))
	}
	return fmt.Sprintf("%.0f%%", 100*p)
}

// progress words the counts: "52 entries, 2 wrong, 3 cells to go"; wrong
// < 0 leaves the wrong count out.
func progress(entries, wrong, clashes, unsure, left int) string {
	plural := func(k int, one, many string) string {
		if k == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", k, many)
	}
	parts := []string{plural(entries, "entry", "entries")}
	if wrong >= 0 {
		parts = append(parts, fmt.Sprintf("%d wrong", wrong))
	}
	if clashes > 0 {
		parts = append(parts, fmt.Sprintf("%d clashing", clashes))
	}
	if unsure > 0 {
		parts = append(parts, fmt.Sprintf("%d to check", unsure))
	}
	return strings.Join(append(parts, plural(left, "cell to go", "cells to go")), ", ")
}

// SetMarks copies m into r's entry fields.
func (r *Result) SetMarks(m Marks) {
	r.Entries, r.Mistakes, r.Clashes, r.Notes = m.Entries, m.Mistakes, m.Clashes, m.Notes
	r.EntryCheck, r.Progress = m.EntryCheck, m.Progress
}

// PageSolved reports whether the page is full and every entry right.
func (r Result) PageSolved() bool { return r.Progress == ProgressSolved }
