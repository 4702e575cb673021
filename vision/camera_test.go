package vision

import (
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/internal/held"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// heldFrame renders a photo as a camera sees a page held up to it: the
// photo scaled to fill fill of a w×h frame, turned, tilted and moved as
// frame f of 60 of photo number pi in ../shared/tools/mkvideo's videos, in
// front of a plain background. It returns the frame and where the photo's
// point p lands in it.
func heldFrame(tb testing.TB, img gocv.Mat, w, h int, fill float64, pi, f int) (gocv.Mat, func(p pt) pt) {
	tb.Helper()
	frame, hm, err := held.Frame(img, w, h, fill, pi, f)
	if err != nil {
		tb.Fatal(err)
	}
	return frame, func(p pt) pt { return apply(hm, p) }
}

// TestHeldPages reads real photos held up to a camera at the framings the
// live view meets (issue 18): a page whose own outline against the
// background is the largest quadrilateral (the grid lies inside it), a
// page at arm's length (a grid ~150 px across in a 1280×720 frame), and a
// webcam's 640×480 frame, and 9×9 grids on a curling page whose cells
// were grouped into part of the grid. Each frame here was read as "no
// grid lines inside the quadrilateral" before the search looked inside the
// page, or as a smaller puzzle made of the grid's boxes.
func TestHeldPages(t *testing.T) {
	checkHeldCases(t, []heldCase{
		{"page outline, near", "andreibrihac-2.jpg", 1280, 720, 0.85, 7, 20, false},
		{"page outline, near, text on the grid", "andreibrihac-8.jpg", 1280, 720, 0.85, 12, 20, false},
		{"page outline, far", "andreibrihac-12.jpg", 1280, 720, 0.55, 2, 20, false},
		{"page outline, far, thin lines", "andreibrihac-4.jpg", 1280, 720, 0.55, 9, 20, false},
		{"page outline, webcam", "andreibrihac-6.jpg", 640, 480, 0.70, 11, 20, false},
		{"page outline, webcam, small grid", "andreibrihac-12.jpg", 640, 480, 0.70, 2, 20, false},
		// Read as a 6×6 puzzle made of the grid's boxes before wholeGrid
		// (a 2×3 reading with one solution, shown solved in live).
		{"9×9 not read as six of its boxes", "es2812-55.jpg", 1280, 720, 0.85, 54, 17, true},
	})
}

// heldCase is a photo of others-train held up to a w×h camera, filling
// fill of it, in mkvideo's pose pi at frame f.
type heldCase struct {
	name, photo string
	w, h        int
	fill        float64
	pi, f       int
	// mayRefuse: "no grid" passes, but never a smaller puzzle.
	mayRefuse bool
}

// checkHeldCases runs checkHeld on each case.
func checkHeldCases(t *testing.T, cases []heldCase) {
	t.Helper()
	dir := testenv.Shared(t, "datasets/others-train")
	outlines, err := readOutlines(filepath.Join(dir, "outlines.csv"))
	if err != nil {
		t.Fatal(err)
	}
	det := NewDetector(Options{})
	defer det.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkHeld(t, det, dir, outlines, c.photo, c.w, c.h, c.fill, c.pi, c.f, c.mayRefuse)
		})
	}
}

// checkHeld renders photo (in dir, its outline in outlines) held up to a
// camera (see heldFrame) and checks that det reads it as a 9×9 grid with
// its corners within 4% of the grid's side; with mayRefuse, "no grid"
// passes too.
func checkHeld(t *testing.T, det *Detector, dir string, outlines map[string][4]pt, photo string, w, h int, fill float64, pi, f int, mayRefuse bool) {
	t.Helper()
	img, err := readImage(filepath.Join(dir, photo))
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	frame, at := heldFrame(t, img, w, h, fill, pi, f)
	defer frame.Close()
	g, cells, err := det.Analyze(frame)
	if mayRefuse && isKind(err, NoGrid) {
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", photo, err)
	}
	if want := (sudoku.Shape{BoxRows: 3, BoxCols: 3}); g.Shape != want || len(cells) != 81 {
		t.Fatalf("%s: shape %v with %d cells, want %v", photo, g.Shape, len(cells), want)
	}
	q, ok := outlines[photo]
	if !ok {
		t.Fatalf("%s has no outline", photo)
	}
	var want [4]pt
	for i, p := range q {
		want[i] = at(p)
	}
	if e := cornerError(g.Corners, want); e > 0.04 {
		t.Errorf("%s: corner error %.1f%%: found %v, want %v", photo, 100*e, g.Corners, want)
	}
}

