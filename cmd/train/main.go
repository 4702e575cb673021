// Command train trains sudokuar's digit CNN in Go (gorgonia) and writes it
// as ONNX (--out), reporting loss, accuracy and calibration on stdout. It
// learns from synthetic photos (package synth) and real photos (--real, a
// part held out by name hash), cut by vision as the app cuts them; --eval
// only measures a model. models/README.md ("Retraining") has the defaults.
//
//	go run ./cmd/train --out models/digits.onnx --seed 1
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/ocr/digitnet"
	"github.com/sudokuar/sudokuar/synth"
)

type config struct {
	out        string
	seed       int64
	epochs     int
	synthTrain int
	synthTest  int
	bigShare   float64
	realDirs   []string
	puzzles    string
	testdata   string
	holdout    []float64
	realWeight int
	emptyPct   int
	batch      int
	lr         float64
	workers    int
	arch       digitnet.Arch
	eval       string
	sweep      bool
	// Camera frames (camera.go): per real training photo, synthetic ones
	// to train on and to measure on, and the times each camera cell is
	// used per epoch.
	cameraReal, cameraSynth, cameraTest, cameraWeight int
}

func main() {
	log.SetFlags(0)
	var c config
	var arch string
	flag.StringVar(&c.out, "out", "models/digits.onnx", "where to write the ONNX model")
	flag.Int64Var(&c.seed, "seed", 1, "seed for weights, data and shuffling")
	flag.IntVar(&c.epochs, "epochs", 8, "training epochs")
	flag.IntVar(&c.synthTrain, "synth", 1500, "synthetic photos to train on")
	flag.IntVar(&c.synthTest, "synth-test", 150, "synthetic photos to measure on (other seeds)")
	var realDirs string
	flag.StringVar(&realDirs, "real", "../shared/datasets/wicht-v2-train,../shared/datasets/others-train", "folders of real photos with .dat truth, comma-separated (missing ones are skipped)")
	flag.Float64Var(&c.bigShare, "big", 0.15, "share of synthetic photos that are 12×12 or 16×16 (numbers, letters or 0..F)")
	flag.StringVar(&c.puzzles, "puzzles", "../shared/puzzles/17-clue.txt", "one-line puzzles to print on synthetic photos (random puzzles if missing)")
	flag.StringVar(&c.testdata, "testdata", "testdata/synth", "committed synthetic test photos to measure on (skipped if missing)")
	var holdout string
	flag.StringVar(&holdout, "holdout", "0.2,0.25", "share of each source's photos held out for measurement, per --real folder (the last share serves the folders after it)")
	flag.IntVar(&c.realWeight, "real-weight", 4, "times each real training cell is used per epoch (with --pen: each real handwritten cell)")
	flag.IntVar(&c.emptyPct, "empty", 3, "drawn non-digit cells (class 0) per 100 synthetic cells")
	flag.IntVar(&c.batch, "batch", 64, "minibatch size")
	flag.Float64Var(&c.lr, "lr", 0.003, "Adam learning rate at the start (cosine decay to 5%)")
	flag.IntVar(&c.workers, "workers", 2, "goroutines rendering and cutting photos")
	flag.StringVar(&c.eval, "eval", "", "only measure this ONNX model (no training)")
	flag.BoolVar(&c.sweep, "sweep", false, "with --eval: also try the doubt check's thresholds on the real photos (wrong solutions shown vs grids held back)")
	flag.IntVar(&c.cameraReal, "camera", 0, "camera frames made of each real training photo (a random held-up camera: small, blurred, compressed cells; tried with 4, see models/README.md)")
	flag.IntVar(&c.cameraSynth, "camera-synth", 0, "synthetic 9×9 photos shot as camera frames to train on (tried with 500)")
	flag.IntVar(&c.cameraTest, "camera-test", 150, "synthetic 9×9 photos shot as camera frames to measure and calibrate on (other seeds)")
	flag.IntVar(&c.cameraWeight, "camera-weight", 1, "times each camera training cell is used per epoch")
	flag.StringVar(&arch, "arch", "8,16,64", "conv1 filters, conv2 filters, hidden units")
	var pc penConfig
	var pen bool
	flag.BoolVar(&pen, "pen", false, "train the pen model (pen.go) instead of the digit model; --out defaults to models/pen.onnx")
	flag.StringVar(&pc.cache, "pen-cache", "../paper-model-cache", "pen mode: folder caching cut cells (not in git)")
	flag.StringVar(&pc.mixed, "pen-mixed", "../shared/datasets/wicht-mixed-train", "pen mode: pen-filled photos with .dat and .pen truth")
	flag.StringVar(&pc.v2, "pen-v2", "../shared/datasets/wicht-v2-train", "pen mode: the same pages without handwriting, to paste MNIST into")
	flag.StringVar(&pc.others, "pen-others", "../shared/datasets/others-train", "pen mode: photos of other sources without handwriting, printed cells to train on (the digit model's split)")
	flag.StringVar(&pc.holdout, "pen-holdout", "testdata/live/wicht-holdout.list", "pen mode: photos never trained or calibrated on")
	flag.IntVar(&pc.variants, "pen-variants", 3, "pen mode: pasted copies of each v2 training photo")
	flag.Float64Var(&pc.valShare, "pen-val", 0.15, "pen mode: share of training pages kept for calibration")
	flag.StringVar(&pc.eval, "pen-eval", "", "pen mode: only measure this pen model on the held-out pages (several, comma-separated: their mean)")
	flag.StringVar(&pc.dump, "pen-dump", "", "pen mode: with --pen-eval, write every mixed page's cells and model outputs as JSON lines to this file")
	flag.BoolVar(&pc.augmentViews, "pen-augment-views", true, "pen mode: perturb every view of a training cell, not only Pixels")
	flag.Float64Var(&pc.euro, "pen-euro", 0.6, "pen mode: share of pasted 1s, 4s and 7s drawn in European styles (a long-flagged 1, a crossed 7, an open or closed 4)")
	flag.Float64Var(&pc.askAt, "pen-ask", 0, "pen mode: with several --pen-eval models, ask the others only about cells the first reads below this (the kind) or reads as an entry sure at it (ocr.PenSure); 0 asks them about every cell")
	flag.StringVar(&pc.small, "pen-small", "", "pen mode: also train on the mixed training pages shrunk by these scales, comma-separated (e.g. 0.4: cells as a webcam shows them)")
	flag.IntVar(&pc.camera, "pen-camera", 0, "pen mode: also train on this many camera frames of each mixed training page (penframes.go)")
	flag.Float64Var(&pc.evalScale, "pen-eval-scale", 1, "pen mode: with --pen-eval, shrink the measured pages by this scale first")
	flag.BoolVar(&pc.evalCalib, "pen-eval-calib", false, "pen mode: with --pen-eval, measure on the calibration pages (the training side) instead of the held-out ones, without the printed-pages check")
	flag.Parse()
	for _, f := range strings.Split(holdout, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v < 0 || v >= 1 {
			log.Fatalf("train: --holdout %q: want shares in [0, 1)", holdout)
		}
		c.holdout = append(c.holdout, v)
	}
	for _, d := range strings.Split(realDirs, ",") {
		if d = strings.TrimSpace(d); d != "" {
			c.realDirs = append(c.realDirs, d)
		}
	}
	var err error
	if c.arch, err = parseArch(arch); err != nil {
		log.Fatalf("train: %v", err)
	}
	if pen {
		pc.out = c.out
		if c.out == "models/digits.onnx" {
			c.out = "models/pen.onnx"
		}
		if err := runPen(c, pc); err != nil {
			log.Fatalf("train: %v", err)
		}
		return
	}
	if err := run(c); err != nil {
		log.Fatalf("train: %v", err)
	}
}

