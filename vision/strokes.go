package vision

import (
	"image"
	"math"
)

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
