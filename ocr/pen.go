package ocr

import (
	"errors"
	"fmt"
	"strings"

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
	switch strings.ToLower(backend) {
	case "", BackendGo, "onnx-go":
		c, err := newGo(data, k, in)
		if err != nil {
			return nil, err
		}
		return c, nil
	case BackendOpenCV:
		c, err := newOpenCV(data, k, in)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	return nil, fmt.Errorf("ocr backend %q unknown (want %q or %q)", backend, BackendGo, BackendOpenCV)
}

// DefaultPen runs the pen model embedded in package models
// (models/pen.onnx) with the named backend.
func DefaultPen(backend string) (Classifier, error) {
	c, err := NewPen(models.Pen(), backend)
	var me *ModelError
	if errors.As(err, &me) && me.File == "" {
		me.File = "models/pen.onnx (embedded)"
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

// penCell is the pen model's verdict on one cell.
type penCell struct {
	kind      Kind
	conf      float32
	digit     int
	digitConf float32
}

// readPen classifies the kinds of every cell with ink (one batch).
func readPen(pen Classifier, cells []vision.Cell, n int) ([]penCell, error) {
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
		return out, nil
	}
	probs, err := classify(pen, batch)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.Cell < len(index) {
			i := index[ie.Cell]
			return nil, &InputError{Cell: i, Reason: fmt.Sprintf("pen model, r%dc%d: %s", i/n+1, i%n+1, ie.Reason)}
		}
		return nil, fmt.Errorf("pen model: %w", err)
	}
	for k, i := range index {
		kind, kc, d, dc := PenDecide(probs[k])
		out[i] = penCell{kind: kind, conf: kc, digit: d, digitConf: dc}
	}
	return out, nil
}

// penOnly reports whether a kind is never a given.
func penOnly(k Kind) bool { return k == KindHand || k == KindNotes || k == KindUnclear }

// readPenPage reads a 9×9 page with the pen model: the cells it calls
// handwritten, notes or unclear are taken out of the printed reading (as
// if vision had found them blank, so neither the reading nor its repair
// can make them givens), the rest are read as Read does, and the kinds
// and entries are filled in from the pen model.
func readPenPage(c Classifier, shape sudoku.Shape, cells []vision.Cell, set Settings) (Reading, error) {
	n := shape.N()
	kinds, err := readPen(set.Pen, cells, n)
	if err != nil {
		return Reading{}, err
	}
	printed := make([]vision.Cell, len(cells))
	for i, cell := range cells {
		printed[i] = cell
		if penOnly(kinds[i].kind) {
			printed[i] = vision.Cell{Row: cell.Row, Col: cell.Col, Empty: true}
		}
	}
	set.Pen = nil
	r, err := ReadWith(c, shape, printed, set)
	if err != nil {
		return r, err
	}
	for i, k := range kinds {
		if !penOnly(k.kind) {
			continue
		}
		r.Kinds[i], r.KindConf[i] = k.kind, k.conf
		if k.kind == KindHand {
			r.Entries[i], r.EntryConf[i] = k.digit, k.digitConf
		}
	}
	return r, nil
}
