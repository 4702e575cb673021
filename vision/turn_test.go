package vision

import (
	"math"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// TestGridTurn checks that after turning, the homography still sends the
// (new) corners to the canvas corners and its inverse sends them back.
func TestGridTurn(t *testing.T) {
	g := Grid{
		Corners: [4]gocv.Point2f{{X: 100, Y: 50}, {X: 400, Y: 80}, {X: 380, Y: 390}, {X: 90, Y: 360}},
		Shape:   sudoku.Shape{BoxRows: 2, BoxCols: 3},
		Side:    288,
	}
	// Homography of the quad onto the canvas, by the 4-point DLT solved
	// through Turn's own conventions: compute it with gocv.
	src := gocv.NewPoint2fVectorFromPoints(g.Corners[:])
	defer src.Close()
	s := float32(g.Side)
	dst := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: s, Y: 0}, {X: s, Y: s}, {X: 0, Y: s}})
	defer dst.Close()
	h := gocv.GetPerspectiveTransform2f(src, dst)
	defer h.Close()
	hi := gocv.GetPerspectiveTransform2f(dst, src)
	defer hi.Close()
	for i := 0; i < 9; i++ {
		g.H[i] = h.GetDoubleAt(i/3, i%3)
		g.HInv[i] = hi.GetDoubleAt(i/3, i%3)
	}
	apply := func(m [9]float64, x, y float64) (float64, float64) {
		w := m[6]*x + m[7]*y + m[8]
		return (m[0]*x + m[1]*y + m[2]) / w, (m[3]*x + m[4]*y + m[5]) / w
	}
	canvas := [4][2]float64{{0, 0}, {288, 0}, {288, 288}, {0, 288}}
	for k := 0; k < 4; k++ {
		tg := g.Turn(k)
		if k%2 == 1 && tg.Shape != (sudoku.Shape{BoxRows: 3, BoxCols: 2}) {
			t.Errorf("k=%d: shape %v", k, tg.Shape)
		}
		if math.Abs(tg.HInv[8]-1) > 1e-9 {
			t.Errorf("k=%d: HInv[8] = %v, want 1", k, tg.HInv[8])
		}
		for i, c := range tg.Corners {
			x, y := apply(tg.H, float64(c.X), float64(c.Y))
			if math.Hypot(x-canvas[i][0], y-canvas[i][1]) > 1e-3 {
				t.Errorf("k=%d: corner %d maps to (%.3f, %.3f), want %v", k, i, x, y, canvas[i])
			}
			fx, fy := apply(tg.HInv, canvas[i][0], canvas[i][1])
			if math.Hypot(fx-float64(c.X), fy-float64(c.Y)) > 1e-3 {
				t.Errorf("k=%d: canvas corner %d maps back to (%.3f, %.3f), want %v", k, i, fx, fy, c)
			}
		}
	}
}
