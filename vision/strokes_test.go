package vision

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/errata"
	"github.com/sudokuar/sudokuar/internal/testenv"
)

// TestFreeStrokes checks which runs of a line mask go back to the ink: short
// runs in a cell's middle do, lines on the lattice and long runs do not.
func TestFreeStrokes(t *testing.T) {
	const side, cs = 96, 32.0           // a 3×3 canvas
	type run struct{ at, from, to int } // column (or row) at, pixels [from, to)
	for _, tc := range []struct {
		name     string
		vertical bool
		run      run
		keep     bool
	}{
		{"the stem of a tall 1 in a cell's middle", true, run{48, 36, 62}, false},
		{"a stroke touching the canvas's edge", true, run{16, 0, 14}, false},
		{"a grid line on the lattice", true, run{32, 0, 96}, true},
		{"a line piece just off the lattice", true, run{38, 10, 30}, true},
		{"a long run through a cell's middle (a bent line)", true, run{50, 10, 50}, true},
		{"a 7's bar in a cell's middle", false, run{40, 36, 60}, false},
		{"the outer line on the lattice", false, run{1, 0, 96}, true},
	} {
		m := make([]uint8, side*side)
		for b := tc.run.from; b < tc.run.to; b++ {
			if tc.vertical {
				m[b*side+tc.run.at] = 255
			} else {
				m[tc.run.at*side+b] = 255
			}
		}
		if tc.vertical {
			freeStrokes(m, side, side, 1, cs)
		} else {
			freeStrokes(m, side, 1, side, cs)
		}
		n := 0
		for _, v := range m {
			if v != 0 {
				n++
			}
		}
		if kept := n == tc.run.to-tc.run.from; kept != tc.keep || (!kept && n != 0) {
			t.Errorf("%s: %d of %d pixels kept in the line mask, want keep=%v", tc.name, n, tc.run.to-tc.run.from, tc.keep)
		}
	}
}

// TestOthersEmptiness measures which cells vision calls empty on the 80
// real photos of ../shared/datasets/others-train (label errata applied),
// and checks the digits once lost to the line masks: tall thin 1s and a 2
// touching the canvas's edge.
func TestOthersEmptiness(t *testing.T) {
	photos := loadSet(t, testenv.Shared(t, "datasets/others-train"))
	det := NewDetector(Options{Sizes: []int{9}})
	defer det.Close()
	mustInk := map[string][]string{
		"alexdej-1.jpg":  {"r2c5", "r4c7", "r8c3"},
		"wizardxz-1.jpg": {"r4c9"},
		"es2812-49.jpg":  {"r1c7", "r1c9"},
	}
	var total, right int
	for _, p := range photos {
		for _, f := range errata.For(strings.TrimSuffix(p.path, ".jpg") + ".dat") {
			p.cells[(f.Row-1)*p.n+f.Col-1] = f.V
		}
		img, err := readImage(p.path)
		if err != nil {
			img.Close()
			t.Fatalf("%s: %v", p.name, err)
		}
		_, cells, _ := det.Analyze(img)
		img.Close()
		if len(cells) != len(p.cells) {
			t.Logf("%s: %d cells, want %d", p.name, len(cells), len(p.cells))
			total += len(p.cells)
			continue
		}
		want, _ := bestRotation(cells, p.cells, p.n)
		var misses []string
		for i, c := range cells {
			total++
			if c.Empty == (want[i] == 0) {
				right++
			} else {
				misses = append(misses, fmt.Sprintf("r%dc%d want %d ink %d", c.Row+1, c.Col+1, want[i], c.Ink))
			}
		}
		if len(misses) > 0 {
			t.Logf("%s: %s", p.name, strings.Join(misses, "; "))
		}
		for _, name := range mustInk[p.name] {
			var r, c int
			fmt.Sscanf(name, "r%dc%d", &r, &c)
			if cells[(r-1)*p.n+c-1].Empty {
				t.Errorf("%s %s: the digit there is called empty", p.name, name)
			}
		}
	}
	t.Logf("others-train: cell emptiness right %d/%d = %.3f%%", right, total, 100*float64(right)/float64(max(1, total)))
	// The floor is today's figure; the misses left are es2812-23 (the
	// page rolled to the gutter: since the grid choice and curled pages a
	// grid is found there but cut off true, which costs 21 cells more than
	// the smaller wrong grid taken before), es2812-47 (no grid found) and
	// a speck in es2812-8 that the reader calls empty.
	if total == 6480 && right < 6371 {
		t.Errorf("regression: emptiness right on %d/6480 cells (floor 6371)", right)
	}
}
