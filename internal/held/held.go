// Package held renders, for tests, what a camera sees of a page held up
// to it: in, a photo and a framing (frame size, the share of the frame
// the photo fills, and which frame of which photo); out, the frame, the
// photo turned, tilted and moved as ../shared/tools/mkvideo moves it in
// its videos (frame f of 60 of photo number pi) in front of a plain
// background, and the homography from photo to frame pixels.
package held

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// maxSide bounds the frame's sides (a phone's 4K video is 3840 wide).
const maxSide = 8192

// Frame renders frame f of 60 of photo number pi, the photo img filling
// fill of a w×h frame, and returns it (the caller closes it) with the
// row-major homography from img's pixels to the frame's. An empty img, a
// frame side outside 1..8192 or a fill that is not positive is an error
// (OpenCV would abort on the first two).
func Frame(img gocv.Mat, w, h int, fill float64, pi, f int) (gocv.Mat, [9]float64, error) {
	if img.Empty() {
		return gocv.Mat{}, [9]float64{}, fmt.Errorf("held frame: empty photo")
	}
	if w < 1 || h < 1 || w > maxSide || h > maxSide {
		return gocv.Mat{}, [9]float64{}, fmt.Errorf("held frame: %d×%d outside 1..%d", w, h, maxSide)
	}
	if !(fill > 0) || math.IsInf(fill, 1) {
		return gocv.Mat{}, [9]float64{}, fmt.Errorf("held frame: fill %v, want a positive share", fill)
	}
	s := math.Min(fill*float64(h)/float64(img.Rows()), fill*float64(w)/float64(img.Cols()))
	pw, ph := float64(img.Cols())*s, float64(img.Rows())*s
	t := float64(f) / 60
	ang := 12 * math.Sin(2*math.Pi*t+float64(pi)) * math.Pi / 180
	sc := 0.9 + 0.1*math.Sin(4*math.Pi*t)
	cx := float64(w)/2 + 60*math.Sin(2*math.Pi*t*1.3)
	cy := float64(h)/2 + 25*math.Cos(2*math.Pi*t)
	tilt := 0.08 * math.Sin(2*math.Pi*t*0.7)
	corners := [4][2]float64{{-pw / 2 * (1 - tilt), -ph / 2}, {pw / 2 * (1 - tilt), -ph / 2}, {pw / 2, ph / 2}, {-pw / 2, ph / 2}}
	dst := make([]image.Point, 4)
	for i, c := range corners {
		x := c[0]*sc*math.Cos(ang) - c[1]*sc*math.Sin(ang)
		y := c[0]*sc*math.Sin(ang) + c[1]*sc*math.Cos(ang)
		dst[i] = image.Pt(int(cx+x), int(cy+y))
	}
	src := []image.Point{{0, 0}, {img.Cols(), 0}, {img.Cols(), img.Rows()}, {0, img.Rows()}}
	sv, dv := gocv.NewPointVectorFromPoints(src), gocv.NewPointVectorFromPoints(dst)
	defer sv.Close()
	defer dv.Close()
	m := gocv.GetPerspectiveTransform(sv, dv)
	defer m.Close()
	var hm [9]float64
	for i := range hm {
		hm[i] = m.GetDoubleAt(i/3, i%3)
	}
	frame := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	frame.SetTo(gocv.NewScalar(70+20*math.Sin(t*6), 80, 90, 0))
	gocv.WarpPerspectiveWithParams(img, &frame, m, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderTransparent, color.RGBA{})
	return frame, hm, nil
}
