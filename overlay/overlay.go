// Package overlay draws results back onto camera frames: the solution
// digits in the empty cells of a found grid (rendered on the rectified
// canvas and warped back through the grid's inverse homography),
// highlighted cells, the grid outline and a status text (HUD).
//
// In: a BGR (or grey/BGRA) frame, a vision.Grid and sudoku grids or text.
// Out: the same frame, drawn on in place.
package overlay

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// Style says how solution digits look. The zero value is not useful; start
// from DefaultStyle.
type Style struct {
	// Color of the digits; pick one that differs from the printed ink.
	Color color.RGBA
	// Alpha is the digits' opacity, 0..1.
	Alpha float64
	// HeightFrac is the digit height as a fraction of the cell side.
	HeightFrac float64
	// Weight is the stroke thickness relative to the digit height (a bold
	// look needs about 0.12); it makes the solution differ from thin print.
	Weight float64
	// Font is the Hershey font used.
	Font gocv.HersheyFont
	// Symbols writes values above 9 the way the page does (numbers,
	// letters or 0..F); the zero value is numbers.
	Symbols sudoku.Symbols
}

// DefaultStyle is blue, slightly translucent, bold digits filling 60% of a cell.
func DefaultStyle() Style {
	return Style{Color: color.RGBA{R: 20, G: 90, B: 230, A: 255}, Alpha: 0.9, HeightFrac: 0.6, Weight: 0.12, Font: gocv.FontHersheyDuplex}
}

// checkFrame returns the frame's pixel bytes and channels, or an error
// naming what is wrong with it.
func checkFrame(frame *gocv.Mat) ([]byte, int, error) {
	if frame == nil || frame.Ptr() == nil || frame.Empty() {
		return nil, 0, fmt.Errorf("overlay: empty frame")
	}
	var ch int
	switch frame.Type() {
	case gocv.MatTypeCV8UC1:
		ch = 1
	case gocv.MatTypeCV8UC3:
		ch = 3
	case gocv.MatTypeCV8UC4:
		ch = 4
	default:
		return nil, 0, fmt.Errorf("overlay: unsupported frame type %v (want 8-bit grey, BGR or BGRA)", frame.Type())
	}
	if !frame.IsContinuous() {
		return nil, 0, fmt.Errorf("overlay: frame must be a continuous Mat, not a region of one")
	}
	b, err := frame.DataPtrUint8()
	if err != nil {
		return nil, 0, fmt.Errorf("overlay: frame data: %w", err)
	}
	return b, ch, nil
}

// checkGrid rejects grids whose homography cannot be used.
func checkGrid(g vision.Grid) error {
	if g.Side <= 0 || g.HInv[8] == 0 && g.HInv[0] == 0 {
		return fmt.Errorf("overlay: grid has no homography (side %d)", g.Side)
	}
	return nil
}

// gridSide checks g as checkGrid does and returns its cells per side; a
// grid without a shape is refused.
func gridSide(g vision.Grid) (int, error) {
	if err := checkGrid(g); err != nil {
		return 0, err
	}
	if n := g.Shape.N(); n > 0 {
		return n, nil
	}
	return 0, fmt.Errorf("overlay: grid has no shape (use a Grid from Analyze)")
}

// framePt maps the canvas point (x, y) (canvas of side g.Side) into the
// frame, following the grid's bend on a curled page.
func framePt(g vision.Grid, x, y float64) (float64, float64) {
	return g.ToFrame(x, y)
}

// glyphSize is the side in pixels at which digits are rendered for a grid
// of side n cells: about a cell's size in the frame (the grid's perimeter
// there over 4n), at least 12 and at most maxGlyph.
func glyphSize(g vision.Grid, n int) int {
	side := float64(g.Side)
	var perim float64
	corners := [][2]float64{{0, 0}, {side, 0}, {side, side}, {0, side}}
	for i, c := range corners {
		x0, y0 := framePt(g, c[0], c[1])
		nx := corners[(i+1)%4]
		x1, y1 := framePt(g, nx[0], nx[1])
		perim += math.Hypot(x1-x0, y1-y0)
	}
	return int(math.Min(maxGlyph, math.Max(12, perim/4/float64(n))))
}

