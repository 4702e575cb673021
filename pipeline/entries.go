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
	// KindProb is how sure the reading of a cell's kind is
	// (ocr.Reading.KindConf; for a vote, the least over its readings).
	// Probs holds per entry the probabilities of the digits 1..N (index 0
	// unused; ocr.Reading.EntryProb), so the check can weigh the digit the
	// solution expects. Both nil: a reader that gave only its digit and
	// Sure.
	KindProb []float32
	Probs    [][]float32
	// CellPx is the side of a cell in the picture the ink was read from
	// (for a vote, the least over its readings; 0: unknown): an entry
	// read from small cells needs a lower bar to be called wrong
	// (EntryWrongWould).
	CellPx float64
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
	if len(rd.EntryProb) == n {
		p.KindProb, p.Probs = slices.Clone(rd.KindConf), make([][]float32, n)
		for i := range p.Probs {
			p.Probs[i] = slices.Clone(rd.EntryProb[i])
		}
	}
	return p
}

// Valid reports whether p holds one value per cell of a grid of n² cells.
func (p Pen) Valid(cells int) bool {
	return cells > 0 && len(p.Kinds) == cells && len(p.Entries) == cells && len(p.Conf) == cells && len(p.Sure) == cells &&
		(p.Probs == nil && p.KindProb == nil || len(p.Probs) == cells && len(p.KindProb) == cells)
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
	t := Pen{Kinds: sudoku.TurnCells(p.Kinds, n, k), Entries: sudoku.TurnCells(p.Entries, n, k),
		Conf: sudoku.TurnCells(p.Conf, n, k), Sure: sudoku.TurnCells(p.Sure, n, k), CellPx: p.CellPx}
	if p.Probs != nil {
		t.KindProb, t.Probs = sudoku.TurnCells(p.KindProb, n, k), sudoku.TurnCells(p.Probs, n, k)
	}
	return t
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
			want := 0
			if solved {
				want = solution.Cells[i]
			}
			e := judgeEntry(pen, i, want, n)
			entries[i] = e.digit
			count++
			switch e.verdict {
			case entryWrong:
				m.Mistakes = append(m.Mistakes, i)
				sure.Cells[i] = e.digit
			case entryRead, entryRight:
				sure.Cells[i] = e.digit
			default:
				unsure++
				m.EntryCheck = append(m.EntryCheck, Check{Cell: i, Name: name,
					Reason: fmt.Sprintf("handwritten %d, only %s sure", e.digit, percent(e.conf))})
			}
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

// EntryRightAt is how likely the solution's digit must be, the prior
// weighed in, for an entry to count as right without a check.
const EntryRightAt = 0.99

// EntryWrongAt: an entry is called wrong only when its kind is read
// surely (ocr.EntrySureAt) and the reader gives the solution's digit at
// most this, ten times below the least it gave a right entry of a kind
// read surely on the pen model's calibration pages (cmd/train --pen
// --pen-eval FILE --pen-eval-calib prints it). Kinds read less surely
// are never called wrong: crossed-out ink and scribbles read as a digit
// fall there.
//
// The reader is surer of a wrong digit in small cells, so the bar
// depends on the cell's side in the picture (Pen.CellPx): EntryWrongAt
// from EntryLargePx (the least of the calibration photos), then
// EntryWrongSmallAt, ten times below the least the calibration pages
// shrunk to cells of 13 to 35 pixels gave (--pen-eval-scale 0.4 to
// 0.7); under EntryLeastPx (the gate's SmallCellPx) nothing is called
// wrong.
const (
	EntryWrongAt      = 3e-3
	EntryLargePx      = 32
	EntryWrongSmallAt = 4e-4
	EntryLeastPx      = SmallCellPx
)

// EntryWrongWould reports whether an entry whose kind was read at kind,
// from cells of cellPx pixels (0: unknown, taken as large), and whose
// reader gives the solution's digit q is called wrong.
func EntryWrongWould(q, kind float32, cellPx float64) bool {
	bar := float32(EntryWrongAt)
	switch {
	case largeCells(cellPx):
	case cellPx >= EntryLeastPx:
		bar = EntryWrongSmallAt
	default:
		return false
	}
	return kind >= ocr.EntrySureAt && q <= bar
}

// largeCells reports whether cells of cellPx pixels (0: unknown) take
// EntryWrongAt, the bar of the calibration photos' own size.
func largeCells(cellPx float64) bool { return cellPx <= 0 || cellPx >= EntryLargePx }

// entryVerdict is what the check makes of one entry.
type entryVerdict int

const (
	entryCheck entryVerdict = iota // the player is asked to check the cell
	entryRead                      // read surely, no solution to judge it by
	entryRight
	entryWrong
)

// entryJudged is an entry's digit as the check reads it, its verdict and
// how sure that reading is.
type entryJudged struct {
	digit   int
	verdict entryVerdict
	conf    float32
}

// judgeEntry judges pen's entry at cell i of an n×n grid against want,
// the solution's digit there (0: no certain solution). Without the
// digits' probabilities (Pen.Probs) the entry is right or wrong only when
// read surely (Pen.Sure). With them, the solution's digit is weighed
// with ocr.EntryPrior: where the reader hesitates between it and another
// (a European 4 or 7 that looks like a 9), the expected one is the
// likelier reading, and a digit written clearly otherwise still reads as
// written. Right at EntryRightAt, wrong only when the reader
// all but rules it out (EntryWrongWould).
func judgeEntry(pen Pen, i, want, n int) entryJudged {
	read := entryJudged{digit: pen.Entries[i], conf: pen.Conf[i]}
	var q []float32
	if pen.Probs != nil && len(pen.Probs[i]) == n+1 {
		q = pen.Probs[i]
	}
	switch {
	case want == 0 || q == nil:
		switch {
		case !pen.Sure[i]:
		case want == 0:
			read.verdict = entryRead
		case read.digit == want:
			read.verdict = entryRight
		case largeCells(pen.CellPx):
			// Sure of another digit, and no probabilities to hold
			// against a smaller cell's bar.
			read.verdict = entryWrong
		}
		return read
	case EntryWrongWould(q[want], pen.KindProb[i], pen.CellPx):
		read.verdict = entryWrong
		read.digit = argmaxFrom(q, 1)
		read.conf = min(pen.Conf[i], 1-q[want])
		return read
	}
	other := float32(1-ocr.EntryPrior) / float32(n-1)
	post := make([]float32, n+1)
	var total float32
	for d := 1; d <= n; d++ {
		w := other
		if d == want {
			w = ocr.EntryPrior
		}
		post[d] = w * q[d]
		total += post[d]
	}
	if total <= 0 {
		return read
	}
	read.digit = argmaxFrom(post, 1)
	read.conf = post[read.digit] / total
	if read.digit == want && read.conf >= EntryRightAt {
		read.verdict = entryRight
	}
	return read
}

// argmaxFrom is the index of p's largest value from index lo on.
func argmaxFrom(p []float32, lo int) int {
	best := lo
	for d := lo; d < len(p); d++ {
		if p[d] > p[best] {
			best = d
		}
	}
	return best
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
