package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// TestReadSegments reads a mkvideo .truth file and refuses bad ones with
// the file and line.
func TestReadSegments(t *testing.T) {
	photo := filepath.Join(testenv.Shared(t, "datasets/others-train"), "andreibrihac-1.jpg")
	dir := t.TempDir()
	for _, c := range []struct {
		name, text, err string
		photos          int
	}{
		{"good", "0 59 " + photo + "\n60 119 " + photo + "\n", "", 2},
		{"empty", "", "no photos", 0},
		{"bad line", "0 59 " + photo + "\nsixty 119 x.jpg\n", "v.truth:2: want", 0},
		{"backwards", "59 0 " + photo + "\n", "v.truth:1: want", 0},
		{"no truth", "0 59 " + filepath.Join(dir, "none.jpg") + "\n", "v.truth:1: ground truth for", 0},
	} {
		path := filepath.Join(dir, "v.truth")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		segs, err := readSegments(path)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.err)
		case len(segs) != c.photos:
			t.Errorf("%s: %d photos, want %d", c.name, len(segs), c.photos)
		case c.photos > 0 && (segs[1].first != 60 || len(segs[1].truth.Cells) != 81):
			t.Errorf("%s: second photo %+v", c.name, segs[1])
		}
	}
}