// bbox returns the frame rectangle covering pts, clipped to w×h.
func bbox(xs, ys []float64, w, h int) image.Rectangle {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range xs {
		x0, x1 = math.Min(x0, xs[i]), math.Max(x1, xs[i])
		y0, y1 = math.Min(y0, ys[i]), math.Max(y1, ys[i])
	}
	r := image.Rect(int(math.Floor(x0))-1, int(math.Floor(y0))-1, int(math.Ceil(x1))+2, int(math.Ceil(y1))+2)
	return r.Intersect(image.Rect(0, 0, w, h))
}

// Solution draws the solution digits of the puzzle's empty cells into the
// grid g on frame. Each digit is rendered once, upright on the rectified
// canvas at about the cell's size in the frame, and mapped into every cell
// that needs it through the grid's homography (so it follows the grid's
// perspective), then alpha-blended into the frame pixels it covers; nothing
// outside the digits changes.
func Solution(frame *gocv.Mat, g vision.Grid, puzzle, solution sudoku.Grid, st Style) error {
	data, ch, err := checkFrame(frame)
	if err != nil {
		return err
	}
	if err := checkGrid(g); err != nil {
		return err
	}
	n := puzzle.N()
	if n <= 0 || len(puzzle.Cells) != n*n || solution.Shape != puzzle.Shape || len(solution.Cells) != n*n {
		return fmt.Errorf("overlay: puzzle %v (%d cells) and solution %v (%d cells) do not match",
			puzzle.Shape, len(puzzle.Cells), solution.Shape, len(solution.Cells))
	}
	if st.HeightFrac <= 0 || st.HeightFrac > 1 {
		st.HeightFrac = DefaultStyle().HeightFrac
	}
	if st.Alpha <= 0 || st.Alpha > 1 {
		st.Alpha = 1
	}
	w, h := frame.Cols(), frame.Rows()
	side := float64(g.Side)
	// Glyphs are rendered once per digit at about the cell's size in the
	// frame, then mapped into each cell through the homography: only the
	// pixels under a digit are touched, which keeps this cheap at 720p.
	cellPx := glyphSize(g, n)
	glyphs := map[int]*glyph{}
	cs := side / float64(n)
	k := cs / float64(cellPx) // canvas units per glyph pixel
	col := bgr(st.Color, ch)
	for i, v := range solution.Cells {
		if puzzle.Cells[i] != 0 || v <= 0 {
			continue
		}
		gl, ok := glyphs[v]
		if !ok {
			gl = renderGlyph(st.Symbols.Symbol(v), cellPx, st)
			glyphs[v] = gl
		}
		if gl == nil {
			continue
		}
		row, c := i/n, i%n
		// Within a cell one homography holds, also on a curled page.
		hh, ok := g.CellH(row, c, n)
		if !ok {
			continue
		}
		blit(data, w, h, ch, hh, g, gl, float64(c)*cs, float64(row)*cs, k, col, st.Alpha)
	}
	return nil
}

// blit alpha-blends glyph gl, rendered in a square whose top-left corner
// is (cu, cv) on the canvas at k canvas units per glyph pixel, into the
// frame pixels it covers; hh maps frame pixels to the canvas within the
// glyph's cell (vision.Grid.CellH).
func blit(data []byte, w, h, ch int, hh [9]float64, g vision.Grid, gl *glyph, cu, cv, k float64, col [3]byte, alpha float64) {
	u0, v0 := cu+float64(gl.x)*k, cv+float64(gl.y)*k
	u1, v1 := u0+float64(gl.w)*k, v0+float64(gl.h)*k
	var xs, ys []float64
	for _, p := range [][2]float64{{u0, v0}, {u1, v0}, {u1, v1}, {u0, v1}} {
		x, y := framePt(g, p[0], p[1])
		xs, ys = append(xs, x), append(ys, y)
	}
	box := bbox(xs, ys, w, h)
	a256 := int(alpha * 256)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		// The homography's numerators and denominator are linear in x:
		// step them instead of multiplying per pixel.
		fx, fy := float64(box.Min.X), float64(y)
		nu := hh[0]*fx + hh[1]*fy + hh[2]
		nv := hh[3]*fx + hh[4]*fy + hh[5]
		dw := hh[6]*fx + hh[7]*fy + hh[8]
		for x := box.Min.X; x < box.Max.X; x, nu, nv, dw = x+1, nu+hh[0], nv+hh[3], dw+hh[6] {
			if dw == 0 {
				continue
			}
			m := gl.sample((nu/dw-u0)/k, (nv/dw-v0)/k)
			if m == 0 {
				continue
			}
			a := m * a256 >> 8
			p := (y*w + x) * ch
			for q := 0; q < min(ch, 3); q++ {
				data[p+q] = byte((int(data[p+q])*(255-a) + int(col[q])*a) / 255)
			}
		}
	}
}

