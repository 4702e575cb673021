package vision

import "gocv.io/x/gocv"

// Turn returns g with its canvas turned k quarter turns clockwise: the
// corners start from the new top-left, the homographies map to and from the
// turned canvas, and odd turns swap the box shape's rows and columns. A
// page photographed sideways is read turned; the pipeline turns its grid
// this way so that the puzzle and the overlay come out as printed.
func (g Grid) Turn(k int) Grid {
	k = ((k % 4) + 4) % 4
	s := float64(g.Side)
	// r turns canvas points clockwise: (x, y) -> (S - y, x).
	r := [9]float64{0, -1, s, 1, 0, 0, 0, 0, 1}
	ri := [9]float64{0, 1, 0, -1, 0, s, 0, 0, 1}
	for t := 0; t < k; t++ {
		g.H = mul3(r, g.H)
		g.HInv = mul3(g.HInv, ri)
		c := g.Corners
		g.Corners = [4]gocv.Point2f{c[3], c[0], c[1], c[2]}
		g.Shape.BoxRows, g.Shape.BoxCols = g.Shape.BoxCols, g.Shape.BoxRows
		g.Bend = g.Bend.turn()
	}
	// Keep HInv[8] = 1, as Grid documents.
	if d := g.HInv[8]; d != 0 {
		for i := range g.HInv {
			g.HInv[i] /= d
		}
	}
	return g
}
