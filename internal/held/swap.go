package held

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// SwapCells exchanges the ink of cells a and b (row-major) of the 9×9
// grid whose corners (TL, TR, BR, BL) lie at q in photo, in place: the
// page as if the player had written each digit in the other's cell (two
// wrong entries, for tests of the check). Each cell's inside, clear of
// the grid lines, is moved through the page's perspective.
func SwapCells(photo *gocv.Mat, q [4][2]float64, a, b int) error {
	if photo == nil || photo.Empty() || photo.Type() != gocv.MatTypeCV8UC3 {
		return fmt.Errorf("held: swap cells: want a BGR photo")
	}
	if a < 0 || a >= 81 || b < 0 || b >= 81 || a == b {
		return fmt.Errorf("held: swap cells %d and %d: want two cells of 0..80", a, b)
	}
	for k, p := range q {
		if math.IsNaN(p[0]) || math.IsNaN(p[1]) {
			return fmt.Errorf("held: swap cells: corner %d is not a number", k)
		}
	}
	const cs = 64
	side := float32(9 * cs)
	pts := make([]gocv.Point2f, 4)
	for k, p := range q {
		pts[k] = gocv.Point2f{X: float32(p[0]), Y: float32(p[1])}
	}
	src := gocv.NewPoint2fVectorFromPoints(pts)
	defer src.Close()
	dst := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: side, Y: 0}, {X: side, Y: side}, {X: 0, Y: side}})
	defer dst.Close()
	h := gocv.GetPerspectiveTransform2f(src, dst)
	defer h.Close()
	hi := gocv.GetPerspectiveTransform2f(dst, src)
	defer hi.Close()
	rect := gocv.NewMat()
	defer rect.Close()
	gocv.WarpPerspective(*photo, &rect, h, image.Pt(int(side), int(side)))
	swapped := rect.Clone()
	defer swapped.Close()
	mask := gocv.NewMatWithSize(int(side), int(side), gocv.MatTypeCV8U)
	defer mask.Close()
	const inset = 7 // pixels of the 64: clear of the grid lines
	box := func(i int) image.Rectangle {
		x, y := (i%9)*cs, (i/9)*cs
		return image.Rect(x+inset, y+inset, x+cs-inset, y+cs-inset)
	}
	for _, p := range [][2]int{{a, b}, {b, a}} {
		from, to := rect.Region(box(p[0])), swapped.Region(box(p[1]))
		from.CopyTo(&to)
		from.Close()
		to.Close()
		gocv.Rectangle(&mask, box(p[1]), color.RGBA{255, 255, 255, 0}, -1)
	}
	back, backMask := gocv.NewMat(), gocv.NewMat()
	defer back.Close()
	defer backMask.Close()
	sz := image.Pt(photo.Cols(), photo.Rows())
	gocv.WarpPerspective(swapped, &back, hi, sz)
	gocv.WarpPerspective(mask, &backMask, hi, sz)
	gocv.Threshold(backMask, &backMask, 127, 255, gocv.ThresholdBinary)
	back.CopyToWithMask(photo, backMask)
	return nil
}
