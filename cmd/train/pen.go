package main

// Pen mode (--pen): trains models/pen.onnx, which tells what ink a cell
// holds (ocr.PenClasses) from three stacked views of it (ocr.PenInput).
// Data, from training pages only (never --pen-holdout's names): the real
// pen-filled photos, and the same pages' print-only photos with MNIST
// digits pasted into empty cells before vision cuts them (paste: pen
// colours, pencil, slant, pencil notes, struck-through or unclear ink).
// Cut cells are cached under --pen-cache so a retrain does not re-cut.

import (
	"encoding/gob"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/mnist"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/ocr/digitnet"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// penConfig holds the pen mode's flags.
type penConfig struct {
	out, cache, mixed, v2, holdout string
	others                         string // photos of other sources without handwriting
	variants                       int    // pasted copies of each v2 training photo
	valShare                       float64
	eval                           string  // only measure this pen model (several: their mean)
	askAt                          float64 // with several: ask the others only below this (ocr.PenSure)
	evalCalib                      bool    // measure on the calibration pages instead
	dump                           string  // --pen-dump
	augmentViews                   bool    // augment every view, not only Pixels
	euro                           float64 // share of pasted 1s, 4s and 7s drawn in European styles
	small                          string  // --pen-small: scales of extra, shrunk copies of the mixed training pages
	evalScale                      float64 // --pen-eval-scale: shrink the measured pages by this
	camera                         int     // --pen-camera: camera frames made of each mixed training page
}

// penSample is a cached training cell (exported fields for gob).
type penSample struct {
	X    []float32 // ocr.PenLen values: Pixels, View, Grey, upright
	Y    int
	Page string
}

// penInput stacks a cell's views, upright, as the pen model reads them.
func penInput(c vision.Cell, turns int) []float32 {
	x := make([]float32, 0, ocr.PenLen)
	for _, v := range [][]float32{c.Pixels, c.View, c.Grey} {
		if len(v) != ocr.CellLen {
			v = make([]float32, ocr.CellLen)
		}
		x = append(x, ocr.TurnCell(v, (4-turns)%4)...)
	}
	return x
}

// holdoutNames reads the held-out photo names (base names) from a list.
func holdoutNames(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out[filepath.Base(l)] = true
		}
	}
	return out, nil
}

// penPages lists dir's photos, split into training and held-out by names.
func penPages(dir string, held map[string]bool) (train, test []string, err error) {
	jpgs, err := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if err != nil || len(jpgs) == 0 {
		return nil, nil, fmt.Errorf("no photos in %s (%v)", dir, err)
	}
	for _, p := range jpgs {
		if held[filepath.Base(p)] {
			test = append(test, p)
		} else {
			train = append(train, p)
		}
	}
	return train, test, nil
}

// evalPages are the pages --pen-eval measures: the held-out ones, or with
// --pen-eval-calib the training pages kept for calibration.
func evalPages(pc penConfig, train, test []string) []string {
	if !pc.evalCalib {
		return test
	}
	var calib []string
	for _, p := range train {
		if isVal(p, pc.valShare) {
			calib = append(calib, p)
		}
	}
	return calib
}

// isVal puts a page in the calibration share by its name hash.
func isVal(name string, share float64) bool {
	h := fnv.New32a()
	h.Write([]byte(filepath.Base(name)))
	return float64(h.Sum32()%1000) < share*1000
}

// penTruth returns the kind class of every cell of a page (photo
// orientation): 1 printed, 1+d handwritten d, 0 empty.
func penTruth(dat, pen sudoku.Grid) []int {
	out := make([]int, len(dat.Cells))
	for i := range out {
		switch {
		case dat.Cells[i] > 0:
			out[i] = ocr.PenPrinted
		case pen.Cells != nil && pen.Cells[i] > 0:
			out[i] = ocr.PenHand0 + pen.Cells[i]
		}
	}
	return out
}

// inked reports whether the pen model looks at a cell: vision found ink.
func inked(c vision.Cell) bool { return !c.Empty || c.View != nil }

// truthFitsAt: a page whose truth does not describe its photo (another
// page's truth, the grid turned otherwise, cells shifted) teaches wrong
// labels on most of its cells. The digit model, trained on pages without
// handwriting, reads the printed givens of a page whose truth fits as
// its .dat has them, all or nearly all; below this share the truth does
// not fit and the page is left out of training and calibration.
const truthFitsAt = 0.8

