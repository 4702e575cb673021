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
	for _, tc := range []struct {
		name  string
		frame int // of mkvideo's 60
	}{
		{"es2812-21", 4},
		{"es2812-47", 6},
		{"es2812-19", 35},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := pipeline.New(pipeline.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ran := false // Run closes the recogniser
			defer func() {
				if !ran {
					p.Close()
				}
			}()
			img := gocv.IMRead(filepath.Join(dir, tc.name+".jpg"), gocv.IMReadColor)
			if img.Empty() {
				t.Fatalf("%s: not an image", tc.name)
			}
			defer img.Close()
			truth, err := sudoku.ReadDatFile(filepath.Join(dir, tc.name+".dat"))
			if err != nil {
				t.Fatal(err)
			}
			photo := p.Process(img)
			if !photo.Found {
				t.Fatalf("%s: no grid found in the photo itself", tc.name)
			}
			const w, h = 1280, 720
			whole, hm, err := held.Frame(img, w, h, 0.85, 1, tc.frame)
			if err != nil {
				t.Fatal(err)
			}
			defer whole.Close()
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
			ran = true
			_, err = Run(src, nil, Options{
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
						if first >= 0 && f.Status == pipeline.StatusMoveBack {
							moveBack++
						}
						return
					}
					cutFrames++
					if f.Status != pipeline.StatusMoveBack {
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