func parseArch(s string) (digitnet.Arch, error) {
	f := strings.Split(s, ",")
	if len(f) != 3 {
		return digitnet.Arch{}, fmt.Errorf("--arch %q: want three numbers like 8,16,64", s)
	}
	var v [3]int
	for i := range f {
		n, err := strconv.Atoi(strings.TrimSpace(f[i]))
		if err != nil || n < 1 || n > 256 {
			return digitnet.Arch{}, fmt.Errorf("--arch %q: bad number %q", s, f[i])
		}
		v[i] = n
	}
	return digitnet.Arch{C1: v[0], C2: v[1], Hidden: v[2], Classes: ocr.NumGlyphs}, nil
}

func run(c config) error {
	start := time.Now()
	fonts, err := synth.Fonts(true)
	if err != nil {
		return err
	}
	fmt.Printf("fonts: %d faces\n", len(fonts))
	puzzles, err := loadPuzzles(c.puzzles, 20000)
	if err != nil {
		fmt.Printf("puzzles: %v; using random puzzles\n", err)
	} else {
		fmt.Printf("puzzles: %d from %s\n", len(puzzles), c.puzzles)
	}

	t := time.Now()
	if c.eval != "" {
		c.synthTrain = 0
	}
	synTrain := synthPhotos(c.synthTrain, c.seed*1_000_000, fonts, puzzles, c.workers, c.bigShare)
	synTest := synthPhotos(c.synthTest, c.seed*1_000_000+500_000, fonts, puzzles, c.workers, c.bigShare)
	fmt.Printf("synthetic photos: %d train, %d test, cut by vision in %.0fs; %s\n",
		len(synTrain), len(synTest), time.Since(t).Seconds(), dropped(append(synTrain[:len(synTrain):len(synTrain)], synTest...)))

	t = time.Now()
	if c.eval != "" {
		c.cameraSynth, c.cameraReal = 0, 0
	}
	camTrain := synthCameraPhotos(c.cameraSynth, c.seed*1_000_000+200_000, fonts, puzzles, c.workers)
	camTest := synthCameraPhotos(c.cameraTest, c.seed*1_000_000+800_000, fonts, puzzles, c.workers)
	fmt.Printf("synthetic camera frames: %d train, %d test, cut by vision in %.0fs; %s\n",
		len(camTrain), len(camTest), time.Since(t).Seconds(), dropped(append(camTrain[:len(camTrain):len(camTrain)], camTest...)))

	var realTrain, realTest, realCam []photoCells
	for k, dir := range c.realDirs {
		trainPaths, testPaths, err := splitPhotos(dir, c.holdout[min(k, len(c.holdout)-1)])
		if err != nil {
			fmt.Printf("real photos: %v; skipped\n", err)
			continue
		}
		t = time.Now()
		tr := cutPhotos(trainPaths, true, c.workers, nil)
		te := cutPhotos(testPaths, true, c.workers, nil)
		fmt.Printf("real photos in %s: %d train, %d held out (per source, by name hash), cut in %.0fs; %s\n",
			dir, len(tr), len(te), time.Since(t).Seconds(), dropped(append(tr[:len(tr):len(tr)], te...)))
		for _, p := range te {
			fmt.Printf("  held out: %s\n", p.name)
		}
		realTrain, realTest = append(realTrain, tr...), append(realTest, te...)
		if c.cameraReal > 0 {
			// Only the training photos: the held-out ones are the held-out
			// video sets too.
			t = time.Now()
			stills, skipped := cameraStills(tr)
			cam := realCameraPhotos(stills, c.cameraReal, c.seed*1_000_000+600_000+int64(k)*50_000, c.workers)
			fmt.Printf("camera frames of the training photos in %s: %d of %d photos (%d skipped: not cut or emptiness off), cut in %.0fs; %s\n",
				dir, len(stills), len(tr), skipped, time.Since(t).Seconds(), dropped(cam))
			realCam = append(realCam, cam...)
		}
	}

	if c.eval != "" {
		model, err := os.ReadFile(c.eval)
		if err != nil {
			return err
		}
		return measure(c, model, realTrain, realTest, synTest, camTest)
	}
	rng := rand.New(rand.NewSource(c.seed))
	w := digitnet.Init(c.arch, rng)
	fmt.Printf("network %+v: %d multiply-adds per cell\n", c.arch, c.arch.MACs())
	tr, err := digitnet.NewTrainer(w, c.batch, c.lr)
	if err != nil {
		return err
	}
	defer tr.Close()

	synSamples := collect(synTrain)
	testSamples := collect(synTest)
	camSamples := collect(camTrain)
	camTestSamples := collect(camTest)
	fmt.Printf("camera cells of synthetic photos: %d (used %d× per epoch)\n", len(camSamples), c.cameraWeight)
	var realSamples []sample
	for e := 0; e < c.epochs; e++ {
		// Real photos join after the first epoch: the photos whose truth
		// could be turned two ways (symmetric puzzles) are oriented by the
		// network trained so far.
		if e == 1 && len(realTrain) > 0 && len(realSamples) == 0 {
			cl, err := ocr.NewGo(tr.Weights().ONNX())
			if err != nil {
				return err
			}
			reorient(realTrain, orientWith(cl))
			realSamples = collect(realTrain)
			fmt.Printf("real training cells: %d (used %d× per epoch)\n", len(realSamples), c.realWeight)
			if err := followStills(realCam, realTrain); err != nil {
				return err
			}
			cs := collect(realCam)
			camSamples = append(camSamples, cs...)
			fmt.Printf("camera cells of real training photos: %d (used %d× per epoch)\n", len(cs), c.cameraWeight)
		}
		data := append([]sample(nil), synSamples...)
		// Class 0 for what vision may pass on from empty cells.
		for k := 0; k < len(synSamples)*c.emptyPct/100; k++ {
			data = append(data, sample{x: emptyCell(rng), y: 0})
		}
		for k := 0; k < c.realWeight; k++ {
			data = append(data, realSamples...)
		}
		for k := 0; k < c.cameraWeight; k++ {
			data = append(data, camSamples...)
		}
		lr := c.lr * (0.05 + 0.95*0.5*(1+math.Cos(math.Pi*float64(e)/float64(c.epochs))))
		tr.SetLearnRate(lr)
		t := time.Now()
		loss, acc, err := epoch(tr, data, c.batch, rng, digitInput)
		if err != nil {
			return err
		}
		testAcc := cellAccuracy(tr.Weights(), testSamples)
		camAcc := cellAccuracy(tr.Weights(), camTestSamples)
		fmt.Printf("epoch %d/%d: lr %.5f, %d cells, loss %.4f, train acc %.3f%%, synthetic test cells %.3f%%, camera test cells %.3f%%, %.0fs\n",
			e+1, c.epochs, lr, len(data), loss, 100*acc, 100*testAcc, 100*camAcc, time.Since(t).Seconds())
	}
	w = tr.Weights()
	// Calibrate on cells no weight was fitted on, and that the figures
	// below do not claim as unseen: the synthetic test photos and the
	// held-out Wicht photos (vision was tuned on those already). Not the
	// camera test frames: their many unreadable cells would pull the one
	// temperature up and leave the clean cells of stills underconfident,
	// fewer of the real photos shown solved; their calibration error is
	// reported below.
	var calib []sample
	calib = append(calib, testSamples...)
	for _, p := range realTest {
		if p.source == "image" {
			calib = append(calib, p.samples()...)
		}
	}
	temp := fitTemperature(w, calib)
	fmt.Printf("calibration: temperature %.3f fitted on %d cells; ECE before %.4f, after %.4f; camera test cells %.4f, after %.4f\n",
		temp, len(calib), ece(w, calib, 1), ece(w, calib, temp), ece(w, camTestSamples, 1), ece(w, camTestSamples, temp))
	w.Scale(float32(temp))
	model := w.ONNX()
	if err := os.WriteFile(c.out, model, 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes) after %.0fs\n", c.out, len(model), time.Since(start).Seconds())
	return measure(c, model, realTrain, realTest, synTest, camTest)
}