// TestFarPages reads real photos held at arm's length (issue 18's far
// framing: the page filling 55% of a 1280×720 frame, grids 130–300 px
// across) and small in a webcam's 640×480 frame (grids about 130 px
// across). At the search's resolution their thin lines vanish or the grid
// merges with the page's edge or a frame printed beside it, so the page's
// outline was taken and refused ("no grid lines inside the
// quadrilateral"), or read as a lattice of its text: each frame here was
// refused so before the search looked again at the page, at the
// resolution it can afford there (zoomRegion).
func TestFarPages(t *testing.T) {
	others := testenv.Shared(t, "datasets/others-train")
	wicht := testenv.Shared(t, "datasets/wicht-v2-train")
	outlines := map[string]map[string][4]pt{}
	for _, dir := range []string{others, wicht} {
		o, err := readOutlines(filepath.Join(dir, "outlines.csv"))
		if err != nil {
			t.Fatal(err)
		}
		outlines[dir] = o
	}
	cases := []struct {
		name, dir, photo string
		w, h             int
		fill             float64
		pi, f            int
	}{
		{"far, grid fused with the page's edge", others, "es2812-26.jpg", 1280, 720, 0.55, 0, 30},
		{"far, dotted frame beside the grid", others, "es2812-45.jpg", 1280, 720, 0.55, 3, 10},
		{"far, thin lines lost", others, "wizardxz-1.jpg", 1280, 720, 0.55, 0, 30},
		{"far, grid in a column of text", others, "indykindyk-1.jpg", 1280, 720, 0.55, 2, 30},
		{"far, narrow margin", wicht, "image1000.jpg", 1280, 720, 0.55, 1, 10},
		{"far, grid beside another puzzle", wicht, "image1076.jpg", 1280, 720, 0.55, 4, 10},
		{"webcam, small page", others, "es2812-26.jpg", 640, 480, 0.5, 0, 10},
		{"webcam, small page with a caption", others, "alexdej-1.jpg", 640, 480, 0.5, 1, 30},
	}
	det := NewDetector(Options{})
	defer det.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkHeld(t, det, c.dir, outlines[c.dir], c.photo, c.w, c.h, c.fill, c.pi, c.f, false)
		})
	}
}

// BenchmarkAnalyzeHeld times Analyze on a page held up to the camera whose
// own outline is the largest quadrilateral (the search then looks inside
// it): near at 1280×720 and a webcam's 640×480, and pages whose grid the
// first search cannot see (it looks again at the page: far at 1280×720,
// small in 640×480). Run it on one thread:
// OPENCV_FOR_THREADS_NUM=1 taskset -c 0 go test -bench AnalyzeHeld.
func BenchmarkAnalyzeHeld(b *testing.B) {
	dir := testenv.Shared(b, "datasets/others-train")
	for _, c := range []struct {
		name, photo string
		w, h        int
		fill        float64
		pi, f       int
	}{
		{"near1280x720", "andreibrihac-2.jpg", 1280, 720, 0.85, 7, 20},
		{"webcam640x480", "andreibrihac-2.jpg", 640, 480, 0.70, 7, 20},
		{"far1280x720", "es2812-26.jpg", 1280, 720, 0.55, 0, 30},
		{"small640x480", "es2812-26.jpg", 640, 480, 0.5, 0, 10},
	} {
		b.Run(c.name, func(b *testing.B) {
			img, err := readImage(filepath.Join(dir, c.photo))
			if err != nil {
				b.Fatal(err)
			}
			frame, _ := heldFrame(b, img, c.w, c.h, c.fill, c.pi, c.f)
			img.Close()
			defer frame.Close()
			d := NewDetector(Options{})
			defer d.Close()
			b.ResetTimer()
			c0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				if _, _, err := d.Analyze(frame); err != nil && !isKind(err, NoGrid) {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0)
		})
	}
}

// TestOtherFramings reads real photos (others-train, the pose of their
// place in testdata/live/others-tune.list) held up to cameras the scored
// videos do not use: a phone's 1920×1080 landscape video with the page at
// arm's length (35% of the frame) and its 1080×1920 portrait video (45%),
// and the far 1280×720 framing. Each frame here failed before: a grid
// 150–210 px across refused as too small (the limit was a fifth of the
// frame's short side, 216 px, although a 1280×720 frame takes 144), a
// page read as a 4×4 or 16×16 lattice of the columns its grid makes
// (line score 0.25–0.3, taken without a second look), or a 9×9 read as
// six of its boxes.
func TestOtherFramings(t *testing.T) {
	checkHeldCases(t, []heldCase{
		{"1920×1080 at 35%, grid 190 px: not too small", "andreibrihac-13.jpg", 1920, 1080, 0.35, 3, 5, false},
		{"1080×1920 at 45%, 21 px cells: not too small", "es2812-11.jpg", 1080, 1920, 0.45, 16, 20, false},
		{"1920×1080 at 35%, page not a 4×4", "es2812-42.jpg", 1920, 1080, 0.35, 43, 20, false},
		{"1920×1080 at 35%, page not a 16×16", "andreibrihac-9.jpg", 1920, 1080, 0.35, 13, 5, false},
		{"1920×1080 at 35%, thin lines", "wizardxz-1.jpg", 1920, 1080, 0.35, 59, 5, false},
		{"1280×720 at 55%, 9×9 not six of its boxes", "es2812-17.jpg", 1280, 720, 0.55, 22, 5, false},
	})
}