// truthFits reads the cells dat (photo layout) calls printed, upright,
// with the digit model and says, when fewer than truthFitsAt of them read
// as their digit, that the page's truth does not fit it (*truthError).
func truthFits(digits ocr.Classifier, page []vision.Cell, dat sudoku.Grid, turns int) error {
	cells, want := printedCells(page, dat, turns)
	if len(cells) == 0 {
		return nil
	}
	probs, err := digits.Classify(cells)
	if err != nil {
		return fmt.Errorf("truth check: %w", err)
	}
	agree := 0
	for i, p := range probs {
		if digitnet.Argmax(p) == want[i] {
			agree++
		}
	}
	if float64(agree) < truthFitsAt*float64(len(cells)) {
		return &truthError{agree: agree, printed: len(cells)}
	}
	return nil
}

// truthError is truthFits's verdict on a page whose truth does not fit it.
type truthError struct{ agree, printed int }

func (e *truthError) Error() string {
	return fmt.Sprintf("truth does not fit the photo: the digit model reads %d of its %d printed givens as the .dat has them", e.agree, e.printed)
}

// printedCells returns the upright Pixels of the cells dat (photo layout)
// calls printed, and their digits, for truthFits.
func printedCells(cells []vision.Cell, dat sudoku.Grid, turns int) ([][]float32, []int) {
	var xs [][]float32
	var want []int
	for i, c := range cells {
		if dat.Cells[i] > 0 {
			xs = append(xs, penInput(c, turns)[:ocr.CellLen])
			want = append(want, dat.Cells[i])
		}
	}
	return xs, want
}

// cutMixed cuts a pen-filled photo and labels its inked cells; turns comes
// from the photo's v2 twin (the same page without handwriting). A page
// whose truth does not fit it (truthFits, by the digit model) is an error.
func cutMixed(det *vision.Detector, digits ocr.Classifier, path string) ([]penSample, error) {
	return cutMixedAt(det, digits, path, 1)
}

// cutMixedAt is cutMixed of the photo shrunk by scale (cutPhotoAt); the
// truth's turn and fit are judged on the photo as it is.
func cutMixedAt(det *vision.Detector, digits ocr.Classifier, path string, scale float64) ([]penSample, error) {
	p, pen, turns, err := mixedStill(det, digits, path)
	if err != nil {
		return nil, err
	}
	dat := p.truth.Turn(turns)
	if scale < 1 {
		if p = cutPhotoAt(det, path, scale); p.cells == nil {
			return nil, fmt.Errorf("%s shrunk by %v: %v", p.name, scale, p.err)
		}
	}
	truth := penTruth(dat, pen.Turn(turns))
	var out []penSample
	for i, c := range p.cells {
		if inked(c) {
			out = append(out, penSample{X: penInput(c, turns), Y: truth[i], Page: p.name})
		}
	}
	return out, nil
}

// mixedStill cuts a mixed page's photo and reads its .pen truth; turns is
// how its cells lie against the truth, taken from the same page's photo
// without handwriting (wicht-v2-train) when vision cuts it. A page whose
// truth does not fit its photo (truthFits) is refused.
func mixedStill(det *vision.Detector, digits ocr.Classifier, path string) (p photoCells, pen sudoku.Grid, turns int, err error) {
	v2 := strings.Replace(path, "wicht-mixed-train", "wicht-v2-train", 1)
	if twin := cutPhoto(det, v2); twin.cells != nil {
		turns = bestTurns(&twin)[0]
	}
	if p = cutPhoto(det, path); p.cells == nil {
		return p, pen, 0, fmt.Errorf("%s: %v", p.name, p.err)
	}
	if pen, err = sudoku.ReadDatFile(strings.TrimSuffix(path, ".jpg") + ".pen"); err != nil {
		return p, pen, 0, err
	}
	if err := truthFits(digits, p.cells, p.truth.Turn(turns), turns); err != nil {
		return p, pen, 0, fmt.Errorf("%s: %w", p.name, err)
	}
	return p, pen, turns, nil
}

