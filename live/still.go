package live

import (
	"image"

	"gocv.io/x/gocv"
)

// stillness tells whether a frame shows what the frame last followed showed,
// within camera noise (a phone on a stand: most frames); then the session
// keeps the grid and its ink instead of following it again. Frames are
// compared as area-averaged thumbnails of at most stillSide pixels against
// the frame last followed, not the one before, so a slow drift adds up.
type stillness struct {
	thumb, ref, gray, diff gocv.Mat
	have                   bool // ref holds the thumbnail of the frame last followed
}

const (
	// stillSide is the thumbnail's long side: 20×20-pixel blocks of a
	// 1280×720 frame.
	stillSide = 64
	// stillMaxDiff is the largest grey-level change of any thumbnail
	// pixel that still counts as nothing moved. A strong edge (contrast
	// 150) sliding 1 pixel across a 20-pixel block changes it by about 8;
	// noise and JPEG ringing by well under 2. So a frame is still when
	// nothing moved by more than about a pixel and a half, which is how
	// far the corners kept may then be off.
	stillMaxDiff = 12
)

func newStillness() *stillness {
	return &stillness{thumb: gocv.NewMat(), ref: gocv.NewMat(), gray: gocv.NewMat(), diff: gocv.NewMat()}
}

// Close releases the scratch Mats.
func (s *stillness) Close() {
	s.thumb.Close()
	s.ref.Close()
	s.gray.Close()
	s.diff.Close()
}

// same takes frame's thumbnail and reports whether it matches the frame
// last kept.
func (s *stillness) same(frame gocv.Mat) bool {
	w, h := frame.Cols(), frame.Rows()
	if w <= 0 || h <= 0 || (frame.Channels() != 1 && frame.Channels() != 3) {
		s.have = false
		return false
	}
	k := float64(stillSide) / float64(max(w, h))
	sz := image.Pt(max(1, int(float64(w)*k+0.5)), max(1, int(float64(h)*k+0.5)))
	if frame.Channels() == 3 {
		gocv.Resize(frame, &s.gray, sz, 0, 0, gocv.InterpolationArea)
		gocv.CvtColor(s.gray, &s.thumb, gocv.ColorBGRToGray)
	} else {
		gocv.Resize(frame, &s.thumb, sz, 0, 0, gocv.InterpolationArea)
	}
	if !s.have || s.ref.Cols() != s.thumb.Cols() || s.ref.Rows() != s.thumb.Rows() {
		return false
	}
	gocv.AbsDiff(s.thumb, s.ref, &s.diff)
	_, most, _, _ := gocv.MinMaxLoc(s.diff)
	return most <= stillMaxDiff
}

// keep makes the thumbnail last taken the one later frames are compared
// with: its frame was just followed.
func (s *stillness) keep() {
	s.thumb, s.ref = s.ref, s.thumb
	s.have = !s.ref.Empty()
}
