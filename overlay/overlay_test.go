package overlay

import (
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/synth"
	"github.com/sudokuar/sudokuar/vision"
)

// gridFrame draws a white w×h frame with a plain 9×9 grid (thick box lines)
// in the square at (x0, y0) of the given side, and finds it with vision;
// the caller closes the Mat.
func gridFrame(t testing.TB, w, h, x0, y0, side int) (gocv.Mat, vision.Grid) {
	t.Helper()
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(235, 235, 235, 0), h, w, gocv.MatTypeCV8UC3)
	black := color.RGBA{0, 0, 0, 255}
	for k := 0; k <= 9; k++ {
		th := 2
		if k%3 == 0 {
			th = 5
		}
		o := int(math.Round(float64(k) * float64(side) / 9))
		gocv.Line(&m, image.Pt(x0, y0+o), image.Pt(x0+side, y0+o), black, th)
		gocv.Line(&m, image.Pt(x0+o, y0), image.Pt(x0+o, y0+side), black, th)
	}
	d := vision.NewDetector(vision.Options{Sizes: []int{9}})
	defer d.Close()
	g, _, err := d.Analyze(m)
	if err != nil {
		m.Close()
		t.Fatalf("test grid not found: %v", err)
	}
	return m, g
}

func puzzlePair() (sudoku.Grid, sudoku.Grid) {
	sh := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	p, s := sudoku.NewGrid(sh), sudoku.NewGrid(sh)
	for r := 0; r < 9; r++ {
		for c := 0; c < 9; c++ {
			v := (r*3+r/3+c)%9 + 1 // a valid solved grid
			s.Set(r, c, v)
			if (r+c)%2 == 0 {
				p.Set(r, c, v)
			}
		}
	}
	return p, s
}

// TestSolution draws digits and checks they land in the empty cells, in
// the style's colour, and that nothing outside the grid changes.
func TestSolution(t *testing.T) {
	frame, g := gridFrame(t, 1280, 720, 400, 120, 480)
	defer frame.Close()
	before := frame.Clone()
	defer before.Close()
	p, s := puzzlePair()
	st := DefaultStyle()
	if err := Solution(&frame, g, p, s, st); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("OVERLAY_DEBUG"); dir != "" {
		gocv.IMWrite(filepath.Join(dir, "solution.png"), frame)
	}
	cs := 480.0 / 9
	inkIn := func(r, c int) int { // pixels of the digit colour in cell (r, c)
		n := 0
		for y := int(120 + float64(r)*cs + 5); y < int(120+float64(r+1)*cs-5); y++ {
			for x := int(400 + float64(c)*cs + 5); x < int(400+float64(c+1)*cs-5); x++ {
				v := frame.GetVecbAt(y, x)
				if int(v[0])-int(v[2]) > 80 { // blue dominates: our digit
					n++
				}
			}
		}
		return n
	}
	for r := 0; r < 9; r++ {
		for c := 0; c < 9; c++ {
			n := inkIn(r, c)
			if p.At(r, c) == 0 && n < 30 {
				t.Errorf("empty cell r%dc%d got only %d digit pixels", r, c, n)
			}
			if p.At(r, c) != 0 && n != 0 {
				t.Errorf("given cell r%dc%d was drawn on (%d pixels)", r, c, n)
			}
		}
	}
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(frame, before, &diff)
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(diff, &grey, gocv.ColorBGRToGray)
	outside := grey.Clone()
	defer outside.Close()
	roi := outside.Region(image.Rect(395, 115, 885, 605))
	roi.SetTo(gocv.NewScalar(0, 0, 0, 0))
	roi.Close()
	if n := gocv.CountNonZero(outside); n != 0 {
		t.Errorf("%d pixels changed outside the grid", n)
	}
}

