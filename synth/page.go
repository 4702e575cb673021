package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/sudokuar/sudokuar/sudoku"
)

// LineStyle describes how a grid's lines are printed. Widths are fractions
// of the cell side; each is at least one pixel on the flat page, and a
// thick line is always at least twice as wide as a thin one so the box
// shape stays readable, as in print, unless Even says the shading shows
// the boxes.
type LineStyle struct {
	Name string
	// Thin and Thick are the widths of cell and box lines; Border is the
	// width of the outer frame.
	Thin, Thick, Border float64
	// ThinInk is the grey level of the thin lines (0 = black ink).
	ThinInk uint8
	// Dashed prints the thin lines as dashes.
	Dashed bool
	// ShadeBoxes tints every other box light grey, as some papers do:
	// those beside the corner boxes, or with ShadeCorners the corner boxes
	// and those in line with them (the centre of a 9×9).
	ShadeBoxes, ShadeCorners bool
	// Shade is the grey level of the shaded boxes (paper is 250), a tint
	// that the ink printed over it darkens further, as in print; 0 draws
	// one in 200..229 that the ink meets by taking the darker of the two
	// (a grey stroke over it is not darkened), as the committed photos
	// were made.
	Shade uint8
	// Tint, when not zero, prints the shaded boxes in this colour (as it
	// looks on white paper) instead of grey, as magazines in colour do.
	Tint color.RGBA
	// Even prints every line, the border too, at the width of Thin: with
	// ShadeBoxes only the shading shows the boxes, as some magazines do.
	Even bool
}

// LineStyles returns the grid line styles Render picks from.
func LineStyles() []LineStyle {
	return []LineStyle{
		{Name: "classic", Thin: 0.025, Thick: 0.07, Border: 0.08},
		{Name: "bold", Thin: 0.04, Thick: 0.11, Border: 0.12},
		{Name: "light", Thin: 0.02, Thick: 0.06, Border: 0.06, ThinInk: 140},
		{Name: "dashed", Thin: 0.025, Thick: 0.07, Border: 0.09, ThinInk: 60, Dashed: true},
		{Name: "shaded", Thin: 0.02, Thick: 0.05, Border: 0.07, ShadeBoxes: true},
		{Name: "hairline", Thin: 0.012, Thick: 0.035, Border: 0.04},
	}
}

// ShadedStyles returns line styles whose alternate boxes are printed on a
// tint, from a light grey to a dark one and in pale colours, as magazines
// print them. Render picks them only when Options.Styles names them.
func ShadedStyles() []LineStyle {
	st := func(name string, shade uint8, tint color.RGBA) LineStyle {
		return LineStyle{Name: name, Thin: 0.02, Thick: 0.05, Border: 0.07, ShadeBoxes: true, Shade: shade, Tint: tint}
	}
	return []LineStyle{
		st("shaded-light", 225, color.RGBA{}),
		st("shaded-grey", 195, color.RGBA{}),
		st("shaded-dark", 165, color.RGBA{}),
		st("tint-blue", 0, color.RGBA{R: 190, G: 215, B: 245, A: 255}),
		st("tint-yellow", 0, color.RGBA{R: 250, G: 230, B: 150, A: 255}),
		st("tint-pink", 0, color.RGBA{R: 245, G: 195, B: 210, A: 255}),
		st("tint-green", 0, color.RGBA{R: 195, G: 230, B: 185, A: 255}),
	}
}

// Symbols says how values above 9 are printed: an alias of sudoku.Symbols,
// the one convention type that reading and drawing use too.
type Symbols = sudoku.Symbols

// The conventions, as in package sudoku.
const (
	// Numbers prints 10..16 as two-digit numbers, as most printed 12×12 and
	// 16×16 puzzles do.
	Numbers = sudoku.Numbers
	// Letters prints 10..16 as A..G (1..9 stay digits).
	Letters = sudoku.Letters
	// ZeroBased prints value v as the hexadecimal digit of v-1 (0..F).
	ZeroBased = sudoku.ZeroBased
)