// Mark is one digit to draw in a cell: a big one fills the cell (a digit
// to place), a small one sits where a pencil mark would (the candidate's
// place in a little box-shaped grid inside the cell), and a struck one is
// crossed out (a candidate to eliminate).
type Mark struct {
	Cell, Digit int // row-major cell index, digit 1..N
	Small       bool
	Strike      bool
	Color       color.RGBA
}

// Marks draws marks into the grid g on frame, following its perspective
// like Solution. The grid must come from Analyze, which sets its Shape.
func Marks(frame *gocv.Mat, g vision.Grid, marks []Mark, st Style) error {
	data, ch, err := checkFrame(frame)
	if err != nil {
		return err
	}
	n, err := gridSide(g)
	if err != nil {
		return err
	}
	if st.Alpha <= 0 || st.Alpha > 1 {
		st.Alpha = 1
	}
	w, h := frame.Cols(), frame.Rows()
	side := float64(g.Side)
	cellPx := glyphSize(g, n)
	cs := side / float64(n)
	// Pencil marks sit in a BoxCols×BoxRows grid inside the cell.
	sc, sr := g.Shape.BoxCols, g.Shape.BoxRows
	sub := cs / float64(max(sc, sr))
	subPx := max(8, cellPx/max(sc, sr))
	type key struct {
		d     int
		small bool
	}
	glyphs := map[key]*glyph{}
	for _, mk := range marks {
		if mk.Cell < 0 || mk.Cell >= n*n || mk.Digit < 1 || mk.Digit > n {
			return fmt.Errorf("overlay: mark %d at cell %d outside a %dx%d grid", mk.Digit, mk.Cell, n, n)
		}
		kk := key{mk.Digit, mk.Small}
		gl, ok := glyphs[kk]
		if !ok {
			px := cellPx
			stg := st
			if mk.Small {
				px = subPx
				stg.HeightFrac, stg.Weight = 0.75, 0.1
			}
			gl = renderGlyph(st.Symbols.Symbol(mk.Digit), px, stg)
			glyphs[kk] = gl
		}
		if gl == nil {
			continue
		}
		row, c := mk.Cell/n, mk.Cell%n
		cu, cv := float64(c)*cs, float64(row)*cs
		size, px := cs, cellPx
		if mk.Small {
			i := mk.Digit - 1
			cu += float64(i%sc) * sub
			cv += float64(i/sc) * sub
			size, px = sub, subPx
		}
		col := bgr(mk.Color, ch)
		hh, ok := g.CellH(row, c, n)
		if !ok {
			continue
		}
		blit(data, w, h, ch, hh, g, gl, cu, cv, size/float64(px), col, st.Alpha)
		if mk.Strike {
			x0, y0 := framePt(g, cu+0.15*size, cv+0.85*size)
			x1, y1 := framePt(g, cu+0.85*size, cv+0.15*size)
			gocv.Line(frame, image.Pt(int(math.Round(x0)), int(math.Round(y0))), image.Pt(int(math.Round(x1)), int(math.Round(y1))),
				mk.Color, max(1, int(math.Round(math.Abs(x1-x0)/6))))
		}
	}
	return nil
}

// maxGlyph bounds the glyph cell size in pixels.
const maxGlyph = 160

// glyph is a rendered digit: a w×h coverage mask (0..255) placed at (x, y)
// inside a square cell of the render size.
type glyph struct {
	x, y, w, h int
	mask       []byte
}

