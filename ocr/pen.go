package ocr

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/sudokuar/sudokuar/models"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// The pen model's classes (models/pen.onnx): what ink a cell holds. Class
// PenHand0+d is a handwritten digit d (1..9).
const (
	PenEmpty   = 0
	PenPrinted = 1
	PenHand0   = 1
	PenNotes   = 11
	PenUnclear = 12
	PenClasses = 13
)

// PenViews is how many views of a cell the pen model reads, stacked:
// vision.Cell.Pixels (the ink framed as MNIST), vision.Cell.View (the
// whole cell, the ink at its own size and place) and vision.Cell.Grey
// (the grey ink framed as Pixels). PenLen is the floats of one pen input.
const (
	PenViews = 3
	PenLen   = PenViews * CellLen
)

// NewPen runs the pen model in data with the named backend (as New). Its
// Classify takes PenLen floats per cell (see PenInput) and returns
// PenClasses probabilities. A model that is not a pen model (another
// number of views or classes) gives a *ModelError.
func NewPen(data []byte, backend string) (Classifier, error) {
	k, in, err := validateGraph(data)
	if err != nil {
		return nil, err
	}
	if in != PenViews || k != PenClasses {
		return nil, &ModelError{Err: fmt.Errorf("model reads %d views into %d classes; a pen model reads %d into %d", in, k, PenViews, PenClasses)}
	}
	return open(data, k, in, backend)
}

// DefaultPen runs the pen models embedded in package models with the
// named backend: models/pen.onnx on every cell, and where it is not sure
// at EntrySureAt or reads a sure entry (PenSure) the mean of it and
// models/pen2.onnx, trained alike from another seed. The two err on
// different cells, so their mean errs less where either hesitates, and an
// entry stays sure only when the second agrees (PenKindOf); asking the
// second only there keeps its cost to a fraction of a page
// (models/README.md, "The second pen model").
func DefaultPen(backend string) (Classifier, error) {
	first, err := embeddedPen(models.Pen(), "models/pen.onnx", backend)
	if err != nil {
		return nil, err
	}
	second, err := embeddedPen(models.PenSecond(), "models/pen2.onnx", backend)
	if err != nil {
		_ = CloseClassifier(first)
		return nil, err
	}
	return MeanWhereUnsure(first, PenSure(EntrySureAt), PenKindOf, second)
}

// embeddedPen runs an embedded pen model, naming it in a *ModelError.
func embeddedPen(data []byte, name, backend string) (Classifier, error) {
	c, err := NewPen(data, backend)
	var me *ModelError
	if errors.As(err, &me) && me.File == "" {
		me.File = name + " (embedded)"
	}
	return c, err
}

// PenInput is the pen model's input for a cell: its Pixels, View and
// Grey (zeros for a view vision left nil).
func PenInput(c vision.Cell) []float32 {
	x := make([]float32, PenLen)
	for k, v := range [][]float32{c.Pixels, c.View, c.Grey} {
		if len(v) == CellLen {
			copy(x[k*CellLen:], v)
		}
	}
	return x
}

// PenLooks reports whether the pen model reads a cell: vision found ink
// there, a digit or faint ink it called empty.
func PenLooks(c vision.Cell) bool {
	return !c.Empty || len(c.Pixels) == CellLen || len(c.View) == CellLen
}

// PenDecide turns the pen model's class probabilities into a kind and its
// probability (the handwritten classes summed), and for a handwritten
// digit the digit and its probability among 1..9.
func PenDecide(p []float32) (kind Kind, kindConf float32, digit int, digitConf float32) {
	if len(p) != PenClasses {
		return KindUnclear, 0, 0, 0
	}
	var hand float32
	best := 1
	for d := 1; d <= 9; d++ {
		hand += p[PenHand0+d]
		if p[PenHand0+d] > p[PenHand0+best] {
			best = d
		}
	}
	kinds := [...]struct {
		k Kind
		p float32
	}{{KindEmpty, p[PenEmpty]}, {KindPrinted, p[PenPrinted]}, {KindHand, hand}, {KindNotes, p[PenNotes]}, {KindUnclear, p[PenUnclear]}}
	top := kinds[0]
	for _, k := range kinds[1:] {
		if k.p > top.p {
			top = k
		}
	}
	if top.k != KindHand {
		return top.k, top.p, 0, 0
	}
	return KindHand, hand, best, p[PenHand0+best] / hand
}

// PenSure returns the rule by which a pen model's reading p is sure at
// at: its kind read at at or more, and not a handwritten digit read at at
// or more. Such an entry could be called wrong, and a second opinion is
// asked about it (PenKindOf): one model alone read struck-through and
// overwritten digits as sure entries.
func PenSure(at float32) func(p []float32) bool {
	return func(p []float32) bool {
		kind, kc, _, dc := PenDecide(p)
		return kc >= at && (kind != KindHand || dc < at)
	}
}

