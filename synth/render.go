package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Options control one rendered photo. Start from DefaultOptions and change
// what you need: the zero value of a field means "none" (no tilt, no blur),
// not "default".
type Options struct {
	// Seed makes the photo: the same puzzle, options and seed give the same
	// bytes.
	Seed int64
	// Width and Height are the photo's size in pixels (16..8192).
	Width, Height int
	// Fonts are the faces the givens and page text are printed in; one is
	// picked per photo. Empty means GoFonts.
	Fonts []Font
	// Styles are the grid line styles to pick from; empty means LineStyles.
	Styles []LineStyle
	// Symbols says how values 10..16 are printed.
	Symbols Symbols
	// MaxTilt is the largest tilt of the page away from facing the camera,
	// and MaxRotate the largest in-plane turn either way, in degrees.
	MaxTilt, MaxRotate float64
	// MinSide is the shortest any side of the grid may appear, and MaxSide
	// the longest its mean side may be, as fractions of the photo's short
	// side. The whole grid always stays in view.
	MinSide, MaxSide float64
	// MaxBlur is the largest Gaussian blur sigma, in pixels.
	MaxBlur float64
	// MaxNoise is the largest sensor noise standard deviation, in grey levels.
	MaxNoise float64
	// Light is how strong uneven lighting (gradients, vignetting, glare) and
	// shadows are, from 0 (flat, even light) to 1.
	Light float64
	// DeskShare is the chance that an edge of the page, and the desk
	// beyond it, shows in the photo.
	DeskShare float64
	// Fingers is the chance that a thumb holding the page covers a corner
	// or an edge of the grid (the corners stay where the grid's are). The
	// defaults leave it at 0, so the committed photos show whole grids.
	Fingers float64
	// JPEGMin and JPEGMax bound the JPEG quality; 0 for both skips JPEG.
	JPEGMin, JPEGMax int
	// Beside prints something boxed next to the puzzle (a second Sudoku,
	// a larger crossword, a column of dense text), all of it in view.
	Beside Beside
	// MaxCurl is the most the page may be curled, as the angle in degrees
	// it has turned at the grid's edge (see Curl); each photo takes a curl
	// between a third of it and all of it. 0 keeps the page flat.
	MaxCurl float64
	// Variety adds print weights, plain 1s, barred 7s, stains, strong
	// glare and screens (WorldOptions turns it on); zero adds nothing.
	Variety Variety
}

// DefaultOptions returns the distortions the project's test photos use:
// tilt up to 40°, rotation up to 45°, grid side 40%..90% of the short side,
// blur, noise, uneven light and shadows, JPEG quality 40..95.
func DefaultOptions(width, height int, seed int64) Options {
	return Options{
		Seed: seed, Width: width, Height: height,
		MaxTilt: 40, MaxRotate: 45,
		MinSide: 0.40, MaxSide: 0.90,
		MaxBlur: 1.6, MaxNoise: 8, Light: 1, DeskShare: 0.3,
		JPEGMin: 40, JPEGMax: 95,
	}
}

// Photo is one rendered photo and its ground truth.
type Photo struct {
	// Image is the photo, 8-bit BGR, Width×Height, decoded from JPEG when
	// JPEG is on. The caller closes it.
	Image gocv.Mat
	// JPEG holds the encoded photo (nil when JPEG is off).
	JPEG []byte
	// Corners are the outer corners of the grid's border in image pixels:
	// the puzzle's own top-left, top-right, bottom-right and bottom-left
	// (so with a turn near 45° "top-left" may not be the highest corner).
	Corners [4]gocv.Point2f
	// Truth is the puzzle as printed.
	Truth sudoku.Grid
	// Font and Style name the face and line style the puzzle was printed in.
	Font, Style string
	// Pose is where the camera saw the page from, and Curl how the page
	// was bent.
	Pose Pose
	Curl Curl
	// Beside is what was printed next to the puzzle; OtherCorners are its
	// outer corners (TL, TR, BR, BL) in image pixels, and Other its puzzle
	// when it is a second Sudoku (Cells nil otherwise).
	Beside       Beside
	OtherCorners [4]gocv.Point2f
	Other        sudoku.Grid

	view   view    // grid units (unit square centred on 0) to image pixels
	border float64 // outer border width as a fraction of the grid's side
}

