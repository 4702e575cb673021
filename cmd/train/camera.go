package main

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand"
	"strings"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/synth"
)

// Camera frames: a photo as a held-up camera sees it, warped by a random
// camera (frame size, orientation, cells 9–20 px, turned, tilted, anywhere
// in view) onto a plain or cluttered background, blurred, noised and
// compressed like a webcam's MJPG stream, then cut by vision as live does.
// Each frame draws its own camera: the framings people use are not known.

// cameraSpec is one random camera: the frame, where the grid lands in
// it, and what the optics, the sensor and the codec do to it.
type cameraSpec struct {
	w, h       int     // frame size
	cellPx     float64 // the grid's cell side in the frame
	rotate     float64 // degrees
	tiltX      float64 // perspective: top edge shorter (>0) or longer than the bottom, as a share
	tiltY      float64 // the same for the left edge against the right
	cx, cy     float64 // the grid's centre as a share of the room left in the frame (0..1)
	clutter    bool    // a cluttered background rather than a plain one
	blurLen    float64 // motion blur length in pixels (0: none)
	blurAng    float64 // its direction, degrees
	defocus    float64 // Gaussian σ in pixels (0: none)
	soft       float64 // sensor softness: scaled down by this share and back up (1: none)
	noise      float64 // sensor noise σ in grey levels
	gain       float64 // exposure gain
	offset     float64 // black level shift
	quality    int     // JPEG quality of the stream
	background color.RGBA
}

// cameraFrames are the frame sizes a camera is drawn from (w×h; a portrait
// phone turns them), each with the smallest cell side (px, 9×9 grid)
// vision takes in it: its default limits (Options.MinSideFrac 0.2 of the
// shorter side, capped by MinSidePx 144 working pixels) ask for about this
// much, and a smaller grid is refused live as well ("move closer").
var cameraFrames = []struct {
	w, h    int
	minCell float64
}{
	{640, 480, 10.7}, {640, 480, 10.7}, {640, 480, 10.7}, {800, 600, 13.3}, {960, 540, 12},
	{1280, 720, 16}, {1920, 1080, 19.2},
}

// sampleCamera draws a camera at random.
func sampleCamera(rng *rand.Rand) cameraSpec {
	fs := cameraFrames[rng.Intn(len(cameraFrames))]
	c := cameraSpec{w: fs.w, h: fs.h}
	if rng.Intn(5) == 0 {
		c.w, c.h = c.h, c.w
	}
	// From the smallest vision takes (with room for the tilt, which
	// shortens a side) to about 7 px more; more small cells than large.
	c.cellPx = 1.12*fs.minCell + 7*math.Pow(rng.Float64(), 1.5)
	c.rotate = math.Max(-40, math.Min(40, 14*rng.NormFloat64()))
	c.tiltX = 0.12 * (2*rng.Float64() - 1)
	c.tiltY = 0.08 * (2*rng.Float64() - 1)
	c.cx, c.cy = rng.Float64(), rng.Float64()
	c.clutter = rng.Intn(2) == 0
	// Mild on the whole: a cell of 11 px blurred by σ 1.5 is no longer
	// legible to anyone, and training on such cells only taught the reader
	// to doubt everything (tried: σ up to 1.4 on top of softness 0.6 and
	// JPEG 30 read no better and was less sure on stills).
	if rng.Intn(2) == 0 {
		c.blurLen = 0.5 + 2.5*rng.Float64()
		c.blurAng = 180 * rng.Float64()
	}
	if rng.Intn(2) == 0 {
		c.defocus = 0.3 + 0.6*rng.Float64()
	}
	c.soft = 1
	if rng.Intn(4) == 0 {
		c.soft = 0.75 + 0.25*rng.Float64()
	}
	c.noise = 4 * rng.Float64()
	c.gain = 0.75 + 0.4*rng.Float64()
	c.offset = 20 * (rng.Float64() - 0.5)
	c.quality = 45 + rng.Intn(46)
	g := 40 + rng.Intn(200)
	c.background = color.RGBA{uint8(clamp255(g + rng.Intn(60) - 30)), uint8(clamp255(g + rng.Intn(60) - 30)), uint8(clamp255(g + rng.Intn(60) - 30)), 255}
	return c
}

