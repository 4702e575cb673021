package main

import (
	"math"
	"math/rand"

	"github.com/sudokuar/sudokuar/vision"
)

// augment returns a lightly perturbed copy of a normalised cell: a shift of
// up to a pixel, a thicker or thinner stroke, dimmer ink and sensor-like
// noise. The heavy distortions (perspective, blur, JPEG, light, fonts,
// line remnants) happen upstream, in the rendered photos that vision cuts;
// these only widen what the cutter's output can look like.
func augment(px []float32, rng *rand.Rand) []float32 {
	const s = vision.CellSize
	out := append([]float32(nil), px...)
	if rng.Intn(2) == 0 {
		dx, dy := rng.Intn(3)-1, rng.Intn(3)-1
		src := out
		out = make([]float32, len(src))
		for r := 0; r < s; r++ {
			for c := 0; c < s; c++ {
				sr, sc := r-dy, c-dx
				if sr >= 0 && sr < s && sc >= 0 && sc < s {
					out[r*s+c] = src[sr*s+sc]
				}
			}
		}
	}
	switch rng.Intn(6) {
	case 0: // thicker: blend with a 3×3 maximum
		out = blendMorph(out, true, 0.3+0.5*rng.Float32())
	case 1: // thinner: blend with a 3×3 minimum
		out = blendMorph(out, false, 0.3+0.5*rng.Float32())
	}
	if rng.Intn(3) == 0 {
		gain := 0.7 + 0.3*rng.Float32()
		for i := range out {
			out[i] *= gain
		}
	}
	if rng.Intn(3) == 0 {
		sigma := 0.06 * rng.Float32()
		for i := range out {
			v := out[i] + sigma*float32(rng.NormFloat64())
			out[i] = min(1, max(0, v))
		}
	}
	return out
}

// blendMorph mixes the image with its 3×3 maximum (dilate) or minimum
// (erode) by weight w.
func blendMorph(px []float32, dilate bool, w float32) []float32 {
	const s = vision.CellSize
	out := make([]float32, len(px))
	for r := 0; r < s; r++ {
		for c := 0; c < s; c++ {
			m := px[r*s+c]
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					rr, cc := r+dr, c+dc
					if rr < 0 || rr >= s || cc < 0 || cc >= s {
						continue
					}
					v := px[rr*s+cc]
					if dilate && v > m || !dilate && v < m {
						m = v
					}
				}
			}
			out[r*s+c] = (1-w)*px[r*s+c] + w*m
		}
	}
	return out
}

// emptyCell draws what vision may pass on from a cell that holds no digit
// (a smudge, a dot cluster, a scratch or a bit of a neighbour's stroke),
// normalised as vision does: the ink's bounding box scaled to fit 20×20 and
// centred. Steep bars are left out: after scaling they look like a 1.
func emptyCell(rng *rand.Rand) []float32 {
	const big = 64
	canvas := make([]float32, big*big)
	plot := func(x, y, r float64) {
		for yy := int(y - r); yy <= int(y+r); yy++ {
			for xx := int(x - r); xx <= int(x+r); xx++ {
				if xx >= 0 && yy >= 0 && xx < big && yy < big && (float64(xx)-x)*(float64(xx)-x)+(float64(yy)-y)*(float64(yy)-y) <= r*r {
					canvas[yy*big+xx] = 1
				}
			}
		}
	}
	switch rng.Intn(3) {
	case 0: // blob
		cx, cy := 32+8*rng.NormFloat64(), 32+8*rng.NormFloat64()
		for k := 0; k < 3+rng.Intn(5); k++ {
			plot(cx+6*rng.NormFloat64(), cy+6*rng.NormFloat64(), 2+6*rng.Float64())
		}
	case 1: // dots
		for k := 0; k < 3+rng.Intn(10); k++ {
			plot(32+12*rng.NormFloat64(), 32+12*rng.NormFloat64(), 1+2*rng.Float64())
		}
	default: // a curved or slanted scratch, within 35° of level (steeper
		// ones look like an italic 1 once scaled)
		a := 0.4 * rng.Float64() * math.Pi / 2
		if rng.Intn(2) == 0 {
			a = -a
		}
		bend := 0.03 * rng.NormFloat64()
		x, y := 32.0, 32.0
		w := 1.5 + 3*rng.Float64()
		for s := 0; s < 20+rng.Intn(30); s++ {
			plot(x, y, w)
			x += math.Cos(a)
			y += math.Sin(a)
			a += bend
		}
	}
	return fitCell(canvas, big)
}

// fitCell scales the ink of a big×big canvas to fit 20×20 (aspect kept)
// and centres it by its bounding box in a CellSize² image.
func fitCell(canvas []float32, big int) []float32 {
	const s = vision.CellSize
	x0, y0, x1, y1 := big, big, -1, -1
	for y := 0; y < big; y++ {
		for x := 0; x < big; x++ {
			if canvas[y*big+x] > 0 {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	out := make([]float32, s*s)
	if x1 < 0 {
		return out
	}
	w, h := x1-x0+1, y1-y0+1
	scale := 20 / float64(max(w, h))
	ow, oh := max(1, int(float64(w)*scale+0.5)), max(1, int(float64(h)*scale+0.5))
	ox, oy := (s-ow)/2, (s-oh)/2
	// Area-average each output pixel from the canvas.
	for y := 0; y < oh; y++ {
		for x := 0; x < ow; x++ {
			sx0, sx1 := x0+int(float64(x)/scale), x0+int(float64(x+1)/scale)
			sy0, sy1 := y0+int(float64(y)/scale), y0+int(float64(y+1)/scale)
			sx1, sy1 = max(sx1, sx0+1), max(sy1, sy0+1)
			var sum float32
			n := 0
			for yy := sy0; yy < sy1 && yy < big; yy++ {
				for xx := sx0; xx < sx1 && xx < big; xx++ {
					sum += canvas[yy*big+xx]
					n++
				}
			}
			if n > 0 {
				out[(oy+y)*s+ox+x] = sum / float32(n)
			}
		}
	}
	return out
}
