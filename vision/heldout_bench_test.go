package vision

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/internal/testenv"
)

// heldOutFrames renders the held-out photos of testdata/live (the 20 of
// others-holdout.list and the 32 of wicht-holdout.list, never tuned on) as
// a camera sees them held up in the w×h framing that fills fill of it:
// photo number i of its list in mkvideo's pose i, at frame f of its 60.
// Each comes with where its grid lies in it (the photo's outline in
// outlines.csv, carried by the pose). The caller closes the frames.
func heldOutFrames(tb testing.TB, w, h int, fill float64, f int) []heldOut {
	tb.Helper()
	var frames []heldOut
	for _, l := range []struct{ list, dir string }{
		{"others-holdout.list", "datasets/others-train"},
		{"wicht-holdout.list", "datasets/wicht-v2-train"},
	} {
		dir := testenv.Shared(tb, l.dir)
		outlines, err := readOutlines(filepath.Join(dir, "outlines.csv"))
		if err != nil {
			tb.Fatal(err)
		}
		names, err := listNames(filepath.Join(testenv.RepoRoot(), "testdata", "live", l.list))
		if err != nil {
			tb.Fatal(err)
		}
		for i, name := range names {
			img, err := readImage(filepath.Join(dir, name))
			if err != nil {
				img.Close()
				tb.Fatal(err)
			}
			frame, at := heldFrame(tb, img, w, h, fill, i, f)
			img.Close()
			q, ok := outlines[name]
			if !ok {
				frame.Close()
				tb.Fatalf("%s has no outline", name)
			}
			ho := heldOut{frame: frame, name: name}
			for k, p := range q {
				c := at(p)
				ho.grid[k] = gocv.Point2f{X: float32(c.X), Y: float32(c.Y)}
			}
			frames = append(frames, ho)
		}
	}
	return frames
}

// heldOut is a frame of a held-out photo held up to a camera, and where
// its grid lies in it (frame pixels, TL, TR, BR, BL of the photo).
type heldOut struct {
	frame gocv.Mat
	name  string
	grid  [4]gocv.Point2f
}

// closeHeldOut closes the frames.
func closeHeldOut(frames []heldOut) {
	for _, f := range frames {
		f.frame.Close()
	}
}

// listNames reads a photo list of testdata/live: one path a line, of which
// the file's base name is kept.
func listNames(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			names = append(names, filepath.Base(s))
		}
	}
	return names, sc.Err()
}

// heldOutFramings are the framings of the scored videos (near, far,
// webcam: scripts/livescore.sh) and the small 640×480 one at 55%.
var heldOutFramings = []struct {
	name string
	w, h int
	fill float64
}{
	{"near1280x720at85", 1280, 720, 0.85},
	{"far1280x720at55", 1280, 720, 0.55},
	{"webcam640x480at70", 640, 480, 0.70},
	{"small640x480at55", 640, 480, 0.55},
}

// BenchmarkAnalyzeHeldOut times Analyze on real frames as the scored
// videos show them: each of the 52 held-out photos held up in mkvideo's
// pose at frame 30 of its segment, in each framing, taken in turn (run a
// multiple of 52 iterations). "search" is a frame seen afresh (the whole
// frame searched: the first recognition of a page, or a page changed);
// "hinted" is live's usual recognition, told where its tracker has the
// grid (Pick.Within, here the grid's true corners). Besides CPU ms per
// frame it reports the share of frames read as a 9×9 grid. Run it on one
// thread: OPENCV_FOR_THREADS_NUM=1 taskset -c 0 go test -run '^$' -bench AnalyzeHeldOut -benchtime 104x ./vision.
func BenchmarkAnalyzeHeldOut(b *testing.B) {
	for _, fr := range heldOutFramings {
		for _, hinted := range []bool{false, true} {
			name := fr.name + "/search"
			if hinted {
				name = fr.name + "/hinted"
			}
			b.Run(name, func(b *testing.B) { benchHeldOut(b, fr.w, fr.h, fr.fill, hinted) })
		}
	}
}

func benchHeldOut(b *testing.B, w, h int, fill float64, hinted bool) {
	frames := heldOutFrames(b, w, h, fill, 30)
	defer closeHeldOut(frames)
	d := NewDetector(Options{})
	defer d.Close()
	found := 0
	b.ResetTimer()
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		f := frames[i%len(frames)]
		var p Pick
		if hinted {
			p.Within = &f.grid
		}
		g, _, err := d.AnalyzePick(f.frame, p)
		if err != nil && !isKind(err, NoGrid) && !isKind(err, TooSmall) && !isKind(err, CutOff) {
			b.Fatal(err)
		}
		if err == nil && g.Shape.N() == 9 {
			found++
		}
	}
	reportCPU(b, c0)
	b.ReportMetric(float64(found)/float64(b.N), "read9x9/op")
}
