package ocr

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// MaxSide is the largest grid side the first models (digits 1..9 only)
// can read. Models that know the glyphs 10..16, A..G and 0 (NumGlyphs
// outputs) read grids up to MaxGlyphSide.
const MaxSide = 9

// MaxGlyphSide is the largest grid side a model with every glyph reads: 16
// (1..16 as numbers, 1..9 and A..G, or 0..F).
const MaxGlyphSide = 16

// ErrGridTooLarge is returned (wrapped) by Read for grids whose values the
// model has no glyphs for (above 9 for a 10-class model, above 16 for any).
var ErrGridTooLarge = errors.New("grid too large for the digit model")

// Change is one correction made while making a reading consistent.
type Change struct {
	Cell     int    // row-major index
	From, To int    // value read before and after (0 = empty)
	Reason   string // why, in words, e.g. "grid had several solutions; r1c7 read as 1 (p=0.40) instead of 0 (p=0.60) gives the only unique solution"
}

// Doubt is a cell whose reading is not sure enough to present a solution
// as certain: the user should check it on the page.
type Doubt struct {
	Cell   int    // row-major index
	Value  int    // the value read (0 = empty)
	Alt    int    // a value that also fits the rules with a unique solution, or -1
	Reason string // in words, e.g. "read 7 (p=0.97); 9 (p=0.0001) also gives a unique solution"
}

// Reading is what Read makes of a grid's cells.
type Reading struct {
	// Given is the puzzle as read after corrections (0 = empty).
	Given sudoku.Grid
	// Symbols is how the page writes values above 9 (numbers, letters or
	// 0..F), as Read judged from the glyphs; sudoku.Numbers for grids up to
	// 9×9.
	Symbols sudoku.Symbols
	// Prob holds, per cell, the probabilities of the values 0..N (index 0 =
	// empty) under the page's Symbols, or nil for a cell vision found empty
	// and gave no pixels for.
	Prob [][]float32
	// Conf is, per cell, how sure the reading is of the value in Given:
	// the model's (calibrated) probability, or for a cell the search
	// changed, its share of the probability of the uniquely solvable
	// readings found, but at most the new value's probability over that
	// of the value read (the search does not see every reading, so the
	// only unique one it finds may still be wrong). 1 for cells vision
	// found empty without ink.
	Conf []float32
	// Changes lists the corrections, in the order they were made.
	Changes []Change
	// Solutions is how many solutions Given has: 0, 1, or 2 meaning "two or
	// more" (all real puzzles have exactly one).
	Solutions int
	// Doubt lists the cells to check before the solution can be trusted:
	// givens below CheckBelow, givens with another value that also gives a
	// unique solution, and the cells where a nearly as likely reading with
	// a unique solution differs. Empty for a certain reading.
	Doubt []Doubt
	// Turns is how many quarter turns clockwise the cell images were turned
	// to read the digits upright: 0 unless the page was photographed
	// sideways (1 or 3) or upside down (2). Given keeps the photo's layout
	// either way (a turned Sudoku is a Sudoku with the same solution, turned).
	Turns int
	// Tries is how many readings the search evaluated (0 when the first
	// reading was unique and no alternative needed a look).
	Tries int
	// Kinds says per cell what it holds (see Kind), KindConf how sure the
	// reader is of that kind. Given holds the printed digits only.
	Kinds    []Kind
	KindConf []float32
	// Entries holds per cell the handwritten digit (0 = none), read
	// without looking at the solution, and EntryConf its probability.
	Entries   []int
	EntryConf []float32
	// EntryProb holds, per cell read as handwritten, the probabilities of
	// the digits 1..N among handwritten digits (index 0 unused), so that
	// a check can weigh the digit a solution expects; nil elsewhere.
	EntryProb [][]float32
}

// Certain reports whether the reading may be presented as solved: exactly
// one solution and nothing to check.
func (r Reading) Certain() bool { return r.Solutions == 1 && len(r.Doubt) == 0 }

