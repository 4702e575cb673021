package web

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/golden"
	"github.com/sudokuar/sudokuar/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden from the server's answers")

// TestAPIScanGolden pins the answers of POST /api/scan byte for byte
// (fields, their order, number formats, the HTTP status) on the real
// photos whose `scan --json` lines cmd/sudokuar's TestScanJSONGolden pins:
// a printed page solved, one held for a check, two pen-filled pages, the
// part of a page above its grid, and a text file sent as a photo. Each
// line of testdata/golden/api-scan.txt is the status and the body; the
// time taken ("ms") is written 0, the one field that varies run to run.
func TestAPIScanGolden(t *testing.T) {
	type upload struct {
		name string
		data []byte
	}
	var ups []upload
	for _, p := range []struct{ name, rel string }{
		{"printed.jpg", "datasets/wicht-v2-train/image10.jpg"},
		{"held.jpg", "datasets/wicht-v2-train/image41.jpg"},
		{"pen-solved.jpg", "datasets/wicht-mixed-train/image1059.jpg"},
		{"pen-check.jpg", "datasets/wicht-mixed-train/image33.jpg"},
	} {
		data, err := os.ReadFile(testenv.Shared(t, p.rel))
		if err != nil {
			t.Fatal(err)
		}
		ups = append(ups, upload{p.name, data})
	}
	ups = append(ups, upload{"no-grid.png", golden.NoGridPNG(t)}, upload{"not-a-photo.jpg", []byte("this is text, not a JPEG\n")})

	a := newAPIServer(t, Config{})
	var out bytes.Buffer
	for _, u := range ups {
		ct, body := multipartBody(t, "photo", u.name, u.data)
		res, err := a.Client().Post(a.URL+"/api/scan", ct, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("%s: %d %s", u.name, res.StatusCode, raw)
		}
		fixed, err := golden.Fields(bytes.TrimSuffix(raw, []byte("\n")), map[string]func(json.RawMessage) json.RawMessage{"ms": golden.Zero})
		if err != nil {
			t.Fatalf("%s: %v", u.name, err)
		}
		fmt.Fprintf(&out, "%d %s\n", res.StatusCode, fixed)
	}
	golden.Check(t, "api-scan.txt", out.Bytes(), *update)
}
