package vision

import (
	"image"
	"image/color"
	"slices"

	"gocv.io/x/gocv"
)

// A quadrilateral can hold part of a grid: some boxes of a 9×9 whose outer
// line a fold, curl or the frame's edge broke, read as a smaller puzzle that
// may even have one solution. Such a lattice goes on beyond a side (its
// lines continue one cell on), where a real puzzle's outer line has paper
// beyond it. The functions here look one cell beyond each side, grow the
// grid while its lattice continues, and refuse a part they cannot grow.

// extPx is the pixels per cell of the view beyond the sides.
const extPx = 12

// continuingSides reports, for the n×n grid g (canvas of side g.Side),
// which sides (top, right, bottom, left) its lattice continues beyond:
// most of the n-1 lines across that side run on through the strip one
// cell outside it. gs is the scale from working-grey to frame pixels.
func (r *rectifier) continuingSides(g Grid, gs float64, n int) [4]bool {
	var out [4]bool
	if n < 2 {
		return out
	}
	// Canvas(g.Side) -> the view: one cell of margin on every side, extPx
	// pixels a cell.
	k := extPx * float64(n) / float64(g.Side)
	side := (n + 2) * extPx
	h := mul3([9]float64{k, 0, extPx, 0, k, extPx, 0, 0, 1}, mul3(g.H, [9]float64{gs, 0, 0, 0, gs, 0, 0, 0, 1}))
	for i := 0; i < 9; i++ {
		r.hmat.SetDoubleAt(i/3, i%3, h[i])
	}
	// White beyond the frame: replicated border pixels would draw lines
	// across the margin exactly where the lattice's lines leave the frame.
	gocv.WarpPerspectiveWithParams(*r.gray, &r.ext, r.hmat, image.Pt(side, side),
		gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{255, 255, 255, 0})
	gocv.AdaptiveThreshold(r.ext, &r.ext, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, extPx|1, 7)
	px, err := r.ext.DataPtrUint8()
	if err != nil || len(px) != side*side {
		return out
	}
	s := strip{px: px, side: side}
	for sd := 0; sd < 4; sd++ {
		runs, mids := 0, 0
		for j := 1; j < n; j++ {
			if s.inked(sd, (j+1)*extPx, n, 4) >= extPx-6 {
				runs++
			}
		}
		for j := 0; j < n; j++ {
			if s.inked(sd, (j+1)*extPx+extPx/2, n, 1) >= extPx-6 {
				mids++
			}
		}
		// Most lines across run on, and the cells between them are not
		// inked through (a band of ink along the side, such as the paper
		// beside the frame's edge, is no lattice; a digit inks a few).
		out[sd] = 10*runs >= 7*(n-1) && 2*mids <= n
	}
	return out
}

// strip reads the binary view of continuingSides (side×side, ink 255).
type strip struct {
	px   []uint8
	side int
}

// inked counts the pixel rows of the strip outside side sd (top, right,
// bottom, left; columns for left and right) with ink within tol pixels of
// position at across the side.
func (s strip) inked(sd, at, n, tol int) int {
	from := 0
	if sd == 1 || sd == 2 {
		from = (n + 1) * extPx
	}
	vertical := sd == 0 || sd == 2
	hit := 0
	for t := from + 2; t < from+extPx-2; t++ {
		for o := -tol; o <= tol; o++ {
			x, y := at+o, t
			if !vertical {
				x, y = t, at+o
			}
			if s.px[y*s.side+x] != 0 {
				hit++
				break
			}
		}
	}
	return hit
}

// grown returns g (an n×n grid) with each side in grow moved out by one
// cell along the lattice, or false.
func grown(g Grid, n int, grow [4]bool) (Grid, bool) {
	s := float64(g.Side)
	cs := s / float64(n)
	x0, y0, x1, y1 := 0.0, 0.0, s, s
	if grow[0] {
		y0 -= cs
	}
	if grow[1] {
		x1 += cs
	}
	if grow[2] {
		y1 += cs
	}
	if grow[3] {
		x0 -= cs
	}
	next := g
	next.Bend = nil
	for i, p := range [4]pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} {
		q := apply(g.HInv, p)
		next.Corners[i] = gocv.Point2f{X: float32(q.X), Y: float32(q.Y)}
	}
	return next, setHomography(&next)
}

// wholeGrid checks a grid read smaller than 9×9 (g with its cells, taken
// off search f) for a
// lattice continuing beyond its sides. It reads the grid grown by a cell
// on those sides, again while the lattice continues, and returns the
// larger reading once the lattice stops; a part it cannot grow into a
// clear reading is refused (NoGrid): a 9×9 page is never read as a
// smaller puzzle made of its boxes.
func (d *Detector) wholeGrid(f *finder, r reading, gs float64) reading {
	g, n := r.g, r.g.Shape.N()
	if n >= 9 || n == 0 {
		return r
	}
	for steps := 0; steps < 9; steps++ {
		grow := d.rect.continuingSides(g, gs, n)
		if grow == [4]bool{} {
			return r
		}
		g2, ok := grown(g, n, grow)
		if !ok {
			break
		}
		g2.Side = 9 * d.opts.CellPx
		if !setHomography(&g2) {
			break
		}
		r3 := d.analyzeTaken(f, g2, gs)
		if !acceptable(r3, bar{above: n}) {
			break
		}
		// The line score stays the first reading's.
		r.g, r.cells, r.err = r3.g, r3.cells, r3.err
		r.via = append(append(slices.Clip(r.via), "grow"), r3.via...)
		g, n = r.g, r.g.Shape.N()
		if n >= 9 {
			return r
		}
	}
	r.cells, r.err = nil, qualityErr(NoGrid, "a %d×%d part of a larger grid", n, n)
	return r
}
