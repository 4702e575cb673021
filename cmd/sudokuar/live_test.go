package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/live"
	"github.com/sudokuar/sudokuar/models"
	"github.com/sudokuar/sudokuar/sudoku"
)

func demoVideo(t *testing.T) string {
	t.Helper()
	if len(models.Digits()) == 0 {
		t.Fatal("models/digits.onnx is empty: the committed digit model is lost (`make model` retrains it)")
	}
	return testenv.Committed(t, "testdata/video/demo.mp4")
}

func runCapture(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

func TestLiveUsage(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"stray argument", []string{"live", "demo.mp4"}, 2, "--video"},
		{"every 0", []string{"live", "--every", "0"}, 2, "--every"},
		{"missing video", []string{"live", "--video", "/nonexistent/v.mp4"}, 1, "/nonexistent/v.mp4"},
		{"not a video", []string{"live", "--video", "/dev/null"}, 1, "cannot decode"},
		{"bad out name", []string{"live", "--video", filepath.Join(testenv.RepoRoot(), "testdata", "video", "demo.mp4"), "--out", "x.gif"}, 1, ".mp4 or .avi"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCapture(t, tc.args...)
			if code != tc.wantCode || !strings.Contains(stderr, tc.wantErr) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr, tc.wantCode, tc.wantErr)
			}
		})
	}
}

func TestLiveNoCamera(t *testing.T) {
	if devs, _ := filepath.Glob("/dev/video*"); len(devs) > 0 {
		t.Skipf("this machine has a camera (%v)", devs)
	}
	code, _, stderr := runCapture(t, "live", "--camera", "0")
	if code != 1 || !strings.Contains(stderr, "no camera") || !strings.Contains(stderr, "--video") {
		t.Fatalf("exit %d, stderr %q; want 1 saying no camera and suggesting --video", code, stderr)
	}
}

// TestLiveNoDisplay runs `live --video` as `make run` does on a machine
// without a display: it must say so, run headless, write the annotated
// video to out/live.mp4 and print where.
func TestLiveNoDisplay(t *testing.T) {
	video := demoVideo(t)
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Chdir(t.TempDir())
	code, stdout, stderr := runCapture(t, "live", "--video", video, "--frames", "45")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"no display", "headless", "written to out/live.mp4", "45 frames"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	// With no window to look at, the solution is shown as text instead.
	puzzle, err := sudoku.ReadDatFile(filepath.Join(filepath.Dir(video), "puzzle1.dat"))
	if err != nil {
		t.Fatal(err)
	}
	solved, err := sudoku.Solve(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	firstRow := strings.SplitN(solved.Pretty(), "\n", 2)[0]
	if !strings.Contains(stdout, "puzzle solved") || !strings.Contains(stdout, "|   "+firstRow) {
		t.Errorf("stdout does not show the demo's solution (first row %q):\n%s", firstRow, stdout)
	}
	src, err := live.OpenVideo("out/live.mp4")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if w, h := src.Size(); w != 1280 || h != 720 {
		t.Errorf("written video is %dx%d", w, h)
	}
}

// TestLiveJSON checks the --json lines: one per recognition, the scan
// fields plus "frame", the first ones on frames 0, 10, 20...
func TestLiveJSON(t *testing.T) {
	video := demoVideo(t)
	code, stdout, stderr := runCapture(t, "live", "--video", video, "--headless", "--json", "--frames", "60")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	n, solved, last := 0, 0, 0
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v: %s", n+1, err, sc.Text())
		}
		for _, k := range []string{"file", "frame", "found", "corners", "box", "given", "solution", "status", "ms"} {
			if _, ok := r[k]; !ok {
				t.Errorf("line %d lacks %q: %s", n+1, k, sc.Text())
			}
		}
		// Recognition is due every 10th frame; a busy recogniser takes
		// the next frame it can: one recognition per slot of 10 frames.
		f, _ := r["frame"].(float64)
		if n == 0 && f != 0 || n > 0 && int(f)/10 <= last/10 {
			t.Errorf("recognition %d on frame %v after frame %d", n, f, last)
		}
		last = int(f)
		if r["status"] == "solved" {
			solved++
		}
		n++
	}
	if n < 3 || n > 6 || solved == 0 {
		t.Fatalf("%d JSON lines (%d solved) for 60 frames, want 3 to 6 with solutions:\n%s", n, solved, stdout)
	}
}