// renderGlyph draws txt centred in a cellPx square in the style's font and
// weight and keeps the tight box around the ink; nil when nothing was drawn.
func renderGlyph(txt string, cellPx int, st Style) *glyph {
	one := gocv.GetTextSize(txt, st.Font, 1, 1)
	if one.X <= 0 || one.Y <= 0 {
		return nil
	}
	cs := float64(cellPx)
	scale := math.Min(st.HeightFrac*cs/float64(one.Y), 0.8*cs/float64(one.X))
	th := max(1, int(math.Round(st.Weight*scale*float64(one.Y))))
	sz := gocv.GetTextSize(txt, st.Font, scale, th)
	m := gocv.NewMatWithSize(cellPx, cellPx, gocv.MatTypeCV8UC1)
	defer m.Close()
	m.SetTo(gocv.NewScalar(0, 0, 0, 0))
	org := image.Pt(int((cs-float64(sz.X))/2), int((cs+float64(sz.Y))/2))
	gocv.PutTextWithParams(&m, txt, org, st.Font, scale, color.RGBA{255, 255, 255, 255}, th, gocv.LineAA, false)
	b, err := m.DataPtrUint8()
	if err != nil {
		return nil
	}
	x0, y0, x1, y1 := cellPx, cellPx, -1, -1
	for y := 0; y < cellPx; y++ {
		for x := 0; x < cellPx; x++ {
			if b[y*cellPx+x] != 0 {
				x0, y0 = min(x0, x), min(y0, y)
				x1, y1 = max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		return nil
	}
	g := &glyph{x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1}
	g.mask = make([]byte, g.w*g.h)
	for y := 0; y < g.h; y++ {
		copy(g.mask[y*g.w:(y+1)*g.w], b[(y0+y)*cellPx+x0:(y0+y)*cellPx+x0+g.w])
	}
	return g
}

// sample returns the glyph's coverage (0..255) at glyph coordinates (gx,
// gy), bilinearly interpolated, 0 outside.
func (g *glyph) sample(gx, gy float64) int {
	gx, gy = gx-0.5, gy-0.5 // pixel centres
	if gx <= -1 || gy <= -1 || gx >= float64(g.w) || gy >= float64(g.h) {
		return 0
	}
	// Shift by one so the floor of a value in (-1, w) is a plain truncation.
	gx, gy = gx+1, gy+1
	x0, y0 := int(gx)-1, int(gy)-1
	fx, fy := gx-float64(x0+1), gy-float64(y0+1)
	var a, b, c, d float64
	if y0 >= 0 {
		row := g.mask[y0*g.w:]
		if x0 >= 0 {
			a = float64(row[x0])
		}
		if x0+1 < g.w {
			b = float64(row[x0+1])
		}
	}
	if y0+1 < g.h {
		row := g.mask[(y0+1)*g.w:]
		if x0 >= 0 {
			c = float64(row[x0])
		}
		if x0+1 < g.w {
			d = float64(row[x0+1])
		}
	}
	return int((a*(1-fx)+b*fx)*(1-fy) + (c*(1-fx)+d*fx)*fy)
}

// bgr returns c in the frame's channel order (grey frames get its luma).
func bgr(c color.RGBA, ch int) [3]byte {
	if ch == 1 {
		y := (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000
		return [3]byte{byte(y)}
	}
	return [3]byte{c.B, c.G, c.R}
}

// Highlight tints the given cells (row-major indices into the grid's N×N
// cells, e.g. conflicting givens) with c and outlines them. The grid must
// come from Analyze, which sets its Shape.
func Highlight(frame *gocv.Mat, g vision.Grid, cells []int, c color.RGBA) error {
	return markCells(frame, g, cells, c, 0.35, 1)
}

// OutlineCells draws a bold outline in c around each of the given cells
// (row-major indices), leaving the print inside visible: the mark for a
// cell the user should check. The grid must come from Analyze.
func OutlineCells(frame *gocv.Mat, g vision.Grid, cells []int, c color.RGBA) error {
	return markCells(frame, g, cells, c, 0, 3)
}

// markCells tints cells with c at opacity alpha and outlines them with a
// line weight times the frame's usual width.
func markCells(frame *gocv.Mat, g vision.Grid, cells []int, c color.RGBA, alpha float64, weight int) error {
	data, ch, err := checkFrame(frame)
	if err != nil {
		return err
	}
	n, err := gridSide(g)
	if err != nil {
		return err
	}
	cs := float64(g.Side) / float64(n)
	w, h := frame.Cols(), frame.Rows()
	for _, idx := range cells {
		if idx < 0 || idx >= n*n {
			return fmt.Errorf("overlay: cell %d outside a %dx%d grid", idx, n, n)
		}
		row, col := idx/n, idx%n
		var q [4][2]float64
		var xs, ys []float64
		// An outline alone sits a little inside the cell, clear of the
		// grid lines, so it reads as "this cell".
		inset := 0.0
		if alpha == 0 {
			inset = 0.08
		}
		for k, cp := range [][2]float64{{inset, inset}, {1 - inset, inset}, {1 - inset, 1 - inset}, {inset, 1 - inset}} {
			x, y := framePt(g, (float64(col)+cp[0])*cs, (float64(row)+cp[1])*cs)
			q[k] = [2]float64{x, y}
			xs, ys = append(xs, x), append(ys, y)
		}
		if alpha > 0 {
			fillQuad(data, w, ch, bbox(xs, ys, w, h), q, c, alpha)
		}
		pts := make([]image.Point, 4)
		for k := range q {
			pts[k] = image.Pt(int(math.Round(q[k][0])), int(math.Round(q[k][1])))
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
		gocv.Polylines(frame, pv, true, c, weight*max(1, min(w, h)/360))
		pv.Close()
	}
	return nil
}

// fillQuad blends c with opacity alpha into the pixels of box inside the
// convex quadrilateral q.
func fillQuad(data []byte, w, ch int, box image.Rectangle, q [4][2]float64, c color.RGBA, alpha float64) {
	col := bgr(c, ch)
	a := int(alpha * 255)
	// Orientation of q decides which side of each edge is inside.
	sign := 0.0
	for k := 0; k < 4; k++ {
		a0, b0 := q[k], q[(k+1)%4]
		sign += (b0[0] - a0[0]) * (b0[1] + a0[1])
	}
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			px, py := float64(x), float64(y)
			inside := true
			for k := 0; k < 4 && inside; k++ {
				a0, b0 := q[k], q[(k+1)%4]
				cr := (b0[0]-a0[0])*(py-a0[1]) - (b0[1]-a0[1])*(px-a0[0])
				if sign < 0 {
					inside = cr >= 0
				} else {
					inside = cr <= 0
				}
			}
			if !inside {
				continue
			}
			p := (y*w + x) * ch
			for k := 0; k < min(ch, 3); k++ {
				data[p+k] = byte((int(data[p+k])*(255-a) + int(col[k])*a) / 255)
			}
		}
	}
}

// Outline draws the grid's border in c: its four sides, bowed as the
// page is on a curled one.
func Outline(frame *gocv.Mat, g vision.Grid, c color.RGBA) error {
	if _, _, err := checkFrame(frame); err != nil {
		return err
	}
	pts := make([]image.Point, 4)
	for i, p := range g.Corners {
		if math.IsNaN(float64(p.X)) || math.IsNaN(float64(p.Y)) {
			return fmt.Errorf("overlay: grid corner %d is not a number", i)
		}
		pts[i] = image.Pt(int(math.Round(float64(p.X))), int(math.Round(float64(p.Y))))
	}
	if g.Bend != nil && checkGrid(g) == nil {
		// Each side as a polyline through the bend.
		const steps = 12
		s := float64(g.Side)
		pts = pts[:0]
		for _, e := range [4][2][2]float64{{{0, 0}, {1, 0}}, {{1, 0}, {1, 1}}, {{1, 1}, {0, 1}}, {{0, 1}, {0, 0}}} {
			for k := 0; k < steps; k++ {
				t := float64(k) / steps
				x, y := g.ToFrame(s*(e[0][0]+(e[1][0]-e[0][0])*t), s*(e[0][1]+(e[1][1]-e[0][1])*t))
				if math.IsNaN(x) || math.IsNaN(y) {
					return fmt.Errorf("overlay: grid outline is not a number")
				}
				pts = append(pts, image.Pt(int(math.Round(x)), int(math.Round(y))))
			}
		}
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	defer pv.Close()
	gocv.Polylines(frame, pv, true, c, max(2, min(frame.Cols(), frame.Rows())/240))
	return nil
}

// HUD writes lines of status text (messages, fps) in the top-left corner,
// white on a darkened box so it reads on any background. Text is scaled to
// the frame height.
func HUD(frame *gocv.Mat, lines []string) error {
	data, ch, err := checkFrame(frame)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		return nil
	}
	w, h := frame.Cols(), frame.Rows()
	scale := math.Max(0.35, float64(h)/720*0.7)
	th := max(1, int(math.Round(scale*1.6)))
	font := gocv.FontHersheySimplex
	pad := int(8 * scale)
	lineH := 0
	textW := 0
	for _, l := range lines {
		sz := gocv.GetTextSize(l, font, scale, th)
		lineH = max(lineH, sz.Y)
		textW = max(textW, sz.X)
	}
	step := lineH + pad
	box := image.Rect(0, 0, textW+2*pad, step*len(lines)+pad).Intersect(image.Rect(0, 0, w, h))
	darken(data, w, ch, box, 0.55)
	for i, l := range lines {
		org := image.Pt(pad, pad+lineH+i*step)
		gocv.PutTextWithParams(frame, l, org, font, scale, color.RGBA{255, 255, 255, 255}, th, gocv.LineAA, false)
	}
	return nil
}

// darken scales the pixels of box by (1 - amount).
func darken(data []byte, w, ch int, box image.Rectangle, amount float64) {
	keep := int((1 - amount) * 256)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		row := data[(y*w+box.Min.X)*ch : (y*w+box.Max.X)*ch]
		for i := range row {
			if ch == 4 && i%4 == 3 {
				continue
			}
			row[i] = byte(int(row[i]) * keep >> 8)
		}
	}
}

// Circles rings each of the given cells (row-major indices) in c, an
// ellipse through the cell's middle following the page's perspective,
// leaving the ink inside visible: the mark for a wrong entry. The grid
// must come from Analyze, which sets its Shape.
func Circles(frame *gocv.Mat, g vision.Grid, cells []int, c color.RGBA) error {
	if _, _, err := checkFrame(frame); err != nil {
		return err
	}
	n, err := gridSide(g)
	if err != nil {
		return err
	}
	const steps = 24
	cs := float64(g.Side) / float64(n)
	w, h := frame.Cols(), frame.Rows()
	rings := make([][]image.Point, 0, len(cells))
	for _, idx := range cells {
		if idx < 0 || idx >= n*n {
			return fmt.Errorf("overlay: cell %d outside a %dx%d grid", idx, n, n)
		}
		cx, cy := (float64(idx%n)+0.5)*cs, (float64(idx/n)+0.5)*cs
		pts := make([]image.Point, steps)
		for k := range pts {
			a := 2 * math.Pi * float64(k) / steps
			x, y := framePt(g, cx+0.44*cs*math.Cos(a), cy+0.44*cs*math.Sin(a))
			if math.IsNaN(x) || math.IsNaN(y) {
				return fmt.Errorf("overlay: circle of cell %d is not a number", idx)
			}
			pts[k] = image.Pt(int(math.Round(x)), int(math.Round(y)))
		}
		rings = append(rings, pts)
	}
	if len(rings) == 0 {
		return nil
	}
	pv := gocv.NewPointsVectorFromPoints(rings)
	defer pv.Close()
	gocv.Polylines(frame, pv, true, c, 2*max(1, min(w, h)/360))
	return nil
}

// Banner writes text large and centred across the frame in c on a
// darkened band: a word the user must not miss ("Solved").
func Banner(frame *gocv.Mat, text string, c color.RGBA) error {
	data, ch, err := checkFrame(frame)
	if err != nil {
		return err
	}
	if text == "" {
		return nil
	}
	w, h := frame.Cols(), frame.Rows()
	font := gocv.FontHersheyDuplex
	scale := math.Max(0.8, float64(h)/720*2.4)
	th := max(2, int(math.Round(scale*2)))
	sz := gocv.GetTextSize(text, font, scale, th)
	if sz.X > w*9/10 && sz.X > 0 {
		scale *= float64(w*9/10) / float64(sz.X)
		th = max(1, int(math.Round(scale*2)))
		sz = gocv.GetTextSize(text, font, scale, th)
	}
	pad := sz.Y / 2
	box := image.Rect(0, h/2-sz.Y/2-pad, w, h/2+sz.Y/2+pad).Intersect(image.Rect(0, 0, w, h))
	darken(data, w, ch, box, 0.5)
	org := image.Pt((w-sz.X)/2, h/2+sz.Y/2)
	gocv.PutTextWithParams(frame, text, org, font, scale, c, th, gocv.LineAA, false)
	return nil
}
