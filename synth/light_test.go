package synth

import (
	"errors"
	"image"
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// TestDim checks Dim's light on a flat grey photo: the level kept, the
// fall-off across, the noise's spread, the same pixels from the same
// seed, and its refusals.
func TestDim(t *testing.T) {
	grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 200, 200, 0), 60, 80, gocv.MatTypeCV8UC3)
	defer grey.Close()
	for _, tc := range []struct {
		name             string
		l                Light
		left, right, std float64 // want: mean grey of the left and right columns, spread (-1: any)
	}{
		{"even half", Light{Level: 0.5, Side: 1}, 100, 100, 0},
		{"side lit", Light{Level: 0.5, Side: 0.3}, 100, 30, -1},
		{"noise", Light{Level: 0.2, Side: 1, Noise: 3}, 40, 40, 3},
	} {
		m, err := Dim(grey, tc.l, 1)
		if err != nil {
			m.Close()
			t.Fatalf("%s: %v", tc.name, err)
		}
		left, right := m.Region(image.Rect(0, 0, 1, 60)), m.Region(image.Rect(79, 0, 80, 60))
		l, r := left.Mean().Val1, right.Mean().Val1
		left.Close()
		right.Close()
		mean, std := gocv.NewMat(), gocv.NewMat()
		gocv.MeanStdDev(m, &mean, &std)
		s := std.GetDoubleAt(0, 0)
		mean.Close()
		std.Close()
		again, _ := Dim(grey, tc.l, 1)
		d := diffGrey(m, again)
		same := gocv.CountNonZero(d) == 0
		d.Close()
		again.Close()
		m.Close()
		if math.Abs(l-tc.left) > 2 || math.Abs(r-tc.right) > 2 || (tc.std >= 0 && math.Abs(s-tc.std) > 0.5) || !same {
			t.Errorf("%s: left %.1f right %.1f spread %.2f, same again %v; want %.0f, %.0f, %.0f, true", tc.name, l, r, s, same, tc.left, tc.right, tc.std)
		}
	}
	empty := gocv.NewMat()
	defer empty.Close()
	for _, tc := range []struct {
		name  string
		photo gocv.Mat
		l     Light
	}{
		{"empty photo", empty, Light{Level: 1, Side: 1}},
		{"no light", grey, Light{Level: 0, Side: 1}},
		{"NaN side", grey, Light{Level: 1, Side: math.NaN()}},
		{"negative noise", grey, Light{Level: 1, Side: 1, Noise: -1}},
		{"huge blur", grey, Light{Level: 1, Side: 1, Blur: 1e9}},
	} {
		m, err := Dim(tc.photo, tc.l, 1)
		m.Close()
		var oe *OptionError
		if !errors.As(err, &oe) {
			t.Errorf("%s: %v, want an *OptionError", tc.name, err)
		}
	}
}

// diffGrey is the grey of |a-b|, for counting the pixels that differ;
// the caller closes it.
func diffGrey(a, b gocv.Mat) gocv.Mat {
	d := gocv.NewMat()
	gocv.AbsDiff(a, b, &d)
	g := gocv.NewMat()
	gocv.CvtColor(d, &g, gocv.ColorBGRToGray)
	d.Close()
	return g
}
