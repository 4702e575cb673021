package live

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The window test runs itself again under xvfb-run (a virtual X display,
// as on a machine without a screen). Xvfb's -fbdir option keeps the screen
// in a file (XWD format), which is how the child takes a real screenshot
// of the highgui window.
const (
	envFBDir = "SUDOKUAR_XVFB_FBDIR" // set in the child: Xvfb's framebuffer folder
	envShot  = "SUDOKUAR_XVFB_SHOT"  // set in the child: where to write the PNG
	// SUDOKUAR_SCREENSHOT, set by a person, copies the screenshot there
	// (docs/live-window.png is made that way).
	envKeepShot = "SUDOKUAR_SCREENSHOT"
)

// TestWindowUnderXvfb plays the demo video in a real highgui window on a
// virtual display, takes a screenshot of the screen while the solution is
// shown, and checks the screenshot shows the frame with the overlay.
func TestWindowUnderXvfb(t *testing.T) {
	if fb := os.Getenv(envFBDir); fb != "" {
		windowChild(t, fb, os.Getenv(envShot))
		return
	}
	needModel(t)
	loadDemo(t)
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		t.Skip("xvfb-run is not installed (Debian: apt-get install xvfb), so the window path is not tested")
	}
	fb := t.TempDir()
	shot := filepath.Join(t.TempDir(), "window.png")
	cmd := exec.Command(xvfb, "-a", "-s", "-screen 0 1440x900x24 -fbdir "+fb,
		os.Args[0], "-test.run=^TestWindowUnderXvfb$", "-test.v")
	cmd.Env = append(os.Environ(), envFBDir+"="+fb, envShot+"="+shot, "QT_QPA_PLATFORM=xcb")
	out, err := cmd.CombinedOutput()
	if dst := os.Getenv(envKeepShot); dst != "" {
		if b, rerr := os.ReadFile(shot); rerr == nil {
			if werr := os.WriteFile(dst, b, 0o644); werr != nil {
				t.Error(werr)
			}
			t.Logf("screenshot copied to %s", dst)
		}
	}
	if err != nil {
		t.Fatalf("window test under xvfb-run failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestWindowUnderXvfb") {
		t.Fatalf("the child did not pass:\n%s", out)
	}
	t.Logf("child:\n%s", out)
}

// windowChild runs inside Xvfb.
func windowChild(t *testing.T, fbdir, shot string) {
	if !HasDisplay() {
		t.Fatal("no DISPLAY inside xvfb-run")
	}
	d := loadDemo(t)
	src, err := OpenVideo(d.video)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	w, err := NewWindow("sudokuar test")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var shotErr error
	shown, solvedShown, taken := 0, 0, false
	sum, err := Run(src, w, Options{
		Paced:     true,
		MaxFrames: 120,
		OnFrame: func(f FrameInfo) {
			shown++
			if f.Solution == "" && f.Given == "" {
				return
			}
			solvedShown++
			// Take the shot a few frames into a stretch of overlaid
			// frames, once the window has surely been painted.
			if solvedShown == 15 && !taken {
				taken = true
				shotErr = screenshot(filepath.Join(fbdir, "Xvfb_screen0"), shot)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Frames != 120 || shown != 120 {
		t.Fatalf("showed %d frames (%d reported), want 120", shown, sum.Frames)
	}
	if !taken {
		t.Fatalf("no frame with the overlay in 120 frames (last status %q)", sum.LastStatus)
	}
	if shotErr != nil {
		t.Fatal(shotErr)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// The screen must show the video (mostly bright paper), the overlay's
	// blue (solution) or green (givens) digits, and the HUD's dark box.
	var bright, overlay, total int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			total++
			if r > 150 && g > 150 && bl > 150 {
				bright++
			}
			if (bl > 180 && r < 90 && g < 150) || (g > 130 && r < 60 && bl < 110) {
				overlay++
			}
		}
	}
	t.Logf("screenshot %dx%d: %d%% bright, %d overlay-coloured samples; %.0f fps", b.Dx(), b.Dy(), 100*bright/total, overlay, sum.FPS())
	if bright < total/3 || overlay < 50 {
		t.Fatalf("the screenshot does not look like the annotated video (%d/%d bright, %d overlay)", bright, total, overlay)
	}
}

// screenshot converts Xvfb's framebuffer file (XWD, 24/32-bit TrueColor) to
// a PNG at dst.
func screenshot(xwd, dst string) error {
	data, err := os.ReadFile(xwd)
	if err != nil {
		return fmt.Errorf("read framebuffer: %w", err)
	}
	screen, err := decodeXWD(data)
	if err != nil {
		return fmt.Errorf("framebuffer %s: %w", xwd, err)
	}
	// Keep the window: crop the black root window around it.
	box := image.Rectangle{}
	b := screen.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if c := screen.RGBAAt(x, y); c.R|c.G|c.B != 0 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if box.Empty() {
		return errors.New("the screen is black")
	}
	img := screen.SubImage(box)
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// decodeXWD reads an X Window Dump of a TrueColor screen with 32 bits per
// pixel: a header of 25 32-bit fields (then the window name), a colour map
// of 12-byte entries, then the rows.
func decodeXWD(b []byte) (*image.RGBA, error) {
	if len(b) < 100 {
		return nil, errors.New("too short for an XWD header")
	}
	var bo binary.ByteOrder = binary.BigEndian
	if bo.Uint32(b[4:]) != 7 {
		bo = binary.LittleEndian
		if bo.Uint32(b[4:]) != 7 {
			return nil, errors.New("not an XWD version 7 file")
		}
	}
	field := func(i int) int { return int(bo.Uint32(b[4*i:])) }
	headerSize, width, height := field(0), field(4), field(5)
	byteOrder, bpp, stride := field(7), field(11), field(12)
	rMask, gMask, bMask := uint32(field(14)), uint32(field(15)), uint32(field(16))
	ncolors := field(19)
	if bpp != 32 {
		return nil, fmt.Errorf("%d bits per pixel, only 32 is handled", bpp)
	}
	off := headerSize + 12*ncolors
	if width <= 0 || height <= 0 || off+stride*height > len(b) {
		return nil, fmt.Errorf("%dx%d pixels do not fit the file", width, height)
	}
	var po binary.ByteOrder = binary.LittleEndian
	if byteOrder != 0 {
		po = binary.BigEndian
	}
	shift := func(m uint32) uint {
		var s uint
		for m != 0 && m&1 == 0 {
			m >>= 1
			s++
		}
		return s
	}
	rs, gs, bs := shift(rMask), shift(gMask), shift(bMask)
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	for y := 0; y < height; y++ {
		row := b[off+y*stride:]
		for x := 0; x < width; x++ {
			p := po.Uint32(row[4*x:])
			img.SetRGBA(x, y, color.RGBA{uint8((p & rMask) >> rs), uint8((p & gMask) >> gs), uint8((p & bMask) >> bs), 255})
		}
	}
	return img, nil
}
