package vision

import (
	"math"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

// TestOrderCorners rotates a square by angles within ±44° and checks the
// corner that started top-left is still reported first.
func TestOrderCorners(t *testing.T) {
	base := [4]pt{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	for _, deg := range []float64{-44, -30, -10, 0, 10, 30, 44} {
		a := deg * math.Pi / 180
		var q [4]pt
		for i, p := range base {
			q[i] = pt{100 + 50*(p.X*math.Cos(a)-p.Y*math.Sin(a)), 100 + 50*(p.X*math.Sin(a)+p.Y*math.Cos(a))}
		}
		shuffled := [4]pt{q[2], q[0], q[3], q[1]}
		got := orderCorners(shuffled)
		for i := range q {
			if got[i].dist(q[i]) > 1e-9 {
				t.Errorf("%v°: corner %d = %v, want %v", deg, i, got[i], q[i])
			}
		}
	}
}

func TestHomographyRoundTrip(t *testing.T) {
	src := [4]pt{{12, 30}, {400, 10}, {420, 390}, {5, 410}}
	dst := [4]pt{{0, 0}, {288, 0}, {288, 288}, {0, 288}}
	h, ok := homography(src, dst)
	if !ok {
		t.Fatal("degenerate")
	}
	hi, _ := invert3(h)
	for i := range src {
		if p := apply(h, src[i]); p.dist(dst[i]) > 1e-6 {
			t.Errorf("H(%v) = %v, want %v", src[i], p, dst[i])
		}
		if p := apply(hi, dst[i]); p.dist(src[i]) > 1e-6 {
			t.Errorf("HInv(%v) = %v, want %v", dst[i], p, src[i])
		}
	}
	if _, ok := homography([4]pt{{0, 0}, {1, 1}, {2, 2}, {3, 3}}, dst); ok {
		t.Error("collinear points accepted")
	}
}

// TestQuadFromContour covers a clean outline and one with a finger over a
// corner region and text attached along a side.
func TestQuadFromContour(t *testing.T) {
	square := []pt{{10, 10}, {210, 12}, {208, 212}, {12, 210}}
	finger := []pt{{10, 10}, {210, 12}, {208, 150}, {260, 170}, {265, 185}, {208, 180}, {208, 212}, {12, 210}}
	text := []pt{{10, 10}, {60, 10}, {60, -5}, {120, -5}, {120, 11}, {210, 12}, {208, 212}, {12, 210}}
	for name, c := range map[string][]pt{"square": square, "finger": finger, "text": text} {
		q, ok := quadFromContour(c)
		if !ok {
			t.Errorf("%s: no quad", name)
			continue
		}
		q = orderCorners(refineQuadRobust(q, c))
		want := orderCorners([4]pt{square[0], square[1], square[2], square[3]})
		for i := range q {
			if d := q[i].dist(want[i]); d > 6 {
				t.Errorf("%s: corner %d at %v, want %v (off %.1f px)", name, i, q[i], want[i], d)
			}
		}
	}
}

// TestInferShapeSynthetic renders grids of every supported shape and checks
// that Analyze reads N and r×c back.
func TestInferShapeSynthetic(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	for _, sh := range []sudoku.Shape{{BoxRows: 2, BoxCols: 2}, {BoxRows: 2, BoxCols: 3}, {BoxRows: 3, BoxCols: 2}, {BoxRows: 2, BoxCols: 4}, {BoxRows: 4, BoxCols: 2}, {BoxRows: 3, BoxCols: 3}, {BoxRows: 2, BoxCols: 5}, {BoxRows: 3, BoxCols: 4}, {BoxRows: 4, BoxCols: 3}, {BoxRows: 4, BoxCols: 4}} {
		img := drawGrid(t, 800, 600, sh.BoxRows, sh.BoxCols, [4]pt{{130, 40}, {690, 60}, {670, 570}, {120, 560}})
		g, cells, err := d.Analyze(img)
		img.Close()
		if err != nil {
			t.Errorf("%v: %v", sh, err)
			continue
		}
		if g.Shape != sh || len(cells) != sh.N()*sh.N() {
			t.Errorf("shape %v read as %v (conf %.2f), %d cells", sh, g.Shape, g.ShapeConfidence, len(cells))
		}
	}
}
