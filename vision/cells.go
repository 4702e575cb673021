package vision

import (
	"encoding/binary"
	"image"
	"math"
	"sort"
	"unsafe"

	"gocv.io/x/gocv"
)

// piece is one connected ink component of the cleaned canvas.
type piece struct {
	label      int32
	x, y, w, h int
	area       int
	stray      bool // thin and off-centre: a bent line's remnant
	// line: mostly on the run of a grid line (see plane.onLine), once
	// lineKnown.
	line, lineKnown bool
	aside           bool // its centre lies in the cell but off the cell's middle
}

// cells cuts the binarised canvas into n×n cells of cs pixels. Grid lines
// (the long strokes found by binarise, slightly dilated) are removed first;
// the remaining ink is split into connected components, and each component
// goes to the cell that holds its bounding-box centre when it is smaller
// than a cell. What touches a cell's border zone off-centre is treated as
// a grid-line remnant and left out, unless it is the second digit of a
// number (see gather).
func (d *Detector) cells(n int, cs float64, looks bool) []Cell {
	d.removeLines(cs)
	nl := gocv.ConnectedComponentsWithStatsWithParams(d.clean, &d.labels, &d.stats, &d.centroids,
		8, gocv.MatTypeCV32S, gocv.CCL_DEFAULT)

	out := make([]Cell, n*n)
	for i := range out {
		out[i] = Cell{Row: i / n, Col: i % n, Empty: true}
	}
	sb, err1 := d.stats.DataPtrUint8()
	lb, err2 := d.labels.DataPtrUint8()
	if err1 != nil || err2 != nil || nl < 2 || len(sb) < nl*5*4 {
		return out
	}
	canvas, err3 := d.canvas.DataPtrUint8()
	bin, err4 := d.cbin.DataPtrUint8()
	if err3 != nil || err4 != nil {
		return out
	}
	stats := unsafe.Slice((*int32)(unsafe.Pointer(&sb[0])), len(sb)/4)
	labels := unsafe.Slice((*int32)(unsafe.Pointer(&lb[0])), len(lb)/4)
	side := d.clean.Cols()
	pl := plane{canvas: canvas, bin: bin, labels: labels, side: side, n: n, cs: cs, looks: looks}
	if hl, err := d.hlines.DataPtrUint8(); err == nil && len(hl) == len(bin) {
		if vl, err := d.vlines.DataPtrUint8(); err == nil && len(vl) == len(bin) {
			pl.hl, pl.vl = hl, vl
		}
	}
	pieces := cellPieces(stats, nl, n, cs)
	cands := d.digitCandidates(pl, pieces, out)
	// Printed digits are much darker than the paper around them; the
	// halftone of a shaded box binarises into blobs of little contrast.
	// Contrast depends on light and focus, so compare with this grid's
	// typical digit.
	cs2 := make([]float64, len(cands))
	for i, c := range cands {
		cs2[i] = c.contrast
	}
	sort.Float64s(cs2)
	var ref float64
	if len(cs2) > 0 {
		ref = cs2[len(cs2)*3/4]
	}
	for _, c := range cands {
		i, main := c.cell, c.main
		out[i].Ink = main.area
		if c.contrast < minContrast || c.contrast < 0.35*ref {
			out[i].Pixels, out[i].Half, out[i].Looks = pl.faint(i, pieces[i], main)
			continue
		}
		main = trimTails(labels, side, main, cs)
		if n >= 12 {
			main = clipLineBands(labels, side, main, cs, i/n)
		}
		box, keep, ink := gather(pl.offLines(pieces[i], main), main, pl.onLine)
		out[i].Ink = ink
		out[i].Empty = false
		out[i].Pixels, out[i].Half, out[i].Looks = pl.render(i, box, keep)
	}
	for i := range out {
		if !out[i].Empty || len(pieces[i]) > 0 {
			out[i].View, out[i].Grey = pl.view(i, pieces[i])
		}
	}
	return out
}

