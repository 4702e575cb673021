package vision

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// truth is the ground truth of one dataset photo.
type truth struct {
	name      string
	path      string
	corners   [4]pt // nil-valued when hasCorner is false
	hasCorner bool
	cells     []int // N*N values, 0 = empty
	n         int
	box       sudoku.Shape // from a synthetic .dat header (box=RxC); zero for real photos
}

// readBox reads "box=RxC" from the first line of a synthetic .dat file.
func readBox(path string) sudoku.Shape {
	b, err := os.ReadFile(path)
	if err != nil {
		return sudoku.Shape{}
	}
	first, _, _ := strings.Cut(string(b), "\n")
	for _, f := range strings.Fields(first) {
		if v, ok := strings.CutPrefix(f, "box="); ok {
			var r, c int
			if _, err := fmt.Sscanf(v, "%dx%d", &r, &c); err == nil {
				return sudoku.Shape{BoxRows: r, BoxCols: c}
			}
		}
	}
	return sudoku.Shape{}
}

// readDat parses the photo-dataset .dat format: two header lines (phone,
// resolution) and then N rows of N values.
func readDat(path string) ([]int, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var vals []int
	line := 0
	for sc.Scan() {
		line++
		if line <= 2 {
			continue
		}
		for _, tok := range strings.Fields(sc.Text()) {
			v, err := strconv.Atoi(tok)
			if err != nil {
				return nil, 0, fmt.Errorf("%s:%d: %w", path, line, err)
			}
			vals = append(vals, v)
		}
	}
	n := int(math.Round(math.Sqrt(float64(len(vals)))))
	if n*n != len(vals) || n == 0 {
		return nil, 0, fmt.Errorf("%s: %d values is not a square grid", path, len(vals))
	}
	return vals, n, sc.Err()
}

// readOutlines parses outlines.csv into corners by file name.
func readOutlines(path string) (map[string][4]pt, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[string][4]pt{}
	for i, r := range recs {
		if i == 0 || len(r) != 9 {
			continue
		}
		var q [4]pt
		for k := 0; k < 4; k++ {
			x, err1 := strconv.ParseFloat(r[1+2*k], 64)
			y, err2 := strconv.ParseFloat(r[2+2*k], 64)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("%s:%d: bad number", path, i+1)
			}
			q[k] = pt{x, y}
		}
		out[filepath.Base(r[0])] = q
	}
	return out, nil
}

// loadWicht lists the real photos with their truth.
func loadWicht(tb testing.TB) []truth {
	return loadSet(tb, testenv.Shared(tb, "datasets/wicht-v2-train"))
}

// loadSet lists the photos of a folder in the dataset layout (imageK.jpg,
// imageK.dat, outlines.csv) with their truth.
func loadSet(tb testing.TB, dir string) []truth {
	outl, err := readOutlines(filepath.Join(dir, "outlines.csv"))
	if err != nil {
		tb.Fatal(err)
	}
	jpgs, _ := filepath.Glob(filepath.Join(dir, "*.jpg"))
	sort.Strings(jpgs)
	var out []truth
	for _, j := range jpgs {
		cells, n, err := readDat(strings.TrimSuffix(j, ".jpg") + ".dat")
		if err != nil {
			tb.Fatal(err)
		}
		q, ok := outl[filepath.Base(j)]
		tr := truth{name: filepath.Base(j), path: j, corners: q, hasCorner: ok, cells: cells, n: n}
		tr.box = readBox(strings.TrimSuffix(j, ".jpg") + ".dat")
		out = append(out, tr)
	}
	return out
}

// cornerError is the largest distance between found and true corners as a
// fraction of the true grid's mean side.
func cornerError(found [4]gocv.Point2f, want [4]pt) float64 {
	var side, worst float64
	for i := 0; i < 4; i++ {
		side += want[i].dist(want[(i+1)%4]) / 4
	}
	for i := 0; i < 4; i++ {
		worst = math.Max(worst, pt{float64(found[i].X), float64(found[i].Y)}.dist(want[i]))
	}
	return worst / side
}

// annotationFixes corrects outlines.csv where its corner is visibly off the
// printed grid. Evidence (both quads drawn on the photo, zoomed on the
// corner): in image115 and image118 the file's top-left corner lies on
// blank paper about 17 px left of the grid's outer line (grid side ~450 px,
// so 3.7% off by itself), while the other three corners sit on the grid.
// The corrected corner is where the outer lines cross in the photo. Both
// figures (raw and corrected) are logged and held to the 98% target.
var annotationFixes = map[string]struct {
	corner int
	at     pt
}{
	"image115.jpg": {0, pt{45, 85}},
	"image118.jpg": {0, pt{48, 92}},
}

