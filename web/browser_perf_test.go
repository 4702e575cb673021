package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// pageWeight is what one page load fetched: every resource's decoded
// (uncompressed) size, the document included, and its paint times.
type pageWeight struct {
	Bytes      float64 `json:"bytes"`
	Resources  int     `json:"resources"`
	FirstPaint float64 `json:"fp"`
	FCP        float64 `json:"fcp"`
}

const weightJS = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  let bytes = nav ? nav.decodedBodySize : 0;
  for (const r of res) bytes += r.decodedBodySize;
  const p = Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
  return { bytes, resources: res.length + 1, fp: p['first-paint'] || 0, fcp: p['first-contentful-paint'] || 0 };
})()`

// httpPostJSON posts body to url and decodes the JSON answer.
func httpPostJSON(url, body string) (map[string]any, error) {
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var v map[string]any
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		return nil, err
	}
	if res.StatusCode >= 300 {
		return nil, fmt.Errorf("%s: %d %v", url, res.StatusCode, v)
	}
	return v, nil
}

// loadSeconds is how long a load or latency benchmark runs:
// SUDOKUAR_CAMLOAD_SECONDS, default 10.
func loadSeconds() int {
	if s, err := strconv.Atoi(os.Getenv("SUDOKUAR_CAMLOAD_SECONDS")); err == nil && s > 0 {
		return s
	}
	return 10
}

// openGame starts a 9×9 game through the API and returns its page URL.
func openGame(t testing.TB, url string) string {
	res, err := httpPostJSON(url+"/api/games", `{"size":"9","level":"easy"}`)
	if err != nil {
		t.Fatal(err)
	}
	return url + "/play/" + res["id"].(string)
}

// TestPlayPageWeight loads the play page of a 9×9 game and checks that
// everything it fetched weighs at most 200 KB uncompressed.
func TestPlayPageWeight(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "weight.db"), "127.0.0.1:0")
	b := newBrowser(t, 1280, 900)
	page := openGame(t, ts.URL)
	b.run("open the game", chromedp.Navigate(page))
	b.waitJS("the grid", `document.querySelectorAll('#board .cell').length === 81 && document.getElementById('timer').textContent !== ''`, 10*time.Second)
	var w pageWeight
	b.eval(weightJS, &w)
	t.Logf("play page: %d resources, %.1f KB uncompressed, first paint %.0f ms, first contentful paint %.0f ms", w.Resources, w.Bytes/1024, w.FirstPaint, w.FCP)
	if w.Bytes > 200*1024 || w.Bytes < 10*1024 {
		t.Errorf("the play page weighs %.1f KB; want at most 200 KB (and the count must see the files)", w.Bytes/1024)
	}
}

// BenchmarkPlayFirstPaint reloads the play page of one game and reports
// the median first contentful paint and the page weight.
//
//	go test -run '^$' -bench PlayFirstPaint -benchtime 20x ./web
func BenchmarkPlayFirstPaint(b *testing.B) {
	ts := startServer(b, filepath.Join(b.TempDir(), "paint.db"), "127.0.0.1:0")
	br := newBrowser(b, 1280, 900)
	page := openGame(b, ts.URL)
	var fcp []float64
	var w pageWeight
	for range b.N {
		br.run("open the game", chromedp.Navigate(page))
		br.waitJS("the grid", `document.querySelectorAll('#board .cell').length === 81`, 10*time.Second)
		br.eval(weightJS, &w)
		fcp = append(fcp, w.FCP)
	}
	b.ReportMetric(quantile(fcp, 0.5), "ms-fcp-median")
	b.ReportMetric(quantile(fcp, 0.95), "ms-fcp-p95")
	b.ReportMetric(w.Bytes/1024, "KB")
	b.Logf("play page: %.1f KB in %d resources; first contentful paint median %.0f ms, p95 %.0f ms over %d loads", w.Bytes/1024, w.Resources, quantile(fcp, 0.5), quantile(fcp, 0.95), b.N)
}

// BenchmarkBrowserCamera720p runs the camera page in chromium on a fake
// 1280×720 camera for SUDOKUAR_CAMLOAD_SECONDS (default 10) and reports
// the round trip from a frame's capture (and from its sending) to the
// answer drawn on the page, and the server's own share.
//
//	go test -run '^$' -bench BrowserCamera720p -benchtime 1x ./web
func BenchmarkBrowserCamera720p(b *testing.B) {
	photo, want := cameraPhoto(b)
	y4m := filepath.Join(b.TempDir(), "cam720.y4m")
	if err := writeY4M(y4m, decodeFile(b, photo), 1280, 720, 2); err != nil {
		b.Fatal(err)
	}
	secs := loadSeconds()
	for range b.N {
		ts := startServer(b, filepath.Join(b.TempDir(), fmt.Sprint("cam", time.Now().UnixNano(), ".db")), "127.0.0.1:0")
		br := newBrowser(b, 1280, 900,
			chromedp.Flag("use-fake-ui-for-media-stream", true),
			chromedp.Flag("use-fake-device-for-media-stream", true),
			chromedp.Flag("use-file-for-fake-video-capture", y4m),
		)
		br.run("open the camera", chromedp.Navigate(ts.URL+"/camera"))
		br.waitJS("the solution drawn", `window.sudokuarCamera && window.sudokuarCamera.drawn === '`+want+`'`, 30*time.Second)
		// Measure from here on.
		br.eval(`(() => { const s = window.sudokuarCamera; s.rtt.length = 0; s.rttSent.length = 0; s.encode.length = 0; s.server.length = 0; s.sent = s.answered = s.dropped = 0; return true; })()`, new(bool))
		time.Sleep(time.Duration(secs) * time.Second)
		var st cameraStats
		br.eval(`window.sudokuarCamera`, &st)
		var w, h int
		br.eval(`document.getElementById('video').videoWidth`, &w)
		br.eval(`document.getElementById('video').videoHeight`, &h)
		b.ReportMetric(quantile(st.RTTSent, 0.5), "ms-sent-drawn-median")
		b.ReportMetric(quantile(st.RTTSent, 0.95), "ms-sent-drawn-p95")
		b.ReportMetric(quantile(st.RTT, 0.5), "ms-capture-drawn-median")
		b.ReportMetric(quantile(st.Server, 0.5), "ms-server-median")
		b.Logf("camera %dx%d, %d s: %d frames sent, %d answered, %d dropped; sent->drawn median %.1f ms p95 %.1f ms; capture->drawn median %.1f ms p95 %.1f ms; server median %.1f ms p95 %.1f ms; still drawing the solution: %v; capture+encode median %.1f ms",
			w, h, secs, st.Sent, st.Answered, st.Dropped, quantile(st.RTTSent, 0.5), quantile(st.RTTSent, 0.95),
			quantile(st.RTT, 0.5), quantile(st.RTT, 0.95), quantile(st.Server, 0.5), quantile(st.Server, 0.95), st.Drawn == want, quantile(st.Encode, 0.5))
	}
}
