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
		{"a shadow that lights", grey, Light{Level: 1, Side: 1, Shadow: 1}},
		{"negative glare", grey, Light{Level: 1, Side: 1, Glare: -0.5}},
	} {
		m, err := Dim(tc.photo, tc.l, 1)
		m.Close()
		var oe *OptionError
		if !errors.As(err, &oe) {
			t.Errorf("%s: %v, want an *OptionError", tc.name, err)
		}
	}
}

// TestLamp checks a shadow and a glare on a flat grey photo: the shadow
// keeps its share of the light on part of the photo and leaves the rest,
// the glare saturates its centre and fades to nothing, and each falls
// in the same place for the same seed and elsewhere for another.
func TestLamp(t *testing.T) {
	grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 200, 200, 0), 300, 400, gocv.MatTypeCV8UC3)
	defer grey.Close()
	extremes := func(l Light, seed int64) (lo, hi float64, m gocv.Mat) {
		m, err := Dim(grey, l, seed)
		if err != nil {
			t.Fatal(err)
		}
		g := gocv.NewMat()
		defer g.Close()
		gocv.CvtColor(m, &g, gocv.ColorBGRToGray)
		l32, h32, _, _ := gocv.MinMaxLoc(g)
		return float64(l32), float64(h32), m
	}
	lo, hi, shade := extremes(Light{Level: 1, Side: 1, Shadow: 0.4}, 1)
	defer shade.Close()
	if math.Abs(lo-80) > 1 || math.Abs(hi-200) > 1 {
		t.Errorf("shadow 0.4 on grey 200: from %.0f to %.0f, want 80 to 200", lo, hi)
	}
	_, _, again := extremes(Light{Level: 1, Side: 1, Shadow: 0.4}, 1)
	_, _, other := extremes(Light{Level: 1, Side: 1, Shadow: 0.4}, 2)
	d1, d2 := diffGrey(shade, again), diffGrey(shade, other)
	if gocv.CountNonZero(d1) != 0 || gocv.CountNonZero(d2) == 0 {
		t.Error("a shadow does not fall in the same place for a seed, or in another for another seed")
	}
	d1.Close()
	d2.Close()
	again.Close()
	other.Close()
	lo, hi, glare := extremes(Light{Level: 1, Side: 1, Glare: 0.5}, 1)
	glare.Close()
	if lo != 200 || hi != 255 {
		t.Errorf("glare 0.5 on grey 200: from %.0f to %.0f, want 200 (its edge) to 255 (its centre)", lo, hi)
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
