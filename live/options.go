package live

import (
	"time"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
	"gocv.io/x/gocv"
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
	// recognition: the voted givens and their solution, and the index of
	// the frame that was recognised.
	OnRecognition func(Recognition)
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
	LastStatus   pipeline.Status
	Saved        []string // files written by the S key
}

// FPS is the average display rate over the session.
func (s Summary) FPS() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Frames) / s.Elapsed.Seconds()
}
