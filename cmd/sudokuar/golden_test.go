package main

import (
	"encoding/json"
	"flag"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/golden"
	"github.com/sudokuar/sudokuar/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden from the program's output")

// goldenPhotos are the real photos whose `scan --json` lines are pinned,
// in ../shared (training pages, none held out): the file name each is
// known by in the golden file, and its path under ../shared.
var goldenPhotos = []struct{ name, rel string }{
	{"printed.jpg", "datasets/wicht-v2-train/image10.jpg"},         // a clean printed page, solved
	{"held.jpg", "datasets/wicht-v2-train/image41.jpg"},            // printed, held for a check (one cell)
	{"pen-solved.jpg", "datasets/wicht-mixed-train/image1059.jpg"}, // every cell filled in by pen, right
	{"pen-check.jpg", "datasets/wicht-mixed-train/image33.jpg"},    // pen entries, one to check
}

// noGridPhoto writes into dir the part of a real newspaper photo above
// its grid (print and margins, no puzzle) as PNG and returns its path.
func noGridPhoto(t *testing.T, dir string) string {
	t.Helper()
	src := testenv.Shared(t, "datasets/wicht-v2-train/image1059.jpg")
	img := gocv.IMRead(src, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		t.Fatalf("%s: OpenCV cannot read it", src)
	}
	// The grid's top edge is at row 383 (outlines.csv); keep the rows
	// above it, less a margin.
	top := img.Region(image.Rect(0, 0, img.Cols(), 360))
	defer top.Close()
	path := filepath.Join(dir, "no-grid.png")
	if !gocv.IMWrite(path, top) {
		t.Fatalf("write %s", path)
	}
	return path
}

// goldenInputs lays out the pinned inputs in a temporary folder under the
// names of goldenPhotos (links to ../shared, nothing copied), the no-grid
// crop and a text file named like a photo, and returns their paths in
// order.
func goldenInputs(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, p := range goldenPhotos {
		link := filepath.Join(dir, p.name)
		if err := os.Symlink(testenv.Shared(t, p.rel), link); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, link)
	}
	paths = append(paths, noGridPhoto(t, dir))
	bad := filepath.Join(dir, "not-a-photo.jpg")
	if err := os.WriteFile(bad, []byte("this is text, not a JPEG\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(paths, bad)
}

// scanFix normalises what varies run to run in a `scan --json` line: the
// time taken ("ms", 0 here) and the folder of the inputs, a temporary one
// ("file" and the paths inside "error" keep only the file's name).
func scanFix(dir string) map[string]func(json.RawMessage) json.RawMessage {
	strip := func(v json.RawMessage) json.RawMessage {
		return json.RawMessage(strings.ReplaceAll(string(v), dir+string(filepath.Separator), ""))
	}
	return map[string]func(json.RawMessage) json.RawMessage{"ms": golden.Zero, "file": strip, "error": strip}
}

// TestScanJSONGolden pins the lines of `sudokuar scan --json` byte for
// byte (fields, their order, number formats) on real photos: a printed
// page solved, one held for a check, two pen-filled pages, a page with
// no grid and a file that is not an image.
func TestScanJSONGolden(t *testing.T) {
	paths := goldenInputs(t)
	code, stdout, stderr := runScanCapture(t, append([]string{"--json", "-j", "2"}, paths...)...)
	if code != exitFail {
		t.Fatalf("exit %d, want %d (one file is not an image): %s", code, exitFail, stderr)
	}
	got, err := golden.Lines([]byte(stdout), scanFix(filepath.Dir(paths[0])))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "scan.jsonl", got, *update)
}
