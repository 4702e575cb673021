package synth

import (
	"fmt"
	"image"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// glyph is one rasterised glyph: its coverage mask, where the mask's top
// left sits relative to the pen, and how far the pen moves.
type glyph struct {
	mask    []uint8 // coverage 0..255, w*h row-major
	w, h    int
	off     image.Point
	advance int
}

// typeface draws text of one font at one size. Glyphs are rasterised once
// and reused, because a page holds thousands of them. It is not safe for
// concurrent use: each Render builds its own.
type typeface struct {
	face   font.Face
	glyphs map[rune]glyph
}

func newTypeface(f Font, sizePx float64) (*typeface, error) {
	if f.face == nil {
		return nil, fmt.Errorf("font %q was not loaded with Fonts, GoFonts or LoadFont", f.Name)
	}
	face, err := opentype.NewFace(f.face, &opentype.FaceOptions{Size: sizePx, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, fmt.Errorf("font %s at %.1f px: %w", f.Name, sizePx, err)
	}
	return &typeface{face: face, glyphs: map[rune]glyph{}}, nil
}

func (t *typeface) glyph(r rune) glyph {
	if g, ok := t.glyphs[r]; ok {
		return g
	}
	dr, mask, mp, adv, ok := t.face.Glyph(fixed.Point26_6{}, r)
	g := glyph{advance: adv.Round()}
	if ok && !dr.Empty() {
		g.w, g.h, g.off = dr.Dx(), dr.Dy(), dr.Min
		g.mask = make([]uint8, g.w*g.h)
		// The face reuses its mask buffer, so copy the coverage out.
		if am, isAlpha := mask.(*image.Alpha); isAlpha {
			for y := 0; y < g.h; y++ {
				copy(g.mask[y*g.w:(y+1)*g.w], am.Pix[am.PixOffset(mp.X, mp.Y+y):])
			}
		} else {
			for y := 0; y < g.h; y++ {
				for x := 0; x < g.w; x++ {
					_, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA()
					g.mask[y*g.w+x] = uint8(a >> 8)
				}
			}
		}
	}
	t.glyphs[r] = g
	return g
}

// width returns the advance width of s in pixels.
func (t *typeface) width(s string) int {
	w := 0
	for _, r := range s {
		w += t.glyph(r).advance
	}
	return w
}

// inkBounds returns the box the ink of s covers when drawn with its pen
// starting at the origin on the baseline.
func (t *typeface) inkBounds(s string) image.Rectangle {
	var b image.Rectangle
	x := 0
	for _, r := range s {
		g := t.glyph(r)
		if g.mask != nil {
			gr := image.Rect(x+g.off.X, g.off.Y, x+g.off.X+g.w, g.off.Y+g.h)
			b = b.Union(gr)
		}
		x += g.advance
	}
	return b
}

// draw prints s on dst with its pen starting at (x, y) on the baseline, in
// grey level ink, and returns the pen's x after the last glyph.
func (t *typeface) draw(dst *image.Gray, x, y int, s string, ink uint8) int {
	for _, r := range s {
		g := t.glyph(r)
		if g.mask != nil {
			blend(dst, g, x+g.off.X, y+g.off.Y, ink)
		}
		x += g.advance
	}
	return x
}

// blend darkens dst towards ink by the glyph's coverage, clipped to dst.
func blend(dst *image.Gray, g glyph, x0, y0 int, ink uint8) {
	b := dst.Rect
	for y := 0; y < g.h; y++ {
		py := y0 + y
		if py < b.Min.Y || py >= b.Max.Y {
			continue
		}
		row := dst.Pix[(py-b.Min.Y)*dst.Stride:]
		m := g.mask[y*g.w : (y+1)*g.w]
		for x, a := range m {
			px := x0 + x
			if a == 0 || px < b.Min.X || px >= b.Max.X {
				continue
			}
			i := px - b.Min.X
			d := int(row[i])
			if d > int(ink) {
				row[i] = uint8(d - (d-int(ink))*int(a)/255)
			}
		}
	}
}

// fillRect sets r (clipped to dst) to grey level v.
func fillRect(dst *image.Gray, r image.Rectangle, v uint8) {
	r = r.Intersect(dst.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := dst.Pix[(y-dst.Rect.Min.Y)*dst.Stride+(r.Min.X-dst.Rect.Min.X):]
		for x := 0; x < r.Dx(); x++ {
			row[x] = v
		}
	}
}

// darkenRect lowers r (clipped to dst) to at most grey level v, so shading
// never lightens ink already printed there.
func darkenRect(dst *image.Gray, r image.Rectangle, v uint8) {
	r = r.Intersect(dst.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := dst.Pix[(y-dst.Rect.Min.Y)*dst.Stride+(r.Min.X-dst.Rect.Min.X):]
		for x := 0; x < r.Dx(); x++ {
			if row[x] > v {
				row[x] = v
			}
		}
	}
}
