package vision

import (
	"encoding/binary"
	"math"

	"gocv.io/x/gocv"
)

// removeLines leaves in r.clean the ink of c.bin without the grid lines
// (c.hlines, c.vlines, which it dilates, and leaves in r.lines), giving
// back the digits' own strokes the line masks took. It changes c: the
// reading cuts its cells from it last.
func (r *rectifier) removeLines(c *canvas, cs float64) {
	c.changed()
	c.binned = false
	// A digit's own stroke can be as long as the line kernels: the stem of
	// a tall 1, or any stroke of a digit touching the canvas's edge where
	// the outer line fell outside (the opening counts what lies beyond
	// the edge as ink). The line masks would take it and the digit would
	// be lost. Grid lines lie on the lattice and run on for cells; what
	// the masks hold in a cell's middle, shorter than a cell, is given
	// back to the ink.
	if hb, err := c.hlines.DataPtrUint8(); err == nil {
		if vb, err := c.vlines.DataPtrUint8(); err == nil && len(hb) == len(vb) {
			side := c.hlines.Cols()
			freeStrokes(hb, side, 1, side, cs)
			freeStrokes(vb, side, side, 1, cs)
		}
	}
	gocv.Dilate(c.hlines, &c.hlines, r.kernel3)
	gocv.Dilate(c.vlines, &c.vlines, r.kernel3)
	// A digit printed across a line (a fold of the page bends grid lines
	// through cells, a crease prints as a line of its own) would be cut
	// in two by the line mask; keep the stroke where it crosses.
	if hb, err := c.hlines.DataPtrUint8(); err == nil {
		if vb, err := c.vlines.DataPtrUint8(); err == nil {
			if bb, err := c.bin.DataPtrUint8(); err == nil && len(hb) == len(bb) && len(vb) == len(bb) {
				side := c.bin.Cols()
				maxRun := max(4, int(0.25*cs))
				maxInk := max(4, int(0.5*cs))
				mendCrossings(hb, bb, side, side, 1, maxRun, maxInk, cs)
				mendCrossings(vb, bb, side, 1, side, maxRun, maxInk, cs)
			}
		}
	}
	gocv.BitwiseOr(c.hlines, c.vlines, &r.lines)
	gocv.Subtract(c.bin, r.lines, &r.clean)
}

// onLine reports whether piece p is a remnant of a grid line: most of
// its pixels lie in strokes along rows that the horizontal line mask
// carries on beyond the piece, within 0.3 cell of its ends, or along
// columns the vertical mask carries on. Such dashes and corners (left
// where a blurred line broke up or swelled past the mask) are never a
// cell's main ink nor part of a digit; a digit's stroke rarely shares its
// rows with a line. The grid's outer line runs along the canvas's edge
// whether the mask kept it or not (faint, on a tinted box, it breaks up
// and the mask loses it near a corner): rows and columns within
// edgeBand cells of the canvas's edge count as carried on. The answer is kept
// in p, worked out only for the pieces a cell's decision looks at.
func (pl plane) onLine(p *piece) bool {
	if p.lineKnown || pl.hl == nil {
		return p.line
	}
	p.lineKnown = true
	reach := max(2, int(0.3*pl.cs))
	minRun := max(2, int(0.12*pl.cs))
	rows, cols := make([]bool, p.h), make([]bool, p.w)
	band := max(1, int(edgeBand*pl.cs))
	edge := func(a int) bool { return a < band || a >= pl.side-band }
	for y := range rows {
		rows[y] = edge(p.y+y) || pl.runsOn(pl.hl, p.y+y, p.x, p.w, 1, pl.side, reach)
	}
	for x := range cols {
		cols[x] = edge(p.x+x) || pl.runsOn(pl.vl, p.x+x, p.y, p.h, pl.side, 1, reach)
	}
	// A pixel is on a line when it is part of a stroke along it (a run
	// of the piece at least minRun long) on a row or column the mask
	// carries on: the foot of a 1 whose stem the mask took is across
	// that stem's column, not along it.
	on, all := 0, 0
	for y := 0; y < p.h; y++ {
		row := pl.labels[(p.y+y)*pl.side+p.x : (p.y+y)*pl.side+p.x+p.w]
		for x0 := 0; x0 < p.w; {
			if row[x0] != p.label {
				x0++
				continue
			}
			x1 := x0
			for x1 < p.w && row[x1] == p.label {
				x1++
			}
			for x := x0; x < x1; x++ {
				all++
				if rows[y] && x1-x0 >= minRun || cols[x] && pl.colRun(p, x, y) >= minRun {
					on++
				}
			}
			x0 = x1
		}
	}
	p.line = all > 0 && 10*on >= 7*all
	return p.line
}

// edgeBand is how far in from the canvas's edge, in cells, the grid's
// outer line may lie: the widest printed borders reach about an eighth
// of a cell in, the canvas may sit a little outside them, and a digit
// in an edge cell may reach the band with a stroke's end but not with
// the seven in ten of its ink onLine asks for.
const edgeBand = 0.2

// colRun is the length of the vertical run of piece p's pixels through
// (p.x+x, p.y+y).
func (pl plane) colRun(p *piece, x, y int) int {
	at := func(yy int) bool { return pl.labels[(p.y+yy)*pl.side+p.x+x] == p.label }
	n := 1
	for yy := y - 1; yy >= 0 && at(yy); yy-- {
		n++
	}
	for yy := y + 1; yy < p.h && at(yy); yy++ {
		n++
	}
	return n
}

