package vision

import (
	"image"
	"image/color"
	"strings"

	"gocv.io/x/gocv"
)

// dumpCanvas writes the last canvas cells were cut from, its
// binarisation and the cleaned ink side by side to path (for eyeballing
// misses).
func (d *Detector) dumpCanvas(path string) {
	c := d.rect.last
	if c == nil || c.grey.Empty() {
		return
	}
	m := c.grey.Clone()
	defer m.Close()
	lines := gocv.NewMat()
	defer lines.Close()
	if !c.hlines.Empty() && c.hlines.Rows() == c.vlines.Rows() {
		gocv.BitwiseOr(c.hlines, c.vlines, &lines)
	}
	// Stages from an earlier, differently sized canvas are skipped:
	// Hconcat would throw on them.
	for _, s := range []gocv.Mat{c.bin, d.rect.clean, lines} {
		if !s.Empty() && s.Rows() == m.Rows() && s.Type() == m.Type() {
			gocv.Hconcat(m, s, &m)
		}
	}
	gocv.IMWrite(path, m)
}

// dumpQuads writes img (scaled to at most 800 px) with the found corners in
// red and the true ones in green, plus the find-resolution binary image.
func (d *Detector) dumpQuads(path string, img gocv.Mat, found [4]gocv.Point2f, want [4]pt, hasWant bool) {
	if img.Empty() {
		return
	}
	m := img.Clone()
	defer m.Close()
	poly := func(q [4]image.Point, c color.RGBA) {
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{q[:]})
		defer pv.Close()
		gocv.Polylines(&m, pv, true, c, 3)
	}
	var f, w [4]image.Point
	for i := 0; i < 4; i++ {
		f[i] = image.Pt(int(found[i].X), int(found[i].Y))
		w[i] = image.Pt(int(want[i].X), int(want[i].Y))
	}
	if hasWant {
		poly(w, color.RGBA{0, 255, 0, 0})
	}
	poly(f, color.RGBA{0, 0, 255, 0})
	s := 800.0 / float64(max(m.Cols(), m.Rows()))
	if s < 1 {
		gocv.Resize(m, &m, image.Pt(int(float64(m.Cols())*s), int(float64(m.Rows())*s)), 0, 0, gocv.InterpolationArea)
	}
	gocv.IMWrite(path, m)
	if !d.find.bin.Empty() {
		gocv.IMWrite(strings.TrimSuffix(path, ".png")+"_bin.png", d.find.bin)
	}
}
