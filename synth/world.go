package synth

import (
	"image"
	"math"
	"math/rand/v2"
)

// Variety widens what the photos look like beyond DefaultOptions, so a
// digit reader trained on them meets more of the world: print of every
// weight, 1s printed as a bare bar, 7s with a crossbar, stains, strong
// glare and photos of a screen with moiré. Each field is a chance (0..1)
// or a bound; the zero value adds nothing, so the committed test photos
// keep their bytes. The draws come from a stream of their own, so a seed
// gives the same page and pose with or without them.
type Variety struct {
	// Weight bounds how much bolder or lighter the givens print than their
	// font: the stroke grows or shrinks by up to Weight of a cell side.
	Weight float64
	// PlainOnes is the chance that the page prints every 1 as a bare
	// upright bar (no flag, no foot), as thin sans-serif and digital
	// faces do.
	PlainOnes float64
	// BarSevens is the chance that the page crosses its 7s with a short bar.
	BarSevens float64
	// Stains is the chance of coffee rings and blots on the page, the grid
	// included.
	Stains float64
	// Glare is the chance of a strong glare spot that washes out the ink
	// under it.
	Glare float64
	// Screen is the chance that the "page" is a screen photographed
	// close up: a lattice of RGB subpixels that the camera samples into
	// moiré, a cool white, a little glare on the glass.
	Screen float64
}

// WorldOptions returns the options the digit model's training photos use:
// DefaultOptions with Variety on, grids down to 30% of the short side (about
// 16-pixel cells at 640×480), JPEG down to quality 15, and more blur.
func WorldOptions(width, height int, seed int64) Options {
	o := DefaultOptions(width, height, seed)
	o.MinSide = 0.30
	o.MaxBlur = 2.2
	o.MaxNoise = 10
	o.JPEGMin = 15
	o.Variety = Variety{Weight: 0.035, PlainOnes: 0.25, BarSevens: 0.25, Stains: 0.2, Glare: 0.15, Screen: 0.08}
	return o
}

// variety is what Variety decided for one photo.
type variety struct {
	weight    float64 // stroke change, fraction of a cell side (negative: lighter)
	plainOnes bool
	barSevens bool
	stains    int     // how many stains
	glare     float64 // extra glare strength (0: none)
	glx, gly  float64
	glr       float64
	screen    *screen
}

// screen is a display photographed close up.
type screen struct {
	pitch float64 // page pixels per screen pixel
	angle float64 // radians: the subpixel lattice's turn on the page
	gap   float64 // how dark the gaps between pixel rows are, 0..1
}

// sampleVariety draws one photo's variety from its own stream.
func sampleVariety(seed int64, v Variety) variety {
	var out variety
	if v == (Variety{}) {
		return out
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x776f726c64))
	u := rng.Float64
	out.weight = v.Weight * (2*u() - 1)
	out.plainOnes = u() < v.PlainOnes
	out.barSevens = u() < v.BarSevens
	if u() < v.Stains {
		out.stains = 1 + rng.IntN(3)
	}
	if u() < v.Glare {
		out.glare = 0.6 + 0.8*u()
		out.glx, out.gly = 0.8*(2*u()-1), 0.6*(2*u()-1)
		out.glr = 0.1 + 0.25*u()
	}
	if u() < v.Screen {
		out.screen = &screen{pitch: 2.2 + 3*u(), angle: 0.05 * (2*u() - 1), gap: 0.15 + 0.35*u()}
	}
	return out
}

// drawSymbol prints one given: text in face f with its ink box centred at
// (cx, cy), in the weight and with the variants the page's variety says.
func drawSymbol(page *image.Gray, f *typeface, text string, cx, cy, cell float64, ink uint8, v variety) {
	b := f.inkBounds(text)
	if text == "1" && v.plainOnes {
		drawBar(page, cx, cy, f.stroke()+v.weight*cell, float64(f.inkBounds("8").Dy()), ink)
		return
	}
	px := int(math.Round(cx - float64(b.Min.X+b.Max.X)/2))
	py := int(math.Round(cy - float64(b.Min.Y+b.Max.Y)/2))
	r := int(math.Round(math.Abs(v.weight) * cell))
	if r == 0 {
		f.draw(page, px, py, text, ink)
	} else {
		// Draw on a scratch piece of paper, grow or shrink the ink there,
		// then print it.
		pad := r + 2
		box := b.Add(image.Pt(px, py)).Inset(-pad)
		scratch := image.NewGray(box)
		for i := range scratch.Pix {
			scratch.Pix[i] = paper
		}
		f.draw(scratch, px, py, text, ink)
		orig := append([]uint8(nil), scratch.Pix...)
		morph(scratch, r, v.weight > 0)
		if v.weight < 0 {
			// Lighter print thins and greys the strokes; a full erosion
			// would wipe out a thin face altogether.
			for i, o := range orig {
				scratch.Pix[i] = uint8((int(o) + int(scratch.Pix[i]) + 1) / 2)
			}
		}
		darkenWith(page, scratch)
	}
	if text == "7" && v.barSevens {
		h := float64(b.Dy())
		w := math.Max(1, 0.1*h+v.weight*cell)
		x0, x1 := cx-0.22*h, cx+0.18*h
		fillRect(page, image.Rect(int(x0), int(cy-w/2), int(x1), int(cy+w/2+0.5)), ink)
	}
}