// view draws the ink of cell i's pieces inside the cell's own square,
// resampled to CellSize×CellSize without re-centring or re-scaling it
// (Cell.View): the ink keeps its size, place and stroke width. It is nil
// when the cell holds no piece. grey is the same grey ink framed as
// Pixels (Cell.Grey).
func (pl plane) view(cell int, ps []piece) (view, grey []float32) {
	if len(ps) == 0 {
		return nil, nil
	}
	row, col := cell/pl.n, cell%pl.n
	x0, y0 := int(math.Round(float64(col)*pl.cs)), int(math.Round(float64(row)*pl.cs))
	x1, y1 := min(pl.side, int(math.Round(float64(col+1)*pl.cs))), min(pl.side, int(math.Round(float64(row+1)*pl.cs)))
	w, h := x1-x0, y1-y0
	if w <= 0 || h <= 0 {
		return nil, nil
	}
	// The pieces' pixels and the rim touching them, where the view is
	// the canvas's grey from the paper's (0) to the ink's (1): a stroke
	// keeps its own darkness and a loop that the binarisation filled
	// stays open.
	mask := make([]bool, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			l := pl.labels[(y0+y)*pl.side+x0+x]
			if l == 0 {
				continue
			}
			for _, p := range ps {
				if p.label == l {
					for dy := max(0, y-1); dy < min(h, y+2); dy++ {
						for dx := max(0, x-1); dx < min(w, x+2); dx++ {
							mask[dy*w+dx] = true
						}
					}
					break
				}
			}
		}
	}
	var hist [256]int
	ink := 255
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := (y0+y)*pl.side + x0 + x
			if pl.bin[i] == 0 {
				hist[pl.canvas[i]]++
			} else if mask[y*w+x] {
				ink = min(ink, int(pl.canvas[i]))
			}
		}
	}
	level, seen, total := 255, 0, 0
	for _, c := range hist {
		total += c
	}
	for v := 0; v < 256; v++ {
		if seen += hist[v]; seen*2 >= total {
			level = v
			break
		}
	}
	span := float32(max(level-ink, minContrast))
	src := make([]float32, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if mask[y*w+x] {
				src[y*w+x] = min(1, max(0, float32(level-int(pl.canvas[(y0+y)*pl.side+x0+x]))/span))
			}
		}
	}
	tmp, dst := make([]float32, h*CellSize), make([]float32, CellSize*CellSize)
	resampleArea(src, w, CellSize, areaWeights(w, CellSize), areaWeights(h, CellSize), tmp, dst)
	bx0, by0, bx1, by1 := w, h, -1, -1
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if src[y*w+x] > 0 {
				bx0, by0, bx1, by1 = min(bx0, x), min(by0, y), max(bx1, x), max(by1, y)
			}
		}
	}
	if bx1 < 0 {
		return dst, make([]float32, CellSize*CellSize)
	}
	bw, bh := bx1-bx0+1, by1-by0+1
	crop := make([]float32, bw*bh)
	for y := 0; y < bh; y++ {
		copy(crop[y*bw:(y+1)*bw], src[(by0+y)*w+bx0:(by0+y)*w+bx0+bw])
	}
	return dst, normalise(bw, bh, crop)[0]
}

// removeLines leaves in d.clean the ink of d.cbin without the grid lines
// (d.hlines, d.vlines, which it dilates and leaves in d.lines), giving
// back the digits' own strokes the line masks took.
func (d *Detector) removeLines(cs float64) {
	// A digit's own stroke can be as long as the line kernels: the stem of
	// a tall 1, or any stroke of a digit touching the canvas's edge where
	// the outer line fell outside (the opening counts what lies beyond
	// the edge as ink). The line masks would take it and the digit would
	// be lost. Grid lines lie on the lattice and run on for cells; what
	// the masks hold in a cell's middle, shorter than a cell, is given
	// back to the ink.
	if hb, err := d.hlines.DataPtrUint8(); err == nil {
		if vb, err := d.vlines.DataPtrUint8(); err == nil && len(hb) == len(vb) {
			side := d.hlines.Cols()
			freeStrokes(hb, side, 1, side, cs)
			freeStrokes(vb, side, side, 1, cs)
		}
	}
	gocv.Dilate(d.hlines, &d.hlines, d.kernel3)
	gocv.Dilate(d.vlines, &d.vlines, d.kernel3)
	d.sums.valid = false
	// A digit printed across a line (a fold of the page bends grid lines
	// through cells, a crease prints as a line of its own) would be cut
	// in two by the line mask; keep the stroke where it crosses.
	if hb, err := d.hlines.DataPtrUint8(); err == nil {
		if vb, err := d.vlines.DataPtrUint8(); err == nil {
			if bb, err := d.cbin.DataPtrUint8(); err == nil && len(hb) == len(bb) && len(vb) == len(bb) {
				side := d.cbin.Cols()
				maxRun := max(4, int(0.25*cs))
				maxInk := max(4, int(0.5*cs))
				mendCrossings(hb, bb, side, side, 1, maxRun, maxInk, cs)
				mendCrossings(vb, bb, side, 1, side, maxRun, maxInk, cs)
			}
		}
	}
	gocv.BitwiseOr(d.hlines, d.vlines, &d.lines)
	gocv.Subtract(d.cbin, d.lines, &d.clean)
}