func clamp255(v int) int { return max(0, min(255, v)) }

// cameraFrame warps photo, whose n×n grid has the corners grid (TL, TR, BR,
// BL as the truth is laid out), into a frame as cam sees it. It returns the
// frame (the caller closes it) and where the grid's corners are in it.
func cameraFrame(photo gocv.Mat, grid [4]gocv.Point2f, n int, cam cameraSpec, rng *rand.Rand) (gocv.Mat, [4]gocv.Point2f, error) {
	var none [4]gocv.Point2f
	if photo.Empty() || photo.Channels() != 3 {
		return gocv.Mat{}, none, fmt.Errorf("camera frame: want a colour photo, have %d×%d with %d channels", photo.Cols(), photo.Rows(), photo.Channels())
	}
	if n < 1 || cam.w < 64 || cam.h < 64 || cam.w > 4096 || cam.h > 4096 || !(cam.cellPx >= 2) {
		return gocv.Mat{}, none, fmt.Errorf("camera frame: bad camera (%d×%d frame, %d cells of %.1f px)", cam.w, cam.h, n, cam.cellPx)
	}
	side := sideOf(grid)
	if !(side >= float64(n)) {
		return gocv.Mat{}, none, fmt.Errorf("camera frame: grid of side %.1f px for %d cells", side, n)
	}
	// The grid's corners in the frame: a square of n cells, tilted, turned,
	// and placed where it fits.
	g := cam.cellPx * float64(n)
	h := g / 2
	q := [4][2]float64{
		{-h * (1 - cam.tiltX) * (1 - cam.tiltY), -h * (1 - cam.tiltY)},
		{h * (1 - cam.tiltX) * (1 + cam.tiltY), -h * (1 + cam.tiltY)},
		{h * (1 + cam.tiltY), h * (1 + cam.tiltY)},
		{-h * (1 - cam.tiltY), h * (1 - cam.tiltY)},
	}
	a := cam.rotate * math.Pi / 180
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i, p := range q {
		x := p[0]*math.Cos(a) - p[1]*math.Sin(a)
		y := p[0]*math.Sin(a) + p[1]*math.Cos(a)
		q[i] = [2]float64{x, y}
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	margin := 4.0
	roomX, roomY := float64(cam.w)-(x1-x0)-2*margin, float64(cam.h)-(y1-y0)-2*margin
	if roomX < 0 || roomY < 0 {
		return gocv.Mat{}, none, fmt.Errorf("camera frame: a grid of %.0f px does not fit a %d×%d frame", g, cam.w, cam.h)
	}
	ox, oy := margin-x0+cam.cx*roomX, margin-y0+cam.cy*roomY
	var dst [4]gocv.Point2f
	for i, p := range q {
		dst[i] = gocv.Point2f{X: float32(ox + p[0]), Y: float32(oy + p[1])}
	}

	// Bring the photo near the frame's scale first (area averaging, as a
	// sensor does), so the warp does not alias.
	src := photo
	scale := (g / side) * 1.25
	var small gocv.Mat
	if scale < 0.8 {
		small = gocv.NewMat()
		defer small.Close()
		gocv.Resize(photo, &small, image.Point{}, scale, scale, gocv.InterpolationArea)
		src = small
		for i := range grid {
			grid[i].X *= float32(float64(small.Cols()) / float64(photo.Cols()))
			grid[i].Y *= float32(float64(small.Rows()) / float64(photo.Rows()))
		}
	}
	sv, dv := gocv.NewPoint2fVectorFromPoints(grid[:]), gocv.NewPoint2fVectorFromPoints(dst[:])
	defer sv.Close()
	defer dv.Close()
	hm := gocv.GetPerspectiveTransform2f(sv, dv)
	defer hm.Close()

	frame := cameraBackground(cam, rng)
	warped := gocv.NewMat()
	defer warped.Close()
	size := image.Pt(cam.w, cam.h)
	gocv.WarpPerspectiveWithParams(src, &warped, hm, size, gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	ones := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), src.Rows(), src.Cols(), gocv.MatTypeCV8U)
	defer ones.Close()
	mask := gocv.NewMat()
	defer mask.Close()
	gocv.WarpPerspectiveWithParams(ones, &mask, hm, size, gocv.InterpolationNearestNeighbor, gocv.BorderConstant, color.RGBA{})
	warped.CopyToWithMask(&frame, mask)

	if err := shoot(&frame, cam, rng); err != nil {
		frame.Close()
		return gocv.Mat{}, none, err
	}
	return frame, dst, nil
}

