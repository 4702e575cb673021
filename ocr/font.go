package ocr

import (
	"cmp"
	"math"
	"slices"

	"github.com/sudokuar/sudokuar/vision"
)

// A page's printed digits share one typeface at one size; handwriting
// does not. Where the pen model hesitates between a printed and a
// handwritten digit, byTypeface asks how well the cell matches the
// page's surely printed cells and weighs that with the pen model's odds.
// The weights were fitted on the calibration pages of the pen model's
// training side (models/README.md, pen section).
const (
	// fontDoubt: only a cell whose log-odds of printed against
	// handwritten lie within ±fontDoubt is weighed again.
	fontDoubt = 3.0
	// fontTemplateAt: a cell read printed at this probability or more is
	// a sample of the page's typeface.
	fontTemplateAt = 0.9
	// fontTemplatesMin: with fewer samples the page's typeface is not
	// known well enough and the pen model's kinds stand.
	fontTemplatesMin = 4
	// A cell is matched to every other sample with their ink centres met
	// give or take fontCoarse pixels each way, then to the fontRefine best
	// of them again give or take fontShift.
	fontCoarse = 1
	fontRefine = 3
	fontShift  = 2
	// The rule: printed when fontOdds·logodds + fontMatch·best match +
	// fontBias > 0.
	fontOdds  = 0.77
	fontMatch = 16.32
	fontBias  = -15.26
)

// byTypeface returns kinds with the printed/handwritten doubt settled by
// the page's typeface (see the constants above), and whether it changed
// any. cells holds each cell's views (View is matched), probs the pen
// model's probabilities (nil for cells without ink) and given the printed
// digits read of the cells kinds calls printed. A cell read printed is
// matched to the samples of the same digit (and keeps its kind when there
// is none); a handwritten one, to every sample.
func byTypeface(cells []vision.Cell, kinds []penCell, probs [][]float32, given []int) ([]penCell, bool) {
	var samples []int
	for i, k := range kinds {
		if k.kind == KindPrinted && k.conf >= fontTemplateAt && given[i] > 0 && len(cells[i].View) == CellLen {
			samples = append(samples, i)
		}
	}
	if len(samples) < fontTemplatesMin {
		return kinds, false
	}
	views := make([]inkView, len(cells))
	for _, i := range samples {
		views[i] = newInkView(cells[i].View)
	}
	out := slices.Clone(kinds)
	changed := false
	for i, k := range kinds {
		p := probs[i]
		if p == nil || (k.kind != KindPrinted && k.kind != KindHand) || len(cells[i].View) != CellLen {
			continue
		}
		odds := logOdds(p[PenPrinted], handShare(p))
		if math.Abs(odds) >= fontDoubt {
			continue
		}
		var like []inkView
		for _, j := range samples {
			if j != i && (k.kind == KindHand || given[j] == given[i]) {
				like = append(like, views[j])
			}
		}
		if len(like) == 0 {
			continue
		}
		v := views[i]
		if v.v == nil {
			v = newInkView(cells[i].View)
		}
		z := fontOdds*odds + fontMatch*bestMatch(v, like) + fontBias
		printed := z > 0
		if printed == (k.kind == KindPrinted) {
			continue
		}
		changed = true
		conf := float32(min(settledSureMost, 1/(1+math.Exp(-math.Abs(z)))))
		if printed {
			out[i] = penCell{kind: KindPrinted, conf: conf}
			continue
		}
		digits := handDigits(p)
		d := argmax(digits[1:]) + 1
		out[i] = penCell{kind: KindHand, conf: conf, digit: d, digitConf: digits[d], digits: digits}
	}
	return out, changed
}

// bestMatch is how well v matches the best of samples (see fontCoarse).
func bestMatch(v inkView, samples []inkView) float64 {
	type scored struct {
		k int
		m float64
	}
	first := make([]scored, len(samples))
	for k, t := range samples {
		first[k] = scored{k, v.match(t, fontCoarse)}
	}
	slices.SortFunc(first, func(a, b scored) int { return cmp.Compare(b.m, a.m) })
	best := -1.0
	for _, c := range first[:min(len(first), fontRefine)] {
		best = max(best, v.match(samples[c.k], fontShift))
	}
	return best
}

// handShare is the pen model's probability of a handwritten digit.
func handShare(p []float32) float32 {
	var hand float32
	for d := 1; d <= 9; d++ {
		hand += p[PenHand0+d]
	}
	return hand
}

// logOdds is log(a/b), both kept off zero.
func logOdds(a, b float32) float64 {
	const floor = 1e-6
	return math.Log(max(float64(a), floor) / max(float64(b), floor))
}

// inkView is a CellSize² view without its rim, where grid-line remnants
// lie, and what matching it needs: its ink's centre and its sums.
type inkView struct {
	v          []float32
	cx, cy     float64
	sum, sumSq float64
	// x0..x1, y0..y1 bound the ink (x1 < x0 when there is none).
	x0, x1, y0, y1 int
}

// fontRim is the width in pixels of a view's rim left out of matching.
const fontRim = 3

func newInkView(view []float32) inkView {
	const s = vision.CellSize
	w := inkView{v: make([]float32, len(view)), cx: s / 2, cy: s / 2, x0: s, x1: -1, y0: s, y1: -1}
	var x, y float64
	for i, p := range view {
		c, r := i%s, i/s
		if c < fontRim || r < fontRim || c >= s-fontRim || r >= s-fontRim || p == 0 {
			continue
		}
		w.v[i] = p
		w.x0, w.x1, w.y0, w.y1 = min(w.x0, c), max(w.x1, c), min(w.y0, r), max(w.y1, r)
		f := float64(p)
		w.sum += f
		w.sumSq += f * f
		x += f * float64(i%s)
		y += f * float64(i/s)
	}
	if w.sum > 0 {
		w.cx, w.cy = x/w.sum, y/w.sum
	}
	return w
}

// match is the best zero-mean normalised cross-correlation of a and b,
// b moved so that the centres of their ink meet and then up to shift
// pixels each way. b's ink moved out of the square still counts in its
// sums: at these shifts there is next to none.
func (a inkView) match(b inkView, shift int) float64 {
	const s = vision.CellSize
	const n = s * s
	den := math.Sqrt((a.sumSq - a.sum*a.sum/n) * (b.sumSq - b.sum*b.sum/n))
	if den <= 0 {
		return -1
	}
	cx, cy := int(math.Round(b.cx-a.cx)), int(math.Round(b.cy-a.cy))
	best := -1.0
	for dy := cy - shift; dy <= cy+shift; dy++ {
		for dx := cx - shift; dx <= cx+shift; dx++ {
			var dot float64
			for y := max(a.y0, -dy); y <= min(a.y1, s-1-dy); y++ {
				ra, rb := a.v[y*s:], b.v[(y+dy)*s:]
				for x := max(a.x0, -dx); x <= min(a.x1, s-1-dx); x++ {
					dot += float64(ra[x]) * float64(rb[x+dx])
				}
			}
			best = max(best, (dot-a.sum*b.sum/n)/den)
		}
	}
	return best
}
