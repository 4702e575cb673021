package pipeline

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"sort"
	"time"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// Backend names accepted by Options.Backend.
const (
	BackendGo     = "onnx-go"
	BackendOpenCV = "opencv"
)

// Options configures a Pipeline.
type Options struct {
	// Backend runs the digit network: BackendGo (pure Go, the default) or
	// BackendOpenCV (OpenCV's DNN module).
	Backend string
	// Model is the ONNX digit network; nil means the embedded one.
	Model []byte
	// Vision tunes the grid detector.
	Vision vision.Options
	// Pen is the ONNX pen model, which tells printed digits from the
	// player's handwriting, notes and unclear ink (models.Pen() is the
	// embedded one); nil means the embedded one when PenByDefault, else
	// none. NoPen reads without one whatever Pen says: every digit is
	// taken for a given, as before pen pages were read.
	Pen   []byte
	NoPen bool
}

// PenByDefault says whether a pipeline reads with the embedded pen model
// when Options.Pen is nil. The pen reading is used only where the plain
// one falls short (see penWhereNeeded).
const PenByDefault = true

// Pipeline holds one detector and one classifier. It is not safe for
// concurrent use: give each goroutine its own (they are cheap next to a
// frame's work).
type Pipeline struct {
	det  *vision.Detector
	clf  ocr.Classifier
	pen  ocr.Classifier // nil: no pen model (Options.NoPen)
	opts vision.Options
}

// New builds a pipeline. The caller closes it.
func New(opts Options) (*Pipeline, error) {
	switch opts.Backend {
	case "", BackendGo, ocr.BackendGo, BackendOpenCV:
	default:
		return nil, fmt.Errorf("unknown OCR backend %q (want %q or %q)", opts.Backend, BackendGo, BackendOpenCV)
	}
	var clf ocr.Classifier
	var err error
	if opts.Model == nil {
		clf, err = ocr.Default(opts.Backend)
	} else {
		clf, err = ocr.New(opts.Model, opts.Backend)
	}
	if err != nil {
		return nil, fmt.Errorf("load digit model (%s): %w", backendName(opts.Backend), err)
	}
	var pen ocr.Classifier
	if !opts.NoPen && (opts.Pen != nil || PenByDefault) {
		if opts.Pen == nil {
			pen, err = ocr.DefaultPen(opts.Backend)
		} else {
			pen, err = ocr.NewPen(opts.Pen, opts.Backend)
		}
		if err != nil {
			_ = ocr.CloseClassifier(clf)
			return nil, fmt.Errorf("load pen model (%s): %w", backendName(opts.Backend), err)
		}
	}
	return &Pipeline{det: vision.NewDetector(opts.Vision), clf: clf, pen: pen, opts: opts.Vision}, nil
}

func backendName(b string) string {
	if b == "" {
		return BackendGo
	}
	return b
}

// Close releases the detector's and the classifier's native resources.
func (p *Pipeline) Close() error {
	if p == nil {
		return nil
	}
	p.det.Close()
	return errors.Join(ocr.CloseClassifier(p.clf), ocr.CloseClassifier(p.pen))
}

// Process runs the whole pipeline on one frame, reading its most
// Sudoku-like grid. Failures are reported in the Result's Status (and
// Error), never as a panic.
func (p *Pipeline) Process(frame gocv.Mat) Result {
	return p.ProcessPick(frame, vision.Pick{})
}

// ProcessPick is Process reading the grid pick chooses when the frame
// holds several (Result.Grids lists them).
func (p *Pipeline) ProcessPick(frame gocv.Mat, pick vision.Pick) Result {
	start := time.Now()
	r := p.process(frame, pick)
	r.Ms = math.Round(float64(time.Since(start).Microseconds())/10) / 100
	return r
}

func (p *Pipeline) process(frame gocv.Mat, pick vision.Pick) Result {
	var r Result
	g, cells, err := p.det.AnalyzePick(frame, pick)
	r.Grids = gridChoices(p.det.Candidates())
	quality := StatusNone
	if err != nil {
		status := statusOf(err)
		switch {
		case (status == StatusBlurry || status == StatusDark) && len(cells) > 0:
			// Worth a try: a soft or dim photo often reads fine, and only
			// a failed reading is blamed on the picture.
			quality = status
			r.Error = err.Error()
		case (status == StatusTooSmall || status == StatusMoveBack) && g.Side > 0:
			r.setGrid(g) // show where it is
			fallthrough
		default:
			r.Status, r.Error = status, err.Error()
			return r
		}
	}
	r.setGrid(g)
	p.read(&r, g, cells, quality, p.opts.WorkScale(frame.Cols(), frame.Rows()))
	return r
}

