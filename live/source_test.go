package live

import (
	"errors"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func TestOpenVideoErrors(t *testing.T) {
	dir := t.TempDir()
	notVideo := filepath.Join(dir, "notes.mp4")
	if err := os.WriteFile(notVideo, []byte("this is not a video"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "nope.mp4"), "no such file"},
		{"folder", dir, "is a folder"},
		{"not a video", notVideo, "cannot decode"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, err := OpenVideo(tc.path)
			if err == nil {
				src.Close()
				t.Fatalf("OpenVideo(%s) succeeded", tc.path)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestOpenCameraWithoutCamera(t *testing.T) {
	if devs, _ := filepath.Glob("/dev/video*"); len(devs) > 0 {
		t.Skipf("this machine has a camera (%v)", devs)
	}
	src, err := OpenCamera(0)
	if err == nil {
		src.Close()
		t.Fatal("OpenCamera(0) succeeded without a camera")
	}
	if !errors.Is(err, ErrNoCamera) || !strings.Contains(err.Error(), "--video") {
		t.Fatalf("err = %v, want ErrNoCamera suggesting --video", err)
	}
	if _, err := OpenCamera(-1); err == nil {
		t.Fatal("OpenCamera(-1) succeeded")
	}
}

// TestVideoFileRoundTrip writes frames through the VideoFile sink and reads
// them back through OpenVideo: count, size and (roughly, after the codec)
// colour survive.
func TestVideoFileRoundTrip(t *testing.T) {
	for _, ext := range []string{".mp4", ".avi"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "clip"+ext)
			sink, err := NewVideoFile(path, 25)
			if err != nil {
				t.Fatal(err)
			}
			frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 200, 0), 120, 160, gocv.MatTypeCV8UC3)
			defer frame.Close()
			gocv.Rectangle(&frame, image.Rect(40, 30, 120, 90), color.RGBA{0, 255, 0, 0}, -1)
			const n = 12
			for i := 0; i < n; i++ {
				if k := sink.Show(frame, 0); k != -1 {
					t.Fatalf("a video file returned key %d", k)
				}
			}
			if err := sink.Close(); err != nil {
				t.Fatal(err)
			}
			if err := sink.Close(); err != nil { // twice is harmless
				t.Fatal(err)
			}
			src, err := OpenVideo(path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			if w, h := src.Size(); w != 160 || h != 120 {
				t.Fatalf("size %dx%d, want 160x120", w, h)
			}
			if fps := src.FPS(); fps < 24.9 || fps > 25.1 {
				t.Fatalf("fps %.2f, want 25", fps)
			}
			got := gocv.NewMat()
			defer got.Close()
			count := 0
			for src.Read(&got) {
				count++
				centre := got.GetVecbAt(60, 80)
				corner := got.GetVecbAt(5, 5)
				if centre[1] < 180 || corner[2] < 150 {
					t.Fatalf("frame %d: centre %v corner %v, want green centre on red", count, centre, corner)
				}
			}
			if count != n {
				t.Fatalf("read %d frames, want %d", count, n)
			}
		})
	}
}

func TestNewVideoFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := NewVideoFile(filepath.Join(dir, "x.gif"), 30); err == nil || !strings.Contains(err.Error(), ".mp4") {
		t.Fatalf("gif: err = %v", err)
	}
	if _, err := NewVideoFile(filepath.Join(dir, "missing", "x.mp4"), 30); err == nil {
		t.Fatal("a folder that does not exist was accepted")
	}
}

func TestNoDisplayNoWindow(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	if HasDisplay() {
		t.Fatal("HasDisplay with DISPLAY unset")
	}
	if _, err := NewWindow("x"); !errors.Is(err, ErrNoDisplay) {
		t.Fatalf("NewWindow err = %v, want ErrNoDisplay", err)
	}
}

func TestOpenVideoLoop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clip.avi")
	sink, err := NewVideoFile(path, 10)
	if err != nil {
		t.Fatal(err)
	}
	frame := gocv.NewMatWithSize(48, 64, gocv.MatTypeCV8UC3)
	defer frame.Close()
	for i := 0; i < 5; i++ {
		sink.Show(frame, 0)
	}
	sink.Close()
	src, err := OpenVideoLoop(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	for i := 0; i < 12; i++ { // more than twice round a 5-frame clip
		if !src.Read(&m) || m.Cols() != 64 {
			t.Fatalf("looped read %d failed", i)
		}
	}
	if !strings.Contains(src.Name(), "looped") {
		t.Errorf("name %q", src.Name())
	}
	if _, err := OpenVideoLoop(filepath.Join(t.TempDir(), "none.mp4")); err == nil {
		t.Error("a missing file opened")
	}
}
