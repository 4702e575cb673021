package main

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/sudokuar/sudokuar/internal/mnist"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// penPage is a held-out pen-filled page cut as scan cuts it, with its
// truth in the photo's layout.
type penPage struct {
	name     string
	shape    sudoku.Shape
	cells    []vision.Cell
	dat, pen sudoku.Grid // printed and handwritten truth (0 = none)
	solution sudoku.Grid // of the printed truth
	turns    int         // quarter turns clockwise from upright to the photo
	cellPx   float64     // a cell's side in the picture read (pipeline.Pen.CellPx)
	err      error
}

// penFigures are the pen mode's measurements over a set of pages.
type penFigures struct {
	pages, cut, exact, cells, cellsOK               int
	handToPrinted, printedToOther, handWrong        int
	handCells, handSure, notes, unclear, emptyToInk int
	shown, wrongShown                               int
	handWrongSure                                   int
	surestWrong                                     float32
	falseAlarms, wrongEntries, flagged, missedWrong int
	misses                                          []string
	// leastRight is, per tier of the kind's probability (kindTiers), the
	// least probability the reader gave the true digit of a right entry
	// read as handwritten: what pipeline's wrong-entry bars must stay under.
	leastRight [len(kindTiers)]float32
	rightIn    [len(kindTiers)]int
}

// kindTiers are the kind's probabilities the wrong-entry figures are
// told apart by, surest first: pipeline calls an entry wrong only in the
// first (pipeline.EntryWrongWould).
var kindTiers = [...]float32{ocr.EntrySureAt, 0.9, 0}

// tierOf is the index in kindTiers of a kind read at p.
func tierOf(p float32) int {
	for t, at := range kindTiers {
		if p >= at {
			return t
		}
	}
	return len(kindTiers) - 1
}

// cutPenPage cuts a pen-filled photo (any grid size, as scan does),
// shrunk by scale when under 1 (cutPhotoAt), and turns its truth like its
// v2 twin's (the page without handwriting).
func cutPenPage(d detectors, path string, scale float64) penPage {
	p := cutPhotoAt(d.any, path, scale)
	pg := penPage{name: p.name, shape: p.shape, cells: p.cells, err: p.err}
	if p.cells == nil {
		return pg
	}
	pg.cellPx = pipeline.CellPx(pipeline.Corners(vision.Grid{Corners: p.corners}), p.shape.N())
	twin := cutPhoto(d.any, strings.Replace(path, "wicht-mixed-train", "wicht-v2-train", 1))
	turns := 0
	if twin.cells != nil {
		turns = bestTurns(&twin)[0]
	}
	pen, err := sudoku.ReadDatFile(strings.TrimSuffix(path, ".jpg") + ".pen")
	if err != nil {
		pg.err = err
		return pg
	}
	pg.dat, pg.pen, pg.turns = p.truth.Turn(turns), pen.Turn(turns), turns
	if pg.solution, err = sudoku.Solve(pg.dat); err != nil {
		pg.err = fmt.Errorf("truth: %w", err)
	}
	return pg
}

// swapped returns a copy of pg with two handwritten cells of different
// digits exchanged (cut and truth): two wrong entries, at the cells it
// returns.
func (pg penPage) swapped(rng *rand.Rand) (penPage, []int) {
	var hand []int
	for i, v := range pg.pen.Cells {
		if v > 0 {
			hand = append(hand, i)
		}
	}
	for try := 0; try < 100 && len(hand) > 1; try++ {
		a, b := hand[rng.Intn(len(hand))], hand[rng.Intn(len(hand))]
		if pg.pen.Cells[a] == pg.pen.Cells[b] {
			continue
		}
		q := pg
		q.cells = append([]vision.Cell(nil), pg.cells...)
		q.pen = sudoku.Grid{Shape: pg.pen.Shape, Cells: append([]int(nil), pg.pen.Cells...)}
		ca, cb := q.cells[a], q.cells[b]
		ca.Row, ca.Col, cb.Row, cb.Col = cb.Row, cb.Col, ca.Row, ca.Col
		q.cells[a], q.cells[b] = cb, ca
		q.pen.Cells[a], q.pen.Cells[b] = q.pen.Cells[b], q.pen.Cells[a]
		q.name += fmt.Sprintf(" (r%dc%d⇄r%dc%d)", a/9+1, a%9+1, b/9+1, b%9+1)
		return q, []int{a, b}
	}
	return pg, nil
}

