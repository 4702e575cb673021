package synth

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"
)

// look is how the camera and the room make the page look: colours, light,
// blur, noise and compression. It is drawn once per scene.
type look struct {
	paper, ink, desk [3]float64 // BGR under white light
	light            lightField
	blur             float64 // Gaussian sigma, pixels
	motion           float64 // motion blur length, pixels (0: none)
	motionAngle      float64 // degrees
	noise            float64 // standard deviation, grey levels
	jpeg             int     // quality; 0 = none
	finger           *finger // a thumb over the grid, or nil
	screen           *screen // the page is a screen (Variety), or nil
}

// finger is a thumb holding the page: a capsule from its tip, over a grid
// corner or edge, out along dir, in photo pixels.
type finger struct {
	tipX, tipY float64
	dirX, dirY float64 // unit vector from the tip towards the hand
	width      float64
	length     float64
	skin       color.RGBA
}

// sampleFinger puts a thumb's tip on a grid corner or a point of an edge
// of the grid quad q, pointing outwards, as a hand holding the page does.
func sampleFinger(rng *rand.Rand, q [4][2]float64) *finger {
	_, side := quadSides(q)
	cx, cy := (q[0][0]+q[1][0]+q[2][0]+q[3][0])/4, (q[0][1]+q[1][1]+q[2][1]+q[3][1])/4
	i := rng.IntN(4)
	t := 0.0 // a corner
	if rng.IntN(2) == 0 {
		t = 0.2 + 0.6*rng.Float64() // somewhere along the edge to the next corner
	}
	j := (i + 1) % 4
	x, y := q[i][0]+(q[j][0]-q[i][0])*t, q[i][1]+(q[j][1]-q[i][1])*t
	a := math.Atan2(y-cy, x-cx) + (rng.Float64()-0.5)*0.8
	skins := []color.RGBA{{224, 172, 140, 255}, {198, 134, 100, 255}, {141, 85, 56, 255}, {240, 195, 165, 255}, {170, 110, 80, 255}}
	f := &finger{
		dirX: math.Cos(a), dirY: math.Sin(a),
		width:  side * (0.16 + 0.1*rng.Float64()),
		length: side * (0.5 + 0.5*rng.Float64()),
		skin:   skins[rng.IntN(len(skins))],
	}
	// Pull the tip a little over the grid so the corner or edge is hidden.
	in := f.width * (0.1 + 0.4*rng.Float64())
	f.tipX, f.tipY = x-f.dirX*in, y-f.dirY*in
	return f
}

