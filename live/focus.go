package live

import (
	"sort"

	"github.com/sudokuar/sudokuar/vision"
	"gocv.io/x/gocv"
)

// pick is the choice of grid for this frame: the one followed so far, or
// the most Sudoku-like.
func (s *session) pick() vision.Pick {
	if s.focusBy != noFocus {
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
	if s.focusBy == byUser || (s.focusBy == byFollowing && s.aimed()) {
		return vision.Pick{Near: s.focus, ByPoint: true}
	}
	return vision.Pick{}
}

// aimed reports whether the latest reading found the grid in view and
// was taken since the user last chose a grid.
func (s *session) aimed() bool {
	return s.cur.inner != nil && s.cur.frame >= s.tabAt
}

// settled reports whether the grid in view is the one the latest reading
// found, followed since: a reading found it since the user last chose a
// grid, and nothing since says the page may have changed (no fresh vote
// or tab pending, no frame held for a reading). Only then is a
// recognition told where to look; the first reading of a page, and one
// after a change, search the whole frame.
func (s *session) settled() bool {
	return s.aimed() && !s.page.waiting()
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
	s.focus = quadCentre(grids[(at+1)%len(grids)].Corners)
	return true
}

// focusKind says which grid the session follows when the frame holds
// several.
type focusKind int

const (
	noFocus     focusKind = iota // the most Sudoku-like grid
	byFollowing                  // the one followed so far, by its centre (session.focus)
	byUser                       // the one the user chose with Tab
)