// cellPieces sorts the nl connected components (stats as OpenCV gives
// them) into the n×n cells of cs pixels: each goes to the cell that holds
// its bounding-box centre when it is smaller than a cell; those off the
// cell's middle are marked aside, thin off-centre strokes stray.
func cellPieces(stats []int32, nl, n int, cs float64) [][]piece {
	minPiece := max(3, int(0.004*cs*cs))
	pieces := make([][]piece, n*n)
	for l := 1; l < nl; l++ {
		s := stats[l*5 : l*5+5]
		p := piece{label: int32(l), x: int(s[0]), y: int(s[1]), w: int(s[2]), h: int(s[3]), area: int(s[4])}
		if p.area < minPiece || float64(p.w) > 0.95*cs || float64(p.h) > 0.95*cs {
			continue
		}
		cx, cy := float64(p.x)+float64(p.w)/2, float64(p.y)+float64(p.h)/2
		col, row := int(cx/cs), int(cy/cs)
		if col < 0 || row < 0 || col >= n || row >= n {
			continue
		}
		// Digits are printed near the cell centre; off-centre bits are line
		// remnants or neighbours' ink, or one digit of a two-digit number
		// printed wide of the middle (the 4 of a 14 in a small cell).
		lx, ly := cx-float64(col)*cs, cy-float64(row)*cs
		p.aside = math.Abs(lx-cs/2) > 0.3*cs || math.Abs(ly-cs/2) > 0.3*cs
		// A thin stroke off the middle across its length is a bent grid
		// line (curved paper) that the straight line kernels missed; a
		// printed '1', upright or sideways, sits in the middle. Such a
		// stroke cannot make a cell non-empty, but stays a part of a digit
		// found otherwise (a '7' whose bar broke off).
		p.stray = p.w > 3*p.h && math.Abs(ly-cs/2) > 0.2*cs || p.h > 3*p.w && math.Abs(lx-cs/2) > 0.2*cs
		pieces[row*n+col] = append(pieces[row*n+col], p)
	}
	return pieces
}

// digitCand is a cell whose main component may be a digit, with that
// component's contrast against the paper.
type digitCand struct {
	cell     int
	main     piece
	contrast float64
}

// digitCandidates decides each cell on its main (largest non-stray)
// component: too little or too short ink, or ink lying mostly along the
// cell's border, leaves it empty (with the faint ink rendered for the
// reader where it could be a faded digit, in out); the others are
// returned with their contrast.
func (d *Detector) digitCandidates(pl plane, pieces [][]piece, out []Cell) []digitCand {
	cs := pl.cs
	minInk := int(d.opts.MinInkFrac * cs * cs)
	var cands []digitCand
	for i, ps := range pieces {
		if len(ps) == 0 {
			continue
		}
		var main piece
		for k, p := range ps {
			if !p.stray && !p.aside && p.area > main.area && !pl.onLine(&ps[k]) {
				main = ps[k]
			}
		}
		if main.area == 0 {
			continue
		}
		// Decide on the main component alone: speckle from shading or paper
		// texture is many small pieces, a digit is one solid stroke set.
		if main.area < minInk || float64(max(main.h, main.w)) < 0.3*cs {
			out[i].Ink = main.area
			// Only ink that could be a faded digit is worth the reader's
			// look; specks are common and normalising each costs time.
			if 3*main.area >= minInk && float64(max(main.h, main.w)) >= 0.2*cs {
				out[i].Pixels, out[i].Half, out[i].Looks = pl.faint(i, pieces[i], main)
			}
			continue
		}
		// Most of a digit lies away from the cell's border; a piece of grid
		// line that escaped removal (faint, blurred lines of small cells)
		// lies mostly along it.
		ct, edge := contrastOf(pl.canvas, pl.bin, pl.labels, pl.side, pl.n, i, cs, main)
		if edge > 0.5 {
			out[i].Ink = main.area
			out[i].Pixels, out[i].Half, out[i].Looks = pl.faint(i, pieces[i], main)
			continue
		}
		cands = append(cands, digitCand{i, main, ct})
	}
	return cands
}

