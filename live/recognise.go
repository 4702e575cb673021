package live

import (
	"slices"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
	"gocv.io/x/gocv"
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
	fused *Reading
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
	// penFull: the pen vote holds as many readings as it votes over.
	penFull bool
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
	// stood is how many recognitions in a row the vote has held the
	// givens voted (see pipeline.Stream.Stood).
	stood, lastVoted := 0, ""
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
		if j.tabbed {
			bigN = 0 // the user chose this grid: a smaller one may be shown
		}
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
			if fresh || j.fresh || given != lastVoted {
				stood, lastVoted = 0, given
			}
			stood++
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
			raw := sudoku.CellString(res.Puzzle.Cells)
			larger := 0
			if count+1-bigAt <= pipeline.ShrinkReadings {
				larger = bigN
			}
			stream := &pipeline.Stream{Stood: stood, Recent: recent, Repaired: len(res.Changed) > 0, Disputed: voter.Disputed(), Larger: larger}
			ev := pipeline.Evidence{Conf: v.conf, Doubt: doubt, CellPx: cellPx, Sure: voter.Sure(viewsRho), Dim: res.Grid.Lift > 1, Stream: stream}
			v.verdict = pipeline.Gate(voted, rules, ev)
			// Held back by the gate's rule on the cells: the page's mean
			// view may settle it.
			v.conf, v.verdict, v.fused = fz.recheck(voted, rules, v.verdict, ev, res.Grid)
			if !slices.Contains(recent, raw) {
				recent = append(recent, raw)
				if len(recent) > pipeline.RecentReadings {
					recent = recent[1:]
				}
			}
		}
		count++
		if v.verdict.Status == pipeline.StatusSolved && v.puzzle.N() >= bigN {
			bigN, bigAt = v.puzzle.N(), count
		}
		if len(res.Puzzle.Cells) > 0 {
			// The entries judged against the vote's solution as the gate
			// left it (none: nothing wrong).
			v.pen, v.penFull = pens.Vote(), pens.Full()
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
