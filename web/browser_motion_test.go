package web

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// The browser camera measured in motion: photos of printed pages, each
// held up to the camera for a while as it moves (it turns, tilts, comes
// nearer and goes back), played into /camera through chromium's fake
// camera. Every frame carries a mark (two grey blocks in its bottom left
// corner) saying which photo it shows, which the test reads back from the
// video on the page, frame by frame, next to what the page draws.

// motionSeg is one photo's stretch of the video.
type motionSeg struct {
	photo    string
	solution string // the true solution
}

// markBits is how many black or white blocks the mark has: the page's
// number from 1, most significant bit first.
const markBits = 6

// writeMotionY4M writes a w×h, 30 fps YUV4MPEG2 video showing each photo
// for per frames, moving, scaled at rest to fill that share of the frame
// (as ../shared/tools/mkvideo's MKVIDEO_SCALE: the photo's width or height,
// whichever is tighter, takes fill of the frame's). It returns the segments in order.
func writeMotionY4M(path string, photos []string, w, h, per int, fill float64) ([]motionSeg, error) {
	if len(photos) >= 1<<markBits {
		return nil, fmt.Errorf("%d photos: the mark tells at most 63 apart", len(photos))
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(bw, "YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg\n", w, h)
	frame := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	defer frame.Close()
	yuv := gocv.NewMat()
	defer yuv.Close()
	var segs []motionSeg
	for k, p := range photos {
		g, err := sudoku.ReadDatFile(strings.TrimSuffix(p, filepath.Ext(p)) + ".dat")
		if err != nil {
			f.Close()
			return nil, err
		}
		sol, err := sudoku.Solve(g)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		segs = append(segs, motionSeg{photo: p, solution: sudoku.CellString(sol.Cells)})
		img := gocv.IMRead(p, gocv.IMReadColor)
		if img.Empty() {
			f.Close()
			return nil, fmt.Errorf("%s: not an image", p)
		}
		pw, ph := float64(img.Cols()), float64(img.Rows())
		for t := range per {
			u := 2 * math.Pi * float64(t) / float64(per)
			// The pose: a slow turn, a tilt, breathing in and out, a drift.
			angle := 8 * math.Sin(u) * math.Pi / 180
			scale := fill * min(float64(w)/pw, float64(h)/ph) * (1 + 0.08*math.Sin(2*u))
			cx, cy := float64(w)/2+0.04*float64(w)*math.Cos(u), float64(h)/2+0.04*float64(h)*math.Sin(u)
			tilt := 0.06 * math.Sin(u+1) // one side nearer the camera
			src := []image.Point{{0, 0}, {int(pw), 0}, {int(pw), int(ph)}, {0, int(ph)}}
			var dst []image.Point
			for i, q := range [][2]float64{{-pw / 2, -ph / 2}, {pw / 2, -ph / 2}, {pw / 2, ph / 2}, {-pw / 2, ph / 2}} {
				k := 1 + tilt
				if i == 0 || i == 3 {
					k = 1 - tilt
				}
				x, y := q[0]*scale*k, q[1]*scale*k
				dst = append(dst, image.Pt(int(cx+x*math.Cos(angle)-y*math.Sin(angle)), int(cy+x*math.Sin(angle)+y*math.Cos(angle))))
			}
			sv, dv := gocv.NewPointVectorFromPoints(src), gocv.NewPointVectorFromPoints(dst)
			hm := gocv.GetPerspectiveTransform(sv, dv)
			sv.Close()
			dv.Close()
			gocv.WarpPerspectiveWithParams(img, &frame, hm, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{R: 110, G: 110, B: 110, A: 255})
			hm.Close()
			for i := range markBits {
				v := uint8(0)
				if (k+1)>>(markBits-1-i)&1 == 1 {
					v = 255
				}
				gocv.Rectangle(&frame, image.Rect(8+12*i, h-32, 18+12*i, h-8), color.RGBA{R: v, G: v, B: v, A: 255}, -1)
			}
			gocv.CvtColor(frame, &yuv, gocv.ColorBGRToYUVI420)
			b, err := yuv.DataPtrUint8()
			if err != nil {
				img.Close()
				f.Close()
				return nil, err
			}
			bw.WriteString("FRAME\n")
			bw.Write(b)
		}
		img.Close()
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return nil, err
	}
	return segs, f.Close()
}

// motionLogJS records, on every animation frame after the page's own
// paint, the time, which photo the video shows (its mark) and the
// solution the page draws.
const motionLogJS = `(() => {
  const v = document.getElementById('video');
  const cv = document.createElement('canvas');
  cv.width = 80; cv.height = 24;
  const cx = cv.getContext('2d', { willReadFrequently: true });
  window.motionLog = [];
  // Pages seen whole: from their first frame to their last.
  const started = new Set(), whole = new Set();
  let lastSeg = null;
  window.motionWhole = 0;
  const bit = (x) => {
    const d = cx.getImageData(x, 8, 6, 8).data;
    let s = 0;
    for (let i = 0; i < d.length; i += 4) s += d[i] + d[i + 1] + d[i + 2];
    return s / (d.length / 4) / 3 > 128 ? 1 : 0;
  };
  const tick = () => {
    requestAnimationFrame(tick);
    if (!v.videoWidth || !window.sudokuarCamera) return;
    cx.drawImage(v, 8, v.videoHeight - 32, 80, 24, 0, 0, 80, 24);
    let seg = 0;
    for (let i = 0; i < 6; i++) seg = seg * 2 + bit(2 + 12 * i);
    seg -= 1;
    const a = window.sudokuarCamera.last;
    if (seg !== lastSeg) {
      if (lastSeg !== null && started.has(lastSeg)) whole.add(lastSeg);
      if (lastSeg !== null) started.add(seg);
      lastSeg = seg;
      window.motionWhole = whole.size;
    }
    window.motionLog.push([performance.now(), seg, window.sudokuarCamera.drawn, a && a.t !== undefined ? a.t : -1]);
  };
  requestAnimationFrame(tick);
  return true;
})()`

// motionResult is what a run of the moving video gave.
type motionResult struct {
	pages, read, wrong int
	firstMs            []float64 // per page read: from its first frame to its solution drawn
	rtt                []float64 // capture -> answer drawn, per answer
	server             []float64
	missed, wrongOn    []string
	staleNote          []string // what each wrong solution was
	late               int      // of them, answers to frames of the page before, drawn late
}

// runMotion plays photos (per frames each) through the browser camera for
// loops passes of the video and scores each full appearance of a page.
func runMotion(t testing.TB, photos []string, w, h, per int, fill float64, loops int) motionResult {
	t.Helper()
	dir := t.TempDir()
	y4m := filepath.Join(dir, "motion.y4m")
	segs, err := writeMotionY4M(y4m, photos, w, h, per, fill)
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, filepath.Join(dir, "cam.db"), "127.0.0.1:0")
	b := newBrowser(t, 1280, 900,
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-video-capture", y4m),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
	)
	b.run("open the camera", chromedp.Navigate(ts.URL+"/camera"))
	b.waitJS("the camera streaming", `window.sudokuarCamera && window.sudokuarCamera.answered > 0`, 60*time.Second)
	var ok bool
	b.eval(motionLogJS, &ok)
	// Until every page has been seen whole, from its first frame to its
	// last (on a busy machine the fake camera plays slower than 30 fps),
	// and for at least loops passes of the video.
	time.Sleep(time.Duration(loops*len(photos)*per) * time.Second / 30)
	b.waitJS("every page seen whole", fmt.Sprintf("window.motionWhole >= %d", len(photos)), time.Duration(len(photos)*per)*time.Second)
	var log [][4]any
	b.eval(`window.motionLog`, &log)
	var st cameraStats
	b.eval(`window.sudokuarCamera`, &st)
	var size []int
	b.eval(`[document.getElementById('video').videoWidth, document.getElementById('video').videoHeight]`, &size)
	if len(size) == 2 && (size[0] != w || size[1] != h) {
		t.Logf("the camera gives %d×%d frames from the %d×%d video", size[0], size[1], w, h)
	}
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
	res := motionResult{rtt: st.RTT, server: st.Server}
	// Appearances: runs of paints showing one photo, each from its start.
	type paint struct {
		t     float64
		seg   int
		drawn string
		capt  float64 // when the frame answered was captured
	}
	var ps []paint
	for _, e := range log {
		tm, _ := e[0].(float64)
		sg, _ := e[1].(float64)
		dr, _ := e[2].(string)
		ct, _ := e[3].(float64)
		ps = append(ps, paint{tm, int(sg), dr, ct})
	}
	const grace = 500.0 // ms after a cut in which the answer to a frame of the old page may still show (camera.js STALE_MS)
	seen := map[int]bool{}
	for i := 1; i < len(ps); i++ {
		k := ps[i].seg
		if k == ps[i-1].seg || k < 0 || k >= len(segs) {
			continue
		}
		end := i
		for end < len(ps) && ps[end].seg == k {
			end++
		}
		if end == len(ps) {
			break // cut off by the end of the log
		}
		if seen[k] {
			continue // each page once, on its first full appearance
		}
		seen[k] = true
		res.pages++
		start := ps[i].t
		read, wrong := false, false
		for _, p := range ps[i:end] {
			if p.drawn == segs[k].solution && !read {
				read = true
				res.firstMs = append(res.firstMs, p.t-start)
			}
			// Wrong: another solution drawn in answer to a frame of
			// this page (captured after it came), or any time from
			// half a second on (the page draws no answer to a frame
			// captured longer ago). Before that, the answer to the
			// page before's last frames is still the newest the page
			// has: round-trip latency, not a reading of this page.
			if p.drawn != "" && p.drawn != segs[k].solution && (p.capt >= start || p.t-start >= grace) && !wrong {
				wrong = true
				whose := "no page's"
				for j, sg := range segs {
					if sg.solution == p.drawn {
						whose = filepath.Base(segs[j].photo) + "'s"
					}
				}
				if p.capt < start {
					res.late++
				}
				res.staleNote = append(res.staleNote, fmt.Sprintf("%s: %s solution drawn %.0f ms after the page came, answering a frame captured %.0f ms after it came", filepath.Base(segs[k].photo), whose, p.t-start, p.capt-start))
			}
		}
		name := filepath.Base(segs[k].photo)
		if read {
			res.read++
		} else {
			res.missed = append(res.missed, name)
		}
		if wrong {
			res.wrong++
			res.wrongOn = append(res.wrongOn, name)
		}
	}
	return res
}