// measure reads the held-out real photos, the real training photos and the
// synthetic photos with the model through ocr.Read and prints the figures.
func measure(c config, model []byte, realTrain, realTest, synTest, camTest []photoCells) error {
	cl, err := ocr.NewGo(model)
	if err != nil {
		return fmt.Errorf("reload %s: %w", c.out, err)
	}
	w, err := digitnet.FromONNX(model)
	if err != nil {
		return err
	}
	if len(realTest) > 0 {
		// The truth's turn is settled by this model for photos whose
		// emptiness pattern fits several turns.
		reorient(realTest, orientWith(cl))
		reorient(realTrain, orientWith(cl))
		for _, src := range sources(realTest, realTrain) {
			te, tr := bySource(realTest, src), bySource(realTrain, src)
			if len(te) > 0 {
				report(fmt.Sprintf("held-out real photos, %s", src), evaluate(cl, te))
				fmt.Printf("  ECE of the model's top class on these cells: %.4f\n", ece(w, collect(te), 1))
			}
			if len(tr) > 0 {
				report(fmt.Sprintf("real training photos, %s", src), evaluate(cl, tr))
			}
		}
		all := append(realTest[:len(realTest):len(realTest)], realTrain...)
		report("all real photos", evaluate(cl, all))
		if c.sweep {
			// The sweep leaves out the held-out others-train photos, so that
			// they stay unseen by every choice (models/README.md).
			tune := append(bySource(realTest, "image"), realTrain...)
			fmt.Printf("doubt check thresholds on the %d real photos other than the held-out others-train ones (AltFloor, CheckBelow: shown as solved, wrong among them, held back, held back but exact):\n", len(tune))
			for _, floor := range []float64{1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1} {
				for _, below := range []float64{0.5, 0.8} {
					set := ocr.DefaultSettings
					set.AltFloor, set.CheckBelow = floor, below
					m := evaluateWith(cl, tune, set)
					fmt.Printf("  %g, %g: shown %d, wrong %d, held back %d, held back but exact %d\n", floor, below, m.shown, m.wrongShown, m.check, m.checkExact)
				}
			}
		}
	}
	report("synthetic test photos", evaluate(cl, synTest))
	fmt.Printf("  ECE of the model's top class on these cells: %.4f\n", ece(w, collect(synTest), 1))
	if len(camTest) > 0 {
		report("synthetic camera test frames", evaluate(cl, camTest))
		fmt.Printf("  ECE of the model's top class on these cells: %.4f\n", ece(w, collect(camTest), 1))
		for _, b := range cellBands {
			if ps := byCellSide(camTest, b[0], b[1]); len(ps) > 0 {
				report(fmt.Sprintf("synthetic camera test frames, cells %g–%g px", b[0], b[1]), evaluate(cl, ps))
			}
		}
	}
	if tp, err := testdataPhotos(c.testdata, c.workers); err == nil {
		report(c.testdata, evaluate(cl, tp))
	} else {
		fmt.Printf("%s: %v\n", c.testdata, err)
	}
	return nil
}