// score reads pg with the pen model and adds to f. Mistakes are the
// entries read surely (Reading.EntrySure) that disagree with the solution
// of the givens read, as the pipeline marks them.
func (f *penFigures) score(digits, pen ocr.Classifier, pg penPage) {
	f.pages++
	if pg.err != nil || pg.cells == nil {
		f.misses = append(f.misses, fmt.Sprintf("%s: %v", pg.name, pg.err))
		return
	}
	set := ocr.DefaultSettings
	set.Pen = pen
	r, err := ocr.ReadWith(digits, pg.shape, pg.cells, set)
	if err != nil {
		f.misses = append(f.misses, fmt.Sprintf("%s: %v", pg.name, err))
		return
	}
	f.cut++
	var wrong []string
	for i := range pg.cells {
		if !f.cell(pg, r, i) {
			wrong = append(wrong, fmt.Sprintf("r%dc%d printed %d hand %d → %v %d/%d (kind %.2f, entry %.2f)", i/9+1, i%9+1,
				pg.dat.Cells[i], pg.pen.Cells[i], r.Kinds[i], r.Given.Cells[i], r.Entries[i], r.KindConf[i], r.EntryConf[i]))
		}
	}
	exact := len(wrong) == 0
	if exact {
		f.exact++
	} else {
		f.misses = append(f.misses, fmt.Sprintf("%s: %s", pg.name, strings.Join(wrong, "; ")))
	}
	f.least(pg, r)
	if !r.Certain() {
		return
	}
	f.shown++
	sol, err := sudoku.Solve(r.Given)
	if err != nil || !sol.Equal(pg.solution) {
		f.wrongShown++
		f.misses = append(f.misses, fmt.Sprintf("%s: WRONG SOLUTION SHOWN", pg.name))
		return
	}
	f.entries(pg, r, sol)
}

// least takes the right entries of pg read as handwritten into
// leastRight, whether or not the page's solution is shown.
func (f *penFigures) least(pg penPage, r ocr.Reading) {
	if len(r.EntryProb) != len(r.Kinds) || len(pg.solution.Cells) != len(pg.pen.Cells) {
		return
	}
	for i, want := range pg.pen.Cells {
		if want == 0 || want != pg.solution.Cells[i] || r.Kinds[i] != ocr.KindHand || want >= len(r.EntryProb[i]) {
			continue
		}
		t := tierOf(r.KindConf[i])
		if q := r.EntryProb[i][want]; f.rightIn[t] == 0 || q < f.leastRight[t] {
			f.leastRight[t] = q
		}
		f.rightIn[t]++
	}
}

// cell tallies cell i of a reading of pg and reports whether its kind and
// digit are right.
func (f *penFigures) cell(pg penPage, r ocr.Reading, i int) bool {
	f.cells++
	wantPrinted, wantHand := pg.dat.Cells[i], pg.pen.Cells[i]
	gotPrinted, gotHand := r.Given.Cells[i], r.Entries[i]
	if wantHand > 0 {
		f.handCells++
	}
	switch {
	case wantHand > 0 && gotPrinted > 0:
		f.handToPrinted++
	case wantPrinted > 0 && gotPrinted == 0:
		f.printedToOther++
	case wantHand > 0 && gotHand > 0 && gotHand != wantHand:
		f.handWrong++
		if r.EntrySure(i) {
			f.handWrongSure++
		}
		f.surestWrong = max(f.surestWrong, min(r.EntryConf[i], r.KindConf[i]))
	case wantHand == 0 && wantPrinted == 0 && r.Kinds[i] != ocr.KindEmpty:
		f.emptyToInk++
	}
	switch r.Kinds[i] {
	case ocr.KindNotes:
		f.notes++
	case ocr.KindUnclear:
		f.unclear++
	}
	if r.EntrySure(i) && wantHand > 0 {
		f.handSure++
	}
	ok := gotPrinted == wantPrinted && gotHand == wantHand && (wantPrinted > 0 || wantHand > 0 || r.Kinds[i] == ocr.KindEmpty)
	if ok {
		f.cellsOK++
	}
	return ok
}