// sideOf is the mean side of a quadrilateral.
func sideOf(q [4]gocv.Point2f) float64 {
	var s float64
	for i := 0; i < 4; i++ {
		a, b := q[i], q[(i+1)%4]
		s += math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) / 4
	}
	return s
}

// cameraBackground draws what is behind the page: a plain wall with a
// gradient, or a cluttered desk (boxes, lines, blobs and text).
func cameraBackground(cam cameraSpec, rng *rand.Rand) gocv.Mat {
	bg := cam.background
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(bg.B), float64(bg.G), float64(bg.R), 0), cam.h, cam.w, gocv.MatTypeCV8UC3)
	rnd := func() color.RGBA {
		return color.RGBA{uint8(rng.Intn(256)), uint8(rng.Intn(256)), uint8(rng.Intn(256)), 255}
	}
	pt := func() image.Point { return image.Pt(rng.Intn(cam.w), rng.Intn(cam.h)) }
	// A soft light gradient across the frame.
	for k := 0; k < 6; k++ {
		y := k * cam.h / 6
		shade := color.RGBA{uint8(clamp255(int(bg.R) + 8*(k-3))), uint8(clamp255(int(bg.G) + 8*(k-3))), uint8(clamp255(int(bg.B) + 8*(k-3))), 255}
		gocv.Rectangle(&m, image.Rect(0, y, cam.w, y+cam.h/6+1), shade, -1)
	}
	if !cam.clutter {
		return m
	}
	for k := 0; k < 4+rng.Intn(12); k++ {
		switch rng.Intn(4) {
		case 0:
			a, b := pt(), pt()
			gocv.Rectangle(&m, image.Rectangle{Min: a, Max: b}.Canon(), rnd(), []int{-1, 1, 2, 4}[rng.Intn(4)])
		case 1:
			gocv.Line(&m, pt(), pt(), rnd(), 1+rng.Intn(5))
		case 2:
			gocv.Circle(&m, pt(), 3+rng.Intn(cam.h/4), rnd(), []int{-1, 1, 3}[rng.Intn(3)])
		default:
			gocv.PutText(&m, strings.Repeat(string(rune('A'+rng.Intn(26))), 1+rng.Intn(4))+fmt.Sprint(rng.Intn(1000)),
				pt(), gocv.HersheyFont(rng.Intn(4)), 0.5+2*rng.Float64(), rnd(), 1+rng.Intn(3))
		}
	}
	return m
}

// shoot applies the optics, the sensor and the codec to a frame in place:
// motion blur, defocus, softness, exposure, noise and JPEG.
func shoot(frame *gocv.Mat, cam cameraSpec, rng *rand.Rand) error {
	if cam.blurLen >= 0.5 {
		k := motionKernel(cam.blurLen, cam.blurAng)
		tmp := gocv.NewMat()
		gocv.Filter2D(*frame, &tmp, -1, k, image.Pt(-1, -1), 0, gocv.BorderReflect)
		k.Close()
		frame.Close()
		*frame = tmp
	}
	if cam.defocus > 0 {
		gocv.GaussianBlur(*frame, frame, image.Point{}, cam.defocus, cam.defocus, gocv.BorderReflect)
	}
	if cam.soft < 1 {
		small := gocv.NewMat()
		gocv.Resize(*frame, &small, image.Point{}, cam.soft, cam.soft, gocv.InterpolationArea)
		gocv.Resize(small, frame, image.Pt(cam.w, cam.h), 0, 0, gocv.InterpolationLinear)
		small.Close()
	}
	frame.ConvertToWithParams(frame, gocv.MatTypeCV8UC3, float32(cam.gain), float32(cam.offset))
	if cam.noise > 0 {
		// Drawn from rng, not OpenCV's own generator, so a seed gives the
		// same frame on any thread.
		px := frame.ToBytes()
		for i, v := range px {
			px[i] = uint8(max(0, min(255, int(v)+int(math.Round(cam.noise*rng.NormFloat64())))))
		}
		noisy, err := gocv.NewMatFromBytes(cam.h, cam.w, gocv.MatTypeCV8UC3, px)
		if err != nil {
			return fmt.Errorf("camera frame: noise: %w", err)
		}
		frame.Close()
		*frame = noisy
	}
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, *frame, []int{gocv.IMWriteJpegQuality, cam.quality})
	if err != nil {
		return fmt.Errorf("camera frame: jpeg: %w", err)
	}
	defer buf.Close()
	dec, err := gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
	if err != nil || dec.Empty() {
		dec.Close()
		return fmt.Errorf("camera frame: jpeg decode: %v", err)
	}
	frame.Close()
	*frame = dec
	return nil
}

