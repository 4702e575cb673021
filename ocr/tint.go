package ocr

import (
	"math"
	"slices"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// A page's print is one ink, and a player's pen is often another (blue,
// red): where the frame has colour (vision.Cell.Tint) and the cells read
// surely printed and surely handwritten are of two clearly different
// inks, a cell read printed whose ink is the pen's is the player's.
// byTint settles only that way round: on the training side of
// wicht-mixed-train the ink's colour also called some entries printed
// (players switch pens), but no printed digit handwritten.
const (
	// tintSamplesAt: cells read printed or handwritten at this
	// probability or more are samples of the page's two inks, and
	// tintSamplesMin of each are needed.
	tintSamplesAt  = 0.9
	tintSamplesMin = 4
	// tintApart: the two inks' median colours must lie this far apart
	// (Tint units) and tintSpread times farther than the samples lie
	// from their own ink's median (a black pen on black print is not).
	tintApart  = 20.0
	tintSpread = 3.0
	// A cell is of the pen's ink when it is nearer the pen's colour than
	// the print's, and at least half as far from the print's as the two
	// inks are apart, and tintSpread times the print's spread plus
	// tintMargin.
	tintMargin = 3.0
)

// byTint returns r read again with the cells read printed whose ink is
// the page's pen (see the constants above) taken as the player's
// entries, and the kinds it came from. The change stands only when no
// other given changed and a page with one solution keeps it (a given
// taken away never makes a wrong one).
func byTint(c Classifier, shape sudoku.Shape, cells []vision.Cell, kinds []penCell, set Settings, r Reading) (Reading, []penCell, error) {
	given := r.Given.Cells
	if len(given) != len(cells) || len(kinds) != len(cells) {
		return r, kinds, nil
	}
	var print, pen [][2]float64
	for i, k := range kinds {
		t := cells[i].Tint
		switch {
		case len(t) != 2 || k.conf < tintSamplesAt:
		case k.kind == KindPrinted && given[i] > 0:
			print = append(print, [2]float64{float64(t[0]), float64(t[1])})
		case k.kind == KindHand:
			pen = append(pen, [2]float64{float64(t[0]), float64(t[1])})
		}
	}
	if len(print) < tintSamplesMin || len(pen) < tintSamplesMin {
		return r, kinds, nil
	}
	pc, ps := inkOf(print)
	hc, hs := inkOf(pen)
	apart := math.Hypot(hc[0]-pc[0], hc[1]-pc[1])
	if apart < tintApart || apart < tintSpread*(ps+hs) {
		return r, kinds, nil
	}
	try := slices.Clone(kinds)
	var changed []int
	for i, k := range kinds {
		t := cells[i].Tint
		if k.kind != KindPrinted || given[i] == 0 || len(t) != 2 {
			continue
		}
		dp := math.Hypot(float64(t[0])-pc[0], float64(t[1])-pc[1])
		dh := math.Hypot(float64(t[0])-hc[0], float64(t[1])-hc[1])
		if dh < dp && dp >= max(apart/2, tintSpread*ps+tintMargin) {
			try[i] = entryOfGiven(r, i, settledSureMost)
			changed = append(changed, i)
		}
	}
	if len(changed) == 0 {
		return r, kinds, nil
	}
	p, err := readPrinted(c, shape, cells, try, set)
	if err != nil {
		return r, kinds, err
	}
	if !onlyAt(given, p.Given.Cells, changed...) {
		return r, kinds, nil
	}
	for _, j := range changed {
		if p.Given.Cells[j] != 0 {
			return r, kinds, nil
		}
	}
	if r.Solutions == 1 && p.Solutions != 1 {
		return r, kinds, nil
	}
	return p, try, nil
}

// inkOf is the median colour of samples (each component's) and the
// median distance of the samples from it.
func inkOf(samples [][2]float64) ([2]float64, float64) {
	var c [2]float64
	for k := range c {
		v := make([]float64, len(samples))
		for i, s := range samples {
			v[i] = s[k]
		}
		c[k] = median(v)
	}
	d := make([]float64, len(samples))
	for i, s := range samples {
		d[i] = math.Hypot(s[0]-c[0], s[1]-c[1])
	}
	return c, median(d)
}

// median is the middle value of v (the upper of the two middle ones);
// v is sorted in place.
func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}
