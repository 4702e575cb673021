package synth

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Beside is a boxed thing printed next to the puzzle that a grid finder
// may take for it: the cases where the largest quadrilateral on the page
// is not the Sudoku.
type Beside int

const (
	// BesideNothing prints the puzzle with the usual clutter only.
	BesideNothing Beside = iota
	// BesideSudoku prints a second Sudoku (9×9) beside the puzzle, as a
	// page with two puzzles does; it may be larger than the first.
	BesideSudoku
	// BesideCrossword prints a crossword larger than the puzzle beside it.
	BesideCrossword
	// BesideText prints a column of dense text larger than the puzzle
	// beside it, framed or not.
	BesideText
)

// BesideKinds lists the kinds, for flags and loops.
var BesideKinds = []Beside{BesideNothing, BesideSudoku, BesideCrossword, BesideText}

// String names the kind as flags and .dat files write it.
func (b Beside) String() string {
	switch b {
	case BesideNothing:
		return "nothing"
	case BesideSudoku:
		return "sudoku"
	case BesideCrossword:
		return "crossword"
	case BesideText:
		return "text"
	}
	return fmt.Sprintf("Beside(%d)", int(b))
}

// ParseBeside reads a kind by its name.
func ParseBeside(s string) (Beside, error) {
	for _, b := range BesideKinds {
		if b.String() == s {
			return b, nil
		}
	}
	return 0, &OptionError{Field: "Beside", Reason: fmt.Sprintf("%q is not nothing, sudoku, crossword or text", s)}
}

// besideSpec is the thing beside the puzzle: where it is on the page (grid
// units, the puzzle is the unit square centred on the origin) and, for a
// second Sudoku, its puzzle.
type besideSpec struct {
	kind   Beside
	ext    extent
	puzzle sudoku.Grid
	framed bool // text: a rule round the column
	seed   uint64
}

// besideStream keeps the thing beside the puzzle out of the photo's main
// random stream, so a photo without one comes out as it always has.
const besideStream = 0x62657369646521

// sampleBeside places a thing of kind b to the left or right of the grid.
func sampleBeside(seed int64, b Beside) (*besideSpec, error) {
	if b == BesideNothing {
		return nil, nil
	}
	rng := rand.New(rand.NewPCG(uint64(seed), besideStream))
	between := func(a, c float64) float64 { return a + (c-a)*rng.Float64() }
	bs := &besideSpec{kind: b, seed: rng.Uint64()}
	var w, h float64
	switch b {
	case BesideSudoku:
		w = between(0.8, 1.2)
		h = w
		pz, err := RandomPuzzle(sudoku.Shape{BoxRows: 3, BoxCols: 3}, seed^0x5eed, 0)
		if err != nil {
			return nil, err
		}
		bs.puzzle = pz
	case BesideCrossword:
		w = between(1.05, 1.35)
		h = w
	case BesideText:
		w, h = between(0.9, 1.3), between(1.15, 1.5)
		bs.framed = rng.IntN(2) == 0
	default:
		return nil, &OptionError{Field: "Beside", Reason: fmt.Sprintf("unknown kind %d", int(b))}
	}
	gap := between(0.08, 0.25)
	dy := between(-0.2, 0.2)
	y0 := dy - h/2
	if rng.IntN(2) == 0 {
		bs.ext = extent{0.5 + gap, y0, 0.5 + gap + w, y0 + h}
	} else {
		bs.ext = extent{-0.5 - gap - w, y0, -0.5 - gap, y0 + h}
	}
	return bs, nil
}

// corners returns the thing's outer corners in grid units (TL, TR, BR, BL).
func (b *besideSpec) corners() [4][2]float64 {
	e := b.ext
	return [4][2]float64{{e.x0, e.y0}, {e.x1, e.y0}, {e.x1, e.y1}, {e.x0, e.y1}}
}

// draw prints the thing on the page and returns the page region it takes
// (with a margin), which clutter keeps out of.
func (b *besideSpec) draw(fp flatPage, spec pageSpec, ink uint8) (image.Rectangle, error) {
	page := fp.grey
	rng := rand.New(rand.NewPCG(b.seed, besideStream))
	x0, y0 := spec.pixel(b.ext.x0, b.ext.y0)
	x1, y1 := spec.pixel(b.ext.x1, b.ext.y1)
	r := image.Rect(int(x0), int(y0), int(x1), int(y1))
	margin := int(0.05 * spec.scale)
	switch b.kind {
	case BesideSudoku:
		if _, err := drawGrid(rng, fp, b.puzzle, spec, x0, y0, x1-x0, ink); err != nil {
			return r, err
		}
	case BesideCrossword:
		drawCrossword(rng, page, r, 11+2*rng.IntN(3), ink)
	case BesideText:
		body, err := newTypeface(spec.textFont, math.Max(5, spec.scale*(0.028+0.012*rng.Float64())))
		if err != nil {
			return r, err
		}
		head, err := newTypeface(spec.textFont, spec.scale*0.08)
		if err != nil {
			return r, err
		}
		pad := 0
		if b.framed {
			t := max(1, int(spec.scale*0.006))
			fillRect(page, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), ink)
			fillRect(page, image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), ink)
			fillRect(page, image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), ink)
			fillRect(page, image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), ink)
			pad = int(spec.scale * 0.03)
		}
		hb := head.inkBounds("Hg")
		y := r.Min.Y + pad - hb.Min.Y
		drawWords(rng, page, head, r.Min.X+pad, y, r.Dx()-2*pad, ink)
		lineH := int(float64(body.inkBounds("Hg").Dy()) * 1.25)
		for y += hb.Max.Y + lineH; y < r.Max.Y-pad; y += lineH {
			drawWords(rng, page, body, r.Min.X+pad, y, r.Dx()-2*pad, ink)
		}
	}
	return r.Inset(-margin), nil
}
