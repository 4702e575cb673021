package vision

import (
	"image"
	"math"
)

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