func TestHighlightOutlineHUD(t *testing.T) {
	frame, g := gridFrame(t, 640, 480, 100, 40, 400)
	defer frame.Close()
	red := color.RGBA{R: 255, A: 255}
	if err := Highlight(&frame, g, []int{0, 40}, red); err != nil {
		t.Fatal(err)
	}
	cs := 400.0 / 9
	for _, idx := range []int{0, 40} {
		y, x := int(40+(float64(idx/9)+0.5)*cs), int(100+(float64(idx%9)+0.5)*cs)
		if v := frame.GetVecbAt(y, x); int(v[2])-int(v[0]) < 50 {
			t.Errorf("cell %d not tinted red: %v", idx, v)
		}
	}
	if v := frame.GetVecbAt(int(40+1.5*cs), int(100+1.5*cs)); int(v[2])-int(v[0]) > 5 {
		t.Errorf("cell 10 tinted: %v", v)
	}
	if err := Outline(&frame, g, color.RGBA{G: 255, A: 255}); err != nil {
		t.Fatal(err)
	}
	if err := Highlight(&frame, g, []int{81}, red); err == nil {
		t.Error("cell 81 of a 9x9 grid accepted")
	}
	// HUD text must read on white and on black.
	for _, bg := range []float64{0, 255} {
		m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(bg, bg, bg, 0), 720, 1280, gocv.MatTypeCV8UC3)
		if err := HUD(&m, []string{"solved in 12 ms", "30.0 fps"}); err != nil {
			t.Fatal(err)
		}
		box := m.Region(image.Rect(0, 0, 200, 60))
		g := gocv.NewMat()
		gocv.CvtColor(box, &g, gocv.ColorBGRToGray)
		mn, mx, _, _ := gocv.MinMaxLoc(g)
		g.Close()
		box.Close()
		if mx < 200 || mn > 140 {
			t.Errorf("background %v: HUD box spans %v..%v, want dark box with white text", bg, mn, mx)
		}
		m.Close()
	}
}