// onLine reports whether piece p is a remnant of a grid line: most of
// its pixels lie in strokes along rows that the horizontal line mask
// carries on beyond the piece, within 0.3 cell of its ends, or along
// columns the vertical mask carries on. Such dashes and corners (left
// where a blurred line broke up or swelled past the mask) are never a
// cell's main ink nor part of a digit; a digit's stroke rarely shares its
// rows with a line. The answer is kept in p, worked out only for the
// pieces a cell's decision looks at.
func (pl plane) onLine(p *piece) bool {
	if p.lineKnown || pl.hl == nil {
		return p.line
	}
	p.lineKnown = true
	reach := max(2, int(0.3*pl.cs))
	minRun := max(2, int(0.12*pl.cs))
	rows, cols := make([]bool, p.h), make([]bool, p.w)
	for y := range rows {
		rows[y] = pl.runsOn(pl.hl, p.y+y, p.x, p.w, 1, pl.side, reach)
	}
	for x := range cols {
		cols[x] = pl.runsOn(pl.vl, p.x+x, p.y, p.h, pl.side, 1, reach)
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

// gather returns the bounding box, labels and ink of a cell's digit: its
// main component and the parts of a broken digit, not specks, and, off
// the cell's middle, the other digit of a number (see besideDigit). A
// piece off the middle is judged against the digit gathered so far, so
// the far arc of a 0 that broke in two (a blurred 10 in a small cell,
// whose main component is the 1) joins once the near arc has.
func gather(ps []piece, main piece, onLine func(*piece) bool) (image.Rectangle, []int32, int) {
	box := image.Rect(main.x, main.y, main.x+main.w, main.y+main.h)
	ink := main.area
	keep := []int32{main.label}
	taken := make([]bool, len(ps))
	for grew := true; grew; {
		grew = false
		sofar := piece{x: box.Min.X, y: box.Min.Y, w: box.Dx(), h: box.Dy()}
		for k, p := range ps {
			// ps holds main as it was found, before trimTails.
			if taken[k] || p.label == main.label || p.area*10 < main.area || p.aside && !besideDigit(sofar, p) || onLine != nil && onLine(&ps[k]) {
				continue
			}
			taken[k], grew = true, true
			keep = append(keep, p.label)
			ink += p.area
			box = box.Union(image.Rect(p.x, p.y, p.x+p.w, p.y+p.h))
		}
	}
	return box, keep, ink
}

// besideDigit reports whether p, off the cell's middle, is the other digit
// of a two-digit number whose digit main is: as tall as main (within a
// quarter), beside it on the same line, close to it, and not a thin stroke
// (a grid line's remnant is a narrow dash next to the digits; a printed
// 1 is at least a third as wide as tall).
func besideDigit(main, p piece) bool {
	lo, hi := min(main.h, p.h), max(main.h, p.h)
	if 4*hi > 5*lo || 10*p.w < 3*p.h {
		return false
	}
	overlap := min(main.y+main.h, p.y+p.h) - max(main.y, p.y)
	if 10*overlap < 7*lo {
		return false
	}
	gap := max(p.x-(main.x+main.w), main.x-(p.x+p.w))
	return 10*gap <= 3*main.h
}

// offLines returns ps without the pieces other than main that lie mostly
// on the grid's lattice: a dash of a faint line next to a digit (the corner
// of two lines beside a 7 in a small cell) that line removal left, which
// would widen the digit's box and spoil its reading. Pieces off the cell's
// middle are gather's to judge (the 4 of a 14 can touch a line).
func (pl plane) offLines(ps []piece, main piece) []piece {
	band := max(1, 0.12*pl.cs)
	near := func(v int) bool {
		f := float64(v) + 0.5
		k := math.Round(f / pl.cs)
		return math.Abs(f-k*pl.cs) <= band
	}
	var out []piece
	for _, p := range ps {
		if p.label != main.label && !p.aside && p.area*10 >= main.area {
			on, all := 0, 0
			for y := p.y; y < p.y+p.h; y++ {
				ny := near(y)
				for x := p.x; x < p.x+p.w; x++ {
					if pl.labels[y*pl.side+x] == p.label {
						all++
						if ny || near(x) {
							on++
						}
					}
				}
			}
			if 10*on > 6*all {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// plane is what the cell images are cut from: the grey canvas, its
// binarisation (ink 255) and the labels of the cleaned ink's components,
// all side×side, for an n×n grid of cs-pixel cells.
type plane struct {
	canvas, bin []uint8
	labels      []int32
	// hl, vl: the horizontal and vertical line masks (nil: unknown).
	hl, vl  []uint8
	side, n int
	cs      float64
	// looks: the cells are small in the frame; render draws more views
	// of each digit (Cell.Looks).
	looks bool
}

// faint normalises the ink of a cell that is still called empty (too
// little, too faint or too close to the border to count as a digit), so the
// reader can look at it when the grid is otherwise ambiguous: a faded or
// broken digit is a given the puzzle needs. The cell stays Empty; its
// looks are cut as a digit's when the cells are small (a repair that makes
// such ink a given must not take it for surer than its cuts agree).
func (pl plane) faint(cell int, ps []piece, main piece) (pixels, half []float32, looks [][]float32) {
	box, keep, _ := gather(ps, main, pl.onLine)
	return pl.render(cell, box, keep)
}

// render draws the digit made of the kept labels inside box, in cell,
// as CellSize×CellSize images (see normalise): pixels, 1 on the kept
// labels (the binarisation the model was trained on), and half, 1 where
// the canvas is darker than half-way between paper and ink, which keeps
// open the gaps and bowls blur closes (see Cell.Half). Only the kept
// components and their rim count in half: neighbours' ink stays dark.
func (pl plane) render(cell int, box image.Rectangle, keep []int32) (pixels, half []float32, looks [][]float32) {
	kept := func(l int32) bool {
		for _, k := range keep {
			if l == k {
				return true
			}
		}
		return false
	}
	w, h := box.Dx(), box.Dy()
	// The kept labels, once per pixel of the box and a one-pixel margin
	// (inside the canvas), for the rim test's neighbours.
	mw := w + 2
	mask := make([]bool, mw*(h+2))
	for y := max(0, box.Min.Y-1); y < min(pl.side, box.Max.Y+1); y++ {
		for x := max(0, box.Min.X-1); x < min(pl.side, box.Max.X+1); x++ {
			mask[(y-box.Min.Y+1)*mw+x-box.Min.X+1] = kept(pl.labels[y*pl.side+x])
		}
	}
	paper, ink := pl.levels(cell, box, mask)
	span := max(paper-ink, minContrast)
	cut := paper - span/2
	src := make([]float32, w*h)
	hsrc := make([]float32, w*h)
	var lk extraLooks
	if pl.looks {
		lk = newExtraLooks(w * h)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := (box.Min.Y+y)*pl.side + box.Min.X + x
			m := (y+1)*mw + x + 1
			in := mask[m]
			if in {
				src[y*w+x] = 1
			} else if pl.bin[i] == 0 {
				// The rim: paper-side pixels touching the digit.
				in = mask[m-mw-1] || mask[m-mw] || mask[m-mw+1] ||
					mask[m-1] || mask[m+1] ||
					mask[m+mw-1] || mask[m+mw] || mask[m+mw+1]
			}
			if !in {
				continue
			}
			if float64(pl.canvas[i]) <= cut {
				hsrc[y*w+x] = 1
			}
			if pl.looks {
				lk.add(y*w+x, (paper-float64(pl.canvas[i]))/span)
			}
		}
	}
	views := normalise(w, h, src, hsrc)
	if pl.looks {
		looks = normalise(w, h, lk.thick, lk.thin, lk.grey)
	}
	return views[0], views[1], looks
}

// Looks: the cuts of a small cell's digit besides the half-way one, as
// fractions of the way from its paper's grey to its ink's (Cell.Looks):
// nearer the paper (strokes thicker, a faint one kept whole), nearer the
// ink (thinner, a gap that blur filled opened), and a grey view, the mean
// of the cuts from greyFrom to greyTo in greySteps steps.
const (
	lookThick = 0.3
	lookThin  = 0.7
	greyFrom  = 0.2
	greyTo    = 0.8
	greySteps = 7
)

// extraLooks holds the extra views of a small cell's digit (Cell.Looks) as
// render draws them, over the pixels that count in its half-way view:
// the cuts lookThick and lookThin and the grey view.
type extraLooks struct{ thick, thin, grey []float32 }

func newExtraLooks(n int) extraLooks {
	return extraLooks{make([]float32, n), make([]float32, n), make([]float32, n)}
}

// add draws pixel j, dark the share of the way from the cell's paper
// grey to its ink's.
func (l extraLooks) add(j int, dark float64) {
	if dark >= lookThick {
		l.thick[j] = 1
	}
	if dark >= lookThin {
		l.thin[j] = 1
	}
	for k := 0; k < greySteps; k++ {
		if dark >= greyFrom+(greyTo-greyFrom)*float64(k)/(greySteps-1) {
			l.grey[j] += 1.0 / greySteps
		}
	}
}

// levels returns the grey of cell's paper (the mean of the pixels not
// binarised as ink) and of the digit's ink (the darkest quarter of the
// kept labels' pixels in box). kept marks the pixels of the kept labels
// in box and a one-pixel margin round it (render's mask).
func (pl plane) levels(cell int, box image.Rectangle, kept []bool) (paper, ink float64) {
	row, col := cell/pl.n, cell%pl.n
	x0, y0 := int(float64(col)*pl.cs), int(float64(row)*pl.cs)
	x1, y1 := min(pl.side, int(float64(col+1)*pl.cs)), min(pl.side, int(float64(row+1)*pl.cs))
	var sum, np int
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if i := y*pl.side + x; pl.bin[i] == 0 {
				sum += int(pl.canvas[i])
				np++
			}
		}
	}
	var hist [256]int
	ni := 0
	mw := box.Dx() + 2
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			if kept[(y-box.Min.Y+1)*mw+x-box.Min.X+1] {
				hist[pl.canvas[y*pl.side+x]]++
				ni++
			}
		}
	}
	if ni == 0 {
		return 255, 0
	}
	// The mean of the darkest quarter of the ink.
	want, got, acc := max(1, ni/4), 0, 0
	for g := 0; g < 256 && got < want; g++ {
		k := min(hist[g], want-got)
		got += k
		acc += k * g
	}
	ink = float64(acc) / float64(got)
	paper = 255
	if np > 0 {
		paper = float64(sum) / float64(np)
	}
	return paper, ink
}

// minContrast is the grey-level gap between a digit and its paper below
// which ink is treated as noise whatever the rest of the grid looks like.
const minContrast = 8

// contrastOf returns the mean grey of the cell's paper (pixels not
// binarised as ink) minus the mean grey of the component p, and the
// fraction of p's pixels in the cell that lie within 0.12 cell of the
// cell's border.
func contrastOf(canvas, bin []uint8, labels []int32, side, n, cell int, cs float64, p piece) (float64, float64) {
	row, col := cell/n, cell%n
	x0, y0 := int(float64(col)*cs), int(float64(row)*cs)
	x1, y1 := min(side, int(float64(col+1)*cs)), min(side, int(float64(row+1)*cs))
	var paper, ink float64
	var np, ni, ne int
	band := int(0.12 * cs)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			i := y*side + x
			switch {
			case labels[i] == p.label:
				ink += float64(canvas[i])
				ni++
				if x-x0 < band || x1-1-x < band || y-y0 < band || y1-1-y < band {
					ne++
				}
			case bin[i] == 0:
				paper += float64(canvas[i])
				np++
			}
		}
	}
	if ni == 0 || np == 0 {
		return 0, 0
	}
	return paper/float64(np) - ink/float64(ni), float64(ne) / float64(ni)
}