// stroke returns the face's stem width in pixels: the ink of a lower-case
// l over its height.
func (t *typeface) stroke() float64 {
	g := t.glyph('l')
	if g.h == 0 {
		return 1
	}
	sum := 0
	for _, a := range g.mask {
		sum += int(a)
	}
	return float64(sum) / 255 / float64(g.h)
}

// drawBar prints an upright bar of width w and height h centred at (cx, cy).
func drawBar(page *image.Gray, cx, cy, w, h float64, ink uint8) {
	w = math.Max(1, w)
	fillRect(page, image.Rect(int(math.Round(cx-w/2)), int(math.Round(cy-h/2)), int(math.Round(cx+w/2)), int(math.Round(cy+h/2))), ink)
}

// morph grows (bolder) or shrinks the dark ink of g by r pixels with a
// square min or max filter, done as r passes of 3×3.
func morph(g *image.Gray, r int, bolder bool) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	tmp := make([]uint8, len(g.Pix))
	for ; r > 0; r-- {
		copy(tmp, g.Pix)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				m := tmp[y*g.Stride+x]
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						xx, yy := x+dx, y+dy
						if xx < 0 || yy < 0 || xx >= w || yy >= h {
							continue
						}
						v := tmp[yy*g.Stride+xx]
						if bolder && v < m || !bolder && v > m {
							m = v
						}
					}
				}
				g.Pix[y*g.Stride+x] = m
			}
		}
	}
}

// darkenWith lowers dst to src wherever src is darker (both in page pixels).
func darkenWith(dst, src *image.Gray) {
	r := src.Rect.Intersect(dst.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			s := src.Pix[src.PixOffset(x, y)]
			i := dst.PixOffset(x, y)
			if s < dst.Pix[i] {
				dst.Pix[i] = s
			}
		}
	}
}

// drawStains puts coffee rings and blots on the page: soft dark patches
// with a darker rim, some of them over the grid.
func drawStains(page *image.Gray, spec pageSpec, count int, seed int64) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x7374616e))
	gx, gy := spec.pixel(0, 0)
	side := spec.scale
	b := page.Rect
	for k := 0; k < count; k++ {
		cx := gx + side*0.6*(2*rng.Float64()-1)
		cy := gy + side*0.6*(2*rng.Float64()-1)
		rad := side * (0.05 + 0.2*rng.Float64())
		depth := 15 + 45*rng.Float64() // grey levels at the rim
		ring := rng.IntN(2) == 0
		x0, x1 := max(b.Min.X, int(cx-rad-2)), min(b.Max.X, int(cx+rad+2))
		y0, y1 := max(b.Min.Y, int(cy-rad-2)), min(b.Max.Y, int(cy+rad+2))
		wob := 0.08 + 0.1*rng.Float64()
		ph := rng.Float64() * 2 * math.Pi
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				dx, dy := float64(x)-cx, float64(y)-cy
				a := math.Atan2(dy, dx)
				rr := rad * (1 + wob*math.Sin(3*a+ph))
				d := math.Hypot(dx, dy) / rr
				if d >= 1 {
					continue
				}
				amt := 0.35 // the inside of a blot
				if ring {
					amt = 0.1
				}
				// A rim where the liquid dried.
				amt += 0.65 * math.Exp(-(1-d)*(1-d)/0.004)
				i := page.PixOffset(x, y)
				v := float64(page.Pix[i]) - depth*amt*float64(page.Pix[i])/paper
				page.Pix[i] = uint8(math.Max(minInk, v))
			}
		}
	}
}

// screenGain returns the per-channel light of a screen's subpixel lattice
// at page point (x, y) in page pixels: each screen pixel is three upright
// stripes (B, G, R from the left as the photo's channels go) with a dark
// gap under each row.
func (s *screen) screenGain(x, y float64) [3]float32 {
	c, sn := math.Cos(s.angle), math.Sin(s.angle)
	u := (x*c + y*sn) / s.pitch
	v := (-x*sn + y*c) / s.pitch
	fu := u - math.Floor(u)
	fv := v - math.Floor(v)
	var g [3]float32
	ch := 2 - int(fu*3) // red stripe on the left
	if ch < 0 {
		ch = 0
	}
	for k := range g {
		g[k] = 0.55
	}
	g[ch] = 1.45
	if fv > 1-0.25 {
		for k := range g {
			g[k] *= float32(1 - s.gap)
		}
	}
	return g
}
