package synth

import (
	"image"
	"math/rand/v2"

	"gocv.io/x/gocv"
)

// Light is how a dim room lights a photo taken in good light: its grey
// scaled by Level at the left edge and by Level·Side at the right (Side 1:
// evenly; the light falls off linearly across), blurred by a Gaussian of
// Blur pixels (0: not), with grey Gaussian noise of Noise levels added
// (the same on each channel, as a phone's denoised sensor gives it).
type Light struct {
	Level, Side, Noise, Blur float64
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
