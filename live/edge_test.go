package live

import (
	"image"
	"image/color"
	"math"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/held"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// TestPageCutGridWhole holds real photos of ../shared's others-train up to
// the near camera (held.Frame: 1280×720, the photo filling 85% of its
// height) at a moment of mkvideo's motion when a corner of the photo is
// out of the frame but its grid is well inside. "Move back" is the grid's
// to say, not the page's: the grid is read and its solution drawn, and
// from the first reading on the HUD never says "move back". The same
// frame moved right until the grid crosses the frame's edge says "move
// back", and nothing is drawn into it.
func TestPageCutGridWhole(t *testing.T) {
	needModel(t)
	dir := testenv.Shared(t, "datasets/others-train")
	for _, tc := range edgePhotos {
		t.Run(tc.name, func(t *testing.T) {
			hp := holdUp(t, dir, tc.name, tc.frame)
			p, img, truth, photo, whole, hm := hp.p, hp.img, hp.truth, hp.photo, hp.frame, hp.hm
			const w, h = heldW, heldH
			// The frame shows what the test says: the photo's corner
			// out, the grid at least 30 px inside.
			page := [4]gocv.Point2f{{X: 0, Y: 0}, {X: float32(img.Cols()), Y: 0}, {X: float32(img.Cols()), Y: float32(img.Rows())}, {X: 0, Y: float32(img.Rows())}}
			pageIn, _, _ := margin(hm, page, w, h)
			gridIn, gridLeft, gridRight := margin(hm, photo.Grid.Corners, w, h)
			if pageIn >= 0 || gridIn < 15 {
				t.Fatalf("frame %d: the photo is %.0f px inside the frame, its grid %.0f px: want the photo cut, the grid whole", tc.frame, pageIn, gridIn)
			}
			// Moved right until half the grid is beyond the frame's
			// edge.
			cut := gocv.NewMat()
			defer cut.Close()
			m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
			defer m.Close()
			for i, v := range []float64{1, 0, w - 1 - gridRight + (gridRight-gridLeft)/2, 0, 1, 0} {
				m.SetDoubleAt(i/3, i%3, v)
			}
			gocv.WarpAffineWithParams(whole, &cut, m, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})

			want := sudoku.CellString(truth.Cells)
			solved, wholeFrames := 0, 0
			var first = -1
			var moveBack, drawnCut, cutFrames int
			src := &seqSource{imgs: []gocv.Mat{whole, cut}, count: []int{30, 20}}
			src.ready = func(at int) bool {
				wholeFrames++
				return at > 0 || solved >= 5 || wholeFrames > 400
			}
			hp.ran = true // Run closes the recogniser
			_, err := Run(src, nil, Options{
				Every: 5, Undrawn: true,
				NewRecognizer: func() (Recognizer, error) { return p, nil },
				OnFrame: func(f FrameInfo) {
					if src.at == 0 {
						if f.Solution != "" && f.Given == want {
							solved++
							if first < 0 {
								first = f.Index
							}
						}
						if first >= 0 && f.Status == pipeline.StatusMoveBack.String() {
							moveBack++
						}
						return
					}
					cutFrames++
					if f.Status != pipeline.StatusMoveBack.String() {
						t.Errorf("frame %d, the grid across the edge: HUD %q, want %q", f.Index, f.Status, pipeline.StatusMoveBack)
					}
					if f.Solution != "" || f.Given != "" {
						drawnCut++
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if solved == 0 {
				t.Errorf("the page cut by the edge, its grid whole: never drawn solved")
			}
			if moveBack > 0 {
				t.Errorf("the page cut by the edge, its grid whole: %d frames after the first drawn solved say %q", moveBack, pipeline.StatusMoveBack)
			}
			if cutFrames == 0 {
				t.Fatal("no frame of the grid across the edge was shown")
			}
			if drawnCut > 0 {
				t.Errorf("the grid across the edge: drawn into on %d of %d frames", drawnCut, cutFrames)
			}
		})
	}
}

// TestGridGrazingEdge holds real photos of ../shared's others-train up to
// the near camera (as TestPageCutGridWhole does) moved left until their
// grid's leftmost corner is within edgeMargin of the frame's edge, the
// grid whole. The grid is read whole and solved, and from the first frame
// drawn solved on the HUD never says "move back" (the edge does not cut
// the grid), nor is anything but the solution read drawn.
func TestGridGrazingEdge(t *testing.T) {
	needModel(t)
	dir := testenv.Shared(t, "datasets/others-train")
	for _, tc := range edgePhotos {
		t.Run(tc.name, func(t *testing.T) {
			hp := holdUp(t, dir, tc.name, tc.frame)
			p, truth, photo, frame, hm := hp.p, hp.truth, hp.photo, hp.frame, hp.hm
			const w, h = heldW, heldH
			_, gridLeft, _ := margin(hm, photo.Grid.Corners, w, h)
			const at = 1 // the grid's leftmost corner, in frame pixels
			grazing := gocv.NewMat()
			defer grazing.Close()
			m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
			defer m.Close()
			for i, v := range []float64{1, 0, at - gridLeft, 0, 1, 0} {
				m.SetDoubleAt(i/3, i%3, v)
			}
			gocv.WarpAffineWithParams(frame, &grazing, m, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
			// The frame shows what the test says: the grid whole, a
			// corner within edgeMargin of the edge.
			in, _, _ := margin(shiftedX(hm, at-gridLeft), photo.Grid.Corners, w, h)
			if in < 0 || in >= edgeMargin {
				t.Fatalf("frame %d moved: the grid %.1f px inside the frame, want 0 to %d", tc.frame, in, edgeMargin)
			}

			want := sudoku.CellString(truth.Cells)
			solved, shown := 0, 0
			first := -1
			var moveBack, wrong int
			src := &seqSource{imgs: []gocv.Mat{grazing}, count: []int{30}}
			src.ready = func(int) bool {
				shown++
				return solved >= 5 || shown > 400
			}
			hp.ran = true // Run closes the recogniser
			_, err := Run(src, nil, Options{
				Every: 5, Undrawn: true,
				NewRecognizer: func() (Recognizer, error) { return p, nil },
				OnFrame: func(f FrameInfo) {
					if f.Solution != "" {
						if f.Given != want {
							wrong++
						}
						solved++
						if first < 0 {
							first = f.Index
						}
					}
					if first >= 0 && f.Status == pipeline.StatusMoveBack.String() {
						moveBack++
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if solved == 0 {
				t.Errorf("the grid grazing the edge: never drawn solved")
			}
			if wrong > 0 {
				t.Errorf("the grid grazing the edge: %d of %d frames drawn with other givens than the photo's", wrong, solved)
			}
			if moveBack > 0 {
				t.Errorf("the grid grazing the edge: %d frames after the first drawn solved say %q", moveBack, pipeline.StatusMoveBack)
			}
		})
	}
}

// shiftedX is the homography h followed by a move of dx pixels along x.
func shiftedX(h [9]float64, dx float64) [9]float64 {
	for k := 0; k < 3; k++ {
		h[k] += dx * h[6+k]
	}
	return h
}

// margin is how far inside a w×h frame the quadrilateral q of the photo,
// mapped by hm, lies at its closest to an edge (negative: beyond it), and
// its leftmost and rightmost x.
func margin(hm [9]float64, q [4]gocv.Point2f, w, h int) (in, left, right float64) {
	in, left, right = math.Inf(1), math.Inf(1), math.Inf(-1)
	for _, c := range q {
		x, y := vision.Apply(hm, float64(c.X), float64(c.Y))
		in = math.Min(in, math.Min(math.Min(x, float64(w-1)-x), math.Min(y, float64(h-1)-y)))
		left, right = math.Min(left, x), math.Max(right, x)
	}
	return in, left, right
}

// TestGridCut: "move back" (gridCut) is said only of a grid the frame's
// edge really cuts. A grid grazing the edge (its corners within
// edgeMargin of it) is cut while the latest reading is not whole, never
// while it read and solved the whole puzzle; a grid well beyond the edge,
// or clipped by it to a part of the grid read, is cut whatever was read
// before; a page cut by the edge around a grid a reading placed inside it
// is not.
func TestGridCut(t *testing.T) {
	const w, h, side = 640, 480, 450
	quad := func(x0, y0, x1, y1 float32) *[4]gocv.Point2f {
		return &[4]gocv.Point2f{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	solved := pipeline.Result{Found: true, Puzzle: sudoku.NewGrid(s9), Status: pipeline.StatusSolved}
	blurred := pipeline.Result{Found: true, Status: pipeline.StatusBlurry}
	several := pipeline.Result{Found: true, Puzzle: sudoku.NewGrid(s9), Status: pipeline.StatusSeveral}
	tests := []struct {
		name    string
		outline *[4]gocv.Point2f // followed in this frame
		placed  *[4]gocv.Point2f // the grid read, carried into this frame (nil: the outline; no reading: not placed)
		read    *[4]gocv.Point2f // the grid read, in the frame read (nil: placed)
		raw     *pipeline.Result // the latest reading (nil: none)
		confirm int
		cut     bool // the latest reading found its grid cut (view.cutOff)
		want    bool
	}{
		{"well inside, nothing read", quad(100, 50, 540, 430), nil, nil, nil, -1, false, false},
		{"grazing the edge, nothing read", quad(2, 50, 540, 430), nil, nil, nil, -1, false, true},
		{"grazing the edge, read whole and solved", quad(2, 50, 540, 430), nil, nil, &solved, -1, false, false},
		{"on two edges, read whole and solved", quad(-3, 50, 540, 477), nil, nil, &solved, -1, false, false},
		{"grazing the edge, read whole and solved, page may have changed", quad(2, 50, 540, 430), nil, nil, &solved, 12, false, true},
		{"grazing the edge, read whole and solved, its grid cut", quad(2, 50, 540, 430), nil, nil, &solved, -1, true, true},
		{"grazing the edge, blurred reading", quad(2, 50, 540, 430), nil, nil, &blurred, -1, false, true},
		{"grazing the edge, reading with several solutions", quad(2, 50, 540, 430), nil, nil, &several, -1, false, true},
		{"grazing the edge, moved closer since read whole", quad(2, 30, 600, 450), nil, quad(20, 50, 540, 430), &solved, -1, false, false},
		{"well beyond the edge, read whole and solved before", quad(-120, 50, 420, 430), nil, quad(2, 50, 540, 430), &solved, -1, false, true},
		{"clipped by the edge, read whole and solved before", quad(0, 50, 300, 430), nil, quad(2, 50, 540, 430), &solved, -1, false, true},
		{"page beyond the edge, grid placed inside", quad(-60, -40, 600, 470), quad(60, 40, 500, 420), nil, &several, -1, false, false},
		{"page beyond the edge, grid placed grazing it, read whole", quad(-60, -40, 600, 470), quad(2, 40, 500, 420), nil, &solved, -1, false, false},
		{"page beyond the edge, grid placed grazing it, not whole", quad(-60, -40, 600, 470), quad(2, 40, 500, 420), nil, &several, -1, false, true},
		{"page beyond the edge, grid placed beyond it", quad(-200, -40, 600, 470), quad(-100, 40, 500, 420), quad(2, 40, 500, 420), &solved, -1, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := gridOn(*tc.outline, side)
			if !ok {
				t.Fatal("no outline")
			}
			s := session{page: waitingFrom(tc.confirm)}
			if tc.raw != nil {
				placed := tc.outline
				if tc.placed != nil {
					placed = tc.placed
				}
				read := placed
				if tc.read != nil {
					read = tc.read
				}
				in := mapQuad(g.H, *placed)
				s.cur = view{raw: *tc.raw, inner: &in, innerSide: side, cutOff: tc.cut}
				s.cur.raw.Grid = vision.Grid{Corners: *read, Side: side}
			}
			if got := s.gridCut(g, w, h); got != tc.want {
				t.Errorf("gridCut = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestReadJobCut: a recognition of a frame whose grid reached the edge
// (job.cutOff) reports "move back" unless its own reading read the whole
// puzzle and solved it, on a grid not clipped to a part of the one last
// read whole (view.whole).
func TestReadJobCut(t *testing.T) {
	const w, h, side = 640, 480, 450
	quad := func(x0, y0, x1, y1 float32) [4]gocv.Point2f {
		return [4]gocv.Point2f{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	grazing, clipped := quad(2, 50, 540, 430), quad(0, 50, 300, 430)
	tests := []struct {
		name   string
		grid   [4]gocv.Point2f  // followed, and found by the reading
		status pipeline.Status  // the reading's
		read   *[4]gocv.Point2f // last read whole (nil: none)
		want   bool
	}{
		{"grazing, read whole and solved", grazing, pipeline.StatusSolved, nil, false},
		{"grazing, read whole and solved as before", grazing, pipeline.StatusSolved, &grazing, false},
		{"grazing, several solutions", grazing, pipeline.StatusSeveral, nil, true},
		{"clipped, read whole and solved", clipped, pipeline.StatusSolved, &grazing, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := gridOn(tc.grid, side)
			if !ok {
				t.Fatal("no grid")
			}
			rec := fixedReading{Found: true, Grid: g, Puzzle: sudoku.NewGrid(s9), Status: tc.status}
			fz := newFuser(fuseDepth, nil)
			defer fz.Close()
			ink := newPrinter()
			defer ink.Close()
			j := job{frame: gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 110, 110, 0), h, w, gocv.MatTypeCV8UC3), loc: g, cutOff: true}
			readJob(rec, fz, ink, &j, tc.read)
			if j.cutOff != tc.want {
				t.Errorf("cutOff = %v, want %v", j.cutOff, tc.want)
			}
		})
	}
}

// fixedReading is a recogniser that reads every frame as the Result it is.
type fixedReading pipeline.Result

func (r fixedReading) ProcessPick(gocv.Mat, vision.Pick) pipeline.Result { return pipeline.Result(r) }
func (fixedReading) Close() error                                        { return nil }

// The near camera of TestPageCutGridWhole and TestGridGrazingEdge.
const heldW, heldH = 1280, 720

// edgePhotos are their photos of others-train, each at a frame of
// mkvideo's 60 where a corner of the photo is out of the frame and its
// grid well inside.
var edgePhotos = []struct {
	name  string
	frame int
}{
	{"es2812-21", 4},
	{"es2812-47", 6},
	{"es2812-19", 35},
}

// heldPhoto is a real photo, read as a still by a fresh pipeline, and the
// frame of the near camera holding it up at one moment of mkvideo's
// motion, with that frame's homography from the photo.
type heldPhoto struct {
	p     *pipeline.Pipeline
	ran   bool // a Run was given p, and closes it
	img   gocv.Mat
	truth sudoku.Grid
	photo pipeline.Result
	frame gocv.Mat
	hm    [9]float64
}

// holdUp makes the heldPhoto of dir's photo name at frame f of 60; the
// test's cleanup closes it.
func holdUp(t *testing.T, dir, name string, f int) *heldPhoto {
	t.Helper()
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hp := &heldPhoto{p: p}
	t.Cleanup(func() {
		if !hp.ran {
			p.Close()
		}
	})
	hp.img = gocv.IMRead(filepath.Join(dir, name+".jpg"), gocv.IMReadColor)
	t.Cleanup(func() { hp.img.Close() })
	if hp.img.Empty() {
		t.Fatalf("%s: not an image", name)
	}
	if hp.truth, err = sudoku.ReadDatFile(filepath.Join(dir, name+".dat")); err != nil {
		t.Fatal(err)
	}
	if hp.photo = p.Process(hp.img); !hp.photo.Found {
		t.Fatalf("%s: no grid found in the photo itself", name)
	}
	if hp.frame, hp.hm, err = held.Frame(hp.img, heldW, heldH, 0.85, 1, f); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hp.frame.Close() })
	return hp
}
