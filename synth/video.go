package synth

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// VideoOptions describe the demo video: a page held in front of a webcam
// that moves smoothly, is swapped for a page with another puzzle half way,
// is pulled out of view, and comes back with the first puzzle.
type VideoOptions struct {
	Seed          int64
	Width, Height int
	FPS           float64
	// Puzzles are the two 9×9 (or any supported size) puzzles shown: the
	// first at the start and end, the second in the middle.
	Puzzles [2]sudoku.Grid
	// Fonts to pick from; empty means GoFonts.
	Fonts []Font
}

// DefaultVideoOptions returns a 1280×720, 30 fps video of the given puzzles.
func DefaultVideoOptions(seed int64, a, b sudoku.Grid) VideoOptions {
	return VideoOptions{Seed: seed, Width: 1280, Height: 720, FPS: 30, Puzzles: [2]sudoku.Grid{a, b}}
}

// The demo's script, in seconds: puzzle A until the cut, puzzle B until it
// slides out, an empty view, then A slides back in and holds still-ish.
const (
	videoCut      = 4.5
	videoOutStart = 7.6
	videoOutEnd   = 8.4
	videoInStart  = 9.4
	videoInEnd    = 10.2
	videoLength   = 11.5
)

// VideoFrame is the ground truth of one frame.
type VideoFrame struct {
	Index int
	Time  float64 // seconds
	// Puzzle is 0 or 1 for the puzzle whose page is in the frame, -1 when
	// no grid is in view at all.
	Puzzle int
	// Corners are the grid's outer corners (TL, TR, BR, BL of the puzzle)
	// in pixels; they may lie outside the frame while the page slides.
	Corners [4]gocv.Point2f
	// FullView is true when all four corners are inside the frame.
	FullView bool
}

// videoPose is the camera's pose at time t (seconds): slow wobbles of
// tilt, turn and distance, plus the slide out of and back into view.
func videoPose(t float64, w, h int) Pose {
	sin := func(period, phase float64) float64 { return math.Sin(2*math.Pi*t/period + phase) }
	p := Pose{
		Rotate:   10*sin(7, 0.3) + 6*sin(3.1, 1.1),
		Tilt:     17 + 13*sin(5.3, -1.2),
		TiltAxis: 40*t + 30,
		HFOV:     60,
		Distance: 3,
	}
	short := float64(min(w, h))
	target := short * (0.6 + 0.12*sin(6, 0.5))
	for k := 0; k < 4; k++ {
		q, _ := gridCorners(p.homography(w, h))
		_, mean := quadSides(q)
		p.Distance *= mean / target
	}
	p.ShiftX = 0.06*float64(w)*sin(4.3, 0) + 0.03*float64(w)*sin(2.2, 2)
	p.ShiftY = 0.05 * float64(h) * sin(5.1, 1)
	// Slide right and out, then come back in from the left.
	switch {
	case t >= videoOutStart && t < videoInStart:
		p.ShiftX += 1.4 * float64(w) * smoothstep(videoOutStart, videoOutEnd, t)
	case t >= videoInStart:
		p.ShiftX -= 1.4 * float64(w) * (1 - smoothstep(videoInStart, videoInEnd, t))
	}
	return p
}

// videoPuzzle returns which puzzle is on the page at time t.
func videoPuzzle(t float64) int {
	if t >= videoCut && t < videoInStart {
		return 1
	}
	return 0
}

// VideoFrames returns the number of frames RenderVideo makes.
func (o VideoOptions) VideoFrames() int { return int(math.Round(videoLength * o.FPS)) }

// Validate checks the options, returning an *OptionError that names the
// first bad field.
func (o VideoOptions) Validate() error {
	if o.FPS <= 0 || o.FPS > 240 {
		return &OptionError{Field: "FPS", Reason: fmt.Sprintf("%g is outside (0, 240]", o.FPS)}
	}
	po := DefaultOptions(o.Width, o.Height, o.Seed)
	po.Fonts = o.Fonts
	if err := po.Validate(); err != nil {
		return err
	}
	for _, pz := range o.Puzzles {
		if err := checkPuzzle(pz); err != nil {
			return err
		}
	}
	return nil
}