// extent is a rectangle of the page plane in grid units (the grid is the
// unit square centred on the origin).
type extent struct{ x0, y0, x1, y1 float64 }

// pageSpec is everything about the flat page that is decided before any
// pixel is drawn.
type pageSpec struct {
	scale     float64 // page pixels per grid unit (the grid's side in pixels)
	ext       extent
	digitFont Font
	textFont  Font
	style     LineStyle
	symbols   Symbols
	vary      variety // Options.Variety's draws for this photo
	seed      int64
	// clean leaves out the reverse side's text showing through (the demo
	// video's codec spends megabytes on such fine faint texture).
	clean bool
	// beside is printed next to the puzzle, or nil.
	beside *besideSpec
}

// pixel returns the page pixel position of grid-unit point (x, y).
func (p pageSpec) pixel(x, y float64) (float64, float64) {
	return (x - p.ext.x0) * p.scale, (y - p.ext.y0) * p.scale
}

// size returns the page's size in pixels.
func (p pageSpec) size() (int, int) {
	return int(math.Ceil((p.ext.x1 - p.ext.x0) * p.scale)), int(math.Ceil((p.ext.y1 - p.ext.y0) * p.scale))
}

// toGrid maps page pixels to grid units: the inverse of pixel as a matrix.
func (p pageSpec) toGrid() mat3 {
	return mat3{1 / p.scale, 0, p.ext.x0, 0, 1 / p.scale, p.ext.y0, 0, 0, 1}
}

