package main

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/mnist"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// pasteSide is the side of one cell, in pixels, of the grid-space canvas
// the pasted ink is drawn on before it is warped into the photo.
const pasteSide = 40

// inkColours are pen colours (BGR): blue, black, red; pencil is grey.
var inkColours = [...][3]float32{{150, 60, 20}, {35, 30, 30}, {40, 40, 190}}

var pencil = [3]float32{105, 105, 105}

// canvas is the ink to paste, in grid space (n cells of pasteSide each
// way): its opacity and colour per pixel.
type canvas struct {
	side  int
	alpha []float32
	col   [][3]float32
}

func newCanvas(n int) *canvas {
	s := n * pasteSide
	return &canvas{side: s, alpha: make([]float32, s*s), col: make([][3]float32, s*s)}
}

func (c *canvas) put(x, y int, a float32, col [3]float32) {
	if x < 0 || y < 0 || x >= c.side || y >= c.side || a <= 0 {
		return
	}
	i := y*c.side + x
	if a > c.alpha[i] {
		c.alpha[i], c.col[i] = a, col
	}
}

// stroke is how a digit is drawn: ink colour, opacity and the cut of the
// MNIST grey (lower: thicker strokes).
type stroke struct {
	col     [3]float32
	opacity float32
	cut     float32
	keep    func(x, y float64) bool // nil keeps all (else a half-erased digit)
}

// digit draws MNIST digit d with its centre at (cx, cy) (canvas pixels),
// h pixels tall, slanted by shear.
func (c *canvas) digit(d mnist.Digit, cx, cy, h, shear float64, st stroke) {
	sc := h / 20 // MNIST digits are about 20 of their 28 pixels tall
	r := int(h*0.8) + 2
	for y := int(cy) - r; y <= int(cy)+r; y++ {
		for x := int(cx) - r; x <= int(cx)+r; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			mx, my := (dx-shear*dy)/sc+14, dy/sc+14
			m := sampleMNIST(d, mx, my)
			a := min(1, max(0, (m-st.cut)/0.3)) * st.opacity
			if a > 0 && (st.keep == nil || st.keep(dx/h, dy/h)) {
				c.put(x, y, a, st.col)
			}
		}
	}
}

// line draws a stroke of width w from (x0,y0) to (x1,y1).
func (c *canvas) line(x0, y0, x1, y1, w float64, st stroke) {
	lx, hx := int(math.Min(x0, x1)-w), int(math.Max(x0, x1)+w)
	ly, hy := int(math.Min(y0, y1)-w), int(math.Max(y0, y1)+w)
	vx, vy := x1-x0, y1-y0
	l2 := math.Max(vx*vx+vy*vy, 1e-9)
	for y := ly; y <= hy; y++ {
		for x := lx; x <= hx; x++ {
			t := math.Min(1, math.Max(0, ((float64(x)-x0)*vx+(float64(y)-y0)*vy)/l2))
			px, py := x0+t*vx-float64(x), y0+t*vy-float64(y)
			d := math.Sqrt(px*px+py*py) - w/2
			if d < 1 {
				c.put(x, y, st.opacity*float32(min(1, 1-d)), st.col)
			}
		}
	}
}

// euroStrokes are European handwritten 1s, 4s and 7s, which MNIST (written
// in the US) lacks: polylines in a box of the digit's width (u, 0..1) and
// height (v, 0..1), several styles a digit.
var euroStrokes = map[int][][][][2]float64{
	1: { // a long flag up to the top of the stem
		{{{0.1, 0.4}, {0.6, 0}, {0.55, 1}}},
		{{{0.05, 0.3}, {0.6, 0}, {0.58, 1}}, {{0.25, 1}, {0.85, 1}}},
	},
	7: { // crossed, with or without a hook at the left end of the bar
		{{{0.1, 0.05}, {0.9, 0}, {0.4, 1}}, {{0.3, 0.5}, {0.85, 0.5}}},
		{{{0.05, 0.22}, {0.1, 0.05}, {0.9, 0}, {0.45, 1}}, {{0.35, 0.52}, {0.9, 0.48}}},
	},
	4: { // open (the stem apart from the diagonal) and closed
		{{{0.5, 0}, {0.05, 0.65}, {0.95, 0.65}}, {{0.7, 0.25}, {0.7, 1}}},
		{{{0.7, 1}, {0.7, 0}, {0.05, 0.65}, {0.95, 0.65}}},
	},
}

