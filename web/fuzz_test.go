package web

import (
	"bytes"
	"encoding/json"
	"image"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/store"
)

// FuzzAPI sends arbitrary bodies to every JSON endpoint that reads one:
// the server must answer (never panic, never 5xx) with JSON.
func FuzzAPI(f *testing.F) {
	st, err := store.OpenSQLite(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer st.Close()
	// Per-client limits off: the fuzzer is one client sending thousands
	// of requests a second, and a 429 would hide the handler behind it.
	srv, err := New(Config{Store: st, Limits: Limits{Off: true}})
	if err != nil {
		f.Fatal(err)
	}
	defer srv.Close()
	h := srv.Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"puzzle":"`+classic+`"}`)))
	var g View
	if err := json.Unmarshal(rec.Body.Bytes(), &g); err != nil || g.ID == "" {
		f.Fatalf("new game: %d %s", rec.Code, rec.Body)
	}
	paths := []string{"/api/solve", "/api/analyze", "/api/games", "/api/games/" + g.ID + "/move",
		"/api/games/" + g.ID + "/mark", "/api/games/" + g.ID + "/errors", "/api/games/" + g.ID + "/submit",
		"/api/games/" + g.ID + "/undo"}
	for _, seed := range []string{
		`{"puzzle":"` + classic + `"}`, `{"puzzle":"` + classic + `","solver":"dlx","box":"3x3"}`,
		`{"cell":2,"value":4}`, `{"cell":-9999999999,"value":1e400}`, `{"on":true}`, `{"name":"x"}`,
		`{"size":"16","level":"easy"}`, `{"puzzle":"2 3\n1. 0"}`, `{"puzzle":null}`, `[]`, `{"cell":"1"}`, "\x00\xff",
		`{"given":"` + classic + `","entries":"` + withEntries([]int{2}, map[int]int{3: 5}) + `"}`,
	} {
		for i := range paths {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		path := paths[int(which)%len(paths)]
		if path == "/api/games" && strings.Contains(body, "16") {
			return // generating 16×16 grids at fuzzing speed tells nothing new
		}
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusNotImplemented {
			t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body)
		}
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatalf("%s %q: answer is not a JSON object: %s", path, body, rec.Body)
		}
		if rec.Code >= 400 && v["error"] == nil {
			t.Fatalf("%s %q: %d without an error: %s", path, body, rec.Code, rec.Body)
		}
	})
}

// FuzzParsePuzzle feeds parsePuzzle arbitrary text: an error or a grid of
// a valid shape, never a panic.
func FuzzParsePuzzle(f *testing.F) {
	for _, s := range []string{classic, "2 2\n1. 0 0 0\n0 0 3. 0\n0 4. 0 0\n0 0 0 2.", "53..7....\n6..195...", "|1 2|\n--+--", "9 9\n", "#\n1234", ""} {
		f.Add(s, "")
		f.Add(s, "2x3")
	}
	f.Fuzz(func(t *testing.T, text, box string) {
		g, err := parsePuzzle(text, box)
		if err != nil {
			return
		}
		if !g.Shape.Valid() || len(g.Cells) != g.N()*g.N() {
			t.Fatalf("parsePuzzle(%q, %q) gave shape %v with %d cells", text, box, g.Shape, len(g.Cells))
		}
		for _, v := range g.Cells {
			if v < 0 || v > g.N() {
				t.Fatalf("parsePuzzle(%q) gave value %d", text, v)
			}
		}
	})
}

// FuzzScan posts arbitrary bytes as a photo through the whole /api/scan
// handler (the header checks, OpenCV's decoders, the pipeline): a 4xx or
// a 200 with a status, never a panic, a crash in C or a 5xx. The seeds are
// real images of every accepted format, cut and bent.
func FuzzScan(f *testing.F) {
	st, err := store.OpenSQLite(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer st.Close()
	srv, err := New(Config{Store: st, Limits: Limits{Off: true}, MaxUploadPixels: 4_000_000})
	if err != nil {
		f.Fatal(err)
	}
	defer srv.Close()
	h := srv.Handler()
	for _, b := range fuzzImages(f) {
		f.Add(b)
		f.Add(b[:len(b)/2])
		bent := bytes.Clone(b)
		bent[len(bent)/3] ^= 0x55
		f.Add(bent)
	}
	f.Fuzz(func(t *testing.T, photo []byte) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		part, _ := mw.CreateFormFile("photo", "fuzz.jpg")
		part.Write(photo)
		mw.Close()
		req := httptest.NewRequest("POST", "/api/scan", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatalf("answer is not a JSON object: %s", rec.Body)
		}
		if rec.Code == 200 && v["status"] == nil {
			t.Fatalf("200 without a status: %s", rec.Body)
		}
	})
}

// FuzzCameraFrame feeds arbitrary camera messages to the frame check and,
// when it lets one through, to the decoder the session uses: a reason or
// a frame of the announced size, never a panic or a crash in C.
func FuzzCameraFrame(f *testing.F) {
	for _, b := range fuzzImages(f) {
		if pipeline.ImageKind(b) == "jpeg" {
			f.Add(append([]byte{0, 0, 0, 1}, b...))
			f.Add(append([]byte{0, 0, 0, 2}, b[:len(b)/2]...))
		}
	}
	f.Add([]byte{0, 0, 0, 1, 0xff, 0xd8, 0xff, 0xc0, 0, 0x11, 8, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, msg []byte) {
		fm, reason := checkFrame(msg)
		if reason != "" {
			return
		}
		m, ok := decodeFrame(fm)
		if !ok {
			return
		}
		defer m.Close()
		if m.Cols() > maxFrameSide || m.Rows() > maxFrameSide {
			t.Fatalf("a %dx%d frame got through", m.Cols(), m.Rows())
		}
	})
}

// fuzzImages are small real images in every format the server accepts.
func fuzzImages(f *testing.F) [][]byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var out [][]byte
	var b bytes.Buffer
	jpeg.Encode(&b, img, &jpeg.Options{Quality: 60})
	out = append(out, bytes.Clone(b.Bytes()))
	b.Reset()
	png.Encode(&b, img)
	out = append(out, bytes.Clone(b.Bytes()))
	b.Reset()
	bmp.Encode(&b, img)
	out = append(out, bytes.Clone(b.Bytes()))
	b.Reset()
	tiff.Encode(&b, img, nil)
	out = append(out, bytes.Clone(b.Bytes()))
	// A real photo's first 16 KB: a genuine camera header.
	if p := testenv.SharedPath("datasets/wicht-v2-train/image10.jpg"); p != "" {
		if data, err := os.ReadFile(p); err == nil {
			out = append(out, data[:min(len(data), 16<<10)])
		}
	}
	return out
}