// cutPrinted cuts a photo without handwriting and labels its inked cells
// printed or empty.
func cutPrinted(det *vision.Detector, path string) ([]penSample, error) {
	p := cutPhoto(det, path)
	if p.cells == nil {
		return nil, fmt.Errorf("%s: %v", p.name, p.err)
	}
	turns := bestTurns(&p)[0]
	truth := penTruth(p.truth.Turn(turns), sudoku.Grid{})
	var out []penSample
	for i, c := range p.cells {
		if inked(c) {
			out = append(out, penSample{X: penInput(c, turns), Y: truth[i], Page: p.name})
		}
	}
	return out, nil
}

// loadOrCut returns the cached samples of name, or makes and caches them.
func loadOrCut(dir, name string, cut func() ([]penSample, error)) ([]penSample, error) {
	path := filepath.Join(dir, name+".gob")
	if f, err := os.Open(path); err == nil {
		defer f.Close()
		var s []penSample
		if err := gob.NewDecoder(f).Decode(&s); err == nil {
			return s, nil
		}
	}
	s, err := cut()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return nil, err
	}
	if err := gob.NewEncoder(f).Encode(s); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return s, os.Rename(path+".tmp", path)
}

// cutAll runs cut on every path with one detector per worker and joins
// the samples; a photo vision cannot cut is reported and skipped.
func cutAll(paths []string, workers int, cut func(det *vision.Detector, path string) ([]penSample, error)) []penSample {
	res := make([][]penSample, len(paths))
	cutEach(len(paths), workers, func(d detectors, i int) photoCells {
		s, err := cut(d.nine, paths[i])
		if err != nil {
			fmt.Printf("  skip %s: %v\n", filepath.Base(paths[i]), err)
		}
		res[i] = s
		return photoCells{}
	})
	var out []penSample
	for _, s := range res {
		out = append(out, s...)
	}
	return out
}

