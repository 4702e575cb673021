package live

import (
	"image"
	"math"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/vision"
)

// inkPrint is a cheap fingerprint of the puzzle in view: the darkness of
// the middle of each cell, taken on a small rectified copy of the grid. Two
// looks at the same puzzle give strongly correlated prints however the page
// moves or the light changes; another puzzle's givens sit in other cells,
// so its print does not correlate. That lets the display loop notice a
// swapped page within a frame, without waiting for the next recognition.
type inkPrint []float64

// printer computes ink prints; it owns its scratch Mats (Close them).
type printer struct {
	h, warped, gray gocv.Mat
}

// cellPx is the thumbnail's cell side: enough pixels to average the middle
// of a cell, few enough to cost well under a millisecond.
const cellPx = 12

func newPrinter() *printer {
	return &printer{
		h:      gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F),
		warped: gocv.NewMat(),
		gray:   gocv.NewMat(),
	}
}

// Close releases the scratch Mats.
func (p *printer) Close() {
	p.h.Close()
	p.warped.Close()
	p.gray.Close()
}

// print returns the ink print of the n×n grid g in frame (BGR or grey),
// or nil when it cannot be taken.
func (p *printer) print(frame gocv.Mat, g vision.Grid, n int) inkPrint {
	if n < 2 || g.Side <= 0 || frame.Empty() || (frame.Channels() != 3 && frame.Channels() != 1) {
		return nil
	}
	side := n * cellPx
	// g.H maps the frame onto a canvas of g.Side pixels; scale it to ours.
	s := float64(side) / float64(g.Side)
	for i := 0; i < 9; i++ {
		v := g.H[i]
		if i < 6 {
			v *= s
		}
		p.h.SetDoubleAt(i/3, i%3, v)
	}
	if frame.Channels() == 1 {
		gocv.WarpPerspective(frame, &p.gray, p.h, image.Pt(side, side))
	} else {
		gocv.WarpPerspective(frame, &p.warped, p.h, image.Pt(side, side))
		gocv.CvtColor(p.warped, &p.gray, gocv.ColorBGRToGray)
	}
	if p.gray.Rows() != side || p.gray.Cols() != side {
		return nil
	}
	pix, err := p.gray.DataPtrUint8()
	if err != nil {
		return nil
	}
	out := make(inkPrint, n*n)
	lo, hi := cellPx/4, cellPx-cellPx/4   // the middle, where a digit is
	in0, in1 := cellPx/8, cellPx-cellPx/8 // inside the grid lines
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			sum, cnt, paper := 0, 0, 1
			for y := r*cellPx + in0; y < r*cellPx+in1; y++ {
				row := pix[y*side:]
				for x := c*cellPx + in0; x < c*cellPx+in1; x++ {
					v := int(row[x])
					paper = max(paper, v)
					if y >= r*cellPx+lo && y < r*cellPx+hi && x >= c*cellPx+lo && x < c*cellPx+hi {
						sum += v
						cnt++
					}
				}
			}
			// Ink as a share of the cell's own paper brightness, so uneven
			// light and shadows across the grid do not count.
			out[r*n+c] = 1 - float64(sum)/float64(cnt)/float64(paper)
		}
	}
	return out
}

// similarity is the correlation of two prints of the same grid size, in
// [-1, 1]; 0 when either is flat or they do not match in size.
func similarity(a, b inkPrint) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= float64(len(a))
	mb /= float64(len(b))
	var sab, saa, sbb float64
	for i := range a {
		da, db := a[i]-ma, b[i]-mb
		sab += da * db
		saa += da * da
		sbb += db * db
	}
	if saa == 0 || sbb == 0 {
		return 0
	}
	return sab / math.Sqrt(saa*sbb)
}
