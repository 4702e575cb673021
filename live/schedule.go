package live

import (
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
	"gocv.io/x/gocv"
)

// locateAndSchedule follows the grid in this frame and hands a frame to
// the recogniser when a recognition is due and the recogniser is free:
// every Every-th frame once the page in view is read, and until then
// (at the start, when the grid comes back into view or its ink print says
// the page changed) whenever the recogniser is free, the sharpest frame
// since it took the last one. Until a recognition of the page in view is
// in, nothing is drawn into the grid (it may be another puzzle).
func (s *session) locateAndSchedule(frame gocv.Mat, i int) (vision.Grid, error) {
	n := 9
	if s.cur.puzzle.Shape.N() > 0 {
		n = s.cur.puzzle.Shape.N()
	}
	var g vision.Grid
	var err error
	var print, alt inkPrint
	if s.still.same(frame) && (s.followedErr != nil || len(s.followedPrint) == n*n) {
		// Nothing moved since the frame last followed: its grid and
		// print stand, and following costs nothing.
		g, err, print, alt = s.followed, s.followedErr, s.followedPrint, s.followedAlt
	} else {
		g, print, alt, err = s.follow(frame, n)
		s.still.keep()
		s.followed, s.followedErr, s.followedPrint, s.followedAlt = g, err, print, alt
	}
	if err == nil {
		err = s.recheck(frame, g, print, alt, i)
		s.lost = 0
		s.focus = s.aim(g)
		if s.focusBy == noFocus {
			s.focusBy = byFollowing
		}
	} else if !s.atEdge() || !s.aimed() {
		// A page cut by the frame's edge whose grid a reading placed
		// is in view, not lost: its ink print says whether it changed
		// when its grid is whole again.
		s.lost++
		if s.lost >= lostAfter {
			s.focusBy = noFocus
		}
	}
	// When to read: until the page in view is read (see read), as often
	// as the recogniser can, from the sharpest frame since it took the
	// last one; once read, or while nothing is in view, every Every-th
	// frame, the current one.
	eager := !s.read() && !s.nothingInView()
	if i%s.opts.Every == 0 {
		s.want = true // kept until the recogniser is free
	}
	j := s.job(g, err, i)
	area := s.followedArea
	if eager {
		score := float64(unsharp)
		if err == nil || s.atEdge() {
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
		j.fresh, j.tabbed = s.page.fresh(), s.page.state == chosen
		s.jobs <- j
		s.busy, s.want = true, false
		s.page = s.page.next(pageEvent{kind: asked, frame: j.index})
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
	j := job{index: i, pick: s.readPick(), cutOff: s.atEdge()}
	if err == nil || s.atEdge() {
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
// solution be shown), and no other grid is chosen since. A page with the
// player's ink is read once its entries are too: none is left to check,
// or the pen vote is full (a scribble stays "check" however often it is
// read, and the recogniser settles back to its cadence).
func (s *session) read() bool {
	if s.page.waiting() || s.cur.verdict.Status != pipeline.StatusSolved {
		return false
	}
	return len(s.cur.marks.EntryCheck) == 0 || s.cur.penFull
}

// nothingInView reports whether the frames show no grid: none followed
// for lostAfter frames, and the latest reading found none either (an
// empty desk). Reading every Every-th frame then notices a page coming
// into view that the display loop cannot follow yet (a far one); one it
// follows makes the session eager again at once.
func (s *session) nothingInView() bool {
	return s.lost >= lostAfter && s.cur.raw.Status == pipeline.StatusNoGrid
}
