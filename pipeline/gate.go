package pipeline

import (
	"fmt"
	"math"
	"slices"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Evidence is how sure a reading of the givens is, for the gate: the
// reader's per-cell confidence, the cells it doubts, and how large the
// cells were in the picture.
type Evidence struct {
	// Conf is, per cell, how sure the reading is of the value it holds
	// (nil: every cell sure). For a vote over several readings it is the
	// vote's support (see live.Voter.Conf).
	Conf []float64
	// Doubt lists the cells the reader (or the readings voted over) said
	// to check.
	Doubt []int
	// CellPx is the side of a cell in the picture, in pixels (0: unknown).
	CellPx float64
	// Sure is, per cell, how sure several readings of the page are
	// together of the value held: live's naive-Bayes posterior over the
	// frames voted on, counted as the fewer independent views they are
	// (live.Voter.Sure). Nil: one reading, nothing combined. A cell
	// whose Sure reaches SureTogether, from cells of SureTogetherPx or
	// more, is neither doubted nor unsure, whatever Conf and Doubt say.
	Sure []float64
	// Dim says the picture was dim (vision.Grid.Lift > 1): the reader,
	// calibrated on lit photos, can be surer of a dim page's digit than
	// it should be, so every given must then be DimSure sure.
	Dim bool
	// Stream is what earlier readings of the same page add (live and the
	// web camera); nil for a still photo, which has no second reading to
	// wait for.
	Stream *Stream
}

// Stream is what a run of readings of one page tells the gate beyond the
// latest reading. One frame's reading can be wrong in ways no confidence
// shows (a lattice a row off, repaired into a unique puzzle; a 9×9's
// boxes read as a 4×4; another page swapped in), so a stream's new
// puzzle is shown only once the readings bear it out.
type Stream struct {
	// Stood is how many recognitions in a row the vote has held these
	// givens, this one counted: a reading that changes the vote's givens
	// (one misread cell turning a page without a solution into one with
	// a single, wrong solution) starts the count again.
	Stood int
	// Recent are the givens of the latest distinct readings before this
	// one (at most RecentReadings, oldest first), across votes.
	Recent []string
	// Repaired: the latest reading changed cells to give the puzzle one
	// solution (Result.Changed), so it cannot stand alone.
	Repaired bool
	// Disputed: the latest reading disagreed with the vote too much to be
	// a misread (live.Voter.Disputed): another puzzle may be in view.
	Disputed bool
	// Larger is the size of a larger puzzle solved within the last
	// ShrinkReadings readings with no other grid chosen since (0: none).
	Larger int
}

// Stream thresholds. New givens are shown solved once the vote has held
// them for ConfirmReadings recognitions, or it is among the Recent ones, or the
// latest reading stands alone: nothing repaired, every given AloneSure
// sure, from cells of AloneCellPx or more, and not within NearCells
// cells of a recent reading (two puzzles differ in far more givens; a
// page a few cells off a recent one is most likely that page misread).
// A puzzle smaller than one solved within ShrinkReadings readings is
// most likely the larger page's boxes taken for a puzzle of their own.
const (
	ConfirmReadings = 2
	RecentReadings  = 8
	NearCells       = 4
	AloneSure       = 0.95
	AloneCellPx     = 20
	ShrinkReadings  = 9
)

// Gate thresholds. A given read less than CheckBelow sure is always to be
// checked (ocr.DefaultSettings.CheckBelow, applied again to a vote). Cells
// under SmallCellPx are read from so few pixels that a wrong digit can come
// out confident: every given must then be SmallCellSure sure, or the user
// is asked to move closer. A cell of at least SureTogetherPx whose frames
// together (Evidence.Sure) reach SureTogether counts as read surely,
// whatever Conf and Doubt say (see docs/performance.md, Tuning). A dim
// picture's givens must each be DimSure sure, or are to be checked.
const (
	CheckBelow     = 0.5
	SmallCellPx    = 17
	SmallCellSure  = 0.9
	SureTogether   = 0.999
	SureTogetherPx = 14
	DimSure        = 0.7
)

// Gate is the one place that decides what a reading of givens g may show,
// for `scan`, `live` and the web camera alike: rules is Judge(g), ev how
// sure the reading is. A solved verdict stays solved only when no cell is
// in doubt and the cells were large enough (or frames together sure
// enough) to read surely; otherwise it becomes StatusCheck with the cells
// to check, or StatusTooSmall ("move closer") with the unsure cells.
// Other verdicts (conflicts, several solutions) pass unchanged. With a
// Stream, a verdict still solved is StatusReading until the readings bear
// it out (see Stream).
func Gate(g sudoku.Grid, rules Verdict, ev Evidence) Verdict {
	if rules.Status != StatusSolved {
		return rules
	}
	v := gateCells(g, rules, ev)
	if v.Status == StatusSolved && ev.Stream != nil && !ev.Stream.bearsOut(g, ev) {
		return Verdict{Status: StatusReading}
	}
	return v
}

// gateCells is the gate's rule on the cells: doubt, confidence, cell size
// and light.
func gateCells(g sudoku.Grid, rules Verdict, ev Evidence) Verdict {
	conf := ev.Conf
	if len(conf) != len(g.Cells) {
		conf = nil
	}
	together := func(i int) bool {
		return ev.CellPx >= SureTogetherPx && len(ev.Sure) == len(g.Cells) && i >= 0 && i < len(ev.Sure) && ev.Sure[i] >= SureTogether
	}
	var check []int
	for _, c := range ev.Doubt {
		if !together(c) {
			check = append(check, c)
		}
	}
	small := ev.CellPx > 0 && ev.CellPx < SmallCellPx
	var unsure []int
	for i, v := range g.Cells {
		if v == 0 || conf == nil || together(i) {
			continue
		}
		if conf[i] < CheckBelow || (ev.Dim && conf[i] < DimSure) {
			check = append(check, i)
		}
		if conf[i] < SmallCellSure {
			unsure = append(unsure, i)
		}
	}
	slices.Sort(check)
	check = slices.Compact(check)
	switch {
	case small && (len(check) > 0 || len(unsure) > 0):
		cells := slices.Compact(slices.Sorted(slices.Values(append(check, unsure...))))
		return Verdict{Status: StatusTooSmall, Check: cells}
	case len(check) > 0:
		return Verdict{Status: StatusCheck, Check: check}
	}
	return rules
}

// bearsOut reports whether the stream lets the givens g, solved and read
// with evidence ev, be shown (see Stream).
func (s *Stream) bearsOut(g sudoku.Grid, ev Evidence) bool {
	if s.Disputed || (s.Larger > 0 && g.N() < s.Larger) {
		return false
	}
	given := sudoku.CellString(g.Cells)
	if s.Stood >= ConfirmReadings || slices.Contains(s.Recent, given) {
		return true
	}
	return !s.Repaired && alone(g, ev) && !nearRecent(s.Recent, given)
}

// alone reports whether every given of g is AloneSure sure (ev.Conf),
// from cells of AloneCellPx or more.
func alone(g sudoku.Grid, ev Evidence) bool {
	if ev.CellPx < AloneCellPx || len(ev.Conf) != len(g.Cells) {
		return false
	}
	for i, v := range g.Cells {
		if v != 0 && ev.Conf[i] < AloneSure {
			return false
		}
	}
	return true
}

// nearRecent reports whether given differs from one of the recent
// readings (of the same size) in at least one and at most NearCells cells.
func nearRecent(recent []string, given string) bool {
	for _, r := range recent {
		if len(r) != len(given) {
			continue
		}
		d := 0
		for i := range r {
			if r[i] != given[i] {
				d++
			}
		}
		if d > 0 && d <= NearCells {
			return true
		}
	}
	return false
}

// dimChecks adds to known, the reader's own reasons, why the gate doubts
// the givens of a dim picture (g read with confidences conf) among cells
// that are sure enough in good light but not DimSure sure.
func dimChecks(cells []int, g sudoku.Grid, conf []float64, known []Check) []Check {
	if len(conf) != len(g.Cells) {
		return known
	}
	n := g.N()
	for _, cell := range cells {
		if cell < 0 || cell >= len(conf) || g.Cells[cell] == 0 || conf[cell] < CheckBelow || conf[cell] >= DimSure ||
			slices.ContainsFunc(known, func(c Check) bool { return c.Cell == cell }) {
			continue
		}
		known = append(known, Check{Cell: cell, Name: sudoku.CellName(cell, n),
			Reason: fmt.Sprintf("read %d, %.0f%% sure, in light too dim to read surely", g.Cells[cell], 100*conf[cell])})
	}
	return known
}

// CellPx is the mean side, in frame pixels, of a cell of an n×n grid whose
// corners (TL, TR, BR, BL) are given; 0 when n or the corners say nothing.
func CellPx(corners [4][2]float64, n int) float64 {
	if n <= 0 {
		return 0
	}
	side := 0.0
	for k := range corners {
		a, b := corners[k], corners[(k+1)%4]
		side += math.Hypot(b[0]-a[0], b[1]-a[1])
	}
	return side / 4 / float64(n)
}

// CheckList names the cells of a verdict's Check for the user: the
// reader's own reason where known has one for the cell, otherwise why
// the gate doubts it (given g read with confidences conf; status is the
// verdict's status).
func CheckList(cells []int, g sudoku.Grid, conf []float64, status Status, known []Check) []Check {
	if len(cells) == 0 {
		return nil
	}
	byCell := map[int]Check{}
	for _, c := range known {
		byCell[c.Cell] = c
	}
	n := g.N()
	out := make([]Check, 0, len(cells))
	for _, cell := range cells {
		c, ok := byCell[cell]
		if !ok {
			c = Check{Cell: cell, Name: sudoku.CellName(cell, n), Reason: "doubted by the readings"}
			if len(conf) == len(g.Cells) && cell < len(conf) {
				switch {
				case status == StatusTooSmall:
					c.Reason = fmt.Sprintf("read %d, %.0f%% sure, from cells too small to read surely", g.Cells[cell], 100*conf[cell])
				case conf[cell] < CheckBelow:
					c.Reason = fmt.Sprintf("read %d, only %.0f%% sure", g.Cells[cell], 100*conf[cell])
				default:
					c.Reason = fmt.Sprintf("read %d (%.0f%% sure), doubted by most of the readings", g.Cells[cell], 100*conf[cell])
				}
			}
		}
		out = append(out, c)
	}
	return out
}
