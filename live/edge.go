package live

import (
	"errors"
	"math"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
	"gocv.io/x/gocv"
)

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