// draw paints the thumb on img (8-bit BGR): a soft shadow on the page,
// then the skin with a lighter ridge and the nail, out of focus because it
// is much closer to the lens than the page.
func (f *finger) draw(img *gocv.Mat) error {
	pt := func(along, across float64) image.Point {
		return image.Pt(int(math.Round(f.tipX+f.dirX*along-f.dirY*across)), int(math.Round(f.tipY+f.dirY*along+f.dirX*across)))
	}
	capsule := func(dst *gocv.Mat, shift, half, along0 float64, c color.RGBA) {
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{{
			pt(along0, shift-half), pt(f.length, shift-half), pt(f.length, shift+half), pt(along0, shift+half),
		}})
		defer pv.Close()
		gocv.FillPolyWithParams(dst, pv, c, gocv.LineAA, 0, image.Point{})
		gocv.CircleWithParams(dst, pt(along0, shift), int(math.Round(half)), c, -1, gocv.LineAA, 0)
	}
	shade := func(c color.RGBA, k float32) color.RGBA {
		return color.RGBA{clamp8(float32(c.R) * k), clamp8(float32(c.G) * k), clamp8(float32(c.B) * k), 255}
	}
	half := f.width / 2
	white := color.RGBA{255, 255, 255, 255}
	sigma := math.Max(1, f.width*0.06)

	layer := img.Clone()
	defer layer.Close()
	capsule(&layer, 0, half, 0, shade(f.skin, 0.85))
	capsule(&layer, -half*0.2, half*0.6, half*0.3, f.skin)
	capsule(&layer, -half*0.1, half*0.35, half*0.5, shade(f.skin, 1.1))
	nail := color.RGBA{clamp8(float32(f.skin.R) + 25), clamp8(float32(f.skin.G) + 35), clamp8(float32(f.skin.B) + 40), 255}
	gocv.EllipseWithParams(&layer, pt(half*0.9, 0), image.Pt(int(half*0.8), int(half*0.6)),
		math.Atan2(f.dirY, f.dirX)*180/math.Pi, 0, 360, nail, -1, gocv.LineAA, 0)
	gocv.GaussianBlur(layer, &layer, image.Point{}, sigma, sigma, gocv.BorderReflect101)

	mask := gocv.NewMatWithSize(img.Rows(), img.Cols(), gocv.MatTypeCV8U)
	defer mask.Close()
	capsule(&mask, 0, half, 0, white)
	gocv.GaussianBlur(mask, &mask, image.Point{}, sigma, sigma, gocv.BorderReflect101)
	shadow := gocv.NewMatWithSize(img.Rows(), img.Cols(), gocv.MatTypeCV8U)
	defer shadow.Close()
	capsule(&shadow, half*0.6, half*1.1, -half*0.2, white)
	gocv.GaussianBlur(shadow, &shadow, image.Point{}, 4*sigma, 4*sigma, gocv.BorderReflect101)

	dst, err1 := img.DataPtrUint8()
	top, err2 := layer.DataPtrUint8()
	m, err3 := mask.DataPtrUint8()
	sh, err4 := shadow.DataPtrUint8()
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return fmt.Errorf("synth: finger layers: %w", err)
	}
	for i := range m {
		a, d := float32(m[i])/255, 1-0.45*float32(sh[i])/255
		for ch := 0; ch < 3; ch++ {
			k := 3*i + ch
			dst[k] = clamp8(float32(dst[k])*d*(1-a) + float32(top[k])*a)
		}
	}
	return nil
}

// lightField is the light falling on the scene: an overall level and
// colour, a gradient, vignetting, a soft-edged shadow and a glare spot.
// Positions are in units of the photo's short side from its centre.
type lightField struct {
	level       float64
	tint        [3]float64
	gx, gy      float64
	vignette    float64
	shadow      int // 0 none, 1 straight edge, 2 blob
	sx, sy      float64
	snx, sny    float64 // straight edge: unit normal pointing into the shadow
	srx, sry    float64 // blob radii
	sangle      float64
	sdepth      float64
	ssoft       float64
	glare       float64
	glx, gly    float64
	glareRadius float64
}

// gain returns the light at (u, v) for channel-independent level.
func (l *lightField) gain(u, v float64) float64 {
	g := l.level * (1 + l.gx*u + l.gy*v) * (1 - l.vignette*(u*u+v*v))
	switch l.shadow {
	case 1:
		d := (u-l.sx)*l.snx + (v-l.sy)*l.sny
		g *= 1 - l.sdepth*smoothstep(-l.ssoft, l.ssoft, d)
	case 2:
		c, s := math.Cos(l.sangle), math.Sin(l.sangle)
		du, dv := u-l.sx, v-l.sy
		a, b := (du*c+dv*s)/l.srx, (-du*s+dv*c)/l.sry
		d := (math.Sqrt(a*a+b*b) - 1) * math.Min(l.srx, l.sry)
		g *= 1 - l.sdepth*smoothstep(l.ssoft, -l.ssoft, d)
	}
	if l.glare > 0 {
		du, dv := u-l.glx, v-l.gly
		g += l.glare * math.Exp(-(du*du+dv*dv)/(l.glareRadius*l.glareRadius))
	}
	return math.Max(0.05, g)
}

func smoothstep(e0, e1, x float64) float64 {
	t := math.Min(1, math.Max(0, (x-e0)/(e1-e0)))
	return t * t * (3 - 2*t)
}