// span returns the pixel columns (or rows) whose centres lie in [a, b).
func span(a, b float64) (int, int) {
	lo, hi := int(math.Floor(a+0.5)), int(math.Floor(b+0.5))
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// paper is the grey level of blank paper on the flat page; the photo stage
// tints it. Ink is never drawn below 1 so that 0 can mark "off the page".
const (
	paper   = 250
	minInk  = 1
	maxPage = 7_000_000 // page pixels; larger pages are cropped (the desk shows)
)

// tint returns the colour the shaded boxes are printed in, which the
// camera multiplies into the paper and the ink on it alike, or ok false
// when the style has no such tint (no shading, or the old grey that the
// ink meets by taking the darker of the two).
func (st LineStyle) tint() (color.RGBA, bool) {
	switch {
	case !st.ShadeBoxes:
		return color.RGBA{}, false
	case st.Tint != (color.RGBA{}):
		return st.Tint, true
	case st.Shade != 0:
		v := uint8(min(255, int(st.Shade)*255/paper))
		return color.RGBA{R: v, G: v, B: v, A: 255}, true
	}
	return color.RGBA{}, false
}

// flatPage is the page before the camera: its grey levels (paper white,
// ink dark), and where the line style's tint is printed (255 where
// it covers the paper, 0 elsewhere; nil when the style has none).
type flatPage struct {
	grey, tint *image.Gray
}

// drawPage renders the flat page: the puzzle, its title and caption, and
// newspaper clutter around it. It also returns the width of the grid's
// outer border as a fraction of the grid's side: the cells lie inside it.
func drawPage(rng *rand.Rand, pz sudoku.Grid, spec pageSpec) (flatPage, float64, error) {
	w, h := spec.size()
	page := image.NewGray(image.Rect(0, 0, w, h))
	for i := range page.Pix {
		page.Pix[i] = paper
	}
	fp := flatPage{grey: page}
	if _, ok := spec.style.tint(); ok {
		fp.tint = image.NewGray(page.Rect)
	}
	gx0, gy0 := spec.pixel(-0.5, -0.5)
	side := spec.scale
	ink := uint8(minInk + rng.IntN(35))
	if rng.Float64() < 0.35 && !spec.clean {
		if err := drawShowThrough(rng, page, spec); err != nil {
			return flatPage{}, 0, err
		}
	}
	border, err := drawGrid(rng, fp, pz, spec, gx0, gy0, side, ink)
	if err != nil {
		return flatPage{}, 0, err
	}
	keepOut, err := drawHeading(rng, page, spec, gx0, gy0, side, ink)
	if err != nil {
		return flatPage{}, 0, err
	}
	keep := []image.Rectangle{keepOut}
	if spec.beside != nil {
		r, err := spec.beside.draw(fp, spec, ink)
		if err != nil {
			return flatPage{}, 0, err
		}
		keep = append(keep, r)
	}
	if err := drawClutter(rng, page, spec, keep, ink); err != nil {
		return flatPage{}, 0, err
	}
	if spec.vary.stains > 0 {
		drawStains(page, spec, spec.vary.stains, spec.seed)
	}
	return fp, border / side, nil
}

// drawGrid prints the grid lines and the givens and returns the border's
// width in pixels. The unit square of the grid is the outer edge of the
// border, which is what a photo's corners mark.
func drawGrid(rng *rand.Rand, fp flatPage, pz sudoku.Grid, spec pageSpec, gx0, gy0, side float64, ink uint8) (float64, error) {
	page := fp.grey
	n := pz.N()
	st := spec.style
	cellApprox := side / float64(n)
	thin := math.Max(1, st.Thin*cellApprox)
	thick := math.Max(2*thin, st.Thick*cellApprox)
	border := math.Max(thick, st.Border*cellApprox)
	if st.Even && st.ShadeBoxes {
		thick, border = thin, thin
	}
	inner := side - 2*border
	cell := inner / float64(n)
	at := func(i int) float64 { return border + float64(i)*cell } // line centre offset

	if st.ShadeBoxes {
		shadeBoxes(rng, fp, pz.Shape, st, gx0, gy0, at)
	}

	thinInk := st.ThinInk
	if thinInk < ink {
		thinInk = ink
	}
	dash := math.Max(2, cell/6)
	// line draws a vertical (vertical=true) or horizontal line centred at
	// offset c from the grid's edge, across the whole grid.
	line := func(c, width float64, v uint8, dashed, vertical bool) {
		a, b := span(c-width/2, c+width/2)
		lo, hi := span(0, side)
		for s := float64(lo); s < float64(hi); s += 2 * dash {
			e := float64(hi)
			if dashed {
				e = math.Min(s+dash, float64(hi))
			}
			var r image.Rectangle
			if vertical {
				r = image.Rect(a+int(gx0+0.5), int(s+gy0+0.5), b+int(gx0+0.5), int(e+gy0+0.5))
			} else {
				r = image.Rect(int(s+gx0+0.5), a+int(gy0+0.5), int(e+gx0+0.5), b+int(gy0+0.5))
			}
			fillRect(page, r, v)
			if !dashed {
				break
			}
		}
	}
	for i := 1; i < n; i++ {
		if i%pz.Shape.BoxCols != 0 {
			line(at(i), thin, thinInk, st.Dashed, true)
		}
		if i%pz.Shape.BoxRows != 0 {
			line(at(i), thin, thinInk, st.Dashed, false)
		}
	}
	for i := pz.Shape.BoxCols; i < n; i += pz.Shape.BoxCols {
		line(at(i), thick, ink, false, true)
	}
	for i := pz.Shape.BoxRows; i < n; i += pz.Shape.BoxRows {
		line(at(i), thick, ink, false, false)
	}
	// The border: four bands on the outside of the square.
	x0, x1 := span(gx0, gx0+side)
	y0, y1 := span(gy0, gy0+side)
	bw := int(math.Round(border))
	fillRect(page, image.Rect(x0, y0, x1, y0+bw), ink)
	fillRect(page, image.Rect(x0, y1-bw, x1, y1), ink)
	fillRect(page, image.Rect(x0, y0, x0+bw, y1), ink)
	fillRect(page, image.Rect(x1-bw, y0, x1, y1), ink)

	// Givens: one face for the whole puzzle, sized so an "8" fills a share
	// of the cell, as in print; wider symbols (10..16) are narrowed to fit.
	fill := 0.5 + 0.22*rng.Float64()
	probe, err := newTypeface(spec.digitFont, 100)
	if err != nil {
		return 0, err
	}
	h8 := float64(probe.inkBounds("8").Dy())
	if h8 <= 0 {
		return 0, fmt.Errorf("font %s: digit 8 has no ink", spec.digitFont.Name)
	}
	size := fill * cell * 100 / h8
	face, err := newTypeface(spec.digitFont, size)
	if err != nil {
		return 0, err
	}
	var narrow *typeface
	if n > 9 && spec.symbols == Numbers {
		wide := float64(probe.inkBounds(spec.symbols.Symbol(n)).Dx()) * size / 100
		if wide > 0.72*cell {
			if narrow, err = newTypeface(spec.digitFont, size*0.72*cell/wide); err != nil {
				return 0, err
			}
		}
	}
	jitter := 0.04 * cell
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			v := pz.At(r, c)
			if v == 0 {
				continue
			}
			text := spec.symbols.Symbol(v)
			f := face
			if len(text) > 1 && narrow != nil {
				f = narrow
			}
			cx := gx0 + border + (float64(c)+0.5)*cell + (rng.Float64()*2-1)*jitter
			cy := gy0 + border + (float64(r)+0.5)*cell + (rng.Float64()*2-1)*jitter
			drawSymbol(page, f, text, cx, cy, cell, ink, spec.vary)
		}
	}
	return border, nil
}