// runsOn reports whether the line mask m carries line a (a row when step
// is 1 and next the side, a column the other way round), or the one
// beside it on either side, on within reach pixels before b0 or after
// b0+n along it.
func (pl plane) runsOn(m []uint8, a, b0, n, step, next, reach int) bool {
	for da := -1; da <= 1; da++ {
		aa := a + da
		if aa < 0 || aa >= pl.side {
			continue
		}
		base := aa * next
		for b := max(0, b0-reach); b < b0; b++ {
			if m[base+b*step] != 0 {
				return true
			}
		}
		for b := b0 + n; b < min(pl.side, b0+n+reach); b++ {
			if m[base+b*step] != 0 {
				return true
			}
		}
	}
	return false
}

// mendCrossings clears, in the line mask m (side×side, over the binary
// image bin), each run across the line (along step; lines are stepped
// through by next, e.g. step = side and next = 1 for horizontal lines) no
// longer than maxRun that has ink on both sides just beyond it: a stroke
// crossing the line, not a line end or a digit merely touching it. Ink
// running on for maxInk pixels on both sides is a line, not a digit; runs
// near a crossing of the cs-pixel lattice are left alone.
func mendCrossings(m, bin []uint8, side, step, next, maxRun, maxInk int, cs float64) {
	mc := crossMender{m: m, bin: bin, side: side, step: step, next: next, maxRun: maxRun, maxInk: maxInk, cs: cs}
	// The masks are mostly empty: both directions are walked in memory
	// order, a word of 8 pixels at a time, and runs across the line are
	// followed for the pixels that are set.
	if step == 1 {
		mc.walkRows()
		return
	}
	mc.walkColumns()
}

// crossMender holds mendCrossings' arguments for its steps.
type crossMender struct {
	m, bin                           []uint8
	side, step, next, maxRun, maxInk int
	cs                               float64
}

// mend clears the run [b0, b) of line a when it is a stroke crossing the
// line (see mendCrossings).
func (mc crossMender) mend(a, b0, b int) {
	base, step, bin, side := a*mc.next, mc.step, mc.bin, mc.side
	// The run is [b0, b); two pixels of ink are needed each side.
	if b-b0 > mc.maxRun || b0 < 2 || b+2 > side ||
		bin[base+(b0-1)*step] == 0 || bin[base+(b0-2)*step] == 0 ||
		bin[base+b*step] == 0 || bin[base+(b+1)*step] == 0 {
		return
	}
	// Near a crossing of the lattice the ink across is the other
	// line (blurred lines break up in the masks), not a digit.
	if nearLattice(float64(a), mc.cs) && nearLattice(float64(b0+b)/2, mc.cs) {
		return
	}
	// Ink running on far on both sides is another line crossing
	// this one (its mask broke up), not a digit.
	lo, hi := 2, 2
	for lo < mc.maxInk && b0-1-lo >= 0 && bin[base+(b0-1-lo)*step] != 0 {
		lo++
	}
	for hi < mc.maxInk && b+hi < side && bin[base+(b+hi)*step] != 0 {
		hi++
	}
	if min(lo, hi) < mc.maxInk {
		for k := b0; k < b; k++ {
			mc.m[base+k*step] = 0
		}
	}
}

// walkRows follows the runs along the rows (step 1, a = row).
func (mc crossMender) walkRows() {
	side := mc.side
	for a := 0; a < side; a++ {
		row := mc.m[a*mc.next : a*mc.next+side]
		for b := 0; b < side; {
			if b+8 <= side && binary.LittleEndian.Uint64(row[b:]) == 0 {
				b += 8
				continue
			}
			if row[b] == 0 {
				b++
				continue
			}
			b0 := b
			for b < side && row[b] != 0 {
				b++
			}
			mc.mend(a, b0, b)
		}
	}
}

// walkColumns follows the runs down the columns (a = column, b = row),
// row by row.
func (mc crossMender) walkColumns() {
	side, m := mc.side, mc.m
	start := make([]int, side)
	for a := range start {
		start[a] = -1
	}
	var open, still []int
	for b := 0; b <= side; b++ {
		still = still[:0]
		for _, a := range open {
			if b < side && m[b*mc.step+a*mc.next] != 0 {
				still = append(still, a)
				continue
			}
			mc.mend(a, start[a], b)
			start[a] = -1
		}
		open, still = still, open
		if b == side {
			break
		}
		row := m[b*mc.step : b*mc.step+side]
		for a := 0; a < side; {
			if a+8 <= side && binary.LittleEndian.Uint64(row[a:]) == 0 {
				a += 8
				continue
			}
			if row[a] != 0 && start[a] < 0 {
				start[a] = b
				open = append(open, a)
			}
			a++
		}
	}
}

// freeStrokes clears, in the line mask m (side×side; runs go along step,
// lines are stepped through by next: step = 1, next = side for horizontal
// lines), the runs shorter than a cell that lie wholly in the middle of
// a row (or column) of cells, at least 0.25 cell from every line of the
// cs-pixel lattice: a digit's stroke, not a grid line.
func freeStrokes(m []uint8, side, step, next int, cs float64) {
	maxRun := int(0.95 * cs)
	for a := 0; a < side; a++ {
		off := float64(a) - math.Round(float64(a)/cs)*cs
		if math.Abs(off) < 0.25*cs {
			continue
		}
		base := a * next
		for b := 0; b < side; {
			if m[base+b*step] == 0 {
				b++
				continue
			}
			b0 := b
			for b < side && m[base+b*step] != 0 {
				b++
			}
			if b-b0 <= maxRun {
				for k := b0; k < b; k++ {
					m[base+k*step] = 0
				}
			}
		}
	}
}

// nearLattice reports whether canvas coordinate v lies within 0.2 cell of
// a grid line of the cs-pixel lattice.
func nearLattice(v, cs float64) bool {
	return math.Abs(v-math.Round(v/cs)*cs) < 0.2*cs
}