func runPen(c config, pc penConfig) error {
	start := time.Now()
	held, err := holdoutNames(pc.holdout)
	if err != nil {
		return err
	}
	mixTrain, mixTest, err := penPages(pc.mixed, held)
	if err != nil {
		return err
	}
	v2Train, _, err := penPages(pc.v2, held)
	if err != nil {
		return err
	}
	fmt.Printf("pen: %d mixed training pages (%d held out), %d v2 training pages\n", len(mixTrain), len(mixTest), len(v2Train))
	if pc.dump != "" {
		return penDump(c, pc, mixTrain, mixTest, pc.dump)
	}
	if pc.eval != "" {
		return penEval(c, pc, evalPages(pc, mixTrain, mixTest))
	}
	digitModel, err := ocr.Default(ocr.BackendGo)
	if err != nil {
		return err
	}
	defer func() { _ = ocr.CloseClassifier(digitModel) }()
	mixed, err := loadOrCut(pc.cache, "mixed-fit", func() ([]penSample, error) {
		return cutAll(mixTrain, c.workers, func(det *vision.Detector, path string) ([]penSample, error) {
			return cutMixed(det, digitModel, path)
		}), nil
	})
	if err != nil {
		return err
	}
	small, err := shrunkMixed(c, pc, digitModel, mixTrain)
	if err != nil {
		return err
	}
	mixed = append(mixed, small...)
	var othersTrain []string
	if pc.others != "" {
		// The digit model's split of these photos (--holdout's last share):
		// the held-out ones stay for measuring that printed pages read
		// as before.
		if othersTrain, _, err = splitPhotos(pc.others, c.holdout[len(c.holdout)-1]); err != nil {
			return err
		}
	}
	others, err := loadOrCut(pc.cache, "others", func() ([]penSample, error) {
		return cutAll(othersTrain, c.workers, cutPrinted), nil
	})
	if err != nil {
		return err
	}
	mixed = append(mixed, others...)
	framed, err := penCameraCells(c, pc, digitModel, mixTrain)
	if err != nil {
		return err
	}
	dir, err := mnist.Dir(".")
	if err != nil {
		return err
	}
	digits, err := mnist.Load(dir, "train")
	if err != nil {
		return err
	}
	pasted, err := loadOrCut(pc.cache, fmt.Sprintf("pasted-s%d-v%d-e%g", c.seed, pc.variants, pc.euro), func() ([]penSample, error) {
		var paths []string
		for k := 0; k < pc.variants; k++ {
			paths = append(paths, v2Train...)
		}
		seeds := make([]int64, len(paths))
		for i := range seeds {
			seeds[i] = c.seed*100_000 + int64(i)
		}
		var out []penSample
		res := make([][]penSample, len(paths))
		cutEach(len(paths), c.workers, func(d detectors, i int) photoCells {
			s, err := pastePhoto(d.nine, paths[i], digits, pc.euro, rand.New(rand.NewSource(seeds[i])))
			if err != nil {
				fmt.Printf("  skip %s: %v\n", filepath.Base(paths[i]), err)
			}
			for j := range s {
				s[j].Page = fmt.Sprintf("%s#%d", s[j].Page, i/len(v2Train))
			}
			res[i] = s
			return photoCells{}
		})
		for _, s := range res {
			out = append(out, s...)
		}
		return out, nil
	})
	if err != nil {
		return err
	}
	fmt.Printf("pen: %d mixed cells, %d pasted cells (%.0fs)\n", len(mixed), len(pasted), time.Since(start).Seconds())
	train, val, valPasted, counts := penSplit(c, pc, mixed, framed, pasted)
	fmt.Printf("pen: %d training cells by class %v, %d calibration cells\n", len(train), counts, len(val))

	arch := c.arch
	arch.Classes, arch.In = ocr.PenClasses, ocr.PenViews
	rng := rand.New(rand.NewSource(c.seed))
	tr, err := digitnet.NewTrainer(digitnet.Init(arch, rng), c.batch, c.lr)
	if err != nil {
		return err
	}
	defer tr.Close()
	for e := 0; e < c.epochs; e++ {
		lr := c.lr * (0.05 + 0.95*0.5*(1+math.Cos(math.Pi*float64(e)/float64(c.epochs))))
		tr.SetLearnRate(lr)
		t := time.Now()
		loss, acc, err := epoch(tr, train, c.batch, rng, func(x []float32, d sample, rng *rand.Rand) []float32 {
			return penTrainInput(x, d, pc.augmentViews, rng)
		})
		if err != nil {
			return err
		}
		fmt.Printf("epoch %d: loss %.4f, train acc %.4f, val acc %.4f (%.0fs)\n", e+1, loss, acc, cellAccuracy(tr.Weights(), val), time.Since(t).Seconds())
	}
	w := tr.Weights()
	temp := fitTemperature(w, val)
	fmt.Printf("pen: temperature %.3f (ECE %.4f → %.4f on calibration cells)\n", temp, ece(w, val, 1), ece(w, val, temp))
	w.Scale(float32(temp))
	penCalibReport(w, val)
	penConfusion(w, val, valPasted)
	if err := os.WriteFile(c.out, w.ONNX(), 0o644); err != nil {
		return err
	}
	fmt.Printf("pen: wrote %s (%.0fs)\n", c.out, time.Since(start).Seconds())
	return nil
}

// penSplit puts the cells of calibration pages (isVal) into val, marking
// the pasted ones, and the rest into train: the real cells first (their
// handwriting used --real-weight times), then the camera frames' and the
// pasted ones, used once each. counts are train's cells per class.
func penSplit(c config, pc penConfig, mixed, framed, pasted []penSample) (train, val []sample, valPasted []bool, counts []int) {
	counts = make([]int, ocr.PenClasses)
	for k, s := range append(append(append([]penSample(nil), mixed...), framed...), pasted...) {
		page := strings.SplitN(s.Page, "#", 2)[0]
		if isVal(page, pc.valShare) {
			val = append(val, sample{x: s.X, y: s.Y})
			valPasted = append(valPasted, k >= len(mixed)+len(framed))
			continue
		}
		reps := 1
		if k < len(mixed) && s.Y > ocr.PenHand0 && s.Y <= ocr.PenHand0+9 {
			reps = c.realWeight // real handwriting, rarer and nearer the use than MNIST
		}
		for r := 0; r < reps; r++ {
			train = append(train, sample{x: s.X, y: s.Y})
			counts[s.Y]++
		}
	}
	return train, val, valPasted, counts
}