// shadeBoxes tints every other box of a grid of shape sh (the boxes
// beside the corner ones, or with st.ShadeCorners the corner ones and
// those in line with them), at grid-edge offsets at(i) of line i from
// the page point (gx0, gy0): grey laid under the ink, or into fp's tint.
func shadeBoxes(rng *rand.Rand, fp flatPage, sh sudoku.Shape, st LineStyle, gx0, gy0 float64, at func(int) float64) {
	shade := uint8(200 + rng.IntN(30))
	if st.Shade != 0 {
		shade = st.Shade
	}
	n := sh.N()
	br, bc := sh.BoxRows, sh.BoxCols
	for by := 0; by < n/br; by++ {
		for bx := 0; bx < n/bc; bx++ {
			if (by+bx)%2 == 1 != st.ShadeCorners {
				x0, x1 := span(gx0+at(bx*bc), gx0+at((bx+1)*bc))
				y0, y1 := span(gy0+at(by*br), gy0+at((by+1)*br))
				if fp.tint != nil {
					fillRect(fp.tint, image.Rect(x0, y0, x1, y1), 255)
				} else {
					darkenRect(fp.grey, image.Rect(x0, y0, x1, y1), shade)
				}
			}
		}
	}
}

// headings returns the titles and captions printed with a puzzle.
func headings() (titles, captions []string) {
	titles = []string{"SUDOKU", "Sudoku", "SUDOKU No. %d", "Sudoku %d", "Daily Sudoku", "SU DOKU", "Number Place", "Puzzle %d"}
	captions = []string{
		"Fill the grid so that every row, column and box contains each number once.",
		"Solution in tomorrow's edition.",
		"Difficulty: %d/5",
		"Yesterday's solution on page %d",
		"Place the numbers so none repeats in any row, column or box.",
	}
	return titles, captions
}

