package cvenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// childVideo, when set, makes the test binary open that file with OpenCV's
// default backends (GStreamer included, which warns on a broken file) and
// exit: the parent reads what the process wrote to its stderr.
const childVideo = "CVENV_TEST_CHILD_VIDEO"

func TestChildOpen(t *testing.T) {
	path := os.Getenv(childVideo)
	if path == "" {
		t.Skip("only runs as the child of TestOpenCVLogIsQuiet")
	}
	vc, err := gocv.VideoCaptureFile(path)
	if err == nil {
		vc.Close()
	}
	os.Exit(0)
}

// TestOpenCVLogIsQuiet opens a file that is no video in a child process:
// without OPENCV_LOG_LEVEL nothing of OpenCV's log may appear; with it set
// by the user, OpenCV's warnings show as OpenCV means them to.
func TestOpenCVLogIsQuiet(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "garbage.mp4")
	if err := os.WriteFile(bad, []byte("not a video\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(extra ...string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildOpen$")
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "OPENCV_") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(append(cmd.Env, extra...), childVideo+"="+bad)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := run(); strings.Contains(out, "WARN") || strings.Contains(out, "moov") {
		t.Errorf("OpenCV's log reached stderr:\n%s", out)
	}
	if out := run("OPENCV_LOG_LEVEL=WARNING"); !strings.Contains(out, "[ WARN") {
		t.Logf("with OPENCV_LOG_LEVEL=WARNING, no warning was printed (this OpenCV may not try GStreamer):\n%s", out)
	}
}
