package live

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/overlay"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// Options configures a live session. The zero value plus a Source and a
// Sink works: recognition every 10th frame, votes over 5 readings.
type Options struct {
	// Pipeline configures the recogniser (OCR backend, model, vision).
	Pipeline pipeline.Options
	// Every is the frame interval between routine recognitions of a page
	// read (default 10). Until a page is read (a grid coming into view,
	// back into view, or changed), the sharpest recent frame is
	// recognised whenever the recogniser is free.
	Every int
	// Votes is how many recent readings each cell is voted over (default 5).
	Votes int
	// ManualSolve starts with auto-solve off (outline and the recognised
	// givens only); Space toggles it.
	ManualSolve bool
	// Paced holds each frame for its time at the source's frame rate, as a
	// window does; unpaced runs as fast as the machine goes.
	Paced bool
	// MaxFrames stops after this many frames (0: until the source ends).
	MaxFrames int
	// SaveDir is where the S key saves the frame and the puzzle
	// (default: the working folder).
	SaveDir string
	// OnRecognition, if set, is called (on the display goroutine) with each
	// recognition's result: the voted givens and their solution, with Frame
	// set to the index of the frame that was recognised.
	OnRecognition func(pipeline.Result)
	// OnFrame, if set, is called after each frame is drawn, for tests and
	// measurements, and for front ends that draw the frame themselves.
	OnFrame func(FrameInfo)
	// Undrawn skips painting the frames: for a front end that draws the
	// answer itself from OnFrame's corners and digits (the web camera),
	// so the server spends nothing on pixels nobody sees. Such a session
	// also takes grey (1-channel) frames, which are cheaper to decode:
	// following and reading the grid work on grey anyway.
	Undrawn bool
	// Logf, if set, receives messages meant for the user (saves, errors).
	Logf func(format string, args ...any)
	// NewRecognizer, if set, replaces pipeline.New(Pipeline) as the maker
	// of the background recogniser (tests use it to script readings).
	NewRecognizer func() (Recognizer, error)
}

// Recognizer turns one frame into a Result, reading the grid pick
// chooses when the frame holds several; *pipeline.Pipeline is one. A
// session uses it from a single background goroutine.
type Recognizer interface {
	ProcessPick(frame gocv.Mat, pick vision.Pick) pipeline.Result
	Close() error
}

// FrameInfo describes one displayed frame.
type FrameInfo struct {
	Index   int
	Shown   time.Time // when the frame was handed to the sink
	Located bool      // the grid was followed in this frame
	// Given and Solution are what was drawn on the frame ("" if nothing):
	// the voted givens and, with auto-solve on, their solution.
	Given, Solution string
	Status          string // the HUD status message
	// Grids is how many grids are in view; with more than one, GridAt
	// says which is followed, counted from 1 left to right (Tab: next).
	Grids, GridAt int
	// Hint is the sentence of the logical step drawn on the frame (the H
	// key), "" if none.
	Hint string
	// Corners are the grid's corners in this frame (TL, TR, BR, BL of the
	// page as read, so digits drawn from them stand upright; zero when the
	// grid was not followed) and Box its box shape (rows, columns; zero
	// until a reading says what is in the grid).
	Corners   [4][2]float64
	Box       [2]int
	Conflicts []int // cells of conflicting givens, painted red
	Auto      bool  // auto-solve is on
	// On a page the player has started with a pen (Entries not ""):
	// Entries are the handwritten digits as voted (N² chars, '0' none),
	// Notes the cells of pencil notes, Progress the counts in words (the
	// wrong count only while Checking, the C key), Mistakes the wrong
	// entries (set only while Checking), Solved the page full and right,
	// and Fill the digits Space writes (N² chars, '0' where nothing is
	// written: givens and ink are never written over; "" when off).
	Entries  string
	Notes    []int
	Progress string
	Checking bool
	Mistakes []int
	Solved   bool
	Fill     string
	// PenHint is the H key's answer on a pen page (nil unless H is on and
	// the hint is ready): the wrong entry or the step, for a front end
	// that draws it itself; Hint holds its sentence.
	PenHint *logic.HintResult
}

// Summary tells how a session went.
type Summary struct {
	Frames       int
	Recognitions int
	Puzzles      int // distinct puzzles seen (each fresh start of the voter)
	Solved       int // recognitions whose voted puzzle was solved
	Elapsed      time.Duration
	LastStatus   string
	Saved        []string // files written by the S key
}

// FPS is the average display rate over the session.
func (s Summary) FPS() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Frames) / s.Elapsed.Seconds()
}

// Keys the session reacts to.
const (
	keyTab   = 9
	keyEsc   = 27
	keySpace = 32
)

// view is the recogniser's latest word on the puzzle: a snapshot the
// display loop reads without locks (it is never changed once sent).
type view struct {
	frame   int             // index of the recognised frame
	raw     pipeline.Result // what that frame alone gave
	puzzle  sudoku.Grid     // voted givens (Cells nil: none yet)
	verdict pipeline.Verdict
	conf    []float64 // the vote's support per cell (Voter.Conf)
	id      int       // increments with each new puzzle
	turns   int       // quarter turns of the page (pipeline.Result.Turns) of the latest reading
	// bend is how the latest reading found the page curled (nil: flat);
	// it moves with the page, so the solution follows the curl.
	bend *vision.Bend
	// inner is where the latest reading found the grid, on the canvas of
	// the outline the display loop followed in that frame (nil: not
	// known). The outline followed frame by frame may be the page around
	// the grid (a newspaper cutting with its text column) while reading
	// looked inside it: the answer is drawn, and the page's ink printed,
	// on the grid, carried along with the outline.
	inner     *[4]gocv.Point2f
	innerSide int // the reading's canvas side (its bend's)
	// print is the ink print of the grid read, in the frame recognised
	// (nil: none read), and printArea the area of its outline there: the
	// display loop's prints are taken on that grid from then on.
	print     inkPrint
	printArea float64
	// fused is what the mean of the page's latest views read, when the
	// gate held the vote back and fusion was tried (nil: not tried).
	fused *pipeline.Reading
	// cutOff: the grid reached the edge of the recognised frame (job.cutOff).
	cutOff bool
	// whole is the grid of the page's latest reading that read the whole
	// puzzle and solved it, its grid not cut, in the frame it read (nil:
	// none since the vote began): a later reading that finds only a part
	// of it has not read the whole grid, whatever it read (see clipped).
	whole *[4]gocv.Point2f
	// pen is the player's ink as voted over the page's readings, marks
	// what it comes to against the vote's gated solution.
	pen   pipeline.Pen
	marks pipeline.Marks
}