// RenderVideo renders the demo video frame by frame and hands each frame
// (8-bit BGR; emit must not keep it, it is closed after emit returns) and
// its ground truth to emit. The same options give the same frames.
func RenderVideo(o VideoOptions, emit func(frame gocv.Mat, truth VideoFrame) error) error {
	if err := o.Validate(); err != nil {
		return err
	}
	fonts := o.Fonts
	if len(fonts) == 0 {
		var err error
		if fonts, err = GoFonts(); err != nil {
			return err
		}
	}
	rng := newRand(o.Seed)
	// Draw the page fine enough for the closest view on the path.
	longest := 0.0
	for t := 0.0; t < videoLength; t += 0.1 {
		q, _ := gridCorners(videoPose(t, o.Width, o.Height).homography(o.Width, o.Height))
		for i := 0; i < 4; i++ {
			j := (i + 1) % 4
			longest = math.Max(longest, math.Hypot(q[j][0]-q[i][0], q[j][1]-q[i][1]))
		}
	}
	var pages [2]flatPage
	var specs [2]pageSpec
	// The demo should show the app working, so it uses the plainest styles,
	// a different one per page so the swap is visible.
	var styles []LineStyle
	for _, s := range LineStyles() {
		if s.Name == "classic" || s.Name == "bold" || s.Name == "shaded" {
			styles = append(styles, s)
		}
	}
	first := rng.IntN(len(styles))
	for i, pz := range o.Puzzles {
		specs[i] = pageSpec{
			scale:     1.15 * longest,
			ext:       extent{-2.4, -1.6, 2.4, 1.6},
			digitFont: fonts[rng.IntN(len(fonts))],
			textFont:  fonts[rng.IntN(len(fonts))],
			style:     styles[(first+i)%len(styles)],
			clean:     true,
		}
		for (specs[i].ext.x1-specs[i].ext.x0)*(specs[i].ext.y1-specs[i].ext.y0)*specs[i].scale*specs[i].scale > maxPage {
			specs[i].scale *= 0.95
		}
		var err error
		if pages[i], _, err = drawPage(rng, pz, specs[i]); err != nil {
			return err
		}
	}
	// A webcam under room light: mild blur and noise, a soft shadow, no JPEG.
	lo := DefaultOptions(o.Width, o.Height, o.Seed)
	lo.MaxBlur, lo.MaxNoise, lo.Light = 0.8, 1.2, 0.6
	lk := sampleLook(rng, lo)
	// Fixed, mild degradations: the codec's bit rate (the file's size)
	// grows fast with noise and falls with blur.
	lk.motion, lk.blur, lk.noise = 0, 0.7, 0.8
	cam := newCamera(o.Width, o.Height, lk, o.Seed)

	for f := 0; f < o.VideoFrames(); f++ {
		t := float64(f) / o.FPS
		pose := videoPose(t, o.Width, o.Height)
		which := videoPuzzle(t)
		frame, err := cam.shoot(pages[which], specs[which], newView(pose, Curl{}, o.Width, o.Height))
		if err != nil {
			return fmt.Errorf("frame %d: %w", f, err)
		}
		q, _ := gridCorners(pose.homography(o.Width, o.Height))
		tr := VideoFrame{Index: f, Time: t, Puzzle: which, FullView: true}
		anyIn := false
		for i, p := range q {
			tr.Corners[i] = gocv.Point2f{X: float32(p[0]), Y: float32(p[1])}
			in := p[0] >= 0 && p[1] >= 0 && p[0] < float64(o.Width) && p[1] < float64(o.Height)
			tr.FullView = tr.FullView && in
			anyIn = anyIn || in
		}
		x0, _, x1, _ := quadBounds(q)
		if !anyIn && (x1 < 0 || x0 >= float64(o.Width)) {
			tr.Puzzle = -1
		}
		err = emit(frame, tr)
		frame.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