// reorient re-runs the orientation choice for photos whose truth matches
// vision's emptiness under several turns.
func reorient(ps []photoCells, orient func(p *photoCells, cands []int)) {
	for i := range ps {
		p := &ps[i]
		if p.cells == nil {
			continue
		}
		p.truth = p.truth.Turn((4 - p.turns) % 4) // back to upright
		cands := bestTurns(p)
		p.turns = cands[0]
		if len(cands) > 1 {
			orient(p, cands)
		}
		p.truth = p.truth.Turn(p.turns)
	}
}

// collect gathers the samples of the photos vision could cut.
func collect(ps []photoCells) []sample {
	var out []sample
	for _, p := range ps {
		out = append(out, p.samples()...)
	}
	return out
}

// dropped summarises the photos vision could not use.
func dropped(ps []photoCells) string {
	n := 0
	why := map[string]int{}
	for _, p := range ps {
		if p.cells == nil {
			n++
			msg := fmt.Sprint(p.err)
			if i := strings.IndexAny(msg, ":(%"); i > 0 {
				msg = strings.TrimRight(msg[:i], " 0123456789.")
			}
			why[msg]++
		}
	}
	return fmt.Sprintf("%d of %d unusable %v", n, len(ps), why)
}

// digitInput appends a digit sample's input to x, augmented.
func digitInput(x []float32, d sample, rng *rand.Rand) []float32 {
	return append(x, augment(d.x, rng)...)
}

