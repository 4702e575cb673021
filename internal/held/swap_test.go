package held

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"
)

// TestSwapCells exchanges two cells of a drawn grid, one black and one
// white inside: their middles trade colours, the grid lines and other
// cells stay; bad input is an error, not an OpenCV abort.
func TestSwapCells(t *testing.T) {
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 500, 500, gocv.MatTypeCV8UC3)
	defer img.Close()
	q := [4][2]float64{{25, 25}, {475, 25}, {475, 475}, {25, 475}}           // cells of 50 px
	gocv.Rectangle(&img, image.Rect(30, 30, 70, 70), color.RGBA{A: 255}, -1) // cell 0 inked
	if err := SwapCells(&img, q, 0, 40); err != nil {
		t.Fatal(err)
	}
	at := func(x, y int) uint8 { return img.GetVecbAt(y, x)[0] }
	if at(50, 50) != 255 || at(250, 250) > 10 || at(100, 100) != 255 {
		t.Errorf("after the swap: cell 0 %d, cell 40 %d, cell 10 %d; want 255, 0, 255", at(50, 50), at(250, 250), at(100, 100))
	}
	empty := gocv.NewMat()
	defer empty.Close()
	for name, err := range map[string]error{
		"empty photo": SwapCells(&empty, q, 0, 1),
		"same cell":   SwapCells(&img, q, 3, 3),
		"cell 81":     SwapCells(&img, q, 0, 81),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
