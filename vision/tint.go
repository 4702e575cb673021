package vision

import (
	"cmp"
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// A cell's ink has a colour as well as a shape: a page's print is one ink
// (black, or the magazine's colour), and a player's pen is often another
// (blue, red). setTints measures it where the frame has colour, for the reader
// to weigh beside the shape (package ocr); a grey frame leaves it unset.

// tintSteps is the side of the lattice of points a cell's middle is
// sampled at (its middle three fifths: the grid lines stay out).
const tintSteps = 9

// setTints sets Cell.Tint of each cell of g holding ink from the colour
// (8-bit BGR) frame; a frame of another kind leaves them nil.
func setTints(frame gocv.Mat, g Grid, cells []Cell) {
	n := g.Shape.N()
	if n == 0 || len(cells) != n*n || g.Side <= 0 || frame.Empty() || frame.Channels() != 3 ||
		frame.Type() != gocv.MatTypeCV8UC3 || !frame.IsContinuous() {
		return
	}
	px, err := frame.DataPtrUint8()
	w, h := frame.Cols(), frame.Rows()
	if err != nil || len(px) != w*h*3 {
		return
	}
	cs := float64(g.Side) / float64(n)
	type sample struct{ grey, bg, rg float64 }
	ss := make([]sample, 0, tintSteps*tintSteps)
	for i := range cells {
		if cells[i].View == nil {
			continue
		}
		ss = ss[:0]
		x0, y0 := float64(i%n)*cs, float64(i/n)*cs
		for ky := range tintSteps {
			for kx := range tintSteps {
				fx, fy := g.ToFrame(x0+(0.2+0.6*float64(kx)/(tintSteps-1))*cs, y0+(0.2+0.6*float64(ky)/(tintSteps-1))*cs)
				c, r := int(math.Round(fx)), int(math.Round(fy))
				if c < 0 || r < 0 || c >= w || r >= h {
					continue
				}
				at := (r*w + c) * 3
				b, gr, rd := float64(px[at]), float64(px[at+1]), float64(px[at+2])
				ss = append(ss, sample{(b + gr + rd) / 3, b - gr, rd - gr})
			}
		}
		if len(ss) < tintSteps*tintSteps/2 {
			continue
		}
		slices.SortFunc(ss, func(a, b sample) int { return cmp.Compare(a.grey, b.grey) })
		ink, paper := ss[:len(ss)/8], ss[len(ss)-len(ss)/3:]
		mean := func(v []sample) (float64, float64) {
			var b, r float64
			for _, s := range v {
				b += s.bg
				r += s.rg
			}
			return b / float64(len(v)), r / float64(len(v))
		}
		ib, ir := mean(ink)
		pb, pr := mean(paper)
		cells[i].Tint = []float32{float32(ib - pb), float32(ir - pr)}
	}
}