// TestPickBesideThePoint reads pages as live does before it knows where
// the grid is: picking by the centre of the outline Locate follows, the
// page's, which falls just beside a grid printed off-centre on it. The
// page itself holds no lattice; the grid beside the point is read.
func TestPickBesideThePoint(t *testing.T) {
	dir := testenv.Shared(t, "datasets/others-train")
	cases := []struct {
		name, photo string
		w, h        int
		fill        float64
		pi, f       int
	}{
		{"1920×1080 at 35%", "es2812-32.jpg", 1920, 1080, 0.35, 36, 20},
		{"1080×1920 at 45%", "es2812-32.jpg", 1080, 1920, 0.45, 36, 35},
	}
	det := NewDetector(Options{})
	defer det.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img, err := readImage(filepath.Join(dir, c.photo))
			if err != nil {
				t.Fatal(err)
			}
			defer img.Close()
			frame, _ := heldFrame(t, img, c.w, c.h, c.fill, c.pi, c.f)
			defer frame.Close()
			outline, err := det.Locate(frame)
			if err != nil {
				t.Fatalf("%s: %v", c.photo, err)
			}
			var at gocv.Point2f
			for _, p := range outline.Corners {
				at.X, at.Y = at.X+p.X/4, at.Y+p.Y/4
			}
			g, cells, err := det.AnalyzePick(frame, Pick{Near: at, ByPoint: true})
			if err != nil {
				t.Fatalf("%s, picked at %v: %v", c.photo, at, err)
			}
			if want := (sudoku.Shape{BoxRows: 3, BoxCols: 3}); g.Shape != want || len(cells) != 81 {
				t.Fatalf("%s: shape %v with %d cells, want %v", c.photo, g.Shape, len(cells), want)
			}
		})
	}
}

// TestLooksOnSmallCells checks that a digit is cut several ways (Cell.Looks,
// each a CellSize² image with ink) exactly where its cell is small in the
// frame: a page at 70% of a webcam's 640×480 (cells ~20 px) and not the
// same page at 85% of 1280×720 (cells ~35 px), nor with LookPx negative.
func TestLooksOnSmallCells(t *testing.T) {
	dir := testenv.Shared(t, "datasets/others-train")
	img, err := readImage(filepath.Join(dir, "andreibrihac-1.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	for _, c := range []struct {
		name   string
		w, h   int
		fill   float64
		lookPx float64
		want   bool
	}{
		{"webcam", 640, 480, 0.70, 0, true},
		{"near", 1280, 720, 0.85, 0, false},
		{"webcam, looks off", 640, 480, 0.70, -1, false},
	} {
		frame, _ := heldFrame(t, img, c.w, c.h, c.fill, 7, 0)
		d := NewDetector(Options{LookPx: c.lookPx})
		_, cells, err := d.Analyze(frame)
		frame.Close()
		d.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		digits, looked := 0, 0
		for _, cell := range cells {
			if cell.Empty {
				// Faint ink the reader may look at is cut the same ways.
				if cell.Looks != nil && (cell.Pixels == nil || !c.want) {
					t.Errorf("%s: empty r%dc%d has looks", c.name, cell.Row+1, cell.Col+1)
				}
				continue
			}
			digits++
			if len(cell.Looks) == 0 {
				continue
			}
			looked++
			for k, v := range cell.Looks {
				ink := float32(0)
				for _, x := range v {
					ink += x
				}
				if len(v) != CellSize*CellSize || ink < 10 {
					t.Errorf("%s: r%dc%d look %d: %d values, ink %.1f", c.name, cell.Row+1, cell.Col+1, k, len(v), ink)
				}
			}
		}
		if got := looked == digits && digits > 0; got != c.want || looked != 0 && looked != digits {
			t.Errorf("%s: %d of %d digits cut several ways, want all: %v", c.name, looked, digits, c.want)
		}
	}
}