// drawHeading prints a title above the grid and a caption below it, and
// returns the region (page pixels) that clutter must keep out of: the grid,
// its heading and a margin.
func drawHeading(rng *rand.Rand, page *image.Gray, spec pageSpec, gx0, gy0, side float64, ink uint8) (image.Rectangle, error) {
	titles, captions := headings()
	gap := side * (0.04 + 0.08*rng.Float64())
	keep := image.Rect(int(gx0-gap), int(gy0-gap), int(gx0+side+gap), int(gy0+side+gap))
	if rng.Float64() < 0.8 {
		tf, err := newTypeface(spec.textFont, side*(0.05+0.05*rng.Float64()))
		if err != nil {
			return keep, err
		}
		t := titles[rng.IntN(len(titles))]
		if strings.Contains(t, "%d") {
			t = fmt.Sprintf(t, 1+rng.IntN(3000))
		}
		b := tf.inkBounds(t)
		x := gx0
		if rng.IntN(2) == 0 {
			x = gx0 + (side-float64(b.Dx()))/2
		}
		y := gy0 - gap*0.5 - float64(b.Max.Y)
		tf.draw(page, int(x), int(y), t, ink)
		keep.Min.Y = int(y) + b.Min.Y - int(gap*0.6)
	}
	if rng.Float64() < 0.6 {
		tf, err := newTypeface(spec.textFont, side*(0.025+0.015*rng.Float64()))
		if err != nil {
			return keep, err
		}
		t := captions[rng.IntN(len(captions))]
		if strings.Contains(t, "%d") {
			t = fmt.Sprintf(t, 1+rng.IntN(5))
		}
		for tf.width(t) > int(side) && len(t) > 8 {
			t = t[:len(t)*3/4]
		}
		b := tf.inkBounds(t)
		y := gy0 + side + gap*0.4 - float64(b.Min.Y)
		tf.draw(page, int(gx0), int(y), t, ink)
		keep.Max.Y = int(y) + b.Max.Y + int(gap*0.6)
	}
	return keep, nil
}

// word returns a random word; some are capitalised and some are numbers,
// as in real columns (digits near the grid are good distractors).
func word(rng *rand.Rand) string {
	if rng.IntN(12) == 0 {
		return strconv.Itoa(rng.IntN(2000))
	}
	n := 1 + rng.IntN(9)
	b := make([]byte, n)
	const letters = "etaoinshrdlucmfwypvbgkqjxz"
	for i := range b {
		// Favour common letters so lines look like text, not noise.
		b[i] = letters[int(float64(len(letters))*math.Pow(rng.Float64(), 1.8))]
	}
	if rng.IntN(7) == 0 {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}

// drawClutter fills the page outside the keepOut regions with newspaper matter: columns
// of text with headlines, rules, framed boxes and small crossword grids.
func drawClutter(rng *rand.Rand, page *image.Gray, spec pageSpec, keepOut []image.Rectangle, ink uint8) error {
	side := spec.scale
	density := 0.6 + 0.4*rng.Float64()
	bodySize := math.Max(5, side*(0.028+0.03*rng.Float64()))
	body, err := newTypeface(spec.textFont, bodySize)
	if err != nil {
		return err
	}
	head, err := newTypeface(spec.textFont, bodySize*(1.8+1.2*rng.Float64()))
	if err != nil {
		return err
	}
	textInk := uint8(minInk + rng.IntN(60))
	lineH := int(bodySize * (1.15 + 0.2*rng.Float64()))
	colW := int(side * (0.35 + 0.45*rng.Float64()))
	gutter := int(math.Max(4, float64(colW)*0.06))
	bounds := page.Bounds()
	rules := rng.Float64() < 0.5
	free := func(r image.Rectangle) bool {
		for _, k := range keepOut {
			if r.Overlaps(k) {
				return false
			}
		}
		return true
	}

	for cx := -rng.IntN(colW); cx < bounds.Max.X; cx += colW + gutter {
		if rules {
			// A column rule, broken where it would cross the puzzle.
			x := cx + colW + gutter/2
			for y := 0; y < bounds.Max.Y; y += lineH {
				r := image.Rect(x, y, x+1, y+lineH)
				if free(r) {
					fillRect(page, r, textInk)
				}
			}
		}
		y := rng.IntN(lineH * 3)
		for y < bounds.Max.Y {
			skip := rng.Float64() > density
			switch k := rng.Float64(); {
			case k < 0.10: // headline
				hb := head.inkBounds("Hg")
				hh := hb.Dy() + lineH/2
				r := image.Rect(cx, y, cx+colW, y+hh)
				if free(r) && !skip {
					drawWords(rng, page, head, cx, y-hb.Min.Y, colW, textInk)
				}
				y += hh + lineH/2
			case k < 0.16: // framed box with a few lines inside
				bh := lineH * (3 + rng.IntN(6))
				r := image.Rect(cx, y, cx+colW, y+bh)
				if free(r.Inset(-lineH)) && !skip {
					t := max(1, lineH/8)
					fillRect(page, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), textInk)
					fillRect(page, image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), textInk)
					fillRect(page, image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), textInk)
					fillRect(page, image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), textInk)
					for ly := y + lineH*3/2; ly < y+bh-lineH/2; ly += lineH {
						drawWords(rng, page, body, cx+lineH/2, ly, colW-lineH, textInk)
					}
				}
				y += bh + lineH
			case k < 0.20: // a small crossword, smaller than the puzzle
				cw := colW * (5 + rng.IntN(4)) / 10
				cells := 5 + rng.IntN(6)
				r := image.Rect(cx, y, cx+cw, y+cw)
				if free(r.Inset(-lineH)) && !skip {
					drawCrossword(rng, page, r, cells, textInk)
				}
				y += cw + lineH
			case k < 0.25: // horizontal rule
				r := image.Rect(cx, y+lineH/2, cx+colW, y+lineH/2+max(1, lineH/10))
				if free(r) {
					fillRect(page, r, textInk)
				}
				y += lineH
			default: // a paragraph
				lines := 2 + rng.IntN(12)
				for i := 0; i < lines && y < bounds.Max.Y; i++ {
					r := image.Rect(cx, y, cx+colW, y+lineH)
					if free(r) && !skip {
						wdt := colW
						if i == lines-1 {
							wdt = colW * (2 + rng.IntN(8)) / 10
						}
						drawWords(rng, page, body, cx, y+lineH*3/4, wdt, textInk)
					}
					y += lineH
				}
				y += lineH / 2
			}
		}
	}
	return nil
}