func (r motionResult) String() string {
	return fmt.Sprintf("pages %d, read %d, wrong solutions shown on %d pages %v %q; page to solution median %.0f ms; round trip median %.1f ms p95 %.1f ms (server median %.1f ms, %d answers); missed %v",
		r.pages, r.read, r.wrong, r.wrongOn, r.staleNote, quantile(r.firstMs, 0.5), quantile(r.rtt, 0.5), quantile(r.rtt, 0.95), quantile(r.server, 0.5), len(r.rtt), r.missed)
}

// motionPhotos returns the paths of the named photos of ../shared's
// others-train (skipping t without ../shared).
func motionPhotos(t testing.TB, names []string) []string {
	dir := testenv.Shared(t, "datasets/others-train")
	var out []string
	for _, n := range names {
		out = append(out, filepath.Join(dir, n))
	}
	return out
}

// TestBrowserCameraMotion plays three real pages, moving, into the camera
// page: each page must be seen whole (the mark read back), and no late
// answer about one page drawn over the next. The full measurement is
// BenchmarkBrowserCameraMotion.
func TestBrowserCameraMotion(t *testing.T) {
	// es2812-19 is read now as a 9×9, now as a 12×12: the swap to
	// es2812-2 after it is the cut the server used to miss.
	photos := motionPhotos(t, []string{"alexdej-1.jpg", "andreibrihac-1.jpg", "es2812-19.jpg", "es2812-2.jpg"})
	chromium(t)
	r := runMotion(t, photos, 640, 480, 60, 0.7, 1)
	t.Logf("browser camera, moving 640×480 video: %v", r)
	// No wrong solution may be drawn on a page: neither a late answer
	// about the page before (the page drops answers to frames over half a
	// second old) nor the server answering a frame of this page with the
	// page before's solution (issue 18: 0-2 pages of 20 in
	// BenchmarkBrowserCameraMotion under load, until the session compared
	// ink prints taken at different puzzle sizes as "changed").
	if r.wrong > 0 {
		t.Errorf("wrong solutions drawn on %d pages %v (%d of them late answers about the page before): %q", r.wrong, r.wrongOn, r.late, r.staleNote)
	}
	// How many pages are read within their two seconds depends on the
	// machine's load (recognitions lag on a busy one), so it is logged,
	// not asserted; the pages themselves must all be told apart.
	if r.pages != len(photos) {
		t.Errorf("%d pages seen from their first frame, want %d (is the mark read back?): %v", r.pages, len(photos), r)
	}
}

