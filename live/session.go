package live

import (
	"time"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
)

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

	auto bool
	cur  view
	page page // what is known of the page in view (page.go)
	busy bool // a job is with the recogniser
	want bool // a routine recognition is due as soon as the recogniser is free
	lost int  // frames since the grid was last followed
	fps  float64
	hint hintState // the H key: logical steps drawn on the paper
	// On a page the player has started with a pen: checking (C) circles
	// the wrong entries, fill (Space) writes the solution in the cells
	// without ink, penHint (H) is the next step from the entries.
	checking, fill bool
	penHint        penHint

	// The grid followed when the frame holds several: the centre of the
	// one followed last, moving with it from frame to frame (Tab switches).
	focus   gocv.Point2f
	focusBy focusKind
	// tabAt is the first frame after the user last chose a grid (Tab):
	// readings of earlier frames do not aim the focus.
	tabAt  int
	grids  int // grids in view in the last frame (for the HUD)
	gridAt int // which of them is followed, counted from 1 left to right
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
	sum.LastStatus = s.cur.verdict.Status
	if sum.LastStatus == pipeline.StatusNone {
		sum.LastStatus = s.cur.raw.Status
	}
	return sum
}

func (s *session) accept(v view, sum *Summary) {
	s.busy = false
	if v.id != s.cur.id {
		sum.Puzzles++
	}
	s.cur = v
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
	if s.atEdge() && v.inner != nil {
		// A reading placed the grid on an outline that reaches the
		// frame's edge (a page cut by it): follow again, so the grid,
		// not the page, says whether to move back (gridCut).
		s.refollow()
	}
	// A reading taken since the view changed settles what it is.
	s.page = s.page.next(pageEvent{kind: readingIn, frame: v.frame, read: len(v.raw.Puzzle.Cells) > 0})
	sum.Recognitions++
	if v.verdict.Status == pipeline.StatusSolved && len(v.puzzle.Cells) > 0 {
		sum.Solved++
	}
	if s.opts.OnRecognition != nil {
		s.opts.OnRecognition(s.report(v))
	}
}

// report is what a script sees of one recognition: where the grid was
// and how long it took from the raw result; the givens, solution and
// status from the vote, except that a frame whose grid reached the edge
// says "move back", as the HUD did.
func (s *session) report(v view) Recognition {
	r := v.raw
	if len(v.puzzle.Cells) > 0 && r.Found && len(r.Puzzle.Cells) > 0 {
		r.Puzzle = v.puzzle
		r.Solved = v.verdict.Solution
		r.Status = v.verdict.Status
		r.Conflicts = v.verdict.Conflicts
		r.Check = pipeline.CheckList(v.verdict.Check, v.puzzle, v.conf, v.verdict.Status, r.Check)
	}
	// The entries as voted, never one frame's: that frame's own marks
	// were judged against its own solution, not the vote's.
	r.Pen = v.pen
	r.SetMarks(v.marks)
	rec := Recognition{Result: r, Frame: v.frame, Fused: v.fused}
	if v.raw.Found && len(v.raw.Puzzle.Cells) > 0 {
		rec.Own = &Reading{Given: v.raw.Given(), Status: v.raw.Status}
	}
	if v.cutOff {
		// What the HUD said of that frame (status): nothing was drawn
		// into a grid reaching the edge.
		rec.Status = pipeline.StatusMoveBack
	}
	return rec
}