// Read reads the cells of a grid of the given shape (shape.N()² cells in
// row-major order, as vision cuts them) and makes the result consistent:
// classify the inked and faint cells in one batch (above 9×9, under the
// symbol convention the glyphs fit best); read unsure cells' Looks; turn
// the page when unsure; repair to the likeliest rule-abiding unique reading
// (Changes; see Settings); second-look unsure cells from Half; list unsure
// givens in Doubt. An unsolvable grid is not an error. Errors: wrapped
// ErrGridTooLarge, *InputError for bad cells, the classifier's errors.
func Read(c Classifier, shape sudoku.Shape, cells []vision.Cell) (Reading, error) {
	return ReadWith(c, shape, cells, DefaultSettings)
}

// ReadWith is Read with other thresholds (for measuring their effect).
func ReadWith(c Classifier, shape sudoku.Shape, cells []vision.Cell, set Settings) (Reading, error) {
	n := shape.N()
	if shape.BoxRows <= 0 || shape.BoxCols <= 0 {
		return Reading{}, fmt.Errorf("read grid: bad box shape %v", shape)
	}
	if n > MaxGlyphSide || (n > MaxSide && glyphCount(c) < NumGlyphs) {
		return Reading{}, fmt.Errorf("read %v grid (%d×%d): %w", shape, n, n, ErrGridTooLarge)
	}
	if len(cells) != n*n {
		return Reading{}, &InputError{Cell: len(cells), Reason: fmt.Sprintf("%d cells for a %d×%d grid", len(cells), n, n)}
	}
	if set.Pen != nil && n == 9 {
		return readPenPage(c, shape, cells, set)
	}
	var batch [][]float32
	var index []int  // cell of each batch entry
	var inked []bool // the entry is a cell vision found ink in (not faint)
	for i, cell := range cells {
		if cell.Row != i/n || cell.Col != i%n {
			return Reading{}, &InputError{Cell: i, Reason: fmt.Sprintf("cell at r%dc%d, want r%dc%d (row-major order)", cell.Row+1, cell.Col+1, i/n+1, i%n+1)}
		}
		if !cell.Empty || len(cell.Pixels) == CellLen {
			batch = append(batch, cell.Pixels)
			index = append(index, i)
			inked = append(inked, !cell.Empty)
		}
	}
	probs, err := classify(c, batch)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.Cell < len(index) {
			i := index[ie.Cell]
			return Reading{}, &InputError{Cell: i, Reason: fmt.Sprintf("r%dc%d: %s", i/n+1, i%n+1, ie.Reason)}
		}
		return Reading{}, err
	}
	turns := 0
	if doubtful(probs, index, inked, shape) {
		// Maybe the page is turned: read the cells turned each other way
		// (one batch) and keep the turn the model is surest about.
		var turned [][]float32
		for k := 1; k < 4; k++ {
			for _, px := range batch {
				turned = append(turned, TurnCell(px, k))
			}
		}
		more, err := classify(c, turned)
		if err != nil {
			return Reading{}, err
		}
		best := sureness(probs, inked)
		for k := 1; k < 4; k++ {
			p := more[(k-1)*len(batch) : k*len(batch)]
			if s := sureness(p, inked); s > best {
				best, probs, turns = s, p, k
			}
		}
	}
	looked, err := reread(c, probs, cells, index, nil, turns, set.SecondLook, allViews, "more looks")
	if err != nil {
		return Reading{}, err
	}
	first := resolve(probs, index, inked, shape, turns, set)
	if set.SecondLook <= 0 || first.Certain() && minGiven(first) >= set.LookCertainBelow {
		return first, nil
	}
	again, err := reread(c, probs, cells, index, looked, turns, set.SecondLook, halfView, "second look")
	if err != nil {
		return Reading{}, err
	}
	if again == nil {
		return first, nil
	}
	return resolve(probs, index, inked, shape, turns, set), nil
}

// minGiven is the confidence of the least sure given of r (1 when none).
func minGiven(r Reading) float64 {
	least := float32(1)
	for i, v := range r.Given.Cells {
		if v != 0 {
			least = min(least, r.Conf[i])
		}
	}
	return float64(least)
}