// entries counts the wrong entries of pg (against sol, the solution of
// the givens read) that pipeline.CheckEntries, as scan calls it, flags
// and misses, and its false alarms.
func (f *penFigures) entries(pg penPage, r ocr.Reading, sol sudoku.Grid) {
	pen := pipeline.PenOf(r)
	pen.CellPx = pg.cellPx
	marks := pipeline.CheckEntries(r.Given, sol, pen)
	for i, want := range pg.pen.Cells {
		if want == 0 {
			continue
		}
		bad := want != sol.Cells[i]
		if bad {
			f.wrongEntries++
		}
		called := slices.Contains(marks.Mistakes, i)
		switch {
		case called && !bad:
			f.falseAlarms++
			f.misses = append(f.misses, fmt.Sprintf("%s: FALSE ALARM r%dc%d (right %d read %d, kind %.4f, entry %.4f)", pg.name, i/9+1, i%9+1, want, r.Entries[i], r.KindConf[i], r.EntryConf[i]))
		case called && bad:
			f.flagged++
		case bad:
			f.missedWrong++
		}
	}
}

func (f penFigures) print(name string) {
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(1, b)) }
	fmt.Printf("%s: %d pages, %d cut, %d exact (%.1f%%); cells right %d/%d (%.2f%%)\n", name, f.pages, f.cut, f.exact, pct(f.exact, f.pages), f.cellsOK, f.cells, pct(f.cellsOK, f.cells))
	fmt.Printf("  hand→printed %d, printed→other %d, hand digit wrong %d, empty→ink %d; %d hand cells, %d read surely (%.1f%%); notes %d, unclear %d\n",
		f.handToPrinted, f.printedToOther, f.handWrong, f.emptyToInk, f.handCells, f.handSure, pct(f.handSure, f.handCells), f.notes, f.unclear)
	fmt.Printf("  solutions shown %d, wrong %d; wrong entries %d: flagged %d, missed %d; false alarms %d\n",
		f.shown, f.wrongShown, f.wrongEntries, f.flagged, f.missedWrong, f.falseAlarms)
	fmt.Printf("  hand digits read wrong surely %d; surest wrong digit %.4f (kind and entry)\n", f.handWrongSure, f.surestWrong)
	for t, at := range kindTiers {
		if f.rightIn[t] > 0 {
			fmt.Printf("  right entries with the kind at %.3f or more (and under the tier above): %d, least p(true digit) %.2g\n", at, f.rightIn[t], f.leastRight[t])
		}
	}
}

