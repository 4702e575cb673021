package vision_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
)

// TestHardCellsRead reads, with the embedded digit model, the real photos
// whose digits the cutter used to break: digits on a fold or crease cut
// in two by the line mask (image1067 r5c1 9 and r5c9 8; image1049 r7c6 3
// and r9c7 1), and a 4 fused with a bent line's remnant (image1066 r8c4).
// Each grid must be read exactly.
func TestHardCellsRead(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-v2-train")
	clf, err := ocr.Default("")
	if err != nil {
		t.Fatal(err)
	}
	defer ocr.CloseClassifier(clf)
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	for _, name := range []string{"image1049", "image1066", "image1067"} {
		t.Run(name, func(t *testing.T) {
			want := readTruth(t, filepath.Join(dir, name+".dat"))
			img, err := pipeline.ReadImage(filepath.Join(dir, name+".jpg"), 0)
			if err != nil {
				img.Close()
				t.Fatal(err)
			}
			g, cells, err := det.Analyze(img)
			img.Close()
			if err != nil {
				t.Fatal(err)
			}
			r, err := ocr.Read(clf, g.Shape, cells)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Given.Cells) != len(want) {
				t.Fatalf("read %d cells, want %d", len(r.Given.Cells), len(want))
			}
			for i, v := range r.Given.Cells {
				if v != want[i] {
					t.Errorf("r%dc%d: read %d, want %d", i/9+1, i%9+1, v, want[i])
				}
			}
		})
	}
}

// readTruth returns the 81 values of a wicht-v2 .dat file.
func readTruth(t *testing.T, path string) []int {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, line := range strings.Split(string(data), "\n")[2:] {
		for _, f := range strings.Fields(line) {
			v, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s: bad value %q", path, f)
			}
			out = append(out, v)
		}
	}
	if len(out) != 81 {
		t.Fatalf("%s: %d values, want 81", path, len(out))
	}
	return out
}