// PenKindOf is a pen reading whose kinds are those of mean (several
// models' mean) and whose handwritten digits share its handwritten mass
// as first reads them: on the calibration pages the mean settled the
// kind better than any one model, and the digits worse than the first
// (models/README.md, "The second pen model"). Where the mean's
// handwritten share reaches EntrySureAt and the others' (every model but
// the first) does not, the handwritten share is theirs and the rest is
// shared as the mean shares it: an entry is sure only when a second
// opinion agrees.
func PenKindOf(first, others, mean []float32) []float32 {
	if len(first) != PenClasses || len(mean) != PenClasses {
		return mean
	}
	out := append([]float32(nil), mean...)
	hf, hm := handShare(first), handShare(mean)
	if hf <= 0 {
		return out
	}
	if len(others) == PenClasses && hm >= EntrySureAt {
		if ho := handShare(others); ho < EntrySureAt {
			for j := range out {
				out[j] *= (1 - ho) / max(1-hm, 1e-9)
			}
			hm = ho
		}
	}
	for d := 1; d <= 9; d++ {
		out[PenHand0+d] = hm * first[PenHand0+d] / hf
	}
	return out
}

// handDigits is p's distribution of the digits 1..9 among handwritten
// digits (index 0 unused), as Reading.EntryProb holds it.
func handDigits(p []float32) []float32 {
	out := make([]float32, 10)
	hand := handShare(p)
	if hand <= 0 {
		return out
	}
	for d := 1; d <= 9; d++ {
		out[d] = p[PenHand0+d] / hand
	}
	return out
}

// penCell is the pen model's verdict on one cell.
type penCell struct {
	kind      Kind
	conf      float32
	digit     int
	digitConf float32
	digits    []float32 // a handwritten digit's EntryProb
}

// penViews are the pen inputs of a cell: PenInput, and the same with
// Pixels replaced by each other cut vision made of the ink (Cell.Half,
// Cell.Looks), so the binarisation's closed loops and thickened strokes
// are not the only look at a handwritten digit.
func penViews(c vision.Cell) [][]float32 {
	views := [][]float32{PenInput(c)}
	for _, v := range append([][]float32{c.Half}, c.Looks...) {
		if len(v) == CellLen {
			x := PenInput(c)
			copy(x, v)
			views = append(views, x)
		}
	}
	return views
}

// readPen classifies the kinds of every cell with ink (one batch), and
// reads the handwritten digits it read least surely (penViewsBelow) again
// through the other views penViews gives (a second batch), the readings
// combined by combinePen (as reread combines a printed digit's views).
// It returns the verdicts and the probabilities they came from (nil for
// cells without ink).
func readPen(pen Classifier, cells []vision.Cell, n int) ([]penCell, [][]float32, error) {
	out := make([]penCell, len(cells))
	var batch [][]float32
	var index []int
	for i, c := range cells {
		out[i] = penCell{kind: KindEmpty, conf: 1}
		if PenLooks(c) {
			batch = append(batch, PenInput(c))
			index = append(index, i)
		}
	}
	if len(batch) == 0 {
		return out, make([][]float32, len(cells)), nil
	}
	probs, err := classifyPen(pen, batch, index, n)
	if err != nil {
		return nil, nil, err
	}
	// combinePen changes only a handwritten digit: other kinds and
	// digits read at penViewsBelow or more are not read again, and the
	// least sure first, up to penViewsMost views a page.
	var unsure []int
	for k := range index {
		if kind, _, _, dc := PenDecide(probs[k]); kind == KindHand && dc < penViewsBelow {
			unsure = append(unsure, k)
		}
	}
	slices.SortStableFunc(unsure, func(a, b int) int {
		_, _, _, da := PenDecide(probs[a])
		_, _, _, db := PenDecide(probs[b])
		return cmp.Compare(da, db)
	})
	var more [][]float32
	var which, cellOf []int
	for _, k := range unsure {
		views := penViews(cells[index[k]])[1:]
		if len(more)+len(views) > penViewsMost {
			break
		}
		for _, v := range views {
			more = append(more, v)
			which = append(which, k)
			cellOf = append(cellOf, index[k])
		}
	}
	if len(more) > 0 {
		// The views change only a handwritten digit, and a second
		// opinion only the kind (PenKindOf): the first model reads them.
		extra, err := classifyPen(firstOpinion(pen), more, cellOf, n)
		if err != nil {
			return nil, nil, err
		}
		for j := 0; j < len(which); {
			k := which[j]
			all := [][]float32{probs[k]}
			for ; j < len(which) && which[j] == k; j++ {
				all = append(all, extra[j])
			}
			probs[k] = combinePen(all)
		}
	}
	cellProbs := make([][]float32, len(cells))
	for k, i := range index {
		kind, kc, d, dc := PenDecide(probs[k])
		out[i] = penCell{kind: kind, conf: kc, digit: d, digitConf: dc}
		if kind == KindHand {
			out[i].digits = handDigits(probs[k])
		}
		cellProbs[i] = probs[k]
	}
	return out, cellProbs, nil
}