// GridPoint maps a point of the grid's outer square, (0, 0) at its
// top-left corner and (1, 1) at its bottom-right, to image pixels.
func (p Photo) GridPoint(x, y float64) gocv.Point2f {
	u, v, _ := p.view.project(x-0.5, y-0.5)
	return gocv.Point2f{X: float32(u), Y: float32(v)}
}

// CellCorners returns the corners (TL, TR, BR, BL, in image pixels) of the
// cell at row r, column c (0-based): the square between the centres of
// the lines around it, or the inner edge of the border at the grid's edge.
// Training code can cut labelled cells with it without finding the grid.
func (p Photo) CellCorners(r, c int) [4]gocv.Point2f {
	n := float64(p.Truth.N())
	step := (1 - 2*p.border) / n
	x0, y0 := p.border+float64(c)*step, p.border+float64(r)*step
	return [4]gocv.Point2f{
		p.GridPoint(x0, y0), p.GridPoint(x0+step, y0),
		p.GridPoint(x0+step, y0+step), p.GridPoint(x0, y0+step),
	}
}

// Validate checks the options, returning an *OptionError that names the
// first bad field.
func (o Options) Validate() error {
	for _, check := range []func() error{o.validateScene, o.validateOutput, o.validateVariety} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// optionErr is an *OptionError about field.
func optionErr(field, format string, args ...any) error {
	return &OptionError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// validateScene checks the frame, the page's pose and the light.
func (o Options) validateScene() error {
	switch {
	case o.Width < 16 || o.Width > 8192:
		return optionErr("Width", "%d is outside 16..8192", o.Width)
	case o.Height < 16 || o.Height > 8192:
		return optionErr("Height", "%d is outside 16..8192", o.Height)
	case o.MaxTilt < 0 || o.MaxTilt > 60:
		return optionErr("MaxTilt", "%g° is outside 0..60", o.MaxTilt)
	case o.MaxRotate < 0 || o.MaxRotate > 180:
		return optionErr("MaxRotate", "%g° is outside 0..180", o.MaxRotate)
	case o.MinSide <= 0 || o.MinSide > 0.9:
		return optionErr("MinSide", "%g is outside (0, 0.9]", o.MinSide)
	case o.MaxSide < o.MinSide || o.MaxSide > 1:
		return optionErr("MaxSide", "%g is outside [MinSide=%g, 1]", o.MaxSide, o.MinSide)
	case o.MaxBlur < 0 || o.MaxBlur > 10:
		return optionErr("MaxBlur", "%g is outside 0..10", o.MaxBlur)
	case o.MaxNoise < 0 || o.MaxNoise > 64:
		return optionErr("MaxNoise", "%g is outside 0..64", o.MaxNoise)
	case o.Light < 0 || o.Light > 1:
		return optionErr("Light", "%g is outside 0..1", o.Light)
	case o.DeskShare < 0 || o.DeskShare > 1:
		return optionErr("DeskShare", "%g is outside 0..1", o.DeskShare)
	case o.Fingers < 0 || o.Fingers > 1:
		return optionErr("Fingers", "%g is outside 0..1", o.Fingers)
	}
	return nil
}

// validateOutput checks the JPEG quality (0..0 for the default), the
// symbols, what is printed beside the puzzle and the page's curl.
func (o Options) validateOutput() error {
	switch {
	case (o.JPEGMin != 0 || o.JPEGMax != 0) && (o.JPEGMin < 1 || o.JPEGMax > 100 || o.JPEGMin > o.JPEGMax):
		return optionErr("JPEG", "quality %d..%d is not within 1..100", o.JPEGMin, o.JPEGMax)
	case o.Symbols != Numbers && o.Symbols != Letters && o.Symbols != ZeroBased:
		return optionErr("Symbols", "unknown symbol set %d", o.Symbols)
	case o.Beside < BesideNothing || o.Beside > BesideText:
		return optionErr("Beside", "unknown kind %d", int(o.Beside))
	case o.MaxCurl < 0 || o.MaxCurl > 75:
		return optionErr("MaxCurl", "%g° is outside 0..75", o.MaxCurl)
	}
	return nil
}

// validateVariety checks the print variety's weight and shares, and that
// every font was loaded.
func (o Options) validateVariety() error {
	if o.Variety.Weight < 0 || o.Variety.Weight > 0.1 {
		return optionErr("Variety.Weight", "%g is outside 0..0.1", o.Variety.Weight)
	}
	for name, p := range map[string]float64{"PlainOnes": o.Variety.PlainOnes, "BarSevens": o.Variety.BarSevens,
		"Stains": o.Variety.Stains, "Glare": o.Variety.Glare, "Screen": o.Variety.Screen} {
		if p < 0 || p > 1 {
			return optionErr("Variety."+name, "%g is outside 0..1", p)
		}
	}
	for i, f := range o.Fonts {
		if f.face == nil {
			return optionErr("Fonts", "font %d (%q) was not loaded with Fonts, GoFonts or LoadFont", i, f.Name)
		}
	}
	return nil
}

// checkPuzzle reports a puzzle Render cannot print.
func checkPuzzle(pz sudoku.Grid) error {
	want, err := ShapeFor(pz.N())
	if err != nil {
		return &OptionError{Field: "puzzle", Reason: fmt.Sprintf("grid side %d is not one of 4, 6, 8, 9, 12, 16", pz.N())}
	}
	if pz.Shape != want {
		return &OptionError{Field: "puzzle", Reason: fmt.Sprintf("box shape %v for side %d; printed puzzles use %v", pz.Shape, pz.N(), want)}
	}
	n := pz.N()
	if len(pz.Cells) != n*n {
		return &OptionError{Field: "puzzle", Reason: fmt.Sprintf("%d cells for a %d×%d grid", len(pz.Cells), n, n)}
	}
	for i, v := range pz.Cells {
		if v < 0 || v > n {
			return &OptionError{Field: "puzzle", Reason: fmt.Sprintf("cell r%dc%d holds %d, outside 0..%d", i/n+1, i%n+1, v, n)}
		}
	}
	return nil
}

// scene is everything random about one photo, drawn from the seed before
// any pixel is made, so the page and the camera can be reused (the video).
type scene struct {
	pose Pose
	curl Curl
	page pageSpec
	look look
}

// newRand returns the generator for a seed; the second word keeps synth's
// streams apart from other packages seeded with the same number.
func newRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x73796e7468))
}