// epoch runs one pass over data in a seeded random order, each sample's
// input made by input, and returns the mean loss and the training accuracy.
func epoch(tr *digitnet.Trainer, data []sample, batch int, rng *rand.Rand,
	input func([]float32, sample, *rand.Rand) []float32) (float64, float64, error) {
	order := rng.Perm(len(data))
	var x []float32
	y := make([]int, 0, batch)
	var lossSum float64
	var correct, seen, steps int
	for _, i := range order {
		x = input(x, data[i], rng)
		y = append(y, data[i].y)
		if len(y) < batch {
			continue
		}
		loss, ok, err := tr.Step(x, y)
		if err != nil {
			return 0, 0, err
		}
		lossSum += loss
		correct += ok
		seen += batch
		steps++
		x, y = x[:0], y[:0]
	}
	if steps == 0 {
		return 0, 0, fmt.Errorf("fewer than %d training cells", batch)
	}
	return lossSum / float64(steps), float64(correct) / float64(seen), nil
}

// cellAccuracy classifies samples with the training graph's forward pass.
func cellAccuracy(w digitnet.Weights, data []sample) float64 {
	if len(data) == 0 {
		return 0
	}
	const chunk = 256
	correct := 0
	for s := 0; s < len(data); s += chunk {
		e := min(s+chunk, len(data))
		var x []float32
		for _, d := range data[s:e] {
			x = append(x, d.x...)
		}
		logits, err := digitnet.Forward(w, x, e-s)
		if err != nil {
			return math.NaN()
		}
		for i, d := range data[s:e] {
			k := w.Arch.Outputs()
			if digitnet.Argmax(logits[i*k:(i+1)*k]) == d.y {
				correct++
			}
		}
	}
	return float64(correct) / float64(len(data))
}