// settledSureMost caps the probability of a kind that a rule of the
// whole page changed (the typeface, the ink's colour, the givens'
// symmetry): below EntrySureAt, so such an entry is never called wrong.
const settledSureMost = 0.99

// penViewsBelow: readPen reads a handwritten digit again through its
// other views only when the first view gives it less than this. On the
// calibration pages the views changed no digit read at it or above
// (models/README.md, pen section), and each view read again costs as much
// as a cell of the first batch.
const penViewsBelow = 0.9

// penViewsMost caps the views read again on a page, so that a full page
// and its second batch cost about what the budget of one 81-cell batch
// allows (BenchmarkPen, docs/performance.md).
const penViewsMost = 24

// classifyPen runs the pen model on batch, naming in errors the cell
// (cellOf maps batch entries to cells of an n×n page).
func classifyPen(pen Classifier, batch [][]float32, cellOf []int, n int) ([][]float32, error) {
	probs, err := classify(pen, batch)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.Cell < len(cellOf) {
			i := cellOf[ie.Cell]
			return nil, &InputError{Cell: i, Reason: fmt.Sprintf("pen model, r%dc%d: %s", i/n+1, i%n+1, ie.Reason)}
		}
		return nil, fmt.Errorf("pen model: %w", err)
	}
	return probs, nil
}

// combinePen combines a cell's readings through its views (the first
// through PenInput). The kind stays the first view's: the other cuts are
// views the model was not trained on, and letting them change the kind
// turned handwriting into printed digits or notes (TestPenPagesSplit). For
// a handwritten digit whose normalised geometric mean over the views
// names another digit, the mean stands (the views disagree, and it is
// rarely sure); otherwise the first view's reading stands, its sureness
// being what EntrySureAt was calibrated on.
func combinePen(all [][]float32) []float32 {
	m := geoMean(all)
	if len(all) == 1 || m == nil {
		return all[0]
	}
	k1, _, d1, _ := PenDecide(all[0])
	k2, _, d2, _ := PenDecide(m)
	if k1 != k2 || d1 == d2 {
		return all[0]
	}
	return m
}

// readPenPage reads a 9×9 page with the pen model: the cells it calls
// handwritten, notes or unclear are taken out of the printed reading (as
// if vision had found them blank, so neither the reading nor its repair
// can make them givens), the rest are read as Read does, and the kinds
// and entries are filled in from the pen model. Where the pen model
// hesitates between printed and handwritten, the page's typeface decides
// (byTypeface), and the page is read again if that changed a kind; so it
// is when a cell read printed has the ink of the player's pen (byTint)
// and when one pair of cells breaks the givens' symmetry (bySymmetry).
func readPenPage(c Classifier, shape sudoku.Shape, cells []vision.Cell, set Settings) (Reading, error) {
	kinds, probs, err := readPen(set.Pen, cells, shape.N())
	if err != nil {
		return Reading{}, err
	}
	set.Pen = nil
	c = &remembered{c: c, seen: map[*float32][]float32{}}
	r, err := readPrinted(c, shape, cells, kinds, set)
	if err != nil {
		return r, err
	}
	if typed, changed := byTypeface(cells, kinds, probs, r.Given.Cells); changed {
		kinds = typed
		if r, err = readPrinted(c, shape, cells, kinds, set); err != nil {
			return r, err
		}
	}
	if r, kinds, err = byTint(c, shape, cells, kinds, set, r); err != nil {
		return r, err
	}
	if r, kinds, err = bySymmetry(c, shape, cells, kinds, probs, set, r); err != nil {
		return r, err
	}
	if r.Solutions > 1 {
		return promoteForUnique(c, shape, cells, kinds, probs, set, r)
	}
	return r, nil
}

// remembered is a Classifier that keeps what c said of each image (by its
// backing array), so that the reads again of one page classify only what
// they had not: one per page, whose images do not change meanwhile.
type remembered struct {
	c    Classifier
	seen map[*float32][]float32
}

