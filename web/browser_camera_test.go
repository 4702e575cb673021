package web

import (
	"fmt"
	"image"
	_ "image/jpeg"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// cameraPhoto returns a photo of a printed 9×9 puzzle and its true
// solution: a real one from ../shared when it is there, otherwise the
// project's own synthetic photo.
func cameraPhoto(t testing.TB) (path, solution string) {
	t.Helper()
	path = testenv.SharedPath("datasets/wicht-v2-train/image10.jpg")
	if path == "" && testenv.RequireShared() {
		t.Fatalf("../shared/datasets/wicht-v2-train/image10.jpg not found, and %s=1 is set", testenv.RequireEnv)
	}
	if path == "" {
		root := testenv.RepoRoot()
		path = filepath.Join(root, "testdata", "synth", "image4.jpg") // 9×9 at 640×480
		t.Logf("../shared not found: using the synthetic %s", path)
	}
	return path, solutionOf(t, path)
}

func decodeFile(t testing.TB, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// cameraStats is what the camera page reports of itself.
type cameraStats struct {
	Sent, Answered, Dropped int
	RTT, RTTSent, Server    []float64
	Encode                  []float64
	Drawn, Status           string
}

// TestBrowserCamera points chromium's fake camera at a video made from a
// real photo: the page must end up drawing the right solution over the
// video, frame after frame.
func TestBrowserCamera(t *testing.T) {
	photo, want := cameraPhoto(t)
	y4m := filepath.Join(t.TempDir(), "cam.y4m")
	if err := writeY4M(y4m, decodeFile(t, photo), 640, 480, 2); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, filepath.Join(t.TempDir(), "cam.db"), "127.0.0.1:0")
	b := newBrowser(t, 1280, 900,
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-video-capture", y4m),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
	)
	b.run("open the camera", chromedp.Navigate(ts.URL+"/camera"))
	b.waitJS("the solution drawn over the video", `window.sudokuarCamera && window.sudokuarCamera.drawn === '`+want+`'`, 30*time.Second)
	// Keep going for a while: the solution must stay, and the figures
	// below need a few dozen frames.
	// (On a loaded server an answer can come late, and the page draws
	// none whose frame is over half a second old: the solution must be
	// back within a few seconds, not on every frame.)
	// Counted in frames answered, not seconds, so a busy machine only
	// makes it take longer.
	var st cameraStats
	b.eval(`window.sudokuarCamera`, &st)
	b.waitJS("30 more frames answered", fmt.Sprintf(`window.sudokuarCamera.answered >= %d`, st.Answered+30), eventTimeout)
	b.waitJS("the solution still drawn", `window.sudokuarCamera.drawn === '`+want+`'`, 15*time.Second)
	b.eval(`window.sudokuarCamera`, &st)
	b.shot("camera")
	t.Logf("camera at 640×480: sent %d, answered %d, dropped %d; capture->drawn median %.1f ms p95 %.1f ms; sent->drawn median %.1f ms; server median %.1f ms",
		st.Sent, st.Answered, st.Dropped, quantile(st.RTT, 0.5), quantile(st.RTT, 0.95), quantile(st.RTTSent, 0.5), quantile(st.Server, 0.5))

	// H shows the next logical step: its sentence under the video, its
	// cells lit on the paper.
	b.run("H", chromedp.KeyEvent("h"))
	b.waitJS("the step shown", `!document.getElementById('step').hidden && document.getElementById('step').textContent.startsWith('Step 1 of ')`, 10*time.Second)
	b.run("H again", chromedp.KeyEvent("h"))
	b.waitJS("the second step", `document.getElementById('step').textContent.startsWith('Step 2 of ')`, 10*time.Second)
	b.shot("camera-step")

	// Space turns auto-solve off: the givens, not the solution, are drawn.
	b.run("Space", chromedp.KeyEvent(" "))
	b.waitJS("the step cleared", `document.getElementById('step').hidden`, 5*time.Second)
	b.waitJS("auto-solve off", `window.sudokuarCamera.last && window.sudokuarCamera.last.auto === false && window.sudokuarCamera.drawn === ''`, 10*time.Second)
	b.run("Space again", chromedp.KeyEvent(" "))
	b.waitJS("auto-solve back on", `window.sudokuarCamera.drawn === '`+want+`'`, 10*time.Second)
	// Q leaves for the home page.
	b.run("Q", chromedp.KeyEvent("q"))
	b.waitJS("home", `location.pathname === '/'`, 10*time.Second)
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
}

// quantile returns the q-quantile of xs (0 for none).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(math.Floor(q*float64(len(s)))))]
}
