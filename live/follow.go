package live

import (
	"errors"

	"github.com/sudokuar/sudokuar/vision"
	"gocv.io/x/gocv"
)

// changedBelow is the ink-print similarity under which the puzzle in view
// is taken to have changed: the same page in motion stays far above it, a
// swapped page far below (docs/performance.md, Tuning).
const changedBelow = 0.5

// sameAbove is the ink-print similarity from which the puzzle in view is
// taken to be the one last sent for recognition without asking again:
// the same page in motion stays above it; two pages of one book with
// givens in nearly the same cells can come close to changedBelow.
const sameAbove = 0.75

// follow finds the grid in frame, or carries the one followed into it by
// optical flow, and takes the ink prints of an n×n puzzle there (see
// alike), keeping the area of the first in s.followedArea.
func (s *session) follow(frame gocv.Mat, n int) (g vision.Grid, print, alt inkPrint, err error) {
	g, err = s.locate(frame)
	jumped := err == nil && s.followedErr == nil && s.followed.Side > 0 &&
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
		s.followedErr = errCutOff
		s.track.forget()
		return errCutOff
	}
	return nil
}

// hold draws nothing into the grid from frame i on until a reading of
// frame i or later is in; unlike unsettle, the vote is kept.
func (s *session) hold(i int) {
	s.page = s.page.next(pageEvent{kind: wavered, frame: i})
	s.best.reset() // the frames before i may show another page
}

// unsettle marks the puzzle in view as unknown from frame i on.
// The next recognition starts a fresh vote: a page that came back into
// view, or whose ink changed, may be another puzzle, and nothing read of
// the old one may be drawn onto it or outvote its first readings.
func (s *session) unsettle(i int) {
	s.page = s.page.next(pageEvent{kind: pageChange, frame: i})
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

// refollow forgets the grid followed last, so that the next frame finds
// it afresh even if nothing moved: the user chose another grid, or a
// reading placed the grid on an outline reaching the frame's edge.
func (s *session) refollow() {
	s.followed, s.followedErr, s.followedPrint, s.followedAlt = vision.Grid{}, nil, nil, nil
}

// atEdge reports whether the grid was last seen reaching the frame's
// edge (cut off: "move back").
func (s *session) atEdge() bool { return errors.Is(s.followedErr, errCutOff) }