// motionKernel is a normalised line of length l pixels at angle deg.
func motionKernel(l, deg float64) gocv.Mat {
	size := 2*int(math.Ceil(l/2)) + 1
	k := gocv.NewMatWithSize(size, size, gocv.MatTypeCV32F)
	c := float64(size / 2)
	a := deg * math.Pi / 180
	var sum float32
	steps := 8 * size
	acc := make([]float32, size*size)
	for s := 0; s <= steps; s++ {
		t := (float64(s)/float64(steps) - 0.5) * l
		x, y := int(math.Round(c+t*math.Cos(a))), int(math.Round(c+t*math.Sin(a)))
		if x >= 0 && y >= 0 && x < size && y < size {
			acc[y*size+x]++
			sum++
		}
	}
	for i, v := range acc {
		k.SetFloatAt(i/size, i%size, v/sum)
	}
	return k
}

// cutFrame cuts a camera frame with vision and pairs its cells with the
// truth: upright turned by base quarter turns is laid out as the corners
// want are (its cell 0 at want[0]).
// A frame whose corners vision finds off by more than 0.03 of the grid's
// side is refused (its labels would be wrong).
func cutFrame(dets detectors, frame gocv.Mat, want [4]gocv.Point2f, upright sudoku.Grid, base int, p photoCells) photoCells {
	g, cells, err := dets.nine.Analyze(frame)
	n := upright.N()
	if len(cells) != n*n || g.Shape.N() != n {
		if err == nil {
			err = fmt.Errorf("%d cells, shape %v", len(cells), g.Shape)
		}
		p.err = err
		return p
	}
	k, e := matchCorners(g.Corners, want)
	p.corner = e
	if e > 0.03 {
		p.err = fmt.Errorf("corners off by %.1f%% of the side", 100*e)
		return p
	}
	p.turns, p.shift = (base+k)%4, k
	p.truth, p.shape = upright.Turn(p.turns), upright.Shape
	p.cells = cells
	p.corners = g.Corners
	p.allViews = true
	return p
}

// matchCorners returns the quarter turn k under which found (shifted by k)
// is nearest want, and that error as a share of want's side.
func matchCorners(found, want [4]gocv.Point2f) (int, float64) {
	best, bestK := math.Inf(1), 0
	for k := 0; k < 4; k++ {
		var shifted [4]gocv.Point2f
		for i := range shifted {
			shifted[i] = found[(i+k)%4]
		}
		if e := cornerError(shifted, want); e < best {
			best, bestK = e, k
		}
	}
	return bestK, best
}

// stillAgrees is the most cells whose emptiness a still's cut may get
// wrong for its grid's corners to be trusted as the truth's in camera
// frames made from it.
const stillAgrees = 2

// cameraStills picks the real training photos camera frames can be made
// from: cut into the right grid, with vision's emptiness within
// stillAgrees cells of the truth's, so the corners found on the still are
// the grid's. A photo whose truth fits two turns (a symmetric puzzle) is
// kept: its frames follow the turn training settles on (followStills).
func cameraStills(ps []photoCells) (ok []photoCells, skipped int) {
	for _, p := range ps {
		if p.cells == nil || p.path == "" {
			skipped++
			continue
		}
		off := 0
		for i, c := range p.cells {
			if c.Empty != (p.truth.Cells[i] == 0) {
				off++
			}
		}
		if off > stillAgrees {
			skipped++
			continue
		}
		ok = append(ok, p)
	}
	return ok, skipped
}