// loadPens opens the pen models named in files, comma-separated, as one
// Classifier: their mean when there are several (ocr.MeanOf), or with
// askAt > 0 the first alone where it is sure at askAt (ocr.PenSure).
func loadPens(files string, askAt float64) (ocr.Classifier, error) {
	var pens []ocr.Classifier
	for _, f := range strings.Split(files, ",") {
		data, err := os.ReadFile(f)
		if err == nil {
			var pen ocr.Classifier
			if pen, err = ocr.NewPen(data, ocr.BackendGo); err == nil {
				pens = append(pens, pen)
				continue
			}
		}
		for _, p := range pens {
			_ = ocr.CloseClassifier(p)
		}
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	if askAt > 0 && len(pens) > 1 {
		return ocr.MeanWhereUnsure(pens[0], ocr.PenSure(float32(askAt)), ocr.PenKindOf, pens[1:]...)
	}
	return ocr.MeanOf(pens...)
}

// penEval measures a pen model (pc.eval) with the shipped digit model on
// the held-out pen-filled pages, as they are and with two handwritten cells
// exchanged, and checks that it leaves the printed reading of the pages
// without handwriting (wicht-v2-train and others-train, every photo) as it
// was.
func penEval(c config, pc penConfig, pages []string) error {
	pen, err := loadPens(pc.eval, pc.askAt)
	if err != nil {
		return err
	}
	defer func() { _ = ocr.CloseClassifier(pen) }()
	digits, err := ocr.Default(ocr.BackendGo)
	if err != nil {
		return err
	}
	defer func() { _ = ocr.CloseClassifier(digits) }()
	pgs := make([]penPage, len(pages))
	cutEach(len(pages), c.workers, func(d detectors, i int) photoCells {
		pgs[i] = cutPenPage(d, pages[i], pc.evalScale)
		return photoCells{}
	})
	if pc.evalCalib {
		// The calibration pages are of the training side: those whose
		// truth does not fit them are left out as in training.
		if pgs, err = fittingPages(digits, pgs); err != nil {
			return err
		}
	}
	var plain, swap penFigures
	rng := rand.New(rand.NewSource(c.seed))
	for _, pg := range pgs {
		plain.score(digits, pen, pg)
		q, _ := pg.swapped(rng)
		swap.score(digits, pen, q)
	}
	which := "held-out pen pages"
	if pc.evalCalib {
		which = "calibration pen pages"
	}
	plain.print(which)
	for _, m := range plain.misses {
		fmt.Println("   ", m)
	}
	swap.print(which + ", two entries exchanged")
	for _, m := range swap.misses {
		if strings.Contains(m, "FALSE") || strings.Contains(m, "WRONG") {
			fmt.Println("   ", m)
		}
	}
	if pc.evalCalib {
		return unclearJudged(c, pc, digits, pen)
	}
	return printedUnchanged(c, digits, pen)
}

// unclearJudged pastes unclear ink (a digit struck through, two digits
// over each other, a scribble, a half-erased pencil digit) into the
// calibration pages of wicht-v2-train as training does, reads each such
// cell with pen and prints how many are taken for a handwritten digit
// in each tier of the kind's sureness, and how many of those pipeline
// would call wrong if the solution's digit were the one the reader gives
// least: the risk of a confident verdict on ink that is no entry. It
// also reads the pasted pages as ocr does (the views, the page's
// typeface, the promotion) and counts the unclear cells read as a sure
// entry (Reading.EntrySure).
func unclearJudged(c config, pc penConfig, digits, pen ocr.Classifier) error {
	held, err := holdoutNames(pc.holdout)
	if err != nil {
		return err
	}
	v2, _, err := penPages(pc.v2, held)
	if err != nil {
		return err
	}
	var paths []string
	for _, p := range v2 {
		if isVal(filepath.Base(p), pc.valShare) {
			paths = append(paths, p)
		}
	}
	dir, err := mnist.Dir(".")
	if err != nil {
		return err
	}
	ds, err := mnist.Load(dir, "train")
	if err != nil {
		return err
	}
	pages := make([]pastedPage, len(paths))
	cutEach(len(paths), c.workers, func(d detectors, i int) photoCells {
		pages[i], _ = pastePage(d.nine, paths[i], ds, pc.euro, rand.New(rand.NewSource(c.seed*100_000+int64(i))))
		return photoCells{}
	})
	var xs [][]float32
	for _, pg := range pages {
		for i, cell := range pg.cells {
			if pg.truth[i] == ocr.PenUnclear && inked(cell) {
				xs = append(xs, penInput(cell, pg.turns))
			}
		}
	}
	if len(xs) == 0 {
		return fmt.Errorf("unclear ink: no cell pasted on %d calibration pages", len(paths))
	}
	probs, err := pen.Classify(xs)
	if err != nil {
		return fmt.Errorf("unclear ink: %w", err)
	}
	var asHand, judged [len(kindTiers)]int
	for _, p := range probs {
		kind, kc, _, _ := ocr.PenDecide(p)
		if kind != ocr.KindHand {
			continue
		}
		t := tierOf(kc)
		asHand[t]++
		hand := float32(0)
		for d := 1; d <= 9; d++ {
			hand += p[ocr.PenHand0+d]
		}
		least := float32(1)
		for d := 1; d <= 9; d++ {
			least = min(least, p[ocr.PenHand0+d]/hand)
		}
		// Under the bar of large cells (the photos' own size), the
		// highest: what could be called wrong at all.
		if pipeline.EntryWrongWould(least, kc, 0) {
			judged[t]++
		}
	}
	sure, err := unclearSure(digits, pen, pages)
	if err != nil {
		return err
	}
	fmt.Printf("unclear ink pasted on %d calibration pages: %d cells, %d read as a sure entry by the reader\n", len(paths), len(xs), sure)
	for t, at := range kindTiers {
		fmt.Printf("  read as handwritten with the kind at %.3f or more (and under the tier above): %d, of which could be called wrong %d\n", at, asHand[t], judged[t])
	}
	return nil
}

// unclearSure reads the pasted pages with pen as ocr does and counts the
// cells of unclear ink read as a sure entry.
func unclearSure(digits, pen ocr.Classifier, pages []pastedPage) (int, error) {
	set := ocr.DefaultSettings
	set.Pen = pen
	n := 0
	for _, pg := range pages {
		if pg.cells == nil {
			continue
		}
		r, err := ocr.ReadWith(digits, pg.shape, pg.cells, set)
		if err != nil {
			return 0, fmt.Errorf("unclear ink, %s: %w", pg.name, err)
		}
		for i, y := range pg.truth {
			if y == ocr.PenUnclear && r.EntrySure(i) {
				n++
			}
		}
	}
	return n, nil
}

// fittingPages returns the pages whose truth fits them (truthFits) and
// names the others.
func fittingPages(digits ocr.Classifier, pgs []penPage) ([]penPage, error) {
	var out []penPage
	for _, pg := range pgs {
		if pg.cells != nil && pg.err == nil {
			err := truthFits(digits, pg.cells, pg.dat, pg.turns)
			var te *truthError
			if errors.As(err, &te) {
				fmt.Printf("  left out %s: %v\n", pg.name, err)
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", pg.name, err)
			}
		}
		out = append(out, pg)
	}
	return out, nil
}

// printedUnchanged reads every photo of the --real folders with and
// without the pen model and counts the givens the pen model took away,
// the readings it changed and the wrong solutions shown with it.
func printedUnchanged(c config, digits, pen ocr.Classifier) error {
	var paths []string
	for _, d := range c.realDirs {
		ps, err := filepath.Glob(filepath.Join(d, "*.jpg"))
		if err != nil {
			return err
		}
		paths = append(paths, ps...)
	}
	sort.Strings(paths)
	ps := cutPhotos(paths, false, c.workers, orientWith(digits))
	withPen := ocr.DefaultSettings
	withPen.Pen = pen
	var photos, removed, changed, shown, shownBefore, wrong int
	var notes []string
	for _, p := range ps {
		if p.cells == nil {
			continue
		}
		photos++
		a, err1 := ocr.ReadWith(digits, p.shape, p.cells, ocr.DefaultSettings)
		b, err2 := ocr.ReadWith(digits, p.shape, p.cells, withPen)
		if err1 != nil || err2 != nil {
			continue
		}
		if a.Certain() {
			shownBefore++
		}
		if b.Certain() {
			shown++
			if sol, err := sudoku.Solve(b.Given); err != nil || !solvesTruth(sol, p.truth) {
				wrong++
				notes = append(notes, p.name+": WRONG SOLUTION SHOWN")
			}
		}
		diff := false
		for i, v := range a.Given.Cells {
			if v != b.Given.Cells[i] {
				diff = true
			}
			if v != 0 && b.Given.Cells[i] == 0 {
				removed++
				notes = append(notes, fmt.Sprintf("%s: r%dc%d printed %d read as %v (%.2f)", p.name, i/p.shape.N()+1, i%p.shape.N()+1, v, b.Kinds[i], b.KindConf[i]))
			}
		}
		if diff {
			changed++
		}
	}
	fmt.Printf("pages without handwriting: %d photos cut; with the pen model %d solved (%d without), %d wrong; printed→other %d cells, %d readings changed\n",
		photos, shown, shownBefore, wrong, removed, changed)
	for _, n := range notes {
		fmt.Println("   ", n)
	}
	return nil
}