// normalise fits w×h ink images (ink 1 on 0) into CellSize×CellSize
// ones: scaled (aspect kept) so the longer side is 20 pixels and centred,
// with area-weighted resampling. The images share one size, so the
// weights are worked out once for all of them.
func normalise(w, h int, srcs ...[]float32) [][]float32 {
	const box = 20
	tw, th := box, box
	if w > h {
		th = max(1, int(math.Round(float64(h)*box/float64(w))))
	} else {
		tw = max(1, int(math.Round(float64(w)*box/float64(h))))
	}
	wx, wy := areaWeights(w, tw), areaWeights(h, th)
	// One allocation for the scratch and one for the views (a few per
	// cell add up over a grid's digits).
	scratch := make([]float32, h*tw+tw*th)
	tmp, small := scratch[:h*tw], scratch[h*tw:]
	ox, oy := (CellSize-tw)/2, (CellSize-th)/2
	outs := make([][]float32, len(srcs))
	all := make([]float32, len(srcs)*CellSize*CellSize)
	for k, src := range srcs {
		resampleArea(src, w, tw, wx, wy, tmp, small)
		out := all[k*CellSize*CellSize : (k+1)*CellSize*CellSize : (k+1)*CellSize*CellSize]
		for y := 0; y < th; y++ {
			copy(out[(oy+y)*CellSize+ox:(oy+y)*CellSize+ox+tw], small[y*tw:(y+1)*tw])
		}
		outs[k] = out
	}
	return outs
}