type job struct {
	frame gocv.Mat // owned by the worker, which closes it
	index int
	pick  vision.Pick // the grid the display loop follows
	loc   vision.Grid // the outline it followed in this frame (Side 0: none)
	// fresh starts the vote afresh: the user switched to another grid
	// (tabbed), or the page may have changed.
	fresh, tabbed bool
	// cutOff: the grid reached the frame's edge in this frame, so the
	// user was told "move back" (status).
	cutOff bool
}

// Run plays src into sink until the source ends, MaxFrames is reached or
// the user presses Q or Esc. sink may be nil (headless, nothing written).
func Run(src Source, sink Sink, opts Options) (Summary, error) {
	if opts.Every <= 0 {
		opts.Every = 10
	}
	if opts.Votes <= 0 {
		opts.Votes = 5
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	// The recogniser gets its own pipeline: a Detector is not safe to share
	// with the display loop, which only follows corners.
	newRec := opts.NewRecognizer
	if newRec == nil {
		newRec = func() (Recognizer, error) { return pipeline.New(opts.Pipeline) }
	}
	rec, err := newRec()
	if err != nil {
		return Summary{}, err
	}
	loc := vision.NewDetector(opts.Pipeline.Vision)
	defer loc.Close()
	ink := newPrinter()
	defer ink.Close()
	still := newStillness()
	defer still.Close()
	track := newTracker()
	defer track.Close()
	best := newSharpest()
	defer best.Close()

	jobs := make(chan job)
	views := make(chan view, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer rec.Close()
		recognise(rec, opts.Votes, jobs, views)
	}()

	s := session{opts: opts, src: src, sink: sink, loc: loc, ink: ink, still: still, track: track, best: best, logf: logf, jobs: jobs, views: views, auto: !opts.ManualSolve,
		hint: hintState{puzzle: -1}}
	sum := s.loop()
	close(jobs)
	<-done
	return sum, nil
}

// recognise is the background goroutine: full recognition of the frames it
// is handed, voting, and the gate's verdict on the voted givens.
func recognise(p Recognizer, depth int, jobs <-chan job, views chan<- view) {
	voter := NewVoter(depth)
	pens := newPenVoter(depth)
	var cur view
	var judged string // the givens rules was judged for
	var rules pipeline.Verdict
	cellPx := 0.0
	var recent []string // the givens of the latest distinct readings
	bigN, bigAt := 0, 0 // the size of the largest puzzle solved lately, and at which recognition
	count := 0          // recognitions so far
	// The page's canvases of the latest recognitions, for a reading of
	// their mean (when the recogniser can make and read them).
	cr, _ := p.(CanvasReader)
	fz := newFuser(fuseDepth, cr)
	defer fz.Close()
	ink := newPrinter()
	defer ink.Close()
	for j := range jobs {
		whole := cur.whole
		if j.fresh {
			whole = nil // another grid, or the page may have changed
		}
		res, print := readJob(p, fz, ink, &j, whole)
		if wholeRead(res) && !j.cutOff {
			q := res.Grid.Corners
			whole = &q
		}
		v := view{frame: j.index, raw: res, puzzle: cur.puzzle, verdict: cur.verdict, conf: cur.conf, id: cur.id, turns: cur.turns, bend: cur.bend,
			inner: cur.inner, innerSide: cur.innerSide, cutOff: j.cutOff, whole: whole, print: print, printArea: quadArea(res.Grid.Corners),
			pen: cur.pen, marks: cur.marks}
		if j.fresh {
			// Another grid, or the page may have changed: nothing of
			// the old vote may be drawn or voted into the new one.
			voter.Reset()
			pens.Reset()
			fz.restart()
			v.puzzle, v.verdict, v.conf, v.bend, v.turns, v.inner = sudoku.Grid{}, pipeline.Verdict{}, nil, nil, 0, nil
			v.pen, v.marks = pipeline.Pen{}, pipeline.Marks{}
			v.id++
		}
		if len(res.Puzzle.Cells) > 0 {
			v.turns, v.bend = res.Turns, res.Grid.Bend
			v.inner, v.innerSide = within(j.loc, res.Grid), res.Grid.Side
			if res.CellPx > 0 {
				cellPx = res.CellPx
			}
			solvable := res.Status == pipeline.StatusSolved || res.Status == pipeline.StatusCheck
			voted, fresh := voter.Add(res.Puzzle, res.Conf, res.Prob, res.CheckCells(), solvable)
			if fresh && !j.fresh {
				v.id++
			}
			if fresh {
				fz.restart() // a new puzzle: none of the earlier canvases show it
				pens.Reset()
			}
			pens.Add(res.Pen)
			v.puzzle = voted
			v.conf = voter.Conf()
			given := sudoku.CellString(voted.Cells)
			if given != judged {
				if given == sudoku.CellString(res.Puzzle.Cells) && res.Status == pipeline.StatusSolved {
					rules = pipeline.Verdict{Status: pipeline.StatusSolved, Solution: res.Solved}
				} else {
					rules = pipeline.Judge(voted)
				}
				judged = given
			}
			// The same gate as scan's, on the vote: a cell the readings
			// doubt or disagree on, or cells too small to read surely,
			// and no solution is shown.
			doubt := voter.Check()
			if given == sudoku.CellString(res.Puzzle.Cells) {
				doubt = append(doubt, res.CheckCells()...)
			}
			ev := pipeline.Evidence{Conf: v.conf, Doubt: doubt, CellPx: cellPx, Sure: voter.Sure(viewsRho), Dim: res.Grid.Lift > 1}
			v.verdict = pipeline.Gate(voted, rules, ev)
			// Held back by the gate: the page's mean view may settle it.
			v.conf, v.verdict, v.fused = fz.recheck(voted, rules, v.verdict, ev, res.Grid)
			if v.verdict.Status == pipeline.StatusSolved && voter.Disputed() {
				// The latest reading says another puzzle may be in view
				// (a page swapped while the grid was followed): nothing
				// of the old one is shown until a reading settles it.
				v.verdict = pipeline.Verdict{Status: pipeline.StatusReading}
			}
			raw := sudoku.CellString(res.Puzzle.Cells)
			if v.verdict.Status == pipeline.StatusSolved && voter.Len() < confirmReadings && !slices.Contains(recent, given) &&
				(!alone(res, v.conf, cellPx) || nearRecent(recent, given)) {
				// One frame's reading can be wrong (a lattice a row off,
				// repaired into a unique puzzle): unless it stands alone, a
				// new puzzle is shown solved once a second reading agrees,
				// in this vote or among the recent ones. A reading a few
				// cells off a recent one is not new, even when sure: most
				// likely that page misread after a fresh vote.
				v.verdict = pipeline.Verdict{Status: pipeline.StatusReading}
			}
			if !slices.Contains(recent, raw) {
				recent = append(recent, raw)
				if len(recent) > recentReadings {
					recent = recent[1:]
				}
			}
		}
		if j.tabbed {
			bigN = 0
		}
		count++
		if v.verdict.Status == pipeline.StatusSolved {
			switch n := v.puzzle.N(); {
			case n >= bigN:
				bigN, bigAt = n, count
			case count-bigAt <= shrinkReadings:
				// A smaller puzzle right after a larger one was solved,
				// the user having chosen no other grid: most likely
				// the larger page's boxes taken for a puzzle of their
				// own (a 9×9 read as 4×4). Not shown until the larger
				// one has been out of sight a while.
				v.verdict = pipeline.Verdict{Status: pipeline.StatusReading}
			}
		}
		if len(res.Puzzle.Cells) > 0 {
			// The entries judged against the vote's solution as the gate
			// and the confirmations above left it (none: nothing wrong).
			v.pen = pens.Vote()
			v.marks = pipeline.CheckEntries(v.puzzle, v.verdict.Solution, v.pen)
		}
		cur = v
		views <- v
	}
}

// readJob reads j's frame (and closes it): the Result, the frame's
// canvas kept for fusion, the ink print of the grid read (nil: none) and
// whether the grid reaches the frame's edge (j.cutOff), given the grid
// last read whole (view.whole).
func readJob(p Recognizer, fz *fuser, ink *printer, j *job, whole *[4]gocv.Point2f) (pipeline.Result, inkPrint) {
	defer j.frame.Close()
	res := p.ProcessPick(j.frame, j.pick)
	fz.take(j.frame, res)
	var print inkPrint
	if len(res.Puzzle.Cells) > 0 {
		print = ink.print(j.frame, res.Grid, res.Puzzle.N())
	}
	if j.cutOff && j.loc.Side > 0 && res.Found && len(res.Puzzle.Cells) > 0 {
		// The outline reached the edge: the grid this reading found
		// on it says whether the grid does (gridCut's rule), as the
		// frames after it will.
		read := wholeRead(res) && (whole == nil || !clipped(res.Grid.Corners, *whole))
		j.cutOff = cutBy(j.loc, res.Grid.Corners, j.frame.Cols(), j.frame.Rows(), read)
	}
	return res, print
}

// within returns the corners of the grid read, g, on the canvas of the
// outline followed in the same frame, or nil without both.
func within(outline, g vision.Grid) *[4]gocv.Point2f {
	if outline.Side <= 0 || g.Side <= 0 {
		return nil
	}
	q := mapQuad(outline.H, g.Corners)
	return &q
}

// mapQuad is the quadrilateral q mapped through the homography h.
func mapQuad(h [9]float64, q [4]gocv.Point2f) [4]gocv.Point2f {
	var out [4]gocv.Point2f
	for i, c := range q {
		x, y := vision.Apply(h, float64(c.X), float64(c.Y))
		out[i] = gocv.Point2f{X: float32(x), Y: float32(y)}
	}
	return out
}

// viewsRho is how many of a page's successive recognitions count as one
// independent view when their probabilities are combined for the gate
// (Voter.Sure): a frame's misread cell is often misread again by the
// next recognition (docs/performance.md, Tuning).
const viewsRho = 2

// shrinkReadings is how long (in recognitions: 3 s at one every 10th
// frame at 30 fps) after a puzzle was solved a smaller one is not shown
// solved unless the user pressed Tab.
const shrinkReadings = 9

// confirmReadings is how many agreeing readings a vote needs before its
// solution is shown.
const confirmReadings = 2

// recentReadings is how many distinct readings a session remembers, so a
// page that comes back (a fresh vote) is confirmed by its earlier reading.
const recentReadings = 8

// alone reports whether a single reading may be shown solved without a
// second one agreeing: nothing repaired, every given at least aloneSure,
// from cells of at least aloneCellPx.
func alone(res pipeline.Result, conf []float64, cellPx float64) bool {
	if len(res.Changed) > 0 || cellPx < aloneCellPx || len(conf) != len(res.Puzzle.Cells) {
		return false
	}
	for i, v := range res.Puzzle.Cells {
		if v != 0 && conf[i] < aloneSure {
			return false
		}
	}
	return true
}

// nearRecent reports whether given differs from one of the recent
// readings (of the same size) in at least one and at most nearCells cells.
func nearRecent(recent []string, given string) bool {
	for _, r := range recent {
		if len(r) != len(given) {
			continue
		}
		d := 0
		for i := range r {
			if r[i] != given[i] {
				d++
			}
		}
		if d > 0 && d <= nearCells {
			return true
		}
	}
	return false
}

// nearCells is how many cells a reading may differ from a recent one and
// still be taken for a misreading of it rather than another puzzle (two
// puzzles differ in far more of their givens).
const nearCells = 4

// A reading standing alone: every given this sure, from cells this large.
const (
	aloneSure   = 0.95
	aloneCellPx = 20
)

type session struct {
	opts Options
	src  Source
	sink Sink
	loc  *vision.Detector
	ink  *printer
	// track carries the grid over frames the detector misses it in.
	track *tracker
	// best is the sharpest frame since the recogniser took the last one,
	// for it to read until the page is read.
	best *sharpest
	ref  inkPrint // ink print of the grid in the frame last sent for recognition
	// still tells a frame that shows what the frame last followed
	// showed; the grid found there (followed, followedErr) and its ink
	// print (followedPrint) then stand for this frame too.
	still         *stillness
	followed      vision.Grid
	followedErr   error
	followedPrint inkPrint
	followedAlt   inkPrint // its print on the outline itself (nil: the same)
	// followedArea is the area of the quadrilateral followedPrint was
	// taken on, refArea that of ref's: prints of outlines of unlike size
	// (a page and its grid) do not compare.
	followedArea, refArea float64
	logf                  func(string, ...any)
	jobs                  chan<- job
	views                 <-chan view

	auto    bool
	cur     view
	have    bool // cur holds a recognition
	busy    bool // a job is with the recogniser
	want    bool // a routine recognition is due as soon as the recogniser is free
	lost    int  // frames since the grid was last followed
	cutOff  bool // the grid was last seen reaching the frame's edge
	confirm int  // frames from this index on must be recognised before drawing
	fps     float64
	hint    hintState // the H key: logical steps drawn on the paper
	// On a page the player has started with a pen: checking (C) circles
	// the wrong entries, fill (Space) writes the solution in the cells
	// without ink, penHint (H) is the next step from the entries.
	checking, fill bool
	penHint        penHint

	// The grid followed when the frame holds several: the centre of the
	// one followed last, moving with it from frame to frame (Tab switches).
	focus    gocv.Point2f
	hasFocus bool
	// chosen: the user chose the grid followed (Tab) at frame tabAt;
	// readings of earlier frames do not aim the focus.
	chosen   bool
	tabAt    int
	grids    int  // grids in view in the last frame (for the HUD)
	gridAt   int  // which of them is followed, counted from 1 left to right
	switched bool // the next recognition is of another grid: vote afresh
	tabbed   bool // ... because the user pressed Tab
	refollow bool // Tab chose another grid: follow it even if nothing moved
}

// lostAfter is how many frames without the grid make its return count as
// a possibly different puzzle, to be recognised before anything is drawn.
const lostAfter = 5

func (s *session) loop() Summary {
	var sum Summary
	frame := gocv.NewMat()
	defer frame.Close()
	fps := s.src.FPS()
	start := time.Now()
	last := start
	base, baseFrame := start, 0 // the pace: frame baseFrame+1 is due at base + 1/fps
	s.confirm = -1
	for i := 0; s.opts.MaxFrames <= 0 || i < s.opts.MaxFrames; i++ {
		if !s.src.Read(&frame) {
			break
		}
		if ch := frame.Channels(); ch != 3 && !(ch == 1 && s.opts.Undrawn) {
			continue // grey frames only where nothing is painted on them
		}
		sum.Frames++
		// Take in whatever the recogniser finished meanwhile.
		for {
			select {
			case v := <-s.views:
				s.accept(v, &sum)
				continue
			default:
			}
			break
		}
		s.pollHint()
		s.pollPenHint()
		g, locErr := s.locateAndSchedule(frame, i)
		info := s.draw(&frame, g, locErr == nil, i)
		due := base.Add(time.Duration(float64(i+1-baseFrame) / fps * float64(time.Second)))
		if s.opts.Paced && time.Since(due) > 2*time.Duration(float64(time.Second)/fps) {
			// Far behind (a slow start, a stall): play on from here
			// rather than rush through frames to catch up.
			base, baseFrame = time.Now(), i
			due = base.Add(time.Duration(float64(time.Second) / fps))
		}
		wait := time.Duration(0)
		if s.opts.Paced {
			wait = time.Until(due)
		}
		info.Shown = time.Now()
		key := -1
		if s.sink != nil {
			key = s.sink.Show(frame, wait)
		}
		if s.opts.Paced {
			if rest := time.Until(due); rest > 0 {
				time.Sleep(rest)
			}
		}
		if s.opts.OnFrame != nil {
			s.opts.OnFrame(info)
		}
		now := time.Now()
		if dt := now.Sub(last).Seconds(); dt > 0 {
			// A short moving average keeps the HUD readable.
			if s.fps == 0 {
				s.fps = 1 / dt
			} else {
				s.fps = 0.9*s.fps + 0.1/dt
			}
		}
		last = now
		if s.handleKey(key, i, frame, &sum) {
			break
		}
		if o, ok := s.sink.(interface{ Open() bool }); ok && !o.Open() {
			break // the user closed the window
		}
	}
	// Let the last recognition land so its result is reported.
	if s.busy {
		v := <-s.views
		s.accept(v, &sum)
	}
	sum.Elapsed = time.Since(start)
	if s.have {
		sum.LastStatus = s.cur.verdict.Status
		if s.cur.verdict.Status == "" {
			sum.LastStatus = s.cur.raw.Status
		}
	}
	return sum
}

func (s *session) accept(v view, sum *Summary) {
	s.busy = false
	if v.id != s.cur.id {
		sum.Puzzles++
	}
	s.cur, s.have = v, true
	if v.print != nil && v.inner != nil {
		// The frame's print as the display loop takes it from now on:
		// on the grid read there, not the outline followed before a
		// reading placed it (the page, its margins and text around
		// the grid, prints apart from the grid alone).
		s.ref, s.refArea = v.print, v.printArea
		// A still frame's print stands for the next only when taken on
		// the same placement: take it afresh.
		s.followedPrint = nil
	}
	if s.cutOff && v.inner != nil {
		// A reading placed the grid on an outline that reaches the
		// frame's edge (a page cut by it): follow again, so the grid,
		// not the page, says whether to move back (gridCut).
		s.refollow = true
	}
	if s.confirm >= 0 && v.frame >= s.confirm && len(v.raw.Puzzle.Cells) > 0 {
		// A reading taken since the view changed settles what it is.
		s.confirm = -1
	}
	sum.Recognitions++
	if v.verdict.Status == pipeline.StatusSolved && len(v.puzzle.Cells) > 0 {
		sum.Solved++
	}
	if s.opts.OnRecognition != nil {
		s.opts.OnRecognition(s.report(v))
	}
}

// report is the Result a script sees for one recognition: where the grid
// was and how long it took from the raw result; the givens, solution and
// status from the vote, except that a frame whose grid reached the edge
// says "move back", as the HUD did.
func (s *session) report(v view) pipeline.Result {
	r := v.raw
	frame := v.frame
	r.Frame = &frame
	if len(v.puzzle.Cells) > 0 && r.Found && len(r.Puzzle.Cells) > 0 {
		r.Given = sudoku.CellString(v.puzzle.Cells)
		r.Solution = sudoku.CellString(v.verdict.Solution.Cells)
		r.Status = v.verdict.Status
		r.Conflicts = v.verdict.Conflicts
		r.Check = pipeline.CheckList(v.verdict.Check, v.puzzle, v.conf, v.verdict.Status, r.Check)
	}
	// The entries as voted, never one frame's: that frame's own marks
	// were judged against its own solution, not the vote's.
	r.Pen = v.pen
	r.SetMarks(v.marks)
	if r.Found && len(v.raw.Puzzle.Cells) > 0 {
		r.Own = &pipeline.Reading{Given: sudoku.CellString(v.raw.Puzzle.Cells), Status: v.raw.Status}
	}
	r.Fused = v.fused
	if v.cutOff {
		// What the HUD said of that frame (status): nothing was drawn
		// into a grid reaching the edge.
		r.Status = pipeline.StatusMoveBack
	}
	return r
}

// changedBelow is the ink-print similarity under which the puzzle in view
// is taken to have changed: the same page in motion stays far above it, a
// swapped page far below (docs/performance.md, Tuning).
const changedBelow = 0.5

// sameAbove is the ink-print similarity from which the puzzle in view is
// taken to be the one last sent for recognition without asking again:
// the same page in motion stays above it; two pages of one book with
// givens in nearly the same cells can come close to changedBelow.
const sameAbove = 0.75

// pick is the choice of grid for this frame: the one followed so far, or
// the most Sudoku-like.
func (s *session) pick() vision.Pick {
	if s.hasFocus {
		return vision.Pick{Near: s.focus, ByPoint: true}
	}
	return vision.Pick{}
}

// readPick is the choice of grid for a recognition: the one followed
// once the user chose it or a reading found it (the focus is then on the
// grid itself), else the most Sudoku-like. The outline followed before
// any reading is often the page's (the grid's lines are too thin at the
// search's resolution), and its centre may lie beside a grid printed
// off-centre, so picking by it would read the page and find no grid.
func (s *session) readPick() vision.Pick {
	if s.hasFocus && (s.chosen || s.aimed()) {
		return vision.Pick{Near: s.focus, ByPoint: true}
	}
	return vision.Pick{}
}

// aimed reports whether the latest reading found the grid in view and
// was taken since the user last chose a grid.
func (s *session) aimed() bool {
	return s.have && s.cur.inner != nil && s.cur.frame >= s.tabAt
}

// settled reports whether the grid in view is the one the latest reading
// found, followed since: a reading found it since the user last chose a
// grid, and nothing since says the page may have changed (no fresh vote
// or tab pending, no frame held for a reading). Only then is a
// recognition told where to look; the first reading of a page, and one
// after a change, search the whole frame.
func (s *session) settled() bool {
	return s.aimed() && !s.switched && !s.tabbed && s.confirm < 0
}

// aim is the point the grid is followed by in a frame whose followed
// outline is g: the centre of the grid the latest reading found there
// (see puzzleGrid), else of the outline.
func (s *session) aim(g vision.Grid) gocv.Point2f {
	if s.aimed() {
		return quadCentre(s.puzzleGrid(g).Corners)
	}
	return quadCentre(g.Corners)
}

// locateAndSchedule follows the grid in this frame and hands a frame to
// the recogniser when a recognition is due and the recogniser is free:
// every Every-th frame once the page in view is read, and until then
// (at the start, when the grid comes back into view or its ink print says
// the page changed) whenever the recogniser is free, the sharpest frame
// since it took the last one. Until a recognition of the page in view is
// in, nothing is drawn into the grid (it may be another puzzle).
func (s *session) locateAndSchedule(frame gocv.Mat, i int) (vision.Grid, error) {
	n := 9
	if s.have && s.cur.puzzle.Shape.N() > 0 {
		n = s.cur.puzzle.Shape.N()
	}
	var g vision.Grid
	var err error
	var print, alt inkPrint
	if !s.refollow && s.still.same(frame) && (s.followedErr != nil || len(s.followedPrint) == n*n) {
		// Nothing moved since the frame last followed: its grid and
		// print stand, and following costs nothing.
		g, err, print, alt = s.followed, s.followedErr, s.followedPrint, s.followedAlt
	} else {
		g, print, alt, err = s.follow(frame, n)
		s.still.keep()
		s.followed, s.followedErr, s.followedPrint, s.followedAlt = g, err, print, alt
		s.cutOff = errors.Is(err, errCutOff)
		s.refollow = false
	}
	if err == nil {
		err = s.recheck(frame, g, print, alt, i)
		s.lost = 0
		s.focus, s.hasFocus = s.aim(g), true
	} else if !s.cutOff || !s.aimed() {
		// A page cut by the frame's edge whose grid a reading placed
		// is in view, not lost: its ink print says whether it changed
		// when its grid is whole again.
		s.lost++
		if s.lost >= lostAfter {
			s.hasFocus, s.chosen = false, false
		}
	}
	// When to read: until the page in view is read (see read), as often
	// as the recogniser can, from the sharpest frame since it took the
	// last one; once read, every Every-th frame, the current one.
	eager := !s.read()
	if i%s.opts.Every == 0 {
		s.want = true // kept until the recogniser is free
	}
	j := s.job(g, err, i)
	area := s.followedArea
	if eager {
		score := float64(unsharp)
		if err == nil || s.cutOff {
			score = s.best.sharpness(frame, s.puzzleGrid(g))
		}
		s.best.offer(frame, j, print, area, score)
	} else {
		s.best.reset()
	}
	if (eager || s.want) && !s.busy {
		if eager {
			j, print, area, _ = s.best.take() // offered just now at the latest
		} else {
			j.frame = frame.Clone()
		}
		j.fresh, j.tabbed = s.switched, s.tabbed
		s.jobs <- j
		s.busy, s.want, s.switched, s.tabbed = true, false, false, false
		if print != nil {
			// A frame the grid was not followed in keeps the last print:
			// the page may change while it is out of sight.
			s.ref, s.refArea = print, area
		}
	}
	return g, err
}

// job is the recognition of frame i, whose followed outline is g (err:
// why none), without the frame itself.
func (s *session) job(g vision.Grid, err error, i int) job {
	j := job{index: i, pick: s.readPick(), cutOff: s.cutOff}
	if err == nil || s.cutOff {
		// An outline reaching the edge before any reading said where
		// in it the grid is (a page cut by the edge, its grid maybe
		// whole): the reading places the grid on it, and the next
		// frames ask whether that grid reaches the edge.
		j.loc = g
	}
	if err == nil && s.settled() {
		// The grid read lately, followed into this frame: look there
		// first (a far page's grid is then searched at the resolution
		// it needs, without reading the whole frame and the page
		// around it first).
		q := s.puzzleGrid(g).Corners
		j.pick.Within = &q
	}
	return j
}

// read reports whether the page in view is read: a recognition since it
// came into view, or last may have changed, solved it (the gate let its
// solution be shown), and no other grid is chosen since.
func (s *session) read() bool {
	return s.have && s.confirm < 0 && !s.switched && s.cur.verdict.Status == pipeline.StatusSolved
}

// follow finds the grid in frame, or carries the one followed into it by
// optical flow, and takes the ink prints of an n×n puzzle there (see
// alike), keeping the area of the first in s.followedArea.
func (s *session) follow(frame gocv.Mat, n int) (g vision.Grid, print, alt inkPrint, err error) {
	g, err = s.locate(frame)
	jumped := err == nil && !s.refollow && s.followedErr == nil && s.followed.Side > 0 &&
		!plausible(s.followed.Corners, g.Corners)
	switch {
	case jumped && s.followOn(frame, &g):
		// The outline found is not the one followed moved (a page
		// and the grid printed on it hold the same point, and the
		// search finds one in this frame, the other in the next):
		// flow carries the one followed on, so the ink print and
		// the grid read stay on the same outline.
	case err == nil:
		s.track.found(frame, g, false)
	case errors.Is(err, errCutOff):
		s.track.forget()
	default:
		// Missed in this frame (blur, a thumb, glare): carry the
		// grid over from the last frame by optical flow.
		if s.followOn(frame, &g) {
			err = nil
		} else {
			s.track.forget()
		}
	}
	s.followedArea = 0
	if err == nil {
		pg := s.puzzleGrid(g)
		print, s.followedArea = s.ink.print(frame, pg, n), quadArea(pg.Corners)
		if pg.Corners != g.Corners {
			alt = s.ink.print(frame, g.Turn(s.cur.turns), n)
		}
	}
	return g, print, alt, err
}

// followOn carries the grid followed last into frame by optical flow,
// into g, and reports whether it could.
func (s *session) followOn(frame gocv.Mat, g *vision.Grid) bool {
	tg, ok := s.track.follow(frame)
	if !ok || s.gridCut(tg, frame.Cols(), frame.Rows()) {
		return false
	}
	*g = tg
	s.track.found(frame, tg, true)
	return true
}

// alike reports whether print (the ink print of the grid followed in this
// frame) or alt (the same taken on the outline itself, as the search may
// follow the page in one frame and its grid in the next) is at least at
// similar to s.ref, the print of the frame last sent for recognition: the
// same puzzle is in view. Prints of different sizes are never alike (a
// 9×9 printed as a 16×16 is mostly its lines), so a page swapped while the
// reading's size changed is not taken for the one before.
func (s *session) alike(print, alt inkPrint, at float64) bool {
	for _, p := range []inkPrint{print, alt} {
		if len(p) == len(s.ref) && similarity(s.ref, p) >= at {
			return true
		}
	}
	return false
}

// recheck decides, for a frame whose grid was followed (g, its ink
// prints print and alt: see alike), whether the page in view may have
// changed since the frame last sent for recognition (which holds or unsettles what is drawn), and
// returns errCutOff when it jumped with its outline at the frame's edge:
// the grid read before no longer says where the grid is, so the outline
// does again (gridCut).
func (s *session) recheck(frame gocv.Mat, g vision.Grid, print, alt inkPrint, i int) error {
	jumped := false
	switch {
	case s.lost >= lostAfter:
		s.unsettle(i)
	case s.ref != nil && print != nil && !alikeArea(s.refArea, s.followedArea) && !s.alike(print, alt, changedBelow):
		// The print was taken on another outline than the frame sent
		// (the page, not the grid printed on it: the search finds
		// either, and the grid read is placed on the outline only once
		// a reading is in): the two prints do not compare. As below,
		// nothing is drawn until a reading of this frame or a later
		// one says what is in view.
		s.hold(i)
		jumped = true
	case s.ref != nil && print != nil && !s.alike(print, alt, changedBelow):
		s.unsettle(i)
		jumped = true
	case s.ref != nil && print != nil && !s.alike(print, alt, sameAbove):
		// Like the frame sent, but not surely the same page: another
		// puzzle of the same book, its givens in nearly the same cells.
		// Nothing is drawn until a reading of this frame or a later one
		// says which; the vote goes on.
		s.hold(i)
		jumped = true
	}
	if jumped && s.gridCut(g, frame.Cols(), frame.Rows()) {
		s.followedErr, s.cutOff = errCutOff, true
		s.track.forget()
		return errCutOff
	}
	return nil
}

// hold draws nothing into the grid from frame i on until a reading of
// frame i or later is in; unlike unsettle, the vote is kept.
func (s *session) hold(i int) {
	if s.confirm < 0 {
		s.confirm = i
	}
	s.best.reset() // the frames before i may show another page
}

// unsettle marks the puzzle in view as unknown from frame i on.
// The next recognition starts a fresh vote: a page that came back into
// view, or whose ink changed, may be another puzzle, and nothing read of
// the old one may be drawn onto it or outvote its first readings.
func (s *session) unsettle(i int) {
	if s.confirm < 0 {
		s.confirm = i
	}
	s.switched = true
	s.best.reset() // the frames before i may show another page
}

// locate follows the grid's corners in frame. A grid that reaches the
// frame's edge is sliding in or out of view, cut off: it is neither drawn
// into nor read for the vote, so it counts as no grid (see gridCut: the
// outline followed may be the page around the grid, which may leave the
// frame while the grid is whole).
func (s *session) locate(frame gocv.Mat) (vision.Grid, error) {
	g, err := s.loc.LocatePick(frame, s.pick())
	s.grids, s.gridAt = gridsInView(s.loc.Candidates())
	if err != nil {
		return g, err
	}
	if s.gridCut(g, frame.Cols(), frame.Rows()) {
		return g, errCutOff
	}
	return g, nil
}

// gridCut is the one rule for "move back" (HUD, live --json, window and
// browser camera): whether the grid in a w×h frame whose followed outline
// is g is cut by the frame's edge. When the outline is the page around the
// grid and a settled reading says where the grid is on it, the grid
// carried along (puzzleGrid) decides, since the page may leave the frame
// while the grid is whole; otherwise the outline decides. A grid only
// grazing the edge (within edgeMargin either side) is not cut while the
// settled reading read the whole puzzle, solved it and found its grid not
// cut (view.cutOff), and the grid in view is that grid, not the part of
// it the edge leaves (see clipped).
func (s *session) gridCut(g vision.Grid, w, h int) bool {
	if !cutOff(g, w, h) {
		return false // the grid lies within its outline
	}
	if !s.settled() {
		return true // no reading yet says where the grid is on this page
	}
	in := s.puzzleGrid(g).Corners
	whole := !s.cur.cutOff && wholeRead(s.cur.raw) && !clipped(in, s.cur.raw.Grid.Corners)
	return cutBy(g, in, w, h, whole)
}

// wholeRead reports whether res read a puzzle and solved it: all of its
// grid was in the frame read.
func wholeRead(res pipeline.Result) bool {
	return res.Found && len(res.Puzzle.Cells) > 0 && res.Status == pipeline.StatusSolved
}

// clipped reports whether a side of the grid in is shorter than sameGrid
// times the same side of read, the grid a reading saw whole: the search
// finds only the part in view of a grid the frame's edge cuts, so its
// outline lies within the frame however far the grid goes beyond it.
func clipped(in, read [4]gocv.Point2f) bool {
	for i := range in {
		j := (i + 1) % len(in)
		if sideLen(in[i], in[j]) < sameGrid*sideLen(read[i], read[j]) {
			return true
		}
	}
	return false
}

// sideLen is the length of the side from a to b.
func sideLen(a, b gocv.Point2f) float64 {
	return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
}

// sameGrid is how much of each side of the grid read a grid grazing the
// frame's edge must show to be taken for that grid whole: the grid moves
// and turns a little between readings, while the edge cutting it shortens
// the sides that cross it.
const sameGrid = 0.9

// cutBy is gridCut's rule for an outline g reaching the edge of a w×h
// frame and the grid in (frame pixels) read on it; whole says a reading
// saw all of that grid, so only a grid well beyond the edge is cut.
func cutBy(g vision.Grid, in [4]gocv.Point2f, w, h int, whole bool) bool {
	if vision.MeanSide(in) > pageAround*vision.MeanSide(g.Corners) {
		in = g.Corners // the outline is the grid's own
	}
	if whole {
		return beyond(in, w, h)
	}
	return cutOff(vision.Grid{Corners: in}, w, h)
}

// pageAround is how much smaller than the outline followed the grid read
// in it must be (in mean side) for the outline to be a page around the
// grid rather than the grid's own border: a reading's grid lies a line's
// width or a few pixels inside its own outline.
const pageAround = 0.9

// gridsInView counts the candidates that look like grids and says which of
// them, counted from 1 left to right, is the one taken (0 when none).
func gridsInView(cs []vision.Candidate) (n, at int) {
	grids := sortedGrids(cs)
	for i, c := range grids {
		if c.Chosen {
			at = i + 1
		}
	}
	return len(grids), at
}

// sortedGrids returns the candidates that look like grids (and the one
// taken), left to right by centre, so Tab steps through them in an order
// the user sees.
func sortedGrids(cs []vision.Candidate) []vision.Candidate {
	var out []vision.Candidate
	for _, c := range cs {
		if c.Grid || c.Chosen {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := quadCentre(out[i].Corners), quadCentre(out[j].Corners)
		if a.X != b.X {
			return a.X < b.X
		}
		return a.Y < b.Y
	})
	return out
}

// quadCentre is the mean of four corners.
func quadCentre(q [4]gocv.Point2f) gocv.Point2f {
	return gocv.Point2f{X: (q[0].X + q[1].X + q[2].X + q[3].X) / 4, Y: (q[0].Y + q[1].Y + q[2].Y + q[3].Y) / 4}
}

// nextGrid moves the focus to the next grid in view, left to right and
// round again, and reports whether there was another.
func (s *session) nextGrid() bool {
	grids := sortedGrids(s.loc.Candidates())
	if len(grids) < 2 {
		return false
	}
	at := 0
	for i, c := range grids {
		if c.Chosen {
			at = i
		}
	}
	s.focus, s.hasFocus = quadCentre(grids[(at+1)%len(grids)].Corners), true
	return true
}

// cutOff reports whether a corner of g lies within edgeMargin of the edge
// of a w×h frame, or beyond it.
func cutOff(g vision.Grid, w, h int) bool {
	for _, c := range g.Corners {
		if c.X < edgeMargin || c.Y < edgeMargin || c.X > float32(w-1)-edgeMargin || c.Y > float32(h-1)-edgeMargin {
			return true
		}
	}
	return false
}

// beyond reports whether a corner of q lies more than edgeMargin beyond
// the edge of a w×h frame: the grid is cut, whatever was read before.
func beyond(q [4]gocv.Point2f, w, h int) bool {
	for _, c := range q {
		if c.X < -edgeMargin || c.Y < -edgeMargin || c.X > float32(w-1)+edgeMargin || c.Y > float32(h-1)+edgeMargin {
			return true
		}
	}
	return false
}

// edgeMargin is how close (in pixels) a corner may come to the frame's
// edge before the grid counts as cut off.
const edgeMargin = 4

// errCutOff reports a grid that reaches the edge of the frame.
var errCutOff = errors.New("the grid reaches the edge of the frame")

// draw paints this frame: the grid outline, the voted givens or their
// solution (following the corners found in this very frame), conflicts,
// and the HUD.
func (s *session) draw(frame *gocv.Mat, g vision.Grid, located bool, i int) FrameInfo {
	info := FrameInfo{Index: i, Located: located}
	pic := pipeline.Picture{}
	status := s.status(located)
	// The voted puzzle stays on screen through a failed recognition (a
	// blurred frame) as long as the grid is followed and its ink print
	// does not change; a page that may be new waits for a reading.
	ready := s.have && s.confirm < 0 && len(s.cur.puzzle.Cells) > 0
	pen := ready && located && s.penPage()
	if located {
		pic.Outline = true
		if ready {
			// Locate knows neither the box shape nor which way up the
			// page is, nor whether the outline it follows is the grid's;
			// the recognition does.
			g = s.puzzleGrid(g)
			g.Shape = s.cur.puzzle.Shape
			g.Bend = s.cur.bend
			pic.Puzzle = s.cur.puzzle
			pic.Conflicts = s.cur.verdict.Conflicts
			pic.Check = s.cur.verdict.Check
			pic.Symbols, _ = sudoku.ParseSymbols(s.cur.raw.Symbols)
			info.Given = sudoku.CellString(s.cur.puzzle.Cells)
			info.Box = [2]int{g.Shape.BoxRows, g.Shape.BoxCols}
			info.Conflicts = s.cur.verdict.Conflicts
			switch {
			case pen:
				s.penPicture(&info, &pic)
			case s.hint.on:
				hintPicture(&pic, s.cur.puzzle)
			case s.auto && len(s.cur.verdict.Solution.Cells) > 0:
				pic.Solution = s.cur.verdict.Solution
				info.Solution = sudoku.CellString(pic.Solution.Cells)
			default:
				pic.ShowGivens = true
			}
		}
	}
	mode := "auto-solve on"
	if !s.auto {
		mode = "auto-solve off"
	}
	hud := []string{fmt.Sprintf("%.0f fps  %s (Space)  hint (H)", s.fps, mode), status}
	if pen {
		hud, status = s.penHUD(status)
	}
	if s.grids > 1 && s.gridAt > 0 {
		hud = append(hud, fmt.Sprintf("grid %d of %d (Tab: next)", s.gridAt, s.grids))
		info.Grids, info.GridAt = s.grids, s.gridAt
	}
	if s.hint.on && !pen {
		hud = append(hud, s.hintHUD()...)
	}
	info.Status = status
	info.Auto = s.auto
	if located {
		for k, c := range g.Corners {
			info.Corners[k] = [2]float64{float64(c.X), float64(c.Y)}
		}
	}
	if s.opts.Undrawn {
		return info
	}
	if err := pipeline.Draw(frame, g, located, pic); err != nil {
		s.logf("draw frame %d: %v", i, err)
	}
	if pen {
		if err := s.drawPen(frame, g); err != nil {
			s.logf("draw entries, frame %d: %v", i, err)
		}
		if s.penHint.on {
			if err := s.drawPenHint(frame, g); err != nil {
				s.logf("draw hint, frame %d: %v", i, err)
			}
		}
	} else if s.hint.on && located && ready {
		text, err := s.drawHint(frame, g)
		if err != nil {
			s.logf("draw hint, frame %d: %v", i, err)
		}
		info.Hint = text
	}
	if err := overlay.HUD(frame, hud); err != nil {
		s.logf("draw HUD, frame %d: %v", i, err)
	}
	return info
}

// puzzleGrid is the grid of the puzzle in view in a frame whose
// followed outline is g: the grid the latest reading found, carried
// along with the outline (see view.inner), turned as the page lies.
func (s *session) puzzleGrid(g vision.Grid) vision.Grid {
	if !s.have || s.cur.inner == nil || g.Side <= 0 {
		return g.Turn(s.cur.turns)
	}
	in, ok := gridOn(mapQuad(g.HInv, *s.cur.inner), s.cur.innerSide)
	if !ok {
		return g.Turn(s.cur.turns)
	}
	return in // the reading's corners are already turned as the page lies
}

// status is the HUD message for this frame.
func (s *session) status(located bool) string {
	// failed: the latest recognition read no puzzle, and says why.
	failed := s.have && len(s.cur.raw.Puzzle.Cells) == 0 && s.cur.raw.Status != ""
	if !located {
		if s.cutOff {
			return pipeline.StatusMoveBack
		}
		if failed {
			return s.cur.raw.Status // e.g. move closer, too dark
		}
		return pipeline.StatusNoGrid
	}
	if s.confirm >= 0 || len(s.cur.puzzle.Cells) == 0 {
		if failed {
			return s.cur.raw.Status // move closer, too blurry, no grid
		}
		return pipeline.StatusReading
	}
	v := s.cur.verdict
	if v.Status == pipeline.StatusConflict && len(v.Conflicts) > 0 {
		return fmt.Sprintf("%s: %d conflicting cells", v.Status, len(v.Conflicts))
	}
	if v.Status == pipeline.StatusCheck {
		return pipeline.CheckMessage(v.Check, s.cur.puzzle.N())
	}
	return v.Status
}

// handleKey reacts to a key press; it reports whether to quit.
func (s *session) handleKey(key, i int, frame gocv.Mat, sum *Summary) bool {
	if key < 0 {
		return false
	}
	switch key & 0xff {
	case 'q', 'Q', keyEsc:
		return true
	case keySpace:
		if s.penPage() {
			s.fill = !s.fill // a started page: fill the empty cells, or stop
		} else {
			s.auto = !s.auto
		}
	case 'c', 'C':
		s.checking = !s.checking
	case keyTab:
		// Another puzzle on the page: follow it, and read it before
		// anything is drawn into it.
		if s.nextGrid() {
			s.track.forget()
			s.unsettle(i + 1)
			s.switched, s.refollow, s.tabbed = true, true, true
			s.chosen, s.tabAt = true, i+1
		}
	case 'h', 'H':
		if s.penPage() {
			s.togglePenHint()
		} else {
			s.toggleHint()
		}
	case 's', 'S':
		files, err := s.save(frame)
		if err != nil {
			s.logf("save: %v", err)
			break
		}
		sum.Saved = append(sum.Saved, files...)
		s.logf("saved %s", strings.Join(files, ", "))
	}
	return false
}

// save writes the annotated frame as PNG and the recognised puzzle (and its
// solution, if any) as text next to it.
func (s *session) save(frame gocv.Mat) ([]string, error) {
	dir := s.opts.SaveDir
	if dir == "" {
		dir = "."
	}
	base := filepath.Join(dir, "sudokuar-"+time.Now().Format("20060102-150405.000"))
	img := base + ".png"
	if !gocv.IMWrite(img, frame) {
		return nil, fmt.Errorf("write %s: OpenCV could not write it", img)
	}
	files := []string{img}
	if s.have && len(s.cur.puzzle.Cells) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "# puzzle (%s boxes) read by sudokuar from frame %d\n%s\n", s.cur.puzzle.Shape, s.cur.frame, s.cur.puzzle.Pretty())
		if sol := s.cur.verdict.Solution; len(sol.Cells) > 0 {
			fmt.Fprintf(&b, "# solution\n%s\n", sol.Pretty())
		} else {
			fmt.Fprintf(&b, "# %s\n", s.cur.verdict.Status)
		}
		txt := base + ".txt"
		if err := os.WriteFile(txt, []byte(b.String()), 0o644); err != nil {
			return files, fmt.Errorf("write %s: %w", txt, err)
		}
		files = append(files, txt)
	}
	return files, nil
}