// BenchmarkBrowserCameraMotion measures the browser camera on a moving
// video of the photos listed (one path a line) in $SUDOKUAR_MOTION_LIST,
// by default the first 20 of ../shared's others-train: pages read, pages
// with a wrong solution drawn, time from a page's first frame to its
// solution drawn, and the round trip from capture to answer drawn.
// $SUDOKUAR_MOTION_SIZE is WxH (default 640x480), $SUDOKUAR_MOTION_FILL
// the photo's share of the frame (default 0.7, mkvideo's webcam framing).
//
//	go test -run '^$' -bench BrowserCameraMotion -benchtime 1x ./web
func BenchmarkBrowserCameraMotion(b *testing.B) {
	var photos []string
	if list := os.Getenv("SUDOKUAR_MOTION_LIST"); list != "" {
		data, err := os.ReadFile(list)
		if err != nil {
			b.Fatal(err)
		}
		photos = strings.Fields(string(data))
	} else {
		dir := testenv.Shared(b, "datasets/others-train")
		all, _ := filepath.Glob(filepath.Join(dir, "*.jpg"))
		sort.Strings(all)
		photos = all[:min(20, len(all))]
	}
	w, h, fill := 640, 480, 0.7
	if s := os.Getenv("SUDOKUAR_MOTION_SIZE"); s != "" {
		if _, err := fmt.Sscanf(s, "%dx%d", &w, &h); err != nil {
			b.Fatalf("SUDOKUAR_MOTION_SIZE=%q: want WxH", s)
		}
	}
	if s := os.Getenv("SUDOKUAR_MOTION_FILL"); s != "" {
		if _, err := fmt.Sscanf(s, "%g", &fill); err != nil {
			b.Fatalf("SUDOKUAR_MOTION_FILL=%q: want a number", s)
		}
	}
	chromium(b)
	for range b.N {
		r := runMotion(b, photos, w, h, 60, fill, 1)
		b.Logf("browser camera, moving %d×%d video, fill %.2f: %v", w, h, fill, r)
		b.ReportMetric(float64(r.read), "pages_read")
		b.ReportMetric(float64(r.pages), "pages")
		b.ReportMetric(float64(r.wrong), "pages_wrong")
		b.ReportMetric(quantile(r.firstMs, 0.5), "first_ms_median")
		b.ReportMetric(quantile(r.rtt, 0.5), "rtt_ms_median")
		b.ReportMetric(quantile(r.rtt, 0.95), "rtt_ms_p95")
	}
}
