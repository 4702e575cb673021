package live

import (
	"image"
	"image/color"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// TestStillness shows a real page to stillness: the same frame again, or
// with sensor noise, is still; the page moved by a few pixels, or another
// page, is not; and the comparison is with the frame last kept, so a slow
// drift is noticed once it adds up.
func TestStillness(t *testing.T) {
	small := gocv.IMRead(filepath.Join(testenv.RepoRoot(), "testdata", "synth", "image4.jpg"), gocv.IMReadColor)
	defer small.Close()
	if small.Empty() {
		t.Fatal("testdata/synth/image4.jpg does not load")
	}
	// A camera frame's size: stillness's tolerance is in thumbnail
	// pixels, about 1.5 frame pixels at 1280 wide.
	photo := gocv.NewMat()
	defer photo.Close()
	gocv.Resize(small, &photo, image.Pt(1280, 960), 0, 0, gocv.InterpolationCubic)
	// shifted is the photo moved by dx pixels to the right (the edge
	// column repeated), as a camera that moved.
	shifted := func(dx int) gocv.Mat {
		m := gocv.NewMat()
		h := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
		defer h.Close()
		h.SetDoubleAt(0, 0, 1)
		h.SetDoubleAt(1, 1, 1)
		h.SetDoubleAt(0, 2, float64(dx))
		gocv.WarpAffineWithParams(photo, &m, h, image.Pt(photo.Cols(), photo.Rows()), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
		return m
	}
	noisy := photo.Clone()
	defer noisy.Close()
	noise := gocv.NewMatWithSize(photo.Rows(), photo.Cols(), photo.Type())
	defer noise.Close()
	gocv.RandN(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(4, 4, 4, 0))
	gocv.Add(photo, noise, &noisy)
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(photo, &grey, gocv.ColorBGRToGray)
	other := gocv.NewMatWithSize(photo.Rows(), photo.Cols(), photo.Type())
	defer other.Close()
	other.SetTo(gocv.NewScalar(200, 200, 200, 0))
	by1, by6 := shifted(1), shifted(6)
	defer by1.Close()
	defer by6.Close()

	s := newStillness()
	defer s.Close()
	if s.same(photo) {
		t.Fatal("the first frame counts as still: nothing was kept yet")
	}
	s.keep()
	for _, tc := range []struct {
		name  string
		frame gocv.Mat
		want  bool
	}{
		{"the same frame", photo, true},
		{"sensor noise", noisy, true},
		{"the same frame in grey", grey, true},
		{"moved 6 px", by6, false},
		{"another page", other, false},
	} {
		if got := s.same(tc.frame); got != tc.want {
			t.Errorf("%s: same = %v, want %v", tc.name, got, tc.want)
		}
	}
	// A drift: 1 px is still against the frame kept, and 6 px away
	// (had it come 1 px a frame) is not.
	s.same(photo)
	s.keep()
	if !s.same(by1) {
		t.Error("moved 1 px: want still")
	}
	if s.same(by6) {
		t.Error("after drifting 6 px in small steps: want moved (the comparison is with the frame kept)")
	}
}
