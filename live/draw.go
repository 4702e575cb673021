package live

import (
	"fmt"

	"github.com/sudokuar/sudokuar/overlay"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
	"gocv.io/x/gocv"
)

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
	ready := !s.page.waiting() && len(s.cur.puzzle.Cells) > 0
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
	if s.cur.inner == nil || g.Side <= 0 {
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
	failed := len(s.cur.raw.Puzzle.Cells) == 0 && s.cur.raw.Status != pipeline.StatusNone
	if !located {
		if s.atEdge() {
			return pipeline.StatusMoveBack.String()
		}
		if failed {
			return s.cur.raw.Status.String() // e.g. move closer, too dark
		}
		return pipeline.StatusNoGrid.String()
	}
	if s.page.waiting() || len(s.cur.puzzle.Cells) == 0 {
		if failed {
			return s.cur.raw.Status.String() // move closer, too blurry, no grid
		}
		return pipeline.StatusReading.String()
	}
	v := s.cur.verdict
	if v.Status == pipeline.StatusConflict && len(v.Conflicts) > 0 {
		return fmt.Sprintf("%s: %d conflicting cells", v.Status, len(v.Conflicts))
	}
	if v.Status == pipeline.StatusCheck {
		return pipeline.CheckMessage(v.Check, s.cur.puzzle.N())
	}
	return v.Status.String()
}