// followStills lays out the truth of camera frames made from stills the
// way their still's truth is now turned: training settles the turn of a
// symmetric puzzle's photo only once a network can tell (reorient), and a
// frame's truth is its still's, turned by the frame's own quarter turns.
func followStills(frames, stills []photoCells) error {
	byName := map[string]*photoCells{}
	for i := range stills {
		byName[stills[i].name] = &stills[i]
	}
	for i := range frames {
		f := &frames[i]
		if f.cells == nil {
			continue
		}
		s, ok := byName[f.still]
		if !ok || s.cells == nil {
			return fmt.Errorf("camera frame %s: its still %q is not among the cut photos", f.name, f.still)
		}
		upright := s.truth.Turn((4 - s.turns) % 4)
		f.turns = (s.turns + f.shift) % 4
		f.truth = upright.Turn(f.turns)
	}
	return nil
}

// realCameraPhotos makes per camera frames of each still (real training
// photos, see cameraStills) with cameras drawn from seed, and cuts them.
// The truth of a frame is the still's (as the still shows it), carried by
// the still's corners into the frame; followStills updates it when the
// still's turn changes.
func realCameraPhotos(stills []photoCells, per int, seed int64, workers int) []photoCells {
	return cutEach(len(stills)*per, workers, func(d detectors, i int) photoCells {
		s := stills[i/per]
		rng := rand.New(rand.NewSource(seed + int64(i)))
		p := photoCells{name: fmt.Sprintf("%s@cam%d", s.name, i%per), source: s.source + "-camera", corner: -1, glyphs: s.glyphs, symbols: s.symbols, still: s.name}
		img, err := pipeline.ReadImage(s.path, 0)
		defer img.Close()
		if err != nil {
			p.err = err
			return p
		}
		frame, want, err := cameraFrame(img, s.corners, s.truth.N(), sampleCamera(rng), rng)
		defer frame.Close()
		if err != nil {
			p.err = err
			return p
		}
		return cutFrame(d, frame, want, s.truth.Turn((4-s.turns)%4), s.turns, p)
	})
}

// synthCameraPhotos renders count 9×9 puzzles as synthetic photos
// (WorldOptions, seeds seed0..), shoots each with a random camera and cuts
// the frame with vision.
func synthCameraPhotos(count int, seed0 int64, fonts []synth.Font, puzzles []sudoku.Grid, workers int) []photoCells {
	return cutEach(count, workers, func(d detectors, i int) photoCells {
		seed := seed0 + int64(i)
		rng := rand.New(rand.NewSource(seed))
		p := photoCells{name: fmt.Sprintf("synth-camera-%d", seed), source: "synth-camera", corner: -1}
		pz, err := ninePuzzle(puzzles, seed, rng)
		if err != nil {
			p.err = err
			return p
		}
		opts := synth.WorldOptions(1024, 768, seed)
		opts.Fonts = fonts
		ph, err := synth.Render(pz, opts)
		defer ph.Image.Close()
		if err != nil {
			p.err = err
			return p
		}
		frame, want, err := cameraFrame(ph.Image, ph.Corners, ph.Truth.N(), sampleCamera(rng), rng)
		defer frame.Close()
		if err != nil {
			p.err = err
			return p
		}
		return cutFrame(d, frame, want, ph.Truth, 0, p)
	})
}

// cellBands are the cell sides (px, from, to) the camera figures are
// broken down by.
var cellBands = [][2]float64{{0, 12}, {12, 15}, {15, 17}, {17, 99}}

// byCellSide returns the cut frames whose cells (the found grid's mean
// side over its cells) are from lo up to hi pixels.
func byCellSide(ps []photoCells, lo, hi float64) []photoCells {
	var out []photoCells
	for _, p := range ps {
		if p.cells == nil {
			continue
		}
		if s := sideOf(p.corners) / float64(p.truth.N()); s >= lo && s < hi {
			out = append(out, p)
		}
	}
	return out
}