// Render prints puzzle on a newspaper page and photographs it with the
// options' distortions. The same puzzle, options and seed give the same
// photo. Bad options or puzzles give an *OptionError. Render is safe to call
// from several goroutines at once, sharing the same Fonts.
func Render(puzzle sudoku.Grid, opts Options) (Photo, error) {
	if err := opts.Validate(); err != nil {
		return Photo{}, err
	}
	if err := checkPuzzle(puzzle); err != nil {
		return Photo{}, err
	}
	rng := newRand(opts.Seed)
	sc, err := newScene(rng, opts)
	if err != nil {
		return Photo{}, err
	}
	page, border, err := drawPage(rng, puzzle, sc.page)
	if err != nil {
		return Photo{}, err
	}
	cam := newCamera(opts.Width, opts.Height, sc.look, opts.Seed)
	v := newView(sc.pose, sc.curl, opts.Width, opts.Height)
	img, err := cam.shoot(page, sc.page, v)
	if err != nil {
		return Photo{}, err
	}
	ph := Photo{
		Truth:  puzzle.Clone(),
		Font:   sc.page.digitFont.Name,
		Style:  sc.page.style.Name,
		Pose:   sc.pose,
		Curl:   sc.curl,
		Beside: opts.Beside,
		view:   v,
		border: border,
	}
	for i, c := range [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
		ph.Corners[i] = ph.GridPoint(c[0], c[1])
	}
	if bs := sc.page.beside; bs != nil {
		for i, c := range bs.corners() {
			x, y, _ := v.project(c[0], c[1])
			ph.OtherCorners[i] = gocv.Point2f{X: float32(x), Y: float32(y)}
		}
		if bs.kind == BesideSudoku {
			ph.Other = bs.puzzle.Clone()
		}
	}
	if sc.look.jpeg > 0 {
		ph.JPEG, err = encodeJPEG(img, sc.look.jpeg)
		img.Close()
		if err != nil {
			return Photo{}, err
		}
		if ph.Image, err = gocv.IMDecode(ph.JPEG, gocv.IMReadColor); err != nil {
			return Photo{}, fmt.Errorf("synth: decode own JPEG: %w", err)
		}
		if ph.Image.Empty() {
			ph.Image.Close()
			return Photo{}, fmt.Errorf("synth: decode own JPEG: empty image")
		}
		return ph, nil
	}
	ph.Image = img
	return ph, nil
}