// sampleLook draws colours, light and degradations within the options.
func sampleLook(rng *rand.Rand, o Options) look {
	u := rng.Float64
	between := func(a, b float64) float64 { return a + (b-a)*u() }
	var lk look
	// Newsprint is a warm off-white; some pages are bright white.
	p := between(205, 250)
	warm := between(0, 25)
	lk.paper = [3]float64{p - warm, p - warm*0.4, p}
	k := between(10, 55)
	lk.ink = [3]float64{k + between(0, 10), k, k}
	switch rng.IntN(4) {
	case 0: // wood
		lk.desk = [3]float64{between(30, 70), between(60, 110), between(100, 160)}
	case 1: // grey table
		g := between(60, 170)
		lk.desk = [3]float64{g, g, g + between(-10, 10)}
	case 2: // dark cloth
		g := between(15, 50)
		lk.desk = [3]float64{g + between(0, 20), g, g}
	default: // a white table, hard case for the page edge
		g := between(170, 230)
		lk.desk = [3]float64{g, g, g}
	}
	s := o.Light
	l := &lk.light
	l.level = 1 - s*between(0, 0.35)
	l.tint = [3]float64{1 - s*between(0, 0.15), 1 - s*between(0, 0.05), 1}
	l.gx, l.gy = s*between(-0.35, 0.35), s*between(-0.35, 0.35)
	l.vignette = s * between(0, 0.35)
	if s > 0 {
		switch rng.IntN(3) {
		case 1:
			l.shadow = 1
			a := u() * 2 * math.Pi
			l.snx, l.sny = math.Cos(a), math.Sin(a)
			l.sx, l.sy = between(-0.5, 0.5), between(-0.4, 0.4)
		case 2:
			l.shadow = 2
			l.sx, l.sy = between(-0.8, 0.8), between(-0.6, 0.6)
			l.srx, l.sry = between(0.15, 0.6), between(0.1, 0.4)
			l.sangle = u() * math.Pi
		}
		l.sdepth = s * between(0.2, 0.55)
		l.ssoft = between(0.02, 0.2)
		if rng.IntN(5) == 0 {
			l.glare = s * between(0.15, 0.5)
			l.glx, l.gly = between(-0.6, 0.6), between(-0.4, 0.4)
			l.glareRadius = between(0.08, 0.3)
		}
	}
	lk.blur = o.MaxBlur * math.Pow(u(), 1.5)
	if o.MaxBlur > 0 && rng.IntN(6) == 0 {
		lk.motion = between(2, 2+3*o.MaxBlur)
		lk.motionAngle = between(0, 180)
	}
	lk.noise = o.MaxNoise * u()
	if o.JPEGMax > 0 {
		lk.jpeg = o.JPEGMin + rng.IntN(o.JPEGMax-o.JPEGMin+1)
	}
	return lk
}

// camera turns flat pages into photos with one look. Its noise generator
// runs on from shot to shot, so the frames of a video differ in noise.
type camera struct {
	w, h  int
	look  look
	rng   *rand.Rand
	gains []float32 // light at each pixel, computed once per camera
}

func newCamera(w, h int, lk look, seed int64) *camera {
	return &camera{w: w, h: h, look: lk, rng: rand.New(rand.NewPCG(uint64(seed), 0x6e6f697365))}
}

// lightMap returns the light at every pixel, computed on a coarse lattice
// and interpolated, since the field is smooth.
func (c *camera) lightMap() []float32 {
	if c.gains != nil {
		return c.gains
	}
	const step = 8
	cw, ch := c.w/step+2, c.h/step+2
	short := float64(min(c.w, c.h))
	lat := make([]float64, cw*ch)
	for j := 0; j < ch; j++ {
		for i := 0; i < cw; i++ {
			u := (float64(i*step) - float64(c.w)/2) / short
			v := (float64(j*step) - float64(c.h)/2) / short
			lat[j*cw+i] = c.look.light.gain(u, v)
		}
	}
	g := make([]float32, c.w*c.h)
	for y := 0; y < c.h; y++ {
		j, fy := y/step, float64(y%step)/step
		for x := 0; x < c.w; x++ {
			i, fx := x/step, float64(x%step)/step
			a := lat[j*cw+i]*(1-fx) + lat[j*cw+i+1]*fx
			b := lat[(j+1)*cw+i]*(1-fx) + lat[(j+1)*cw+i+1]*fx
			g[y*c.w+x] = float32(a*(1-fy) + b*fy)
		}
	}
	c.gains = g
	return g
}