// resampleArea scales a sw-wide image to dst, dw wide, each output pixel
// being the mean of the source area it covers (exact fractional overlaps,
// separable, through the weights wx along rows and wy along columns of
// areaWeights); tmp (source rows × dw) is scratch.
func resampleArea(src []float32, sw, dw int, wx, wy []weight, tmp, dst []float32) {
	clear(tmp)
	clear(dst)
	for y := 0; y < len(tmp)/dw; y++ {
		row, trow := src[y*sw:(y+1)*sw], tmp[y*dw:(y+1)*dw]
		for _, e := range wx {
			trow[e.d] += row[e.s] * e.w
		}
	}
	for _, e := range wy {
		drow, trow := dst[e.d*dw:(e.d+1)*dw], tmp[e.s*dw:(e.s+1)*dw]
		for x := range drow {
			drow[x] += trow[x] * e.w
		}
	}
	for i, v := range dst {
		dst[i] = min(1, max(0, v))
	}
}

type weight struct {
	s, d int
	w    float32
}

// areaWeights lists, for a 1-D scale from sn to dn samples, how much of each
// source sample falls in each destination sample, normalised per destination.
func areaWeights(sn, dn int) []weight {
	scale := float64(sn) / float64(dn) // source units per destination sample
	out := make([]weight, 0, sn+dn)
	for d := 0; d < dn; d++ {
		a, b := float64(d)*scale, float64(d+1)*scale
		for s := int(a); s < sn && float64(s) < b; s++ {
			ov := math.Min(b, float64(s+1)) - math.Max(a, float64(s))
			if ov > 0 {
				out = append(out, weight{s, d, float32(ov / scale)})
			}
		}
	}
	return out
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

// trimTails cuts off the thin strokes that leave the bulk of a digit's
// component p (a bent line or a pen mark fused with the digit): the parts
// a 3×3 opening removes that reach out at least 0.15 cell beyond the
// opened digit's box, at least a quarter cell long in that direction and
// twice as long as they are wide. Their pixels are
// unlabelled in labels; p's box and area are updated. Digits printed so
// thin that the opening leaves little of them are left as they are.
func trimTails(labels []int32, stride int, p piece, cs float64) piece {
	w, h := p.w, p.h
	if w < 3 || h < 3 {
		return p
	}
	if !hasThinSide(labels, stride, p, cs) {
		return p
	}
	comp := make([]bool, w*h)
	for y := 0; y < h; y++ {
		row := labels[(p.y+y)*stride+p.x : (p.y+y)*stride+p.x+w]
		for x, l := range row {
			comp[y*w+x] = l == p.label
		}
	}
	bulk, box, ok := openedBulk(comp, w, h, p.area)
	if !ok {
		return p
	}
	if !cutTails(labels, stride, p, comp, bulk, box, cs) {
		return p
	}
	x0, y0, x1, y1 := w, h, -1, -1
	area := 0
	for k, c := range comp {
		if c {
			x, y := k%w, k/w
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			area++
		}
	}
	p.x, p.y, p.w, p.h, p.area = p.x+x0, p.y+y0, x1-x0+1, y1-y0+1, area
	return p
}

// clipLineBands cuts from a small cell's digit p (in cell row row) its
// pixels within 0.12 cell of the cell's top and bottom grid lines and
// beyond: a blurred line's remnant fused with the digit would stretch its
// box. Printed digits keep clear of those lines; the sides are left alone
// (a two-digit number may touch them), and so is a digit the cut would
// take more than a quarter of (a lattice that is off). p's box and area
// are updated.
func clipLineBands(labels []int32, stride int, p piece, cs float64, row int) piece {
	band := 0.12 * cs
	top, bottom := float64(row)*cs+band, float64(row+1)*cs-band
	inBand := func(y int) bool {
		f := float64(y) + 0.5
		return f < top || f > bottom
	}
	cut := 0
	for y := p.y; y < p.y+p.h; y++ {
		if !inBand(y) {
			continue
		}
		for _, l := range labels[y*stride+p.x : y*stride+p.x+p.w] {
			if l == p.label {
				cut++
			}
		}
	}
	if cut == 0 || 4*cut > p.area {
		return p
	}
	x0, y0, x1, y1 := p.x+p.w, p.y+p.h, -1, -1
	for y := p.y; y < p.y+p.h; y++ {
		row := labels[y*stride+p.x : y*stride+p.x+p.w]
		for k, l := range row {
			if l != p.label {
				continue
			}
			if inBand(y) {
				row[k] = 0
				continue
			}
			x := p.x + k
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
	}
	p.x, p.y, p.w, p.h, p.area = x0, y0, x1-x0+1, y1-y0+1, p.area-cut
	return p
}

// hasThinSide reports whether component p (at least 3×3) has a side whose
// outer 0.15 cell of rows or columns hold only a thin cross-section: a
// tail reaches out of the bulk alone there. Most digits have no such side
// and need no opening.
func hasThinSide(labels []int32, stride int, p piece, cs float64) bool {
	w, h := p.w, p.h
	rowN, colN := make([]int, h), make([]int, w)
	for y := 0; y < h; y++ {
		row := labels[(p.y+y)*stride+p.x : (p.y+y)*stride+p.x+w]
		for x, l := range row {
			if l == p.label {
				rowN[y]++
				colN[x]++
			}
		}
	}
	band := int(math.Ceil(0.15 * cs))
	thinSide := func(n []int, from, step int) bool {
		if len(n) <= band {
			return false
		}
		for i, k := from, 0; k < band; i, k = i+step, k+1 {
			if n[i] > 4 {
				return false
			}
		}
		return true
	}
	return thinSide(colN, 0, 1) || thinSide(colN, w-1, -1) || thinSide(rowN, 0, 1) || thinSide(rowN, h-1, -1)
}

// openedBulk opens the w×h mask comp (of a component of area pixels) with
// a 3×3 square, which keeps strokes at least 3 px wide, and returns the
// opened mask and its box (x0, y0, x1, y1), or false when the opening
// leaves less than a quarter of the component (a digit printed thin).
func openedBulk(comp []bool, w, h, area int) ([]bool, [4]int, bool) {
	er := make([]bool, w*h)
	kept := 0
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			if allSet3x3(comp, w, x, y) {
				er[y*w+x] = true
				kept++
			}
		}
	}
	if kept*4 < area {
		return nil, [4]int{}, false
	}
	bulk := make([]bool, w*h)
	box := [4]int{w, h, -1, -1}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if !er[y*w+x] {
				continue
			}
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					bulk[(y+dy)*w+x+dx] = true
				}
			}
			box = [4]int{min(box[0], x-1), min(box[1], y-1), max(box[2], x+1), max(box[3], y+1)}
		}
	}
	return bulk, box, true
}

