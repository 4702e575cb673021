package vision

import (
	"math"

	"github.com/sudokuar/sudokuar/sudoku"
	"gocv.io/x/gocv"
)

// Grid is a Sudoku grid found in a frame.
type Grid struct {
	// Corners are the grid's outer corners in frame pixels: top-left,
	// top-right, bottom-right, bottom-left. The order is stable for in-plane
	// rotations up to ±45°.
	Corners [4]gocv.Point2f
	// Shape is the inferred box shape (zero after Locate, which does not infer it).
	Shape sudoku.Shape
	// ShapeConfidence is how sure the box inference is, 0..1.
	ShapeConfidence float64
	// Side is the side in pixels of the square rectified canvas that H maps to.
	Side int
	// H maps frame pixels to canvas pixels and HInv maps back; both are
	// row-major 3×3 homographies (h[8] = 1). Use Apply to map points.
	H, HInv [9]float64
	// Sharpness is the variance of the Laplacian of the canvas (Analyze only).
	Sharpness float64
	// Brightness is the mean grey level (0..255) of the canvas, after
	// the lift (Analyze only).
	Brightness float64
	// Lift is the factor the frame's grey was scaled up by because it
	// was dim (1: it was not; Analyze only).
	Lift float64
	// Gap is how much darker the canvas's ink is than its paper, in the
	// frame's own grey levels (before the lift; Analyze only).
	Gap float64
	// Legibility is that gap over the canvas's noise (its standard
	// deviation): how plainly the ink stands out (Analyze only).
	Legibility float64
	// Bend is how a curled page departs from H (Analyze only; nil on a
	// flat page). ToFrame and CellH follow it.
	Bend *Bend
	// Via names the steps of Analyze that made this reading, in order
	// (the search step that gave it, then the mends of its canvas); for
	// tracing which steps win.
	Via []string
}

// Options tunes a Detector. The zero value selects every default.
type Options struct {
	// MaxSide bounds the working resolution: larger frames are downscaled
	// (area interpolation) before anything else. Default 1600.
	MaxSide int
	// FindSide bounds the resolution of the grid search. Default 640.
	FindSide int
	// CellPx is the canvas size of one cell; the canvas side is
	// clamp(N*CellPx, 9*CellPx, 12*CellPx), and 16*CellPx for 16×16
	// grids. Default 32.
	CellPx int
	// Sizes restricts the grid sides N that Analyze considers
	// (default 4, 6, 8, 9, 10, 12, 16). Give {9} to read only classic Sudoku.
	Sizes []int
	// MinSideFrac is the shortest grid side, as a fraction of the frame's
	// shorter side, below which Locate reports TooSmall. Default 0.2.
	MinSideFrac float64
	// MinSidePx caps that limit in working pixels (the frame scaled down
	// to MaxSide, which the cells are cut from): a grid this many pixels
	// across is never too small, whatever the frame's size. Default 144
	// (16 pixels a cell of a 9×9 grid; 0.2 of a 720-pixel frame), so a
	// 1920×1080 or a portrait 1080×1920 frame takes the grids a 1280×720
	// one does instead of asking for 216 pixels.
	MinSidePx float64
	// MinSharpness is the variance of the Laplacian of the canvas below which
	// Analyze reports TooBlurry (a dim frame's canvas is measured
	// flattened, as its cells are cut). Default 8 (the real test photos
	// measure 17 and up).
	MinSharpness float64
	// MinLegibility is the Grid.Legibility (ink's gap from paper over
	// the noise) below which Analyze reports TooDark. Default 4 (see the
	// "Light" paragraph of docs/performance.md).
	MinLegibility float64
	// MinGap is the Grid.Gap (in the frame's grey levels) below which
	// Analyze reports TooDark: ink a few levels from its paper is lost
	// to the camera's rounding whatever the noise. Default 8.
	MinGap float64
	// MinInkFrac is the ink (fraction of the cell area) below which a cell is
	// empty. Default 0.03.
	MinInkFrac float64
	// LookPx is the side of a cell in the frame, in pixels, below which
	// Analyze cuts each digit of a grid up to 9×9 several ways
	// (Cell.Looks). Default SmallLookPx; negative: never.
	LookPx float64
}

// WorkSide is the long side a frame is scaled down to before anything
// else: MaxSide, or its default. A front end that decodes images itself
// need not decode more pixels than this.
func (o Options) WorkSide() int { return o.withDefaults().MaxSide }

// WorkScale is how many frame pixels make one working pixel for a w×h
// frame: 1, or more when its long side exceeds MaxSide and it is scaled
// down before anything else. Cells are read from working pixels.
func (o Options) WorkScale(w, h int) float64 {
	if long, side := max(w, h), o.WorkSide(); long > side {
		return float64(long) / float64(side)
	}
	return 1
}

func (o Options) withDefaults() Options {
	if o.MaxSide <= 0 {
		o.MaxSide = 1600
	}
	if o.FindSide <= 0 {
		o.FindSide = 640
	}
	if o.CellPx <= 0 {
		o.CellPx = 32
	}
	if len(o.Sizes) == 0 {
		o.Sizes = defaultSizes
	}
	if o.MinSideFrac <= 0 {
		o.MinSideFrac = 0.2
	}
	if o.MinSidePx <= 0 {
		o.MinSidePx = 144
	}
	if o.MinSharpness <= 0 {
		o.MinSharpness = 8
	}
	if o.MinLegibility <= 0 {
		o.MinLegibility = 4
	}
	if o.MinGap <= 0 {
		o.MinGap = 8
	}
	if o.MinInkFrac <= 0 {
		o.MinInkFrac = 0.03
	}
	if o.LookPx == 0 {
		o.LookPx = SmallLookPx
	}
	return o
}

// minFrameSide is the smallest frame side accepted: below it no grid can be read.
const minFrameSide = 32

// setHomography fills H and HInv for g.Corners and g.Side.
func setHomography(g *Grid) bool {
	src := ptsOf(g.Corners)
	s := float64(g.Side)
	h, ok := homography(src, [4]pt{{0, 0}, {s, 0}, {s, s}, {0, s}})
	if !ok {
		return false
	}
	hi, ok := invert3(h)
	if !ok {
		return false
	}
	g.H, g.HInv = h, hi
	return true
}

// ptsOf converts frame corners to pt.
func ptsOf(q [4]gocv.Point2f) [4]pt {
	var out [4]pt
	for i, c := range q {
		out[i] = pt{float64(c.X), float64(c.Y)}
	}
	return out
}

// MeanSide is the mean side of the quadrilateral q (pixels).
func MeanSide(q [4]gocv.Point2f) float64 {
	side := 0.0
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		side += math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) / 4
	}
	return side
}

// canvasSide is the rectified canvas side for an n×n grid: n*cellPx, but
// at least the 9×9 canvas and at most the 12×12 one, except that a 16×16
// grid is cut from the finest canvas (16*cellPx, where it is read and its
// lattice found): a cell of three quarters of cellPx binarised the
// thin strokes of a blurred 3 or 13 in small cells into blobs, and the
// finest canvas costs a 16×16 only a little more CPU in Analyze.
func canvasSide(n, cellPx int) int {
	if n > 12 {
		return 16 * cellPx
	}
	return min(max(n*cellPx, 9*cellPx), 12*cellPx)
}

// hasMultiple reports whether sizes holds a multiple of n larger than n.
func hasMultiple(sizes []int, n int) bool {
	for _, s := range sizes {
		if s > n && s%n == 0 {
			return true
		}
	}
	return false
}