// resolve turns the batch's glyph probabilities (probs[k] for cell
// index[k], inked[k] when vision found ink there) into a repaired and
// checked Reading.
func resolve(probs [][]float32, index []int, inked []bool, shape sudoku.Shape, turns int, set Settings) Reading {
	n := shape.N()
	r := Reading{Given: sudoku.NewGrid(shape), Prob: make([][]float32, n*n), Conf: make([]float32, n*n), Turns: turns}
	r.Symbols = chooseSymbols(probs, n)
	glyphs := ValueGlyphs(r.Symbols, n)
	for i := range r.Conf {
		r.Conf[i] = 1
	}
	var faint []int
	for k, i := range index {
		r.Prob[i] = valueProbs(probs[k], glyphs)
		if !inked[k] {
			faint = append(faint, i)
		}
	}
	res := newResolver(&r, faint, set)
	res.repair()
	res.confirmFaint()
	res.check()
	setKinds(&r)
	return r
}

// The views reread reads a cell through: halfView for the second look,
// allViews for the cells vision cut several ways (vision.Cell.Looks:
// small cells).
func halfView(cell vision.Cell) [][]float32 { return [][]float32{cell.Half} }

func allViews(cell vision.Cell) [][]float32 {
	if len(cell.Looks) == 0 {
		return nil
	}
	return append([][]float32{cell.Half}, cell.Looks...)
}

// reread reads again, in one batch and turned like the rest, the entries
// below `below` that done (nil: none) does not mark, through the views
// views gives, and replaces each one's probabilities by the normalised
// geometric mean of its readings (geoMean): the binarised and half-way
// cuts err on different cells, so agreement is surer and disagreement
// less sure. It reports which entries it combined (nil when none). what
// names the look in errors.
func reread(c Classifier, probs [][]float32, cells []vision.Cell, index []int, done []bool, turns int, below float64,
	views func(vision.Cell) [][]float32, what string) ([]bool, error) {
	var batch [][]float32
	var which []int
	for k, p := range probs {
		if done != nil && done[k] || float64(max32(p)) >= below {
			continue
		}
		for _, v := range views(cells[index[k]]) {
			if len(v) == CellLen {
				batch = append(batch, TurnCell(v, turns))
				which = append(which, k)
			}
		}
	}
	if len(batch) == 0 {
		return nil, nil
	}
	more, err := classify(c, batch)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	looked := make([]bool, len(probs))
	for j := 0; j < len(which); {
		k := which[j]
		all := [][]float32{probs[k]}
		for ; j < len(which) && which[j] == k; j++ {
			all = append(all, more[j])
		}
		if m := geoMean(all); m != nil {
			probs[k] = m
			looked[k] = true
		}
	}
	return looked, nil
}

// geoMean is the normalised geometric mean of several readings of one
// cell (probabilities over the same classes), or nil when they share no
// class.
func geoMean(all [][]float32) []float32 {
	m := make([]float64, len(all[0]))
	for v := range m {
		logSum := 0.0
		for _, p := range all {
			if v >= len(p) || p[v] <= 0 {
				logSum = math.Inf(-1)
				break
			}
			logSum += math.Log(float64(p[v]))
		}
		m[v] = math.Exp(logSum / float64(len(all)))
	}
	var sum float64
	for _, x := range m {
		sum += x
	}
	if sum <= 0 {
		return nil
	}
	out := make([]float32, len(m))
	for v := range m {
		out[v] = float32(m[v] / sum)
	}
	return out
}

func max32(p []float32) float32 {
	var m float32
	for _, v := range p {
		m = max(m, v)
	}
	return m
}

// glyphCount is how many glyph classes c's model has: Glyphs() when the
// classifier tells, else the ten of the first models.
func glyphCount(c Classifier) int {
	if g, ok := c.(interface{ Glyphs() int }); ok {
		return g.Glyphs()
	}
	return Classes
}

// chooseSymbols picks the convention under which the cells' glyphs are
// most likely: the sum over cells of the log of the probability mass the
// convention's glyphs (and "empty") hold. Grids up to 9×9 use digits.
func chooseSymbols(probs [][]float32, n int) sudoku.Symbols {
	if n <= 9 {
		return sudoku.Numbers
	}
	best, bestLL := sudoku.Numbers, math.Inf(-1)
	for _, s := range sudoku.AllSymbols {
		g := ValueGlyphs(s, n)
		if g == nil {
			continue
		}
		ll := 0.0
		for _, p := range probs {
			var mass float64
			for _, k := range g {
				if k < len(p) {
					mass += float64(p[k])
				}
			}
			ll += math.Log(mass + 1e-9)
		}
		if ll > bestLL {
			best, bestLL = s, ll
		}
	}
	return best
}

