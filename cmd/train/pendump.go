package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/sudokuar/sudokuar/ocr"
)

// penDumpCell is one cell of --pen-dump's output.
type penDumpCell struct {
	Dat, Pen int       // truth: printed and handwritten digit (0 = none)
	Empty    bool      // vision found no ink
	PenP     []float32 // the pen model's classes, first view
	DigitP   []float32 // the digit model on Pixels
	Kind     string    // the shipped reader's kind
	Given    int       // the shipped reader's given
	Entry    int       // and entry
	KindConf float32
	EntConf  float32
	EntProb  []float32 // the shipped reader's digits 1..9 of an entry (Reading.EntryProb)
}

// penDump writes, for every mixed page (training, calibration and
// held-out), each cell's truth and the models' outputs as one JSON line
// a page, for analysis of the reader's decisions.
func penDump(c config, pc penConfig, train, test []string, out string) error {
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
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	all := append(append([]string(nil), train...), test...)
	pgs := make([]penPage, len(all))
	cutEach(len(all), c.workers, func(d detectors, i int) photoCells {
		pgs[i] = cutPenPage(d, all[i], pc.evalScale)
		return photoCells{}
	})
	for i, pg := range pgs {
		split := "train"
		if i >= len(train) {
			split = "held"
		} else if isVal(all[i], pc.valShare) {
			split = "calib"
		}
		rec := map[string]any{"name": pg.name, "split": split}
		if pg.err != nil || pg.cells == nil {
			rec["err"] = fmt.Sprint(pg.err)
			_ = enc.Encode(rec)
			continue
		}
		set := ocr.DefaultSettings
		set.Pen = pen
		r, err := ocr.ReadWith(digits, pg.shape, pg.cells, set)
		if err != nil {
			rec["err"] = err.Error()
			_ = enc.Encode(rec)
			continue
		}
		var pin, din [][]float32
		for _, cell := range pg.cells {
			pin = append(pin, ocr.PenInput(cell))
			px := cell.Pixels
			if len(px) != ocr.CellLen {
				px = make([]float32, ocr.CellLen)
			}
			din = append(din, px)
		}
		pp, err := pen.Classify(pin)
		if err != nil {
			return err
		}
		dp, err := digits.Classify(din)
		if err != nil {
			return err
		}
		cells := make([]penDumpCell, len(pg.cells))
		for k, cell := range pg.cells {
			cells[k] = penDumpCell{Dat: pg.dat.Cells[k], Pen: pg.pen.Cells[k], Empty: cell.Empty, PenP: pp[k], DigitP: dp[k],
				Kind: r.Kinds[k].String(), Given: r.Given.Cells[k], Entry: r.Entries[k], KindConf: r.KindConf[k], EntConf: r.EntryConf[k],
				EntProb: r.EntryProb[k]}
		}
		rec["cells"] = cells
		rec["solution"] = pg.solution.Cells
		_ = enc.Encode(rec)
	}
	return nil
}