// encodeJPEG compresses img at the given quality.
func encodeJPEG(img gocv.Mat, quality int) ([]byte, error) {
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, img, []int{gocv.IMWriteJpegQuality, quality})
	if err != nil {
		return nil, fmt.Errorf("synth: encode JPEG: %w", err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}

// newScene draws the pose, the page and the look of one photo.
func newScene(rng *rand.Rand, o Options) (scene, error) {
	fonts := o.Fonts
	if len(fonts) == 0 {
		var err error
		if fonts, err = GoFonts(); err != nil {
			return scene{}, err
		}
	}
	styles := o.Styles
	if len(styles) == 0 {
		styles = LineStyles()
	}
	curl := sampleCurl(o)
	beside, err := sampleBeside(o.Seed, o.Beside)
	if err != nil {
		return scene{}, err
	}
	pose, err := samplePose(rng, o, curl, beside)
	if err != nil {
		return scene{}, err
	}
	spec := pageSpec{
		digitFont: fonts[rng.IntN(len(fonts))],
		textFont:  fonts[rng.IntN(len(fonts))],
		style:     styles[rng.IntN(len(styles))],
		symbols:   o.Symbols,
		beside:    beside,
		vary:      sampleVariety(o.Seed, o.Variety),
		seed:      o.Seed,
	}
	h := pose.homography(o.Width, o.Height)
	q, _ := gridCorners(h)
	longest := 0.0
	for i := 0; i < 4; i++ {
		j := (i + 1) % 4
		longest = math.Max(longest, math.Hypot(q[j][0]-q[i][0], q[j][1]-q[i][1]))
	}
	// Draw the page a little finer than the photo sees it, so the camera
	// always samples down, as a real lens does from paper.
	spec.scale = math.Max(64, 1.2*longest)
	spec.ext = pageExtent(rng, h, o, spec.scale)
	if beside != nil {
		// The page holds the thing beside the puzzle whole.
		e := &spec.ext
		e.x0, e.y0 = math.Min(e.x0, beside.ext.x0-0.1), math.Min(e.y0, beside.ext.y0-0.1)
		e.x1, e.y1 = math.Max(e.x1, beside.ext.x1+0.1), math.Max(e.y1, beside.ext.y1+0.1)
	}
	if !curl.IsFlat() {
		// A curled page shows more of itself where it turns away: reach
		// further on that side (the page ends where it has turned
		// maxTurn).
		ux, uy, _, _ := curl.axes()
		far := curl.Start + curl.radius()*maxTurn
		e := &spec.ext
		e.x0, e.x1 = math.Min(e.x0, math.Min(0, ux*far)), math.Max(e.x1, math.Max(0, ux*far))
		e.y0, e.y1 = math.Min(e.y0, math.Min(0, uy*far)), math.Max(e.y1, math.Max(0, uy*far))
	}
	for (spec.ext.x1-spec.ext.x0)*(spec.ext.y1-spec.ext.y0)*spec.scale*spec.scale > 4*maxPage {
		spec.scale *= 0.9 // a page grown by the above still fits in memory
	}
	lk := sampleLook(rng, o)
	if v := spec.vary; v.glare > 0 {
		lk.light.glare, lk.light.glx, lk.light.gly, lk.light.glareRadius = v.glare, v.glx, v.gly, v.glr
	}
	lk.screen = spec.vary.screen
	// From a stream of its own, so the same seed gives the same page with
	// or without a thumb on it.
	if o.Fingers > 0 {
		if fr := rand.New(rand.NewPCG(uint64(o.Seed), 0x66696e676572)); fr.Float64() < o.Fingers {
			lk.finger = sampleFinger(fr, q)
		}
	}
	return scene{pose: pose, curl: curl, page: spec, look: lk}, nil
}

// samplePose draws a camera pose that keeps the whole grid (and the thing
// beside it, if any) in view and at least MinSide of the short side long
// on every side.
func samplePose(rng *rand.Rand, o Options, curl Curl, beside *besideSpec) (Pose, error) {
	w, h := float64(o.Width), float64(o.Height)
	short := math.Min(w, h)
	margin := 0.03 * short
	lo := math.Min(o.MinSide*1.1, o.MaxSide)
	// inView returns the points that must be in the photo.
	inView := func(p Pose) ([][2]float64, bool) {
		v := newView(p, curl, o.Width, o.Height)
		pts, ok := v.gridOutline()
		if !ok || !v.gridVisible() {
			return nil, false
		}
		if beside != nil {
			for _, c := range beside.corners() {
				x, y, ok := v.project(c[0], c[1])
				if !ok {
					return nil, false
				}
				pts = append(pts, [2]float64{x, y})
			}
		}
		return pts, true
	}
	for try := 0; try < 200; try++ {
		p := Pose{
			Rotate:   (2*rng.Float64() - 1) * o.MaxRotate,
			Tilt:     rng.Float64() * o.MaxTilt,
			TiltAxis: rng.Float64() * 360,
			HFOV:     50 + 20*rng.Float64(),
			Distance: 3,
		}
		target := (lo + (o.MaxSide-lo)*rng.Float64()) * short
		// The grid's size in the photo goes as 1/distance: two rounds of
		// rescaling settle it well enough.
		for k := 0; k < 3; k++ {
			q, ok := gridCorners(p.homography(o.Width, o.Height))
			if !ok {
				break
			}
			_, mean := quadSides(q)
			p.Distance *= mean / target
		}
		// Shrink until it fits inside the margins.
		fits := false
		for k := 0; k < 20; k++ {
			pts, ok := inView(p)
			if !ok {
				break
			}
			x0, y0, x1, y1 := bounds(pts)
			fx, fy := (x1-x0)/(w-2*margin), (y1-y0)/(h-2*margin)
			f := math.Max(fx, fy)
			if f <= 1 {
				fits = true
				break
			}
			p.Distance *= f * 1.01
		}
		if !fits {
			continue
		}
		q, _ := gridCorners(p.homography(o.Width, o.Height))
		if shortest, _ := quadSides(q); shortest < o.MinSide*short {
			continue
		}
		// Slide the picture so the grid sits anywhere inside the margins.
		pts, _ := inView(p)
		x0, y0, x1, y1 := bounds(pts)
		p.ShiftX = margin - x0 + rng.Float64()*((w-2*margin)-(x1-x0))
		p.ShiftY = margin - y0 + rng.Float64()*((h-2*margin)-(y1-y0))
		return p, nil
	}
	return Pose{}, &OptionError{Field: "MinSide", Reason: fmt.Sprintf("no pose with tilt ≤ %g° keeps every grid side ≥ %g of the short side in a %dx%d photo", o.MaxTilt, o.MinSide, o.Width, o.Height)}
}

// bounds returns the bounding box of points.
func bounds(pts [][2]float64) (minX, minY, maxX, maxY float64) {
	minX, minY = math.Inf(1), math.Inf(1)
	maxX, maxY = math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, p[0]), math.Max(maxX, p[0])
		minY, maxY = math.Min(minY, p[1]), math.Max(maxY, p[1])
	}
	return
}