// Canvas puts into dst the rectified grey view of frame through g, a grid
// a Result of this pipeline found in it (Result.Grid): the canvas its
// cells were cut from (see vision.Detector.Canvas).
func (p *Pipeline) Canvas(frame gocv.Mat, g vision.Grid, dst *gocv.Mat) error {
	return p.det.Canvas(frame, g, dst)
}

// ReadCanvas reads the puzzle of grid g from canvas, a grey rectified view
// of it as Canvas gives (live averages the canvases of several frames of
// one page): its cells are cut, read, repaired, judged and gated as
// Process does a frame's, the gate taking the cells' size from g's
// corners in a frame of size frame, in the pixels cells are read from
// (Result.CellPx), as Process does. Failures are reported in the
// Result's Status.
func (p *Pipeline) ReadCanvas(canvas gocv.Mat, g vision.Grid, frame image.Point) Result {
	start := time.Now()
	var r Result
	g, cells, err := p.det.CellsOf(canvas, g)
	if err != nil {
		r.Status, r.Error = statusOf(err), err.Error()
	} else {
		r.setGrid(g)
		p.read(&r, g, cells, StatusNone, p.opts.WorkScale(frame.X, frame.Y))
	}
	r.Ms = math.Round(float64(time.Since(start).Microseconds())/10) / 100
	return r
}

// read fills r with the puzzle read from the cells of grid g, repaired,
// judged and gated; quality is the picture's fault the detector found
// (too blurry or dark, StatusNone if none), blamed if no solution comes of it;
// scale is how many frame pixels make one of the pixels the cells were
// read from (vision.Options.WorkScale), for the gate's cell size.
func (p *Pipeline) read(r *Result, g vision.Grid, cells []vision.Cell, quality Status, scale float64) {
	reading, err := ocr.Read(p.clf, g.Shape, cells)
	if err == nil && p.pen != nil {
		reading = p.penWhereNeeded(reading, g.Shape, cells)
	}
	if err != nil {
		// A grid the model has no glyphs for, or cells it cannot take.
		r.Status, r.Error = StatusUnread, err.Error()
		return
	}
	if k := ((reading.Turns % 4) + 4) % 4; k != 0 {
		// The page lies turned: a page photographed sideways, or a phone's
		// orientation tag that does not match its pixels (a few of the real
		// newspaper photos). ocr.Read reads the digits turned but
		// keeps the photo's layout; turn the layout and the grid's geometry
		// to match, so the givens come out as printed and the overlay draws
		// its digits upright.
		n := g.Shape.N()
		reading.Given = reading.Given.Turn(k)
		reading.Conf = sudoku.TurnCells(reading.Conf, n, k)
		reading.Prob = sudoku.TurnCells(reading.Prob, n, k)
		for i := range reading.Changes {
			reading.Changes[i].Cell = sudoku.TurnIndex(reading.Changes[i].Cell, n, k)
		}
		for i := range reading.Doubt {
			reading.Doubt[i].Cell = sudoku.TurnIndex(reading.Doubt[i].Cell, n, k)
		}
		g = g.Turn(k)
		r.setGrid(g)
		r.Turns = k
	}
	r.Pen = PenOf(reading).Turn(g.Shape.N(), r.Turns)
	r.CellPx = math.Round(CellPx(Corners(g), reading.Given.N())/scale*100) / 100
	r.Pen.CellPx = r.CellPx
	r.take(reading, quality)
}

// MaxPrintedGivens is the most givens a printed puzzle is taken to have
// (the most on any page of the Wicht photo sets is 39); a reading with
// more holds the player's ink.
const MaxPrintedGivens = 40

// penWhereNeeded returns the reading of cells to use, given plain, their
// reading without the pen model. The pen reading replaces plain only when
// plain is not certain and either the pen one is or plain holds too many
// givens to be print alone: pages without handwriting that read certain
// read exactly as without the pen model, and a pen reading, whose givens
// are some of the printed ones, cannot make a wrong unique solution out
// of right digits.
func (p *Pipeline) penWhereNeeded(plain ocr.Reading, shape sudoku.Shape, cells []vision.Cell) ocr.Reading {
	if plain.Certain() && printLike(plain) {
		return plain
	}
	set := ocr.DefaultSettings
	set.Pen = p.pen
	pen, err := ocr.ReadWith(p.clf, shape, cells, set)
	if err != nil || !pen.Certain() && printLike(plain) {
		return plain
	}
	return pen
}

// printLike reports whether a reading has no more givens than a printed
// puzzle has (MaxPrintedGivens).
func printLike(r ocr.Reading) bool {
	givens := 0
	for _, v := range r.Given.Cells {
		if v != 0 {
			givens++
		}
	}
	return givens <= MaxPrintedGivens
}

