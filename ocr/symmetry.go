package ocr

import (
	"fmt"
	"slices"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// Many printed puzzles place their givens symmetrically: a cell holds a
// given exactly when the cell opposite it through the grid's centre does.
// A page whose givens read that way but for one pair of cells has most
// likely one cell's kind wrong: a printed digit read as handwriting
// beside a given, or the player's ink read as print beside an empty
// cell. bySymmetry settles that pair (see symmetryMost and the rules in
// its comment); a puzzle whose givens are not symmetric is off by far
// more than one pair and is left as it is.

// symmetryMost is how many pairs of cells may break the symmetry of the
// givens read for bySymmetry to take the page as symmetric: one. On the
// training side of wicht-mixed-train every page whose givens are not
// symmetric is off by two pairs or more (all but one by ten or more).
const symmetryMost = 1

// symmetryGivens: a page with fewer givens read is not a puzzle read
// well enough for its pattern to say anything.
const symmetryGivens = 17

// symmetryFrom: the kind a change gives must have at least this share of
// the pen model's printed and handwritten probability; below it the pen
// model is sure of both cells and the pattern is left as it is.
const symmetryFrom = 0.01

// bySymmetry returns r read again with one cell's kind changed when the
// givens of r break their symmetry in exactly one pair of cells: the
// given's opposite, read as handwriting, taken as printed, or the given
// taken as the player's entry, whichever the pen model finds likelier
// (at symmetryFrom or more). The change stands only when the givens then
// have one solution and no other given changed. When r had one solution
// already it is the same one (a given added agrees with it, a given
// taken away leaves it); otherwise a promoted given stays in doubt as
// promoteForUnique leaves it. It returns the kinds the reading came from.
func bySymmetry(c Classifier, shape sudoku.Shape, cells []vision.Cell, kinds []penCell, probs [][]float32, set Settings, r Reading) (Reading, []penCell, error) {
	if shape.N() != 9 || len(kinds) != len(r.Given.Cells) || len(probs) != len(kinds) {
		return r, kinds, nil
	}
	a, b, ok := brokenPair(r.Given.Cells)
	if !ok {
		return r, kinds, nil
	}
	// The change the pen model finds likelier, if it finds it likely at
	// all: the given's opposite printed, or the given handwritten.
	i, share := -1, float32(symmetryFrom)
	if kinds[b].kind == KindHand && probs[b] != nil {
		if s := printedShare(probs[b]); s >= share {
			i, share = b, s
		}
	}
	if kinds[a].kind == KindPrinted && probs[a] != nil {
		if s := 1 - printedShare(probs[a]); s >= share {
			i, share = a, s
		}
	}
	if i < 0 {
		return r, kinds, nil
	}
	try := slices.Clone(kinds)
	if i == b {
		try[i] = penCell{kind: KindPrinted, conf: min(share, settledSureMost)}
	} else {
		try[i] = entryOfGiven(r, i, share)
	}
	p, err := readPrinted(c, shape, cells, try, set)
	if err != nil {
		return r, kinds, err
	}
	if p.Solutions != 1 || !onlyAt(r.Given.Cells, p.Given.Cells, i) || (p.Given.Cells[i] != 0) != (i == b) {
		return r, kinds, nil
	}
	if r.Solutions != 1 && i == b {
		inDoubt(&p, i, share, fmt.Sprintf("read as handwritten (printed p=%.2f); as a printed %d the givens are symmetric and have one solution", share, p.Given.Cells[i]))
	}
	return p, try, nil
}

// brokenPair reports the pair of cells that alone breaks the symmetry of
// given through the grid's centre, a holding a given and b not, when
// there is exactly one such pair (symmetryMost) and symmetryGivens givens.
func brokenPair(given []int) (a, b int, ok bool) {
	count, pairs := 0, 0
	for i, v := range given {
		if v > 0 {
			count++
		}
		j := len(given) - 1 - i
		if i < j && (v > 0) != (given[j] > 0) {
			pairs++
			a, b = i, j
		}
	}
	if pairs == 0 || pairs > symmetryMost || count < symmetryGivens {
		return 0, 0, false
	}
	if given[a] == 0 {
		a, b = b, a
	}
	return a, b, true
}

// printedShare is the pen model's probability of a printed digit against
// a handwritten one.
func printedShare(p []float32) float32 {
	return p[PenPrinted] / max(p[PenPrinted]+handShare(p), 1e-9)
}

// inDoubt leaves given i of p, taken as printed from a cell read as
// handwriting on share of the pen model's word, weighed at most as
// likely as no given and in doubt for reason, so that no vote over frames
// takes it as sure.
func inDoubt(p *Reading, i int, share float32, reason string) {
	d, w := p.Given.Cells[i], min(share, 0.5)
	p.Conf[i] = min(p.Conf[i], w)
	if pr := p.Prob[i]; len(pr) > d {
		for v := range pr {
			pr[v] *= w
		}
		pr[0] += 1 - w
	}
	p.Doubt = append(p.Doubt, Doubt{Cell: i, Value: d, Alt: 0, Reason: reason})
}

// entryOfGiven is cell i of r, read as a printed given, taken as the
// player's entry of that digit instead (a page-level rule found the ink
// handwritten): its digits are the digit model's, sure at most
// settledSureMost, and its kind sure at conf.
func entryOfGiven(r Reading, i int, conf float32) penCell {
	d := r.Given.Cells[i]
	n := len(r.Prob[i]) - 1
	digits := make([]float32, 10)
	var sum float32
	for v := 1; v <= min(n, 9); v++ {
		sum += r.Prob[i][v]
	}
	for v := 1; v <= min(n, 9) && sum > 0; v++ {
		digits[v] = r.Prob[i][v] / sum
	}
	if sum <= 0 && d >= 1 && d <= 9 {
		digits[d] = 1
	}
	return penCell{kind: KindHand, conf: min(conf, settledSureMost), digit: d, digitConf: min(digits[d], settledSureMost), digits: digits}
}