// curlStream keeps the page's curl out of the photo's main random stream.
const curlStream = 0x6375726c

// sampleCurl draws the page's curl: none without MaxCurl; otherwise a
// side, an angle between a third of MaxCurl and all of it at the grid's
// edge, and a radius of 0.6 to 1.6 grid sides (a page's gentle roll
// towards the gutter, not a fold), which sets where the bend starts. The
// page rolls towards the camera three times in four.
func sampleCurl(o Options) Curl {
	if o.MaxCurl <= 0 {
		return Curl{}
	}
	rng := rand.New(rand.NewPCG(uint64(o.Seed), curlStream))
	c := Curl{Side: rng.IntN(4), Angle: o.MaxCurl * (1 + 2*rng.Float64()) / 3}
	r := 0.6 + rng.Float64()
	c.Start = 0.5 - rad(c.Angle)*r
	if c.Start < -0.9 {
		// The bend starts at most a little beyond the far edge: a larger
		// radius with that start gives a smaller angle.
		c.Start = -0.9
		c.Angle = 1.4 / r * 180 / math.Pi
	}
	c.Down = rng.IntN(4) == 0
	return c
}

// pageExtent decides how far the page reaches around the grid: far enough
// to fill the photo, except that with chance DeskShare one edge stops
// short and the desk shows beyond it.
func pageExtent(rng *rand.Rand, h mat3, o Options, scale float64) extent {
	const far = 4.0 // grid sides; beyond this the view is near the horizon
	e := extent{-0.5, -0.5, 0.5, 0.5}
	inv := h.inv()
	corners := [4][2]float64{{0, 0}, {float64(o.Width), 0}, {float64(o.Width), float64(o.Height)}, {0, float64(o.Height)}}
	for _, c := range corners {
		x, y, ok := inv.apply(c[0], c[1])
		if !ok {
			x, y = math.Copysign(far, x), math.Copysign(far, y)
		}
		e.x0, e.x1 = math.Min(e.x0, x), math.Max(e.x1, x)
		e.y0, e.y1 = math.Min(e.y0, y), math.Max(e.y1, y)
	}
	pad := 0.02
	e = extent{
		math.Max(-far, e.x0-pad), math.Max(-far, e.y0-pad),
		math.Min(far, e.x1+pad), math.Min(far, e.y1+pad),
	}
	if rng.Float64() < o.DeskShare {
		// The page ends 0.15..0.6 grid sides beyond the grid on one side.
		d := 0.5 + 0.15 + 0.45*rng.Float64()
		switch rng.IntN(4) {
		case 0:
			e.x0 = math.Max(e.x0, -d)
		case 1:
			e.x1 = math.Min(e.x1, d)
		case 2:
			e.y0 = math.Max(e.y0, -d)
		default:
			e.y1 = math.Min(e.y1, d)
		}
	}
	// Crop a huge page evenly; the desk shows where it was cut.
	for (e.x1-e.x0)*(e.y1-e.y0)*scale*scale > maxPage {
		e = extent{
			math.Min(-0.7, e.x0*0.9), math.Min(-0.7, e.y0*0.9),
			math.Max(0.7, e.x1*0.9), math.Max(0.7, e.y1*0.9),
		}
		if e.x0 == -0.7 && e.x1 == 0.7 && e.y0 == -0.7 && e.y1 == 0.7 {
			break
		}
	}
	return e
}
