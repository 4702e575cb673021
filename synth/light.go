package synth

import (
	"image"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"
)

// Light is how a room lights a photo taken in good light: its grey
// scaled by Level at the left edge and by Level·Side at the right (Side 1:
// evenly; the light falls off linearly across), blurred by a Gaussian of
// Blur pixels (0: not), with grey Gaussian noise of Noise levels added
// (the same on each channel, as a phone's denoised sensor gives it).
//
// Shadow and Glare are what a lamp does to part of a page. Shadow (0:
// none) is the light kept where a straight-edged shadow falls (a hand,
// the phone): one side of a line through the photo's middle half, at an
// angle and place drawn from the seed, with an edge soft over 2% of the
// photo's diagonal. Glare (0: none) is a lamp's highlight: a round spot
// as wide as a fifth of the photo's shorter side, centred in its middle
// half, adding Glare times white at its centre (it saturates).
type Light struct {
	Level, Side, Noise, Blur float64
	Shadow, Glare            float64
}

// Dim returns photo (8-bit grey or BGR) in light l, its noise drawn from
// seed: a real photo as a dim room would have given it. The same photo,
// light and seed give the same pixels. The caller closes the Mat. Errors
// are *OptionError.
func Dim(photo gocv.Mat, l Light, seed int64) (gocv.Mat, error) {
	switch {
	case photo.Empty() || (photo.Type() != gocv.MatTypeCV8UC3 && photo.Type() != gocv.MatTypeCV8UC1):
		return gocv.NewMat(), &OptionError{"photo", "want a non-empty 8-bit grey or BGR image"}
	case !(l.Level > 0 && l.Level <= 4):
		return gocv.NewMat(), &OptionError{"Light.Level", "want a factor in (0, 4]"}
	case !(l.Side > 0 && l.Side <= 4):
		return gocv.NewMat(), &OptionError{"Light.Side", "want a factor in (0, 4]"}
	case !(l.Noise >= 0 && l.Noise <= 100):
		return gocv.NewMat(), &OptionError{"Light.Noise", "want 0..100 grey levels"}
	case !(l.Blur >= 0 && l.Blur <= 50):
		return gocv.NewMat(), &OptionError{"Light.Blur", "want 0..50 pixels"}
	case !(l.Shadow >= 0 && l.Shadow < 1):
		return gocv.NewMat(), &OptionError{"Light.Shadow", "want the light kept in the shadow, in [0, 1) (0: no shadow)"}
	case !(l.Glare >= 0 && l.Glare <= 4):
		return gocv.NewMat(), &OptionError{"Light.Glare", "want 0..4 times white (0: no glare)"}
	}
	ch, ft := 1, gocv.MatTypeCV32FC1
	if photo.Type() == gocv.MatTypeCV8UC3 {
		ch, ft = 3, gocv.MatTypeCV32FC3
	}
	f := gocv.NewMat()
	defer f.Close()
	photo.ConvertToWithParams(&f, ft, float32(l.Level), 0)
	v, err := f.DataPtrFloat32()
	if err != nil {
		return gocv.NewMat(), err
	}
	if w := f.Cols(); l.Side != 1 && w > 1 {
		for i := range v {
			x := (i / ch) % w
			v[i] *= float32(1 + (l.Side-1)*float64(x)/float64(w-1))
		}
	}
	if l.Shadow > 0 || l.Glare > 0 {
		lamp(v, f.Cols(), f.Rows(), ch, l, seed)
	}
	if l.Blur > 0 {
		gocv.GaussianBlur(f, &f, image.Pt(0, 0), l.Blur, l.Blur, gocv.BorderReplicate)
	}
	if l.Noise > 0 {
		rng := rand.New(rand.NewPCG(uint64(seed), dimStream))
		for i := 0; i+ch-1 < len(v); i += ch {
			e := float32(rng.NormFloat64() * l.Noise)
			for k := range ch {
				v[i+k] += e
			}
		}
	}
	out := gocv.NewMat()
	f.ConvertTo(&out, photo.Type())
	return out, nil
}

// dimStream is Dim's random stream, apart from the camera's.
const dimStream = 0x6c69676874

// lampStream draws where a shadow and a glare fall, apart from the noise.
const lampStream = 0x6c616d70

// lamp casts l's shadow and glare on v, a w×h photo of ch channels in
// float grey levels.
func lamp(v []float32, w, h, ch int, l Light, seed int64) {
	rng := rand.New(rand.NewPCG(uint64(seed), lampStream))
	mid := func(n int) float64 { return float64(n) * (0.25 + 0.5*rng.Float64()) }
	diag := math.Hypot(float64(w), float64(h))
	// The shadow's edge: through (sx, sy) at angle a; the side where
	// the signed distance is positive is in shadow.
	sx, sy, a := mid(w), mid(h), 2*math.Pi*rng.Float64()
	nx, ny, soft := math.Cos(a), math.Sin(a), 0.02*diag
	gx, gy := mid(w), mid(h)
	r := 0.2 * float64(min(w, h)) / 2
	for y := range h {
		for x := range w {
			k, add := 1.0, 0.0
			if l.Shadow > 0 {
				d := (float64(x)-sx)*nx + (float64(y)-sy)*ny
				t := math.Min(math.Max(d/soft+0.5, 0), 1) // 0 lit, 1 in shadow
				k = 1 - t*(1-l.Shadow)
			}
			if l.Glare > 0 {
				dx, dy := float64(x)-gx, float64(y)-gy
				add = 255 * l.Glare * math.Exp(-(dx*dx+dy*dy)/(2*r*r))
			}
			i := (y*w + x) * ch
			for c := range ch {
				v[i+c] = float32(float64(v[i+c])*k + add)
			}
		}
	}
}
