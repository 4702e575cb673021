package live

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/cvenv"
)

// Source yields frames: a camera or a video file.
type Source interface {
	// Read fills m with the next frame; false means the source is done.
	Read(m *gocv.Mat) bool
	// FPS is the source's frame rate (a default when it does not say).
	FPS() float64
	// Size is the frame size (0×0 when unknown).
	Size() (width, height int)
	// Name says where the frames come from, for messages.
	Name() string
	Close() error
}

// DefaultFPS is assumed when a source does not report its frame rate.
const DefaultFPS = 30

// ErrNoCamera means no camera could be opened; the message suggests --video.
var ErrNoCamera = errors.New("no camera found")

type capture struct {
	vc   *gocv.VideoCapture
	name string
}

// OpenCamera opens camera number n (0 is the default camera). With no
// camera it returns an error wrapping ErrNoCamera. The caller closes the
// source.
func OpenCamera(n int) (Source, error) {
	if n < 0 {
		return nil, fmt.Errorf("camera %d: the number must be 0 or more", n)
	}
	// On Linux a camera is a /dev/video* node; when there is none, say so
	// plainly rather than let OpenCV print its backend warnings.
	if devs, _ := filepath.Glob("/dev/video*"); len(devs) == 0 && runtime.GOOS == "linux" {
		return nil, fmt.Errorf("camera %d: %w (no /dev/video* device); try --video FILE", n, ErrNoCamera)
	}
	vc, err := gocv.VideoCaptureDevice(n)
	if err != nil || !vc.IsOpened() {
		if vc != nil {
			vc.Close()
		}
		return nil, fmt.Errorf("camera %d: %w (it could not be opened); try --video FILE", n, ErrNoCamera)
	}
	// Keep one frame in the driver's queue: when a frame takes longer than
	// the camera's period, show the newest frame, not a growing backlog.
	vc.Set(gocv.VideoCaptureBufferSize, 1)
	return &capture{vc: vc, name: fmt.Sprintf("camera %d", n)}, nil
}

// OpenVideo opens a video file. The caller closes the source.
func OpenVideo(path string) (Source, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open video: %w", err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("open video %s: is a folder", path)
	}
	vc, err := openFile(path)
	if err != nil || !vc.IsOpened() {
		if vc != nil {
			vc.Close()
		}
		return nil, fmt.Errorf("open video %s: OpenCV cannot decode it", path)
	}
	return &capture{vc: vc, name: path}, nil
}

// openFile opens a video file through OpenCV's FFmpeg backend when this
// OpenCV has one. Left to choose, OpenCV tries GStreamer after FFmpeg
// fails on a broken file, and GStreamer prints its own warnings (not
// OpenCV's, so cvenv cannot silence them) before failing too.
func openFile(path string) (*gocv.VideoCapture, error) {
	if cvenv.HasFFmpeg() {
		return gocv.VideoCaptureFileWithAPI(path, gocv.VideoCaptureFFmpeg)
	}
	return gocv.VideoCaptureFile(path)
}

func (c *capture) Read(m *gocv.Mat) bool { return c.vc.Read(m) && !m.Empty() }

func (c *capture) FPS() float64 {
	fps := c.vc.Get(gocv.VideoCaptureFPS)
	// Cameras and some containers report 0 or nonsense.
	if fps < 1 || fps > 240 {
		return DefaultFPS
	}
	return fps
}

func (c *capture) Size() (int, int) {
	return int(c.vc.Get(gocv.VideoCaptureFrameWidth)), int(c.vc.Get(gocv.VideoCaptureFrameHeight))
}

func (c *capture) Name() string { return c.name }

func (c *capture) Close() error { return c.vc.Close() }

// looped replays a video file from the start whenever it ends.
type looped struct {
	path string
	cur  Source
}

// OpenVideoLoop opens a video file that plays over and over (for a demo in
// a window, until the user quits). The caller closes the source.
func OpenVideoLoop(path string) (Source, error) {
	s, err := OpenVideo(path)
	if err != nil {
		return nil, err
	}
	return &looped{path: path, cur: s}, nil
}

func (l *looped) Read(m *gocv.Mat) bool {
	if l.cur == nil {
		return false
	}
	if l.cur.Read(m) {
		return true
	}
	l.cur.Close()
	s, err := OpenVideo(l.path)
	if err != nil {
		l.cur = nil
		return false
	}
	l.cur = s
	return l.cur.Read(m)
}

func (l *looped) FPS() float64 {
	if l.cur == nil {
		return DefaultFPS
	}
	return l.cur.FPS()
}

func (l *looped) Size() (int, int) {
	if l.cur == nil {
		return 0, 0
	}
	return l.cur.Size()
}
func (l *looped) Name() string { return l.path + " (looped)" }
func (l *looped) Close() error {
	if l.cur == nil {
		return nil
	}
	err := l.cur.Close()
	l.cur = nil
	return err
}