// euroDigit draws a European style of d (1, 4 or 7: euroStrokes) as
// digit does: centre (cx, cy), h tall, slanted by shear, each point
// jittered.
func (c *canvas) euroDigit(d int, cx, cy, h, shear float64, st stroke, rng *rand.Rand) {
	styles := euroStrokes[d]
	w := h * (0.45 + 0.25*rng.Float64())
	width := h * (0.07 + 0.07*rng.Float64())
	at := func(p [2]float64) (float64, float64) {
		dx := (p[0] + 0.06*(rng.Float64()*2-1) - 0.5) * w
		dy := (p[1] + 0.04*(rng.Float64()*2-1) - 0.5) * h
		return cx + dx + shear*dy, cy + dy
	}
	for _, poly := range styles[rng.Intn(len(styles))] {
		x0, y0 := at(poly[0])
		for _, p := range poly[1:] {
			x1, y1 := at(p)
			c.line(x0, y0, x1, y1, width, st)
			x0, y0 = x1, y1
		}
	}
}

func sampleMNIST(d mnist.Digit, x, y float64) float32 {
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	at := func(x, y int) float32 {
		if x < 0 || y < 0 || x >= mnist.Side || y >= mnist.Side {
			return 0
		}
		return float32(d.Pixels[y*mnist.Side+x]) / 255
	}
	return (at(x0, y0)*(1-fx)+at(x0+1, y0)*fx)*(1-fy) + (at(x0, y0+1)*(1-fx)+at(x0+1, y0+1)*fx)*fy
}

// mnistByDigit indexes the digits 1..9 by label.
type mnistByDigit [10][]mnist.Digit

func indexMNIST(ds []mnist.Digit) *mnistByDigit {
	var m mnistByDigit
	for _, d := range ds {
		m[d.Label] = append(m[d.Label], d)
	}
	return &m
}

func (m *mnistByDigit) pick(d int, rng *rand.Rand) mnist.Digit { return m[d][rng.Intn(len(m[d]))] }