// take fills r from a reading already turned upright (its pen in r.Pen,
// the cells' size in r.CellPx): the givens judged and gated, then the
// entries checked against their solution.
func (r *Result) take(reading ocr.Reading, quality Status) {
	r.Puzzle = reading.Given
	r.Prob = reading.Prob
	r.Conf = make([]float64, len(reading.Conf))
	for i, c := range reading.Conf {
		r.Conf[i] = math.Round(float64(c)*1000) / 1000
	}
	for _, c := range reading.Changes {
		r.Changed = append(r.Changed, c.Cell)
	}
	if n := reading.Given.N(); n > 9 {
		r.Symbols = reading.Symbols.String()
	}
	sort.Slice(reading.Doubt, func(a, b int) bool { return reading.Doubt[a].Cell < reading.Doubt[b].Cell })
	for _, d := range reading.Doubt {
		n := reading.Given.N()
		r.Check = append(r.Check, Check{Cell: d.Cell, Name: sudoku.CellName(d.Cell, n), Reason: d.Reason})
	}
	// One solution, but a cell may be misread, or the cells too small to
	// read surely: never present it as certain. The givens are shown
	// with the cells to check.
	dim := r.Grid.Lift > 1
	v := Gate(reading.Given, judge(reading.Given, reading.Solutions),
		Evidence{Conf: r.Conf, Doubt: r.CheckCells(), CellPx: r.CellPx, Dim: dim})
	if dim {
		r.Check = dimChecks(v.Check, reading.Given, r.Conf, r.Check)
	}
	r.Check = CheckList(v.Check, reading.Given, r.Conf, v.Status, r.Check)
	r.Status, r.Conflicts, r.Solved = v.Status, v.Conflicts, v.Solution
	r.SetMarks(CheckEntries(reading.Given, v.Solution, r.Pen))
	if r.Pen.Ink() && !slices.ContainsFunc(reading.Given.Cells, func(v int) bool { return v != 0 }) {
		r.Status = StatusNoPrinted
	}
	if quality != StatusNone && r.Status != StatusSolved {
		r.Status = quality
	} else if quality != StatusNone {
		r.Error = ""
	}
}

// gridChoices lists the candidates that look like grids when there are
// several, and nil otherwise.
func gridChoices(cs []vision.Candidate) []GridChoice {
	var out []GridChoice
	for _, c := range cs {
		if !c.Grid && !c.Chosen {
			continue
		}
		gc := GridChoice{Score: math.Round(c.Score*100) / 100, Read: c.Chosen}
		for i, p := range c.Corners {
			gc.Corners[i] = [2]float64{math.Round(float64(p.X)*100) / 100, math.Round(float64(p.Y)*100) / 100}
		}
		out = append(out, gc)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

func (r *Result) setGrid(g vision.Grid) {
	r.Found = true
	r.Grid = g
}

// statusOf turns the detector's typed error into the words a user reads.
func statusOf(err error) Status {
	var q *vision.QualityError
	if !errors.As(err, &q) {
		return StatusBadInput
	}
	switch q.Kind {
	case vision.NoGrid:
		return StatusNoGrid
	case vision.TooSmall:
		return StatusTooSmall
	case vision.TooBlurry:
		return StatusBlurry
	case vision.TooDark:
		return StatusDark
	case vision.CutOff:
		return StatusMoveBack
	}
	return StatusBadInput
}

// Verdict is what the rules (and the reader's doubts) say about a set of
// givens.
type Verdict struct {
	Status    Status      // StatusSolved, StatusCheck, StatusConflict or StatusSeveral
	Solution  sudoku.Grid // Cells nil unless solved
	Conflicts []int       // cells of givens that break a rule
	Check     []int       // cells to check on the page (StatusCheck)
}

// Judge validates and solves the givens g. Live mode calls it again on the
// voted givens, so the rules are applied in one place.
func Judge(g sudoku.Grid) Verdict { return judge(g, -1) }

// judge is Judge for a caller that may already know how many solutions g
// has (0, 1, 2 = several; -1 = unknown).
func judge(g sudoku.Grid, solutions int) Verdict {
	if conf := sudoku.Validate(g); len(conf) > 0 {
		return Verdict{Status: StatusConflict, Conflicts: conflictCells(conf)}
	}
	if solutions < 0 {
		solutions = sudoku.CountSolutions(g, 2)
	}
	switch solutions {
	case 0:
		return Verdict{Status: StatusConflict}
	case 1:
		sol, err := sudoku.Solve(g)
		if err != nil {
			return Verdict{Status: StatusConflict}
		}
		return Verdict{Status: StatusSolved, Solution: sol}
	}
	return Verdict{Status: StatusSeveral}
}

// conflictCells lists each cell named in a conflict once, in order.
func conflictCells(cs []sudoku.Conflict) []int {
	seen := map[int]bool{}
	var cells []int
	for _, c := range cs {
		for _, i := range []int{c.A, c.B} {
			if !seen[i] {
				seen[i] = true
				cells = append(cells, i)
			}
		}
	}
	sort.Ints(cells)
	return cells
}