func (m *remembered) Classify(cells [][]float32) ([][]float32, error) {
	out := make([][]float32, len(cells))
	var miss [][]float32
	var at []int
	for i, x := range cells {
		if p, ok := m.seen[first(x)]; ok && len(x) > 0 {
			out[i] = slices.Clone(p)
			continue
		}
		miss = append(miss, x)
		at = append(at, i)
	}
	if len(miss) == 0 {
		return out, nil
	}
	probs, err := m.c.Classify(miss)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.Cell >= 0 && ie.Cell < len(at) {
			return nil, &InputError{Cell: at[ie.Cell], Reason: ie.Reason}
		}
		return nil, err
	}
	if len(probs) != len(miss) {
		return nil, fmt.Errorf("classifier returned %d results for %d cells", len(probs), len(miss))
	}
	for k, i := range at {
		out[i] = probs[k]
		if len(miss[k]) > 0 {
			m.seen[first(miss[k])] = slices.Clone(probs[k])
		}
	}
	return out, nil
}

// Glyphs is the wrapped classifier's glyph count (see glyphCount).
func (m *remembered) Glyphs() int { return glyphCount(m.c) }

// first is the address of x's first value, nil for an empty x.
func first(x []float32) *float32 {
	if len(x) == 0 {
		return nil
	}
	return &x[0]
}

// Promoting a cell read as handwritten to a given: only when the givens
// have several solutions, for the promoteMost cells most likely printed
// (at promoteFrom or more), and only when the digit model reads it as
// the digit the pen model does.
const (
	promoteFrom = 0.05
	promoteMost = 3
)

// onlyAt reports whether after differs from before in the cells at only.
func onlyAt(before, after []int, at ...int) bool {
	for j := range before {
		if !slices.Contains(at, j) && before[j] != after[j] {
			return false
		}
	}
	return true
}

// promoteForUnique reads a page whose givens have several solutions (r)
// again with a cell read as handwritten taken as printed, the cells most
// likely printed first, and keeps the first reading that has one
// solution and no other given changed: a printed digit read as
// handwriting leaves the puzzle short of a given, and a newspaper puzzle
// has one solution. The promoted given stays in doubt ("check rXcY": it
// may be the player's ink) and its probabilities are weighed by its
// kind's. r stands when no promotion gives one solution.
func promoteForUnique(c Classifier, shape sudoku.Shape, cells []vision.Cell, kinds []penCell, probs [][]float32, set Settings, r Reading) (Reading, error) {
	var cands []int
	for i, k := range kinds {
		if k.kind == KindHand && probs[i] != nil && printedShare(probs[i]) >= promoteFrom {
			cands = append(cands, i)
		}
	}
	slices.SortStableFunc(cands, func(a, b int) int { return cmp.Compare(printedShare(probs[b]), printedShare(probs[a])) })
	for _, i := range cands[:min(len(cands), promoteMost)] {
		try := slices.Clone(kinds)
		share := printedShare(probs[i])
		try[i] = penCell{kind: KindPrinted, conf: share}
		p, err := readPrinted(c, shape, cells, try, set)
		if err != nil {
			return r, err
		}
		if p.Solutions != 1 || p.Given.Cells[i] != kinds[i].digit || !onlyAt(r.Given.Cells, p.Given.Cells, i) {
			continue
		}
		d := kinds[i].digit
		inDoubt(&p, i, share, fmt.Sprintf("read as handwritten %d (printed p=%.2f); as a printed %d the givens have one solution", d, share, d))
		return p, nil
	}
	return r, nil
}

// readPrinted reads the cells kinds does not call ink as printed digits,
// and fills in the kinds and entries of the others from kinds.
func readPrinted(c Classifier, shape sudoku.Shape, cells []vision.Cell, kinds []penCell, set Settings) (Reading, error) {
	printed := make([]vision.Cell, len(cells))
	for i, cell := range cells {
		printed[i] = cell
		if kinds[i].kind.Ink() {
			printed[i] = vision.Cell{Row: cell.Row, Col: cell.Col, Empty: true}
		}
	}
	set.entries = make([][]float32, len(cells))
	for i, k := range kinds {
		if k.kind == KindHand {
			set.entries[i] = k.digits
		}
	}
	r, err := ReadWith(c, shape, printed, set)
	if err != nil {
		return r, err
	}
	for i, k := range kinds {
		if !k.kind.Ink() {
			continue
		}
		r.Kinds[i], r.KindConf[i] = k.kind, k.conf
		if k.kind == KindHand {
			r.Entries[i], r.EntryConf[i], r.EntryProb[i] = k.digit, k.digitConf, k.digits
		}
	}
	return r, nil
}
