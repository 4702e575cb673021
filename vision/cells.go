package vision

import (
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

// cells cuts the binarised canvas c into n×n cells of cs pixels. Grid lines
// (the long strokes found by binarise, slightly dilated) are removed first;
// the remaining ink is split into connected components, and each component
// goes to the cell that holds its bounding-box centre when it is smaller
// than a cell. What touches a cell's border zone off-centre is treated as
// a grid-line remnant and left out, unless it is the second digit of a
// number (see gather).
func (r *rectifier) cells(c *canvas, n int, cs float64, looks bool) []Cell {
	r.last = c
	r.removeLines(c, cs)
	nl := gocv.ConnectedComponentsWithStatsWithParams(r.clean, &r.labels, &r.stats, &r.centroids,
		8, gocv.MatTypeCV32S, gocv.CCL_DEFAULT)

	out := make([]Cell, n*n)
	for i := range out {
		out[i] = Cell{Row: i / n, Col: i % n, Empty: true}
	}
	sb, err1 := r.stats.DataPtrUint8()
	lb, err2 := r.labels.DataPtrUint8()
	if err1 != nil || err2 != nil || nl < 2 || len(sb) < nl*5*4 {
		return out
	}
	canvas, err3 := c.grey.DataPtrUint8()
	bin, err4 := c.bin.DataPtrUint8()
	if err3 != nil || err4 != nil {
		return out
	}
	stats := unsafe.Slice((*int32)(unsafe.Pointer(&sb[0])), len(sb)/4)
	labels := unsafe.Slice((*int32)(unsafe.Pointer(&lb[0])), len(lb)/4)
	side := r.clean.Cols()
	pl := plane{canvas: canvas, bin: bin, labels: labels, side: side, n: n, cs: cs, looks: looks}
	if hl, err := c.hlines.DataPtrUint8(); err == nil && len(hl) == len(bin) {
		if vl, err := c.vlines.DataPtrUint8(); err == nil && len(vl) == len(bin) {
			pl.hl, pl.vl = hl, vl
		}
	}
	pieces := cellPieces(stats, nl, n, cs)
	cands := r.digitCandidates(pl, pieces, out)
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
func (r *rectifier) digitCandidates(pl plane, pieces [][]piece, out []Cell) []digitCand {
	cs := pl.cs
	minInk := int(r.opts.MinInkFrac * cs * cs)
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