// valueProbs turns one cell's glyph probabilities into the probabilities
// of the values 0..N under the page's convention, renormalised over them.
func valueProbs(p []float32, glyphs []int) []float32 {
	q := make([]float32, len(glyphs))
	var sum float64
	for v, k := range glyphs {
		if k < len(p) {
			q[v] = p[k]
			sum += float64(p[k])
		}
	}
	if sum > 0 {
		for v := range q {
			q[v] = float32(float64(q[v]) / sum)
		}
	}
	return q
}

// classify runs the classifier and checks the result's length.
func classify(c Classifier, batch [][]float32) ([][]float32, error) {
	probs, err := c.Classify(batch)
	if err != nil {
		return nil, fmt.Errorf("classify %d cells: %w", len(batch), err)
	}
	if len(probs) != len(batch) {
		return nil, fmt.Errorf("classifier returned %d results for %d cells", len(probs), len(batch))
	}
	return probs, nil
}

// doubtfulConf is the mean top digit probability below which a reading may
// come from a turned page. Upright readings of printed digits score above
// 0.97; turned digits are often called "empty" with confidence, so class 0
// does not count.
const doubtfulConf = 0.9

// doubtful reports whether an upright reading looks wrong: unsure of the
// glyphs in the cells vision found ink in, on average, or with digits that
// break the rules (read as 1..9, the glyphs every grid shares).
func doubtful(probs [][]float32, index []int, inked []bool, shape sudoku.Shape) bool {
	n := shape.N()
	g := sudoku.NewGrid(shape)
	var sum float64
	count := 0
	for k, p := range probs {
		if !inked[k] {
			continue
		}
		best, glyph := 0, 1
		for v := range p {
			if p[v] > p[best] {
				best = v
			}
			if v > 0 && p[v] > p[glyph] {
				glyph = v
			}
		}
		if best <= min(n, 9) {
			g.Cells[index[k]] = best
		}
		sum += float64(p[glyph])
		count++
	}
	if count == 0 {
		return false
	}
	return sum/float64(count) < doubtfulConf || len(sudoku.Validate(g)) > 0
}

// sureness is the mean log of the top glyph probability of the cells vision
// found ink in. Class 0 is left out: vision saw ink in these cells, and a
// model that calls a turned digit "empty" is not sure of any glyph.
func sureness(probs [][]float32, inked []bool) float64 {
	var sum float64
	count := 0
	for k, p := range probs {
		if !inked[k] {
			continue
		}
		best := float32(0)
		for _, v := range p[1:] {
			best = max(best, v)
		}
		sum += math.Log(float64(best) + 1e-12)
		count++
	}
	if count == 0 {
		return 0
	}
	return sum / float64(count)
}

// TurnCell returns a copy of a CellSize×CellSize image turned a quarter turn
// clockwise k times (k may be 0..3).
func TurnCell(px []float32, k int) []float32 {
	const s = vision.CellSize
	out := append([]float32(nil), px...)
	if len(px) != s*s {
		return out
	}
	for ; k%4 > 0; k-- {
		src := append([]float32(nil), out...)
		for r := 0; r < s; r++ {
			for c := 0; c < s; c++ {
				out[r*s+c] = src[(s-1-c)*s+r]
			}
		}
	}
	return out
}

// Guess is one class of a cell with its probability.
type Guess struct {
	Class int // 0 = empty, then the value (Reading.Prob) or glyph (Classify)
	P     float32
}

// Top returns the k most likely classes of one cell's probabilities (as in
// Reading.Prob), most likely first; nil for an unclassified cell.
func Top(prob []float32, k int) []Guess {
	if prob == nil || k <= 0 {
		return nil
	}
	out := make([]Guess, len(prob))
	for v, p := range prob {
		out[v] = Guess{v, p}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].P > out[b].P })
	return out[:min(k, len(out))]
}