// fillCell draws random ink into cell (row, col) of the canvas and returns
// its class (ocr.PenClasses).
// A share euro of the 1s, 4s and 7s entered are drawn in European styles.
func (c *canvas) fillCell(row, col int, m *mnistByDigit, pen [3]float32, euro float64, rng *rand.Rand) int {
	s := float64(pasteSide)
	ox, oy := float64(col)*s, float64(row)*s
	u := func(a, b float64) float64 { return a + (b-a)*rng.Float64() }
	penStroke := func() stroke {
		st := stroke{col: pen, opacity: float32(u(0.8, 1)), cut: float32(u(0.15, 0.65))}
		switch rng.Intn(10) {
		case 0:
			st.col = inkColours[rng.Intn(len(inkColours))]
		case 1, 2:
			st.col, st.opacity = pencil, float32(u(0.4, 0.8))
		}
		return st
	}
	handAt := func(d int, st stroke) {
		h := u(0.45, 0.85) * s
		off := math.Max(0, (s-0.75*h)/2)
		cx, cy, shear := ox+s/2+u(-1, 1)*off, oy+s/2+u(-1, 1)*off*0.8, u(-0.3, 0.3)
		if euroStrokes[d] != nil && rng.Float64() < euro {
			c.euroDigit(d, cx, cy, 0.85*h, shear, st, rng)
			return
		}
		c.digit(m.pick(d, rng), cx, cy, h, shear, st)
	}
	switch r := rng.Float64(); {
	case r < 0.74: // a handwritten entry
		d := 1 + rng.Intn(9)
		handAt(d, penStroke())
		return ocr.PenHand0 + d
	case r < 0.87: // pencil notes: 2..4 small digits at their keypad places
		st := penStroke()
		if rng.Intn(3) > 0 {
			st.col, st.opacity = pencil, float32(u(0.45, 0.85))
		}
		perm := rng.Perm(9)
		for _, d := range perm[:2+rng.Intn(3)] {
			h := u(0.2, 0.32) * s
			cx := ox + s*(0.2+0.3*float64(d%3)) + u(-0.05, 0.05)*s
			cy := oy + s*(0.2+0.3*float64(d/3)) + u(-0.05, 0.05)*s
			c.digit(m.pick(d+1, rng), cx, cy, h, u(-0.25, 0.25), st)
		}
		return ocr.PenNotes
	default: // unclear ink
		st := penStroke()
		switch rng.Intn(4) {
		case 0: // a digit struck through
			handAt(1+rng.Intn(9), st)
			for k := 0; k <= rng.Intn(2); k++ {
				c.line(ox+u(0.1, 0.3)*s, oy+u(0.2, 0.8)*s, ox+u(0.7, 0.9)*s, oy+u(0.2, 0.8)*s, u(1.5, 3.5), st)
			}
		case 1: // two digits over each other
			a := 1 + rng.Intn(9)
			b := 1 + (a+rng.Intn(8))%9
			handAt(a, st)
			handAt(b, st)
		case 2: // a scribble
			x, y := ox+u(0.25, 0.75)*s, oy+u(0.25, 0.75)*s
			w := u(1.5, 3)
			for k := 0; k < 6+rng.Intn(9); k++ {
				nx := math.Min(ox+0.9*s, math.Max(ox+0.1*s, x+u(-0.45, 0.45)*s))
				ny := math.Min(oy+0.9*s, math.Max(oy+0.1*s, y+u(-0.45, 0.45)*s))
				c.line(x, y, nx, ny, w, st)
				x, y = nx, ny
			}
		default: // a half-erased pencil digit
			st.col, st.opacity = pencil, float32(u(0.25, 0.5))
			ang := u(0, 2*math.Pi)
			ca, sa := math.Cos(ang), math.Sin(ang)
			st.keep = func(x, y float64) bool { return x*ca+y*sa > 0 || rng.Intn(3) == 0 }
			handAt(1+rng.Intn(9), st)
		}
		return ocr.PenUnclear
	}
}

// blur3 softens the canvas's opacity with a 3×3 box, as a photo's optics
// would.
func (c *canvas) blur3() {
	s := c.side
	out := make([]float32, len(c.alpha))
	for y := 1; y < s-1; y++ {
		for x := 1; x < s-1; x++ {
			var sum float32
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					sum += c.alpha[(y+dy)*s+x+dx]
				}
			}
			out[y*s+x] = sum / 9
		}
	}
	c.alpha = out
}