// drawShowThrough prints faint text over the whole page, the grid's area
// included, as the reverse side of thin newsprint shows through.
func drawShowThrough(rng *rand.Rand, page *image.Gray, spec pageSpec) error {
	size := math.Max(5, spec.scale*(0.03+0.03*rng.Float64()))
	tf, err := newTypeface(spec.textFont, size)
	if err != nil {
		return err
	}
	faint := uint8(paper - 8 - rng.IntN(14))
	lineH := int(size * 1.3)
	colW := int(spec.scale * (0.4 + 0.4*rng.Float64()))
	b := page.Bounds()
	for x := -rng.IntN(colW); x < b.Max.X; x += colW + lineH {
		for y := lineH; y < b.Max.Y; y += lineH {
			drawWords(rng, page, tf, x, y, colW, faint)
		}
	}
	return nil
}

// drawWords fills one line of width w with random words, pen at (x, y).
func drawWords(rng *rand.Rand, page *image.Gray, tf *typeface, x, y, w int, ink uint8) {
	space := tf.width(" ")
	end := x + w
	for {
		wd := word(rng)
		if x+tf.width(wd) > end {
			return
		}
		x = tf.draw(page, x, y, wd, ink) + space
	}
}

// drawCrossword draws a cells×cells crossword in r with some black squares.
func drawCrossword(rng *rand.Rand, page *image.Gray, r image.Rectangle, cells int, ink uint8) {
	step := float64(r.Dx()) / float64(cells)
	t := max(1, int(step/14))
	for i := 0; i <= cells; i++ {
		o := int(float64(i) * step)
		fillRect(page, image.Rect(r.Min.X+o, r.Min.Y, r.Min.X+o+t, r.Max.Y), ink)
		fillRect(page, image.Rect(r.Min.X, r.Min.Y+o, r.Max.X, r.Min.Y+o+t), ink)
	}
	for i := 0; i < cells*cells/5; i++ {
		cx, cy := rng.IntN(cells), rng.IntN(cells)
		x0, y0 := r.Min.X+int(float64(cx)*step), r.Min.Y+int(float64(cy)*step)
		fillRect(page, image.Rect(x0, y0, x0+int(step)+t, y0+int(step)+t), ink)
	}
}
