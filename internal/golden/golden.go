// Package golden compares, for tests, an output with a golden file
// committed under testdata/golden/ at the project's root, and rewrites the
// file instead when the test runs with -update: the JSON wire forms the
// front ends emit are pinned this way (docs/camera.md, "Pinned shapes").
//
// In: the output, and for JSON lines the fields that vary run to run (a
// timing, a path of this machine). Out: a failure naming the first line
// that differs, or the file rewritten.
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"gocv.io/x/gocv"
)

// Dir is where golden files live, relative to the project's root.
const Dir = "testdata/golden"

// Check compares got with the golden file name (under Dir); with update
// it writes got there instead. The test's -update flag says which; the
// message on a difference tells how to accept it.
func Check(tb testing.TB, name string, got []byte, update bool) {
	tb.Helper()
	root := testenv.RepoRoot()
	if root == "" {
		tb.Fatalf("no go.mod at or above the working directory: cannot find %s/%s", Dir, name)
	}
	path := filepath.Join(root, Dir, name)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		tb.Logf("wrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%s/%s is committed to the repository but cannot be read (%v); -update writes it", Dir, name, err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		g, w := line(gl, i), line(wl, i)
		if g != w {
			tb.Fatalf("output differs from %s/%s at line %d:\n got %s\nwant %s\n"+
				"if the change is meant, rerun the test with -update and commit the file (docs/camera.md, \"Pinned shapes\")",
				Dir, name, i+1, g, w)
		}
	}
}

func line(ls []string, i int) string {
	if i < len(ls) {
		return ls[i]
	}
	return "(none)"
}

// Fields rewrites the top-level fields of one JSON object that vary run
// to run, leaving every other byte as the encoder wrote it (field order,
// number formatting, escapes): each value of a field named in fix is
// replaced by what fix returns for it. A field absent stays absent.
func Fields(obj []byte, fix map[string]func(json.RawMessage) json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("golden: not a JSON object: %.60s", obj)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for n := 0; dec.More(); n++ {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("golden: %w", err)
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("golden: field %q: %w", key, err)
		}
		if f := fix[key]; f != nil {
			v = f(v)
		}
		k, _ := json.Marshal(key)
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("golden: %w", err)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Lines applies Fields to each line of out (one JSON object per line, as
// `scan --json` prints), keeping the lines' ends.
func Lines(out []byte, fix map[string]func(json.RawMessage) json.RawMessage) ([]byte, error) {
	var b bytes.Buffer
	for _, l := range bytes.SplitAfter(out, []byte("\n")) {
		body := bytes.TrimSuffix(l, []byte("\n"))
		if len(body) == 0 {
			b.Write(l)
			continue
		}
		f, err := Fields(body, fix)
		if err != nil {
			return nil, err
		}
		b.Write(f)
		b.Write(l[len(body):])
	}
	return b.Bytes(), nil
}

// Zero is a fix that writes 0 for a number that varies (a timing).
func Zero(json.RawMessage) json.RawMessage { return json.RawMessage("0") }

// NoGridPNG is the part of a real newspaper photo above its grid (print
// and margins, no puzzle) as PNG: the pinned input with no grid that
// scan and /api/scan both read.
func NoGridPNG(tb testing.TB) []byte {
	tb.Helper()
	src := testenv.Shared(tb, "datasets/wicht-v2-train/image1059.jpg")
	img := gocv.IMRead(src, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		tb.Fatalf("%s: OpenCV cannot read it", src)
	}
	// The grid's top edge is at row 383 (outlines.csv); keep the rows
	// above it, less a margin.
	top := img.Region(image.Rect(0, 0, img.Cols(), 360))
	defer top.Close()
	buf, err := gocv.IMEncode(gocv.PNGFileExt, top)
	if err != nil {
		tb.Fatalf("%s: %v", src, err)
	}
	defer buf.Close()
	return bytes.Clone(buf.GetBytes())
}