func TestBadInput(t *testing.T) {
	p, s := puzzlePair()
	frame, g := gridFrame(t, 640, 480, 100, 40, 400)
	defer frame.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	float := gocv.NewMatWithSize(10, 10, gocv.MatTypeCV32F)
	defer float.Close()
	region := frame.Region(image.Rect(10, 10, 100, 100))
	defer region.Close()
	small := sudoku.NewGrid(sudoku.Shape{BoxRows: 2, BoxCols: 2})
	for name, err := range map[string]error{
		"nil frame":   Solution(nil, g, p, s, DefaultStyle()),
		"empty frame": Solution(&empty, g, p, s, DefaultStyle()),
		"float frame": HUD(&float, []string{"x"}),
		"region":      Outline(&region, g, color.RGBA{}),
		"no grid":     Solution(&frame, vision.Grid{}, p, s, DefaultStyle()),
		"mismatch":    Solution(&frame, g, p, small, DefaultStyle()),
		"no shape":    Highlight(&frame, vision.Grid{Side: 288, HInv: g.HInv}, []int{1}, color.RGBA{}),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// BenchmarkOverlay times what the live app draws per frame at 1280×720:
// the solution, the outline and the HUD.
func BenchmarkOverlay(b *testing.B) {
	frame, g := gridFrame(b, 1280, 720, 400, 120, 480)
	defer frame.Close()
	p, s := puzzlePair()
	st := DefaultStyle()
	b.ResetTimer()
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		Solution(&frame, g, p, s, st)
		Outline(&frame, g, color.RGBA{G: 255, A: 255})
		HUD(&frame, []string{"solved", "30.0 fps"})
	}
	b.ReportMetric(float64(cputime.Process()-c0)/float64(b.N)/1e6, "cpu-ms/op")
}

// TestSolutionOnCurledPage draws the solution onto a curled synthetic page
// (package synth): each digit must land in its own cell, which on such a
// page one homography from the corners misses by up to half a cell.
func TestSolutionOnCurledPage(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	opts := synth.DefaultOptions(640, 480, 12)
	opts.MaxTilt, opts.MaxRotate, opts.MaxBlur, opts.MaxNoise, opts.Light = 10, 10, 0, 0, 0
	opts.MaxCurl = 55
	pz, err := synth.RandomPuzzle(s9, opts.Seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	ph, err := synth.Render(pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ph.Image.Close()
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	g, _, err := det.Analyze(ph.Image)
	if err != nil || g.Shape != s9 {
		t.Fatalf("Analyze: %v, shape %v", err, g.Shape)
	}
	if g.Bend == nil {
		t.Fatalf("curl %+v: the grid was not taken as bent", ph.Curl)
	}
	sol, err := sudoku.Solve(pz)
	if err != nil {
		t.Fatal(err)
	}
	frame := ph.Image.Clone()
	defer frame.Close()
	if err := Solution(&frame, g, pz, sol, DefaultStyle()); err != nil {
		t.Fatal(err)
	}
	// Each cell's centre, as the overlay maps it, lies near the true one
	// (within a quarter cell); with the corners' homography alone it
	// misses by more (logged, and at least that much worse).
	n := 9
	flat := g
	flat.Bend = nil
	var worst, worstFlat float64
	for i := 0; i < n*n; i++ {
		r, c := i/n, i%n
		q := ph.CellCorners(r, c)
		cell := math.Hypot(float64(q[2].X-q[0].X), float64(q[2].Y-q[0].Y)) / math.Sqrt2
		want := ph.GridPoint((float64(c)+0.5)/9, (float64(r)+0.5)/9)
		cx, cy := (float64(c)+0.5)*float64(g.Side)/9, (float64(r)+0.5)*float64(g.Side)/9
		fx, fy := g.ToFrame(cx, cy)
		worst = math.Max(worst, math.Hypot(fx-float64(want.X), fy-float64(want.Y))/cell)
		fx, fy = flat.ToFrame(cx, cy)
		worstFlat = math.Max(worstFlat, math.Hypot(fx-float64(want.X), fy-float64(want.Y))/cell)
	}
	t.Logf("curl %+v: cell centres drawn off by up to %.2f cell (%.2f with the corners' homography alone)", ph.Curl, worst, worstFlat)
	if worst > 0.25 || worst > worstFlat {
		t.Errorf("cell centres off by up to %.2f cell with the bend, %.2f without", worst, worstFlat)
	}
	// The digits drawn: the changed pixels lie in the empty cells.
	before, _ := ph.Image.DataPtrUint8()
	after, _ := frame.DataPtrUint8()
	w := frame.Cols()
	var in, all int
	for y := 0; y < frame.Rows(); y++ {
		for x := 0; x < w; x++ {
			k := (y*w + x) * 3
			if before[k] == after[k] && before[k+1] == after[k+1] && before[k+2] == after[k+2] {
				continue
			}
			all++
			for i, v := range pz.Cells {
				if v == 0 && inQuad(ph.CellCorners(i/n, i%n), float64(x)+0.5, float64(y)+0.5) {
					in++
					break
				}
			}
		}
	}
	if all == 0 || float64(in) < 0.98*float64(all) {
		t.Errorf("%d of %d drawn pixels lie in the empty cells, want 98%%", in, all)
	}
}

// inQuad reports whether (x, y) lies inside the convex quadrilateral q.
func inQuad(q [4]gocv.Point2f, x, y float64) bool {
	pos, neg := 0, 0
	for i := 0; i < 4; i++ {
		a, b := q[i], q[(i+1)%4]
		c := (float64(b.X)-float64(a.X))*(y-float64(a.Y)) - (float64(b.Y)-float64(a.Y))*(x-float64(a.X))
		if c > 0 {
			pos++
		} else if c < 0 {
			neg++
		}
	}
	return pos == 0 || neg == 0
}

// TestCirclesBanner rings cells and checks the ring is red on the cell's
// edge, the ink in its middle untouched, other cells untouched; and that
// the banner writes its word across the middle of the frame.
func TestCirclesBanner(t *testing.T) {
	frame, g := gridFrame(t, 640, 480, 100, 40, 396)
	defer frame.Close()
	red := color.RGBA{R: 230, G: 30, B: 30, A: 255}
	cells := []int{0, 40, 80}
	if err := Circles(&frame, g, cells, red); err != nil {
		t.Fatal(err)
	}
	// Where the detector put the grid (the outer edge of its border).
	x0, y0 := float64(g.Corners[0].X), float64(g.Corners[0].Y)
	cs := float64(g.Corners[1].X-g.Corners[0].X) / 9
	isRed := func(y, x int) bool { v := frame.GetVecbAt(y, x); return int(v[2])-int(v[0]) > 80 }
	for _, idx := range cells {
		cy, cx := y0+(float64(idx/9)+0.5)*cs, x0+(float64(idx%9)+0.5)*cs
		ring := false
		for d := -3; d <= 3; d++ {
			ring = ring || isRed(int(cy)+d, int(cx+0.44*cs))
		}
		if !ring {
			t.Errorf("cell %d: no red ring at its edge", idx)
		}
		if isRed(int(cy), int(cx)) {
			t.Errorf("cell %d: its middle painted", idx)
		}
	}
	if isRed(int(y0+1.5*cs), int(x0+1.9*cs)) {
		t.Error("cell 10 ringed")
	}
	for name, err := range map[string]error{
		"cell 81":  Circles(&frame, g, []int{81}, red),
		"no grid":  Circles(&frame, vision.Grid{}, []int{1}, red),
		"no shape": Circles(&frame, vision.Grid{Side: 288, HInv: g.HInv}, []int{1}, red),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	green := color.RGBA{G: 220, A: 255}
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer m.Close()
	if err := Banner(&m, "Solved", green); err != nil {
		t.Fatal(err)
	}
	greenPx := 0
	for x := 0; x < 1280; x += 2 {
		for y := 300; y < 420; y += 2 {
			if v := m.GetVecbAt(y, x); int(v[1])-int(v[2]) > 100 {
				greenPx++
			}
		}
	}
	if greenPx < 200 {
		t.Errorf("banner: %d green pixels in the middle band, want the word written", greenPx)
	}
	if v := m.GetVecbAt(20, 20); v[0] != 255 {
		t.Errorf("banner painted the top corner: %v", v)
	}
}