// shoot photographs the flat page through v and returns the photo, 8-bit
// BGR without compression. The caller closes it.
func (c *camera) shoot(fp flatPage, spec pageSpec, v view) (gocv.Mat, error) {
	warped, err := c.warpPage(fp.grey, spec, v)
	if err != nil {
		return gocv.Mat{}, err
	}
	defer warped.Close()
	grey, err := warped.DataPtrUint8()
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("synth: warped page: %w", err)
	}
	var cover []uint8
	if fp.tint != nil {
		wt, err := c.warpPage(fp.tint, spec, v)
		if err != nil {
			return gocv.Mat{}, err
		}
		defer wt.Close()
		if cover, err = wt.DataPtrUint8(); err != nil || len(cover) != len(grey) {
			return gocv.Mat{}, fmt.Errorf("synth: warped tint: %d of %d pixels: %w", len(cover), len(grey), err)
		}
	}

	lk := &c.look
	gains := c.lightMap()
	tint := lk.light.tint
	var paperLUT [256][3]float32
	for v := 0; v < 256; v++ {
		t := math.Min(1, float64(v)/paper)
		for ch := 0; ch < 3; ch++ {
			paperLUT[v][ch] = float32((lk.ink[ch] + (lk.paper[ch]-lk.ink[ch])*t) * tint[ch])
		}
	}
	var desk [3]float32
	for ch := 0; ch < 3; ch++ {
		desk[ch] = float32(lk.desk[ch] * tint[ch])
	}
	out := make([]byte, c.w*c.h*3)
	for i, v := range grey {
		g := gains[i]
		col := &desk
		if v != 0 {
			col = &paperLUT[v]
		}
		for ch := 0; ch < 3; ch++ {
			out[3*i+ch] = clamp8(col[ch] * g)
		}
	}
	if cover != nil {
		// Coloured ink takes away light as the tint's colour does on
		// white paper, over the paper and the ink printed on it alike.
		t, _ := spec.style.tint()
		absorb := [3]float32{1 - float32(t.B)/255, 1 - float32(t.G)/255, 1 - float32(t.R)/255}
		for i, m := range cover {
			if m == 0 {
				continue
			}
			cover := float32(m) / 255
			for ch := 0; ch < 3; ch++ {
				out[3*i+ch] = clamp8(float32(out[3*i+ch]) * (1 - cover*absorb[ch]))
			}
		}
	}
	if lk.screen != nil {
		// Each photo pixel sees the subpixels of the page point it maps
		// to; the lattice is finer than the sensor's, hence moiré.
		toPage := v.pagePoint(spec, c.w, c.h)
		for i, g := range grey {
			if g == 0 {
				continue
			}
			x, y, ok := toPage(float64(i%c.w), float64(i/c.w))
			if !ok {
				continue
			}
			sg := lk.screen.screenGain(x, y)
			for ch := 0; ch < 3; ch++ {
				out[3*i+ch] = clamp8(float32(out[3*i+ch]) * sg[ch])
			}
		}
	}
	img, err := gocv.NewMatFromBytes(c.h, c.w, gocv.MatTypeCV8UC3, out)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("synth: photo to Mat: %w", err)
	}
	defer img.Close()
	if lk.finger != nil {
		if err := lk.finger.draw(&img); err != nil {
			return gocv.Mat{}, err
		}
	}

	res := gocv.NewMat()
	if lk.blur >= 0.3 {
		gocv.GaussianBlur(img, &res, image.Point{}, lk.blur, lk.blur, gocv.BorderReflect101)
	} else {
		img.CopyTo(&res)
	}
	if lk.motion > 0 {
		if err := motionBlur(&res, lk.motion, lk.motionAngle); err != nil {
			res.Close()
			return gocv.Mat{}, err
		}
	}
	if lk.noise > 0 {
		px, err := res.DataPtrUint8()
		if err != nil {
			res.Close()
			return gocv.Mat{}, fmt.Errorf("synth: photo pixels: %w", err)
		}
		c.addNoise(px, lk.noise)
	}
	return res, nil
}

