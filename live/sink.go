package live

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gocv.io/x/gocv"
)

// Sink receives each annotated frame: a window, a video file, both or
// neither.
type Sink interface {
	// Show presents frame and may wait up to wait for the user; it returns
	// the key pressed meanwhile, or -1.
	Show(frame gocv.Mat, wait time.Duration) int
	Close() error
}

// HasDisplay reports whether a window can be opened: on Linux that needs an
// X or Wayland display. Opening a highgui window without one aborts the
// process (Qt cannot be caught), so callers ask first.
func HasDisplay() bool {
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}

// Window is a highgui window that shows frames and reads keys.
type Window struct {
	w     *gocv.Window
	sized bool
}

// ErrNoDisplay means there is no display to open a window on.
var ErrNoDisplay = errors.New("no display (DISPLAY is not set)")

// NewWindow opens a window titled title. Without a display it returns
// ErrNoDisplay instead of letting Qt abort the process.
func NewWindow(title string) (*Window, error) {
	if !HasDisplay() {
		return nil, ErrNoDisplay
	}
	w := gocv.NewWindow(title)
	return &Window{w: w}, nil
}

// Show displays frame and waits for a key for wait (at least 1 ms, which
// highgui needs to paint).
func (w *Window) Show(frame gocv.Mat, wait time.Duration) int {
	if !w.sized {
		// highgui's Qt windows open small and scale the picture down;
		// start at the frame's own size.
		w.w.ResizeWindow(frame.Cols(), frame.Rows())
		w.sized = true
	}
	w.w.IMShow(frame)
	ms := int(wait / time.Millisecond)
	if ms < 1 {
		ms = 1
	}
	return w.w.WaitKey(ms)
}

// Open reports whether the user has not closed the window.
func (w *Window) Open() bool {
	return w.w != nil && w.w.GetWindowProperty(gocv.WindowPropertyVisible) > 0
}

// Close closes the window.
func (w *Window) Close() error {
	if w.w == nil {
		return nil
	}
	err := w.w.Close()
	w.w = nil
	return err
}

// VideoFile writes frames to a video file; the container follows the file
// extension (.mp4 or .avi). Encoding runs on its own goroutine, so on a
// machine with a spare core it costs the display loop only a frame copy.
type VideoFile struct {
	Path   string
	fps    float64
	w, h   int
	frames chan gocv.Mat // copies waiting to be encoded; the encoder closes them
	done   chan error
}

// encodeQueue is how many frames may wait for the encoder before Show
// blocks: enough to ride out a slow frame, small enough to bound memory
// (a 1280×720 frame is 2.7 MB).
const encodeQueue = 4

// NewVideoFile prepares path for writing at fps frames a second. The file
// is created with the first frame (whose size it takes); the folder must
// exist and be writable, which is checked now so a bad path fails before
// any work. The caller closes it.
func NewVideoFile(path string, fps float64) (*VideoFile, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mp4", ".avi":
	default:
		return nil, fmt.Errorf("video output %s: use a .mp4 or .avi name", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("video output: %w", err)
	}
	f.Close()
	if fps <= 0 {
		fps = DefaultFPS
	}
	return &VideoFile{Path: path, fps: fps}, nil
}

func codecFor(path string) string {
	if strings.ToLower(filepath.Ext(path)) == ".avi" {
		return "MJPG"
	}
	return "mp4v"
}

// Show queues a copy of frame for the video; it never waits for a key.
// Frames of another size than the first are skipped (a codec cannot change
// size midway).
func (v *VideoFile) Show(frame gocv.Mat, _ time.Duration) int {
	if frame.Empty() || frame.Channels() != 3 {
		return -1
	}
	if v.frames == nil {
		vw, err := gocv.VideoWriterFile(v.Path, codecFor(v.Path), v.fps, frame.Cols(), frame.Rows(), true)
		if err != nil || !vw.IsOpened() {
			if vw != nil {
				vw.Close()
			}
			return -1
		}
		v.w, v.h = frame.Cols(), frame.Rows()
		v.frames = make(chan gocv.Mat, encodeQueue)
		v.done = make(chan error, 1)
		go encode(vw, v.frames, v.done)
	}
	if frame.Cols() != v.w || frame.Rows() != v.h {
		return -1
	}
	v.frames <- frame.Clone()
	return -1
}

// encode writes the queued frames, closing each, and finally the writer.
func encode(vw *gocv.VideoWriter, frames <-chan gocv.Mat, done chan<- error) {
	var first error
	for m := range frames {
		if err := vw.Write(m); err != nil && first == nil {
			first = err
		}
		m.Close()
	}
	if err := vw.Close(); err != nil && first == nil {
		first = err
	}
	done <- first
}

// Close waits for the queued frames to be written and finishes the file.
// Calling it again does nothing.
func (v *VideoFile) Close() error {
	if v.frames == nil {
		return nil
	}
	close(v.frames)
	err := <-v.done
	v.frames = nil
	if err != nil {
		return fmt.Errorf("write video %s: %w", v.Path, err)
	}
	return nil
}

// Sinks fans frames out to several sinks; the first key pressed wins.
type Sinks []Sink

// Show shows frame on every sink. Only the last one waits, so a window
// listed last keeps the pace.
func (s Sinks) Show(frame gocv.Mat, wait time.Duration) int {
	key := -1
	for i, k := range s {
		w := time.Duration(0)
		if i == len(s)-1 {
			w = wait
		}
		if got := k.Show(frame, w); got >= 0 && key < 0 {
			key = got
		}
	}
	return key
}

// Open reports false once any window among the sinks has been closed by
// the user.
func (s Sinks) Open() bool {
	for _, k := range s {
		if o, ok := k.(interface{ Open() bool }); ok && !o.Open() {
			return false
		}
	}
	return true
}

// Close closes every sink and returns the first error.
func (s Sinks) Close() error {
	var first error
	for _, k := range s {
		if err := k.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