// homography returns the 3×3 projective map (row-major, h[8] = 1) taking
// the four points src to dst.
func homography(src, dst [4][2]float64) ([9]float64, error) {
	var a [8][9]float64
	for i := 0; i < 4; i++ {
		x, y, u, v := src[i][0], src[i][1], dst[i][0], dst[i][1]
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	for col := 0; col < 8; col++ {
		p := col
		for r := col + 1; r < 8; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		if math.Abs(a[p][col]) < 1e-12 {
			return [9]float64{}, fmt.Errorf("degenerate corners")
		}
		a[col], a[p] = a[p], a[col]
		for r := 0; r < 8; r++ {
			if r == col {
				continue
			}
			f := a[r][col] / a[col][col]
			for k := col; k < 9; k++ {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	var h [9]float64
	for i := 0; i < 8; i++ {
		h[i] = a[i][8] / a[i][i]
	}
	h[8] = 1
	return h, nil
}

// blend warps the canvas onto the photo's BGR pixels: the grid's corners
// (TL, TR, BR, BL in the photo) are the canvas's corners.
func (c *canvas) blend(bgr []byte, w, h int, corners [4]gocv.Point2f) error {
	var src, dst [4][2]float64
	s := float64(c.side)
	sq := [4][2]float64{{0, 0}, {s, 0}, {s, s}, {0, s}}
	lx, ly, hx, hy := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i, p := range corners {
		src[i] = [2]float64{float64(p.X), float64(p.Y)}
		dst[i] = sq[i]
		lx, hx = math.Min(lx, src[i][0]), math.Max(hx, src[i][0])
		ly, hy = math.Min(ly, src[i][1]), math.Max(hy, src[i][1])
	}
	m, err := homography(src, dst)
	if err != nil {
		return err
	}
	for y := max(0, int(ly)); y < min(h, int(hy)+1); y++ {
		for x := max(0, int(lx)); x < min(w, int(hx)+1); x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			d := m[6]*fx + m[7]*fy + 1
			u, v := (m[0]*fx+m[1]*fy+m[2])/d, (m[3]*fx+m[4]*fy+m[5])/d
			cu, cv := int(u), int(v)
			if u < 0 || v < 0 || cu >= c.side || cv >= c.side {
				continue
			}
			i := cv*c.side + cu
			a := c.alpha[i]
			if a <= 0 {
				continue
			}
			p := (y*w + x) * 3
			for k := 0; k < 3; k++ {
				bgr[p+k] = uint8(float32(bgr[p+k])*(1-a) + c.col[i][k]*a + 0.5)
			}
		}
	}
	return nil
}

// pastePhoto pastes handwriting, notes and unclear ink into the empty cells
// of a v2 photo (a random share of them), cuts the result with vision and
// labels the inked cells. Photos vision finds turned are used unpasted.
// euro is fillCell's share of European 1s, 4s and 7s.
func pastePhoto(det *vision.Detector, path string, ds []mnist.Digit, euro float64, rng *rand.Rand) ([]penSample, error) {
	pp, err := pastePage(det, path, ds, euro, rng)
	if err != nil {
		return nil, err
	}
	var out []penSample
	for i, c := range pp.cells {
		if inked(c) {
			out = append(out, penSample{X: penInput(c, pp.turns), Y: pp.truth[i], Page: pp.name})
		}
	}
	return out, nil
}

// pastedPage is a v2 photo with ink pasted into it (pastePage), cut by
// vision: its cells, each cell's pen class (ocr.PenEmpty.. ocr.PenUnclear)
// and the quarter turns from upright to the photo.
type pastedPage struct {
	name  string
	shape sudoku.Shape
	cells []vision.Cell
	truth []int
	turns int
}

// pastePage is pastePhoto's page before its inked cells are taken: the
// eval reads it as ocr does.
func pastePage(det *vision.Detector, path string, ds []mnist.Digit, euro float64, rng *rand.Rand) (pastedPage, error) {
	m := indexMNIST(ds)
	p := cutPhoto(det, path)
	if p.cells == nil {
		return pastedPage{}, fmt.Errorf("%s: %v", p.name, p.err)
	}
	turns := bestTurns(&p)[0]
	truth := penTruth(p.truth.Turn(turns), sudoku.Grid{})
	cells := p.cells
	if turns == 0 && p.shape.N() == 9 {
		img, err := pipeline.ReadImage(path, 0)
		if err != nil {
			img.Close()
			return pastedPage{}, err
		}
		bgr, w, h, err := photoBGR(img)
		img.Close()
		if err != nil {
			return pastedPage{}, err
		}
		cv := newCanvas(9)
		pen := inkColours[rng.Intn(len(inkColours))]
		fill := 0.3 + 0.7*rng.Float64()
		for i, t := range truth {
			if t == 0 && rng.Float64() < fill {
				truth[i] = cv.fillCell(i/9, i%9, m, pen, euro, rng)
			}
		}
		if rng.Intn(2) == 0 {
			cv.blur3()
		}
		if err := cv.blend(bgr, w, h, p.corners); err != nil {
			return pastedPage{}, err
		}
		pasted, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, bgr)
		if err != nil {
			return pastedPage{}, err
		}
		if dir := os.Getenv("SUDOKUAR_PASTE_DEBUG"); dir != "" {
			gocv.IMWrite(filepath.Join(dir, fmt.Sprintf("%s-%d.png", p.name, rng.Intn(1000))), pasted)
		}
		g, cs, err := det.Analyze(pasted)
		pasted.Close()
		if err != nil || len(cs) != len(truth) || g.Shape != p.shape {
			return pastedPage{}, fmt.Errorf("%s pasted: vision: %v", p.name, err)
		}
		cells = cs
	}
	return pastedPage{name: p.name, shape: p.shape, cells: cells, truth: truth, turns: turns}, nil
}