// warpPage warps one layer of the flat page (grey levels, or a tint's
// cover) into a photo through v, flat or curled. Off the page the result
// is 0, which the grey page itself never holds. The caller closes it.
func (c *camera) warpPage(page *image.Gray, spec pageSpec, v view) (gocv.Mat, error) {
	pw, ph := page.Rect.Dx(), page.Rect.Dy()
	if pw < 2 || ph < 2 || page.Stride != pw {
		return gocv.Mat{}, fmt.Errorf("synth: page image %dx%d (stride %d) cannot be photographed", pw, ph, page.Stride)
	}
	src, err := gocv.NewMatFromBytes(ph, pw, gocv.MatTypeCV8U, page.Pix)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("synth: page to Mat: %w", err)
	}
	defer src.Close()
	if !v.curl.IsFlat() {
		return shootCurled(src, spec, v, c.w, c.h)
	}
	hm := v.flat.mul(spec.toGrid())
	m := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer m.Close()
	for i, x := range hm {
		m.SetDoubleAt(i/3, i%3, x)
	}
	warped := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(src, &warped, m, image.Pt(c.w, c.h), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	if warped.Empty() || warped.Cols() != c.w || warped.Rows() != c.h {
		warped.Close()
		return gocv.Mat{}, errors.New("synth: page: warp gave no image")
	}
	return warped, nil
}

// motionBlur smears img along a line of the given length and angle, as a
// shaking hand does.
func motionBlur(img *gocv.Mat, length, angle float64) error {
	k := int(math.Ceil(length)) | 1
	kern := gocv.NewMatWithSize(k, k, gocv.MatTypeCV32F)
	defer kern.Close()
	c, s := math.Cos(rad(angle)), math.Sin(rad(angle))
	mid := float64(k / 2)
	n := 0
	for t := -length / 2; t <= length/2; t += 0.5 {
		x, y := int(math.Round(mid+t*c)), int(math.Round(mid+t*s))
		if x >= 0 && x < k && y >= 0 && y < k {
			kern.SetFloatAt(y, x, kern.GetFloatAt(y, x)+1)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	kern.DivideFloat(float32(n))
	gocv.Filter2D(*img, img, -1, kern, image.Pt(-1, -1), 0, gocv.BorderReflect101)
	return nil
}

// addNoise adds sensor noise: mostly brightness noise shared by the three
// channels, plus a little colour noise. Normal samples come from a table
// drawn fresh per shot, because drawing one per pixel is the slow part.
func (c *camera) addNoise(px []byte, sigma float64) {
	const tableSize = 1 << 14
	table := make([]float32, tableSize)
	for i := range table {
		table[i] = float32(c.rng.NormFloat64() * sigma)
	}
	state := uint32(c.rng.Uint64()) | 1
	next := func() float32 {
		state ^= state << 13
		state ^= state >> 17
		state ^= state << 5
		return table[state&(tableSize-1)]
	}
	for i := 0; i+2 < len(px); i += 3 {
		l := next() * 0.85
		px[i] = clamp8(float32(px[i]) + l + next()*0.4)
		px[i+1] = clamp8(float32(px[i+1]) + l + next()*0.4)
		px[i+2] = clamp8(float32(px[i+2]) + l + next()*0.4)
	}
}

func clamp8(v float32) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}