// TestLiveWindowLoop runs `sudokuar live --video CLIP --loop` in a window
// on a virtual display (xvfb-run): the command must pick the window (not
// the headless fallback) and play a 40-frame clip round until --frames.
func TestLiveWindowLoop(t *testing.T) {
	if clip := os.Getenv("SUDOKUAR_XVFB_CLIP"); clip != "" {
		code, _, stderr := runCapture(t, "live", "--video", clip, "--loop", "--frames", "100")
		if code != 0 || strings.Contains(stderr, "no display") || !strings.Contains(stderr, "100 frames") {
			t.Fatalf("exit %d, stderr:\n%s", code, stderr)
		}
		return
	}
	video := demoVideo(t)
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		t.Skip("xvfb-run is not installed (Debian: apt-get install xvfb), so the window path is not tested")
	}
	clip := filepath.Join(t.TempDir(), "clip.avi")
	src, err := live.OpenVideo(video)
	if err != nil {
		t.Fatal(err)
	}
	sink, err := live.NewVideoFile(clip, src.FPS())
	if err != nil {
		t.Fatal(err)
	}
	m := gocv.NewMat()
	for i := 0; i < 40 && src.Read(&m); i++ {
		sink.Show(m, 0)
	}
	m.Close()
	src.Close()
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(xvfb, "-a", "-s", "-screen 0 1440x900x24", os.Args[0], "-test.run=^TestLiveWindowLoop$", "-test.v")
	cmd.Env = append(os.Environ(), "SUDOKUAR_XVFB_CLIP="+clip)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestLiveWindowLoop") {
		t.Fatalf("under xvfb-run: %v\n%s", err, out)
	}
}

// childArgs, when set in the environment, makes the test binary run the
// command it names (space-separated) as sudokuar's main would, so a test
// can see what the real process writes to its stderr file descriptor,
// OpenCV's and FFmpeg's C-level writes included.
const childArgs = "SUDOKUAR_TEST_CHILD_ARGS"

// runChild runs `sudokuar args...` in a child process with the
// environment env added, and returns its exit status and everything it
// wrote to stdout and stderr.
func runChild(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildMain$")
	cmd.Env = append(append([]string{}, env...), childArgs+"="+strings.Join(args, " "))
	for _, kv := range os.Environ() {
		// The user's own OpenCV log settings would change what is tested.
		if !strings.HasPrefix(kv, "OPENCV_") && !strings.HasPrefix(kv, childArgs+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, string(out)
}

// TestChildMain is the child side of runChild; on its own it does nothing.
func TestChildMain(t *testing.T) {
	args := os.Getenv(childArgs)
	if args == "" {
		t.Skip("only runs as the child of runChild")
	}
	os.Exit(run(strings.Fields(args), &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
}

// TestBadVideoIsQuiet opens broken videos as a user would and checks that
// the only thing on the terminal is our own message: no OpenCV warnings
// (`[ WARN:0@…] … cap_gstreamer.cpp`), no FFmpeg errors (`moov atom not
// found`), no GStreamer criticals.
func TestBadVideoIsQuiet(t *testing.T) {
	whole, err := os.ReadFile(testenv.Committed(t, "testdata/video/demo.mp4"))
	if err != nil {
		t.Fatalf("demo video: %v", err)
	}
	dir := t.TempDir()
	truncated := filepath.Join(dir, "truncated.mp4") // the index (moov atom) is cut off
	if err := os.WriteFile(truncated, whole[:len(whole)/10], 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.mp4")
	if err := os.WriteFile(garbage, []byte("not a video at all\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{truncated, garbage} {
		code, out := runChild(t, nil, "live", "--headless", "--video", path)
		want := "sudokuar live: open video " + path + ": OpenCV cannot decode it\n"
		if code != exitFail || out != want {
			t.Errorf("%s: exit %d, output:\n%s\nwant exit %d and only:\n%s", filepath.Base(path), code, out, exitFail, want)
		}
	}
}