// TestRealPhotos measures corner accuracy and cell emptiness on the real
// photos of ../shared and fails below the targets.
func TestRealPhotos(t *testing.T) {
	photos := loadWicht(t)
	det := NewDetector(Options{})
	defer det.Close()
	debug := os.Getenv("VISION_DEBUG") // folder for PNGs of the misses
	var cornerFixedOK int
	var withCorner, cornerOK, cellsTotal, cellsOK, failed, rotated, locatedCells, locatedOK int
	minSharp, minBright, minLegible, minGap := math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
	for _, p := range photos {
		img, err := readImage(p.path)
		if err != nil {
			img.Close()
			t.Errorf("%s: %v", p.name, err)
			continue
		}
		g, cells, err := det.Analyze(img)
		if p.hasCorner {
			withCorner++
		}
		if err != nil && len(cells) == 0 {
			failed++
			cellsTotal += len(p.cells)
			t.Logf("%s: %v", p.name, err)
			if debug != "" {
				det.dumpQuads(filepath.Join(debug, strings.TrimSuffix(p.name, ".jpg")+"_quad.png"), img, g.Corners, p.corners, p.hasCorner)
			}
			img.Close()
			continue
		} else if err != nil {
			t.Logf("%s: warning %v", p.name, err)
		}
		if len(cells) > 0 {
			minSharp = math.Min(minSharp, g.Sharpness)
			minBright = math.Min(minBright, g.Brightness)
			minLegible, minGap = math.Min(minLegible, g.Legibility), math.Min(minGap, g.Gap)
		}
		if p.hasCorner {
			fixed := p.corners
			if f, ok := annotationFixes[p.name]; ok {
				fixed[f.corner] = f.at
			}
			if e := cornerError(g.Corners, fixed); e <= 0.03 {
				cornerFixedOK++
			}
			if e := cornerError(g.Corners, p.corners); e <= 0.03 {
				cornerOK++
			} else {
				t.Logf("%s: corner error %.1f%% found %v want %v", p.name, 100*e, g.Corners, p.corners)
				if debug != "" {
					det.dumpQuads(filepath.Join(debug, strings.TrimSuffix(p.name, ".jpg")+"_quad.png"), img, g.Corners, p.corners, p.hasCorner)
				}
			}
		}
		if g.Shape.N() != p.n {
			t.Logf("%s: shape %v (conf %.2f), want N=%d", p.name, g.Shape, g.ShapeConfidence, p.n)
			cellsTotal += len(p.cells)
			img.Close()
			continue
		}
		// The photos' .dat files give the puzzle upright; a few photos are
		// taken sideways. Orientation is the digit reader's job, so compare
		// emptiness with the best-matching quarter turn of the truth.
		want, turns := bestRotation(cells, p.cells, p.n)
		if turns != 0 {
			rotated++
		}
		var misses []string
		for i, c := range cells {
			cellsTotal++
			locatedCells++
			if c.Empty == (want[i] == 0) {
				cellsOK++
				locatedOK++
			} else {
				misses = append(misses, fmt.Sprintf("r%dc%d want %d ink %d", c.Row, c.Col, want[i], c.Ink))
			}
		}
		if len(misses) > 0 {
			t.Logf("%s: %d emptiness misses: %s", p.name, len(misses), strings.Join(misses, "; "))
			if debug != "" {
				det.dumpCanvas(filepath.Join(debug, strings.TrimSuffix(p.name, ".jpg")+"_canvas.png"))
			}
		}
		img.Close()
	}
	cornerRate := float64(cornerOK) / float64(withCorner)
	cellRate := float64(cellsOK) / float64(cellsTotal)
	t.Logf("emptiness on the grids found with the right N: %d/%d = %.3f%%", locatedOK, locatedCells, 100*float64(locatedOK)/float64(max(1, locatedCells)))
	t.Logf("lowest sharpness %.1f, brightness %.1f, legibility %.1f, ink gap %.1f (quality thresholds must stay below)",
		minSharp, minBright, minLegible, minGap)
	t.Logf("photos turned a quarter or half turn: %d", rotated)
	t.Logf("photos %d (no grid/shape failure %d); corners within 3%%: %d/%d = %.2f%%; cell emptiness right: %d/%d = %.3f%%",
		len(photos), failed, cornerOK, withCorner, 100*cornerRate, cellsOK, cellsTotal, 100*cellRate)
	fixedRate := float64(cornerFixedOK) / float64(withCorner)
	t.Logf("corners within 3%% with %d annotation fixes: %d/%d = %.2f%%", len(annotationFixes), cornerFixedOK, withCorner, 100*fixedRate)
	// The targets: corners within 3% on 98% of the photos (held on
	// the raw outlines and on the corrected ones) and emptiness right on
	// 99.9% of the cells.
	if cornerRate < 0.98 || fixedRate < 0.98 {
		t.Errorf("corner rate %.2f%% (raw outlines), %.2f%% (corrected) is below the 98%% target", 100*cornerRate, 100*fixedRate)
	}
	if cellRate < 0.999 {
		t.Errorf("emptiness rate %.3f%% is below the 99.9%% target", 100*cellRate)
	}
}

// bestRotation returns the truth turned by the quarter turns (0..3,
// clockwise) whose empty cells agree most with the cells found.
func bestRotation(cells []Cell, truth []int, n int) ([]int, int) {
	best, bestT, bestScore := truth, 0, -1
	cur := truth
	for t := 0; t < 4; t++ {
		score := 0
		for i, c := range cells {
			if c.Empty == (cur[i] == 0) {
				score++
			}
		}
		if score > bestScore {
			best, bestT, bestScore = cur, t, score
		}
		next := make([]int, n*n)
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				next[c*n+(n-1-r)] = cur[r*n+c]
			}
		}
		cur = next
	}
	return best, bestT
}