// shrunkMixed cuts the mixed training pages again shrunk by each scale of
// --pen-small: the real handwriting as a webcam or arm's length shows it,
// cells of a few dozen pixels.
func shrunkMixed(c config, pc penConfig, digits ocr.Classifier, pages []string) ([]penSample, error) {
	scales, err := parseScales(pc.small)
	if err != nil {
		return nil, err
	}
	var out []penSample
	for _, k := range scales {
		small, err := loadOrCut(pc.cache, fmt.Sprintf("mixed-fit-x%g", k), func() ([]penSample, error) {
			return cutAll(pages, c.workers, func(det *vision.Detector, path string) ([]penSample, error) {
				return cutMixedAt(det, digits, path, k)
			}), nil
		})
		if err != nil {
			return nil, err
		}
		fmt.Printf("pen: %d cells of the mixed pages shrunk by %g\n", len(small), k)
		out = append(out, small...)
	}
	return out, nil
}

// parseScales reads --pen-small: comma-separated scales in (0, 1), or
// none.
func parseScales(list string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, err := strconv.ParseFloat(f, 64)
		if err != nil || k <= 0 || k >= 1 {
			return nil, fmt.Errorf("--pen-small %q: %q is not a scale between 0 and 1", list, f)
		}
		out = append(out, k)
	}
	return out, nil
}

// penTrainInput appends a pen sample's input to x: the Pixels view perturbed
// as the digit model's cells are (augment), and with all set each other
// view too, each on its own draw (else they are kept as cut).
func penTrainInput(x []float32, d sample, all bool, rng *rand.Rand) []float32 {
	x = append(x, augment(d.x[:ocr.CellLen], rng)...)
	if !all {
		return append(x, d.x[ocr.CellLen:]...)
	}
	for v := 1; v < ocr.PenViews; v++ {
		x = append(x, augment(d.x[v*ocr.CellLen:(v+1)*ocr.CellLen], rng)...)
	}
	return x
}

// penCalibReport prints, on the calibration cells, how sure the model is
// of its wrong readings of handwritten cells (the kind times the digit, as
// Reading.EntrySure requires both, ocr.EntrySureAt): a right entry read
// as another digit at least that surely would be called wrong. It also
// prints how many right entries are read surely.
func penCalibReport(w digitnet.Weights, val []sample) {
	logits := logitsOf(w, val)
	var worst float64
	sure, hands := 0, 0
	var wrong []float64
	for i, l := range logits {
		y := val[i].y
		if y <= ocr.PenHand0 || y > ocr.PenHand0+9 {
			continue
		}
		hands++
		kind, kc, digit, dc := ocr.PenDecide(toF32(softmaxT(l, 1)))
		if kind != ocr.KindHand {
			continue
		}
		s := math.Min(float64(kc), float64(dc))
		if y != ocr.PenHand0+digit {
			worst = math.Max(worst, s)
			wrong = append(wrong, s)
			continue
		}
		if s >= ocr.EntrySureAt {
			sure++
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(wrong)))
	fmt.Printf("pen: calibration: %d handwritten cells, %d read right and surely (≥ %.3f); %d read as another digit, the surest at %.4f (top %.4v)\n",
		hands, sure, ocr.EntrySureAt, len(wrong), worst, wrong[:min(5, len(wrong))])
}

func toF32(p []float64) []float32 {
	out := make([]float32, len(p))
	for i, v := range p {
		out[i] = float32(v)
	}
	return out
}

// photoBGR returns a photo's pixels (8-bit BGR) and size.
func photoBGR(img gocv.Mat) ([]byte, int, int, error) {
	if img.Empty() || img.Type() != gocv.MatTypeCV8UC3 {
		return nil, 0, 0, fmt.Errorf("not an 8-bit colour image")
	}
	b, err := img.DataPtrUint8()
	if err != nil {
		return nil, 0, 0, err
	}
	return append([]byte(nil), b...), img.Cols(), img.Rows(), nil
}

// penConfusion prints the calibration cells' confusion (truth rows, read
// columns), for the real pen-filled pages and the pasted ones apart.
func penConfusion(w digitnet.Weights, val []sample, pasted []bool) {
	logits := logitsOf(w, val)
	for _, which := range []bool{false, true} {
		var m [ocr.PenClasses][ocr.PenClasses]int
		for i, l := range logits {
			if pasted[i] == which {
				m[val[i].y][digitnet.Argmax(l)]++
			}
		}
		fmt.Printf("confusion (pasted %v):\n", which)
		for y := range m {
			fmt.Printf("  %2d %v\n", y, m[y])
		}
	}
}