// allSet3x3 reports whether the 3×3 neighbourhood of (x, y) in the w-wide
// mask m is all set.
func allSet3x3(m []bool, w, x, y int) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if !m[(y+dy)*w+x+dx] {
				return false
			}
		}
	}
	return true
}

// cutTails groups what the opening removed from comp (the w×h mask of
// component p, bulk its opened part with box bbox) into 8-connected parts
// and cuts the tails among them from comp and labels: parts that run
// straight away from the bulk. It reports whether it cut any.
func cutTails(labels []int32, stride int, p piece, comp, bulk []bool, bbox [4]int, cs float64) bool {
	w, h := p.w, p.h
	bx0, by0, bx1, by1 := bbox[0], bbox[1], bbox[2], bbox[3]
	seen := make([]bool, w*h)
	var stack, part []int
	minLen, minOut := 0.25*cs, 0.15*cs
	trimmed := false
	for s := range comp {
		if !comp[s] || bulk[s] || seen[s] {
			continue
		}
		part = part[:0]
		stack = append(stack[:0], s)
		seen[s] = true
		x0, y0, x1, y1 := w, h, -1, -1
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			part = append(part, k)
			x, y := k%w, k/w
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					if n := ny*w + nx; comp[n] && !bulk[n] && !seen[n] {
						seen[n] = true
						stack = append(stack, n)
					}
				}
			}
		}
		// A tail runs straight away from the bulk: it reaches well
		// beyond the bulk's box and is much longer in that direction than
		// across it. The thin arcs of a digit (the bowl of a 6 or an 8 in a
		// light font) hug the bulk's box and are wider than they stick out.
		out, along, across := bx0-x0, x1-x0+1, y1-y0+1
		if o := x1 - bx1; o > out {
			out = o
		}
		if o := max(by0-y0, y1-by1); o > out {
			out, along, across = o, y1-y0+1, x1-x0+1
		}
		if float64(out) < minOut || float64(along) < minLen || along < 2*across {
			continue
		}
		for _, k := range part {
			labels[(p.y+k/w)*stride+p.x+k%w] = 0
			comp[k] = false
		}
		trimmed = true
	}
	return trimmed
}
