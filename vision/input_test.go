package vision

import (
	"errors"
	"image"
	"image/color"
	"math"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// drawGrid renders a synthetic n×n Sudoku grid (thin cell lines, thick box
// lines r×c, a few digits) on white paper of size w×h, with the grid's
// corners at q; the caller closes the Mat.
func drawGrid(t testing.TB, w, h, br, bc int, q [4]pt) gocv.Mat {
	t.Helper()
	n := br * bc
	const s = 540
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), s, s, gocv.MatTypeCV8UC3)
	defer canvas.Close()
	black := color.RGBA{0, 0, 0, 0}
	cs := float64(s-1) / float64(n)
	for k := 0; k <= n; k++ {
		th := 2
		if k%br == 0 {
			th = 6
		}
		y := int(math.Round(float64(k) * cs))
		gocv.Line(&canvas, image.Pt(0, y), image.Pt(s-1, y), black, th)
		th = 2
		if k%bc == 0 {
			th = 6
		}
		x := int(math.Round(float64(k) * cs))
		gocv.Line(&canvas, image.Pt(x, 0), image.Pt(x, s-1), black, th)
	}
	for i := 0; i < n*n; i += 3 {
		r, c := i/n, i%n
		txt := string(rune('1' + (i*7)%9))
		sc := cs / 40
		sz := gocv.GetTextSize(txt, gocv.FontHersheySimplex, sc, 2)
		org := image.Pt(int(float64(c)*cs+cs/2)-sz.X/2, int(float64(r)*cs+cs/2)+sz.Y/2)
		gocv.PutText(&canvas, txt, org, gocv.FontHersheySimplex, sc, black, max(1, int(sc*2.5)))
	}
	src := gocv.NewPointVectorFromPoints([]image.Point{{0, 0}, {s, 0}, {s, s}, {0, s}})
	defer src.Close()
	var ip []image.Point
	for _, p := range q {
		ip = append(ip, image.Pt(int(p.X), int(p.Y)))
	}
	dst := gocv.NewPointVectorFromPoints(ip)
	defer dst.Close()
	hm := gocv.GetPerspectiveTransform(src, dst)
	defer hm.Close()
	out := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(canvas, &out, hm, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{200, 200, 200, 0})
	return out
}

func kindOf(err error) QualityKind {
	var qe *QualityError
	if errors.As(err, &qe) {
		return qe.Kind
	}
	return 0
}

// TestBadInput feeds frames OpenCV would throw on; each must give a typed
// error, never a crash.
func TestBadInput(t *testing.T) {
	tiny := gocv.NewMatWithSize(1, 1, gocv.MatTypeCV8UC3)
	defer tiny.Close()
	float := gocv.NewMatWithSize(100, 100, gocv.MatTypeCV32F)
	defer float.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	blank := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 480, 640, gocv.MatTypeCV8UC3)
	defer blank.Close()
	d := NewDetector(Options{})
	defer d.Close()
	for _, tc := range []struct {
		name  string
		frame gocv.Mat
		want  QualityKind
	}{
		{"zero Mat", gocv.Mat{}, BadInput},
		{"empty", empty, BadInput},
		{"1x1", tiny, BadInput},
		{"float", float, BadInput},
		{"blank page", blank, NoGrid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := d.Analyze(tc.frame); kindOf(err) != tc.want {
				t.Errorf("Analyze: got %v, want kind %v", err, tc.want)
			}
			if _, err := d.Locate(tc.frame); kindOf(err) != tc.want {
				t.Errorf("Locate: got %v, want kind %v", err, tc.want)
			}
		})
	}
}

// TestFormatsAndSizes reads the same grid as grey, BGRA, and as an
// 8000×8000 frame (downscaled before work).
func TestFormatsAndSizes(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	bgr := drawGrid(t, 640, 480, 3, 3, [4]pt{{100, 40}, {540, 50}, {530, 460}, {110, 450}})
	defer bgr.Close()
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(bgr, &grey, gocv.ColorBGRToGray)
	bgra := gocv.NewMat()
	defer bgra.Close()
	gocv.CvtColor(bgr, &bgra, gocv.ColorBGRToBGRA)
	huge := drawGrid(t, 8000, 8000, 3, 3, [4]pt{{1000, 1200}, {7000, 1000}, {7100, 7000}, {900, 6900}})
	defer huge.Close()
	for _, tc := range []struct {
		name  string
		frame gocv.Mat
	}{{"bgr", bgr}, {"grey", grey}, {"bgra", bgra}, {"8000x8000", huge}} {
		g, cells, err := d.Analyze(tc.frame)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if g.Shape.N() != 9 || len(cells) != 81 {
			t.Errorf("%s: shape %v, %d cells", tc.name, g.Shape, len(cells))
		}
		filled := 0
		for _, c := range cells {
			if !c.Empty {
				filled++
			}
		}
		if filled != 27 { // drawGrid writes every third cell
			t.Errorf("%s: %d filled cells, want 27", tc.name, filled)
		}
	}
}

// TestQualitySignals checks the user-facing rejections.
func TestQualitySignals(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	small := drawGrid(t, 640, 480, 3, 3, [4]pt{{300, 200}, {370, 200}, {370, 270}, {300, 270}})
	defer small.Close()
	base := drawGrid(t, 640, 480, 3, 3, [4]pt{{100, 40}, {540, 50}, {530, 460}, {110, 450}})
	defer base.Close()
	// A frame at 2% of the light with a camera's noise: its ink is a few
	// grey levels from its paper. A clean frame at 12%, once refused, is
	// read now (ink 30 levels from paper and no noise).
	dark := dimFrame(t, base, 0.02, 2)
	defer dark.Close()
	blurry := gocv.NewMat()
	defer blurry.Close()
	gocv.GaussianBlur(base, &blurry, image.Pt(0, 0), 6, 6, gocv.BorderReplicate)
	for _, tc := range []struct {
		name  string
		frame gocv.Mat
		want  QualityKind
	}{{"far away", small, TooSmall}, {"dark", dark, TooDark}, {"blurred", blurry, TooBlurry}} {
		_, _, err := d.Analyze(tc.frame)
		if kindOf(err) != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		} else {
			t.Logf("%s: %v", tc.name, err)
		}
	}
}

// dimFrame returns frame's grey scaled by level, with grey Gaussian noise
// of noise levels (seeded, the same on each channel) added; the caller
// closes it.
func dimFrame(t *testing.T, frame gocv.Mat, level, noise float64) gocv.Mat {
	t.Helper()
	f := gocv.NewMat()
	defer f.Close()
	frame.ConvertToWithParams(&f, gocv.MatTypeCV32FC3, float32(level), 0)
	v, err := f.DataPtrFloat32()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i+2 < len(v); i += 3 {
		e := float32(r.NormFloat64() * noise)
		v[i], v[i+1], v[i+2] = v[i]+e, v[i+1]+e, v[i+2]+e
	}
	out := gocv.NewMat()
	f.ConvertTo(&out, gocv.MatTypeCV8UC3)
	return out
}
