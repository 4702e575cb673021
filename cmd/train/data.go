package main

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"image"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/errata"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/synth"
	"github.com/sudokuar/sudokuar/vision"
)

// sample is one training cell: its image (upright) and its class.
type sample struct {
	x []float32
	y int
}

// photoCells is one photo cut by vision, with the truth laid out the way
// the photo shows the grid.
type photoCells struct {
	name   string
	source string // where the photo comes from: the name up to its number ("es2812", "image", "synth")
	shape  sudoku.Shape
	cells  []vision.Cell // nil when vision failed
	truth  sudoku.Grid   // as the photo shows it (turned by turns)
	turns  int           // quarter turns clockwise from upright to the photo
	err    error         // vision's error, if it found no cells
	corner float64       // largest corner error / grid side, if known (else -1)
	// glyphs maps a truth value to the glyph class printed for it (the
	// page's symbol convention); nil means digits (value = class).
	glyphs  []int
	symbols sudoku.Symbols
	path    string          // the photo's file, for real photos
	corners [4]gocv.Point2f // the grid's corners vision found (cell 0's corner first)
	// allViews: train on one more view of each cell besides Pixels (Half
	// or one of Looks, by turns), as for camera frames, whose small cells
	// the reader reads several ways.
	allViews bool
	// still names the photo a camera frame was made from, shift the
	// quarter turns between its cut and the still's (see followStills).
	still string
	shift int
}

// label returns the glyph class of value v on this photo's page.
func (p photoCells) label(v int) int {
	if p.glyphs == nil || v < 0 || v >= len(p.glyphs) {
		return v
	}
	return p.glyphs[v]
}

// samples returns the labelled cells of p that vision gave pixels for,
// turned upright: the cells it calls non-empty, and the faint ones it calls
// empty but keeps ink for (a faded or thin digit the reader is asked about
// when the grid needs it, or a smudge that must read as empty).
func (p photoCells) samples() []sample {
	var out []sample
	for i, c := range p.cells {
		if len(c.Pixels) != ocr.CellLen {
			continue
		}
		y := p.label(p.truth.Cells[i])
		out = append(out, sample{x: ocr.TurnCell(c.Pixels, (4-p.turns)%4), y: y})
		if !p.allViews {
			continue
		}
		var views [][]float32
		for _, v := range append([][]float32{c.Half}, c.Looks...) {
			if len(v) == ocr.CellLen {
				views = append(views, v)
			}
		}
		if len(views) > 0 {
			out = append(out, sample{x: ocr.TurnCell(views[i%len(views)], (4-p.turns)%4), y: y})
		}
	}
	return out
}

// sourceOf names where a photo comes from: its file name up to the number
// ("es2812-14.jpg" -> "es2812", "image123.jpg" -> "image").
func sourceOf(name string) string {
	base := strings.TrimSuffix(name, filepath.Ext(name))
	s := strings.TrimRight(base, "0123456789")
	return strings.TrimSuffix(s, "-")
}

// splitPhotos lists the .jpg photos of dir with a .dat beside them and
// splits them deterministically by photo, source by source (sourceOf): of
// each source's photos, the share holdout (rounded) whose FNV-1a name hash
// sorts first are held out. A source with a single photo is never held out.
func splitPhotos(dir string, holdout float64) (train, test []string, err error) {
	jpgs, err := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if err != nil {
		return nil, nil, err
	}
	if len(jpgs) == 0 {
		return nil, nil, fmt.Errorf("no .jpg photos in %s", dir)
	}
	hash := func(p string) uint32 {
		h := fnv.New32a()
		h.Write([]byte(filepath.Base(p)))
		return h.Sum32()
	}
	bySource := map[string][]string{}
	for _, p := range jpgs {
		s := sourceOf(filepath.Base(p))
		bySource[s] = append(bySource[s], p)
	}
	for _, ps := range bySource {
		sort.Slice(ps, func(a, b int) bool { return hash(ps[a]) < hash(ps[b]) })
		k := int(math.Round(holdout * float64(len(ps))))
		test, train = append(test, ps[:k]...), append(train, ps[k:]...)
	}
	sort.Strings(train)
	sort.Strings(test)
	return train, test, nil
}

// readTruth reads a photo's .dat and applies the errata for it (package
// errata: labels that disagree with what the page prints, checked by eye).
func readTruth(dat string) (sudoku.Grid, int, error) {
	g, err := sudoku.ReadDatFile(dat)
	if err != nil {
		return g, 0, err
	}
	fixes := errata.For(dat)
	for _, f := range fixes {
		g.Set(f.Row-1, f.Col-1, f.V)
	}
	return g, len(fixes), nil
}

// cutPhotos runs vision on each photo (two at a time) and pairs the cells
// with the truth. Orientation: the .dat gives the puzzle upright, some
// photos are turned; the turn whose emptiness pattern matches vision's best
// is kept, ties (symmetric puzzles) broken by orient when not nil.
func cutPhotos(paths []string, nineOnly bool, workers int, orient func(p *photoCells, cands []int)) []photoCells {
	out := cutEach(len(paths), workers, func(d detectors, i int) photoCells {
		if nineOnly {
			return cutPhoto(d.nine, paths[i])
		}
		return cutPhoto(d.any, paths[i])
	})
	for i := range out {
		p := &out[i]
		if p.cells == nil {
			continue
		}
		cands := bestTurns(p)
		p.turns = cands[0]
		if len(cands) > 1 && orient != nil {
			orient(p, cands)
		}
		p.truth = p.truth.Turn(p.turns)
	}
	return out
}

func cutPhoto(det *vision.Detector, path string) photoCells {
	return cutPhotoAt(det, path, 1)
}

// cutPhotoAt is cutPhoto of the photo shrunk by scale (< 1) and saved
// again as a JPEG of quality 75, as a webcam or a page held at arm's length
// gives its cells: a few dozen pixels, blurred and blocky.
func cutPhotoAt(det *vision.Detector, path string, scale float64) photoCells {
	p := photoCells{name: filepath.Base(path), source: sourceOf(filepath.Base(path)), corner: -1, path: path}
	truth, _, err := readTruth(strings.TrimSuffix(path, filepath.Ext(path)) + ".dat")
	if err != nil {
		p.err = err
		return p
	}
	p.truth, p.shape = truth, truth.Shape
	if truth.N() > 9 {
		// The committed synthetic photos print 10..16 as numbers.
		p.glyphs = ocr.ValueGlyphs(sudoku.Numbers, truth.N())
	}
	img, err := pipeline.ReadImage(path, 0)
	defer img.Close()
	if err != nil {
		p.err = err
		return p
	}
	if scale < 1 {
		if err := shrink(&img, scale); err != nil {
			p.err = fmt.Errorf("%s: %w", p.name, err)
			return p
		}
	}
	g, cells, err := det.Analyze(img)
	if g.Shape != truth.Shape || len(cells) != len(truth.Cells) {
		if err == nil {
			err = fmt.Errorf("shape %v, want %v", g.Shape, truth.Shape)
		}
		p.err = err
		return p
	}
	p.cells = cells
	p.corners = g.Corners
	return p
}

// shrink replaces img by itself scaled by k (0 < k < 1) and passed
// through a JPEG of quality 75.
func shrink(img *gocv.Mat, k float64) error {
	w, h := int(float64(img.Cols())*k), int(float64(img.Rows())*k)
	if k <= 0 || k >= 1 || w < 64 || h < 64 {
		return fmt.Errorf("shrink %d×%d by %v: want 0 < k < 1 and 64 px a side or more", img.Cols(), img.Rows(), k)
	}
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(*img, &small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, small, []int{gocv.IMWriteJpegQuality, 75})
	if err != nil {
		return fmt.Errorf("shrink: %w", err)
	}
	defer buf.Close()
	m, err := gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
	if err != nil || m.Empty() {
		m.Close()
		return fmt.Errorf("shrink: the JPEG does not decode")
	}
	img.Close()
	*img = m
	return nil
}

// bestTurns returns the quarter turns of the truth whose emptiness pattern
// agrees with vision's within turnSlack cells of the best, best first.
// Newspaper puzzles are often symmetric under a quarter or half turn, and
// vision misjudges a cell now and then, so near-ties go to orientWith.
const turnSlack = 3

func bestTurns(p *photoCells) []int {
	score := make([]int, 4)
	for k := 0; k < 4; k++ {
		t := p.truth.Turn(k)
		for i, c := range p.cells {
			if c.Empty == (t.Cells[i] == 0) {
				score[k]++
			}
		}
	}
	best := 0
	for k := range score {
		if score[k] > score[best] {
			best = k
		}
	}
	cands := []int{best}
	for k := range score {
		if k != best && score[k] >= score[best]-turnSlack {
			cands = append(cands, k)
		}
	}
	return cands
}

// orientWith breaks orientation ties with a classifier: the turn under
// which the upright cells are most likely to carry the truth's digits.
func orientWith(c ocr.Classifier) func(p *photoCells, cands []int) {
	return func(p *photoCells, cands []int) {
		best, bestLL := cands[0], math.Inf(-1)
		for _, k := range cands {
			t := p.truth.Turn(k)
			var batch [][]float32
			var labels []int
			for i, cell := range p.cells {
				if !cell.Empty && t.Cells[i] != 0 {
					batch = append(batch, ocr.TurnCell(cell.Pixels, (4-k)%4))
					labels = append(labels, t.Cells[i])
				}
			}
			probs, err := c.Classify(batch)
			if err != nil {
				return
			}
			ll := 0.0
			for j, pr := range probs {
				ll += math.Log(float64(pr[labels[j]]) + 1e-9)
			}
			if ll > bestLL {
				best, bestLL = k, ll
			}
		}
		p.turns = best
	}
}

// synthPhotos renders count puzzles as photos with synth (WorldOptions),
// seeds seed0.., and cuts them with vision. A share big of them (rounded
// down, spread evenly) are 12×12 or 16×16 puzzles printed with numbers,
// letters or 0..F, for the glyphs beyond 9; the others are 9×9. Photos
// where vision's corners are off by more than 0.03 of the grid side are
// dropped (their labels would be wrong). 9×9 puzzles come from puzzles
// (completed to 24..36 givens from their solution) or, when there are
// none, from synth.RandomPuzzle.
func synthPhotos(count int, seed0 int64, fonts []synth.Font, puzzles []sudoku.Grid, workers int, big float64) []photoCells {
	every := 0
	if big > 0 {
		every = max(1, int(math.Round(1/big)))
	}
	return cutEach(count, workers, func(det detectors, i int) photoCells {
		return synthPhoto(det, seed0+int64(i), fonts, puzzles, every > 0 && i%every == every-1)
	})
}

// detectors holds one vision.Detector per kind of grid a worker cuts: a
// Detector is not safe for concurrent use, and knowing the grid's size
// avoids reading a 9×9 grid as some other shape.
type detectors struct {
	nine, big, any *vision.Detector
}

// cutEach runs cut for photos 0..count-1 on workers goroutines, each with
// its own detectors, and returns the results in order.
func cutEach(count int, workers int, cut func(det detectors, i int) photoCells) []photoCells {
	out := make([]photoCells, count)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(1, workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := detectors{
				nine: vision.NewDetector(vision.Options{Sizes: []int{9}}),
				big:  vision.NewDetector(vision.Options{Sizes: []int{12, 16}}),
				any:  vision.NewDetector(vision.Options{}),
			}
			defer d.nine.Close()
			defer d.big.Close()
			defer d.any.Close()
			for i := range next {
				out[i] = cut(d, i)
			}
		}()
	}
	for i := 0; i < count; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func synthPhoto(dets detectors, seed int64, fonts []synth.Font, puzzles []sudoku.Grid, big bool) photoCells {
	rng := rand.New(rand.NewSource(seed))
	p := photoCells{name: fmt.Sprintf("synth-%d", seed), source: "synth", corner: -1}
	var pz sudoku.Grid
	var err error
	det := dets.nine
	sym := sudoku.Numbers
	switch {
	case big:
		n := []int{12, 16}[rng.Intn(2)]
		shape, _ := synth.ShapeFor(n)
		fill := map[int]int{12: 56, 16: 112}[n]
		pz, err = synth.RandomPuzzle(shape, seed, fill-10+rng.Intn(20))
		sym = sudoku.AllSymbols[rng.Intn(len(sudoku.AllSymbols))]
		det = dets.big
		p.source = "synth-big"
	default:
		pz, err = ninePuzzle(puzzles, seed, rng)
	}
	if err != nil {
		p.err = err
		return p
	}
	sizes := [][2]int{{640, 480}, {800, 600}, {1024, 768}, {1280, 720}, {960, 1280}}
	if big {
		sizes = sizes[2:] // 16 cells across need pixels
	}
	sz := sizes[rng.Intn(len(sizes))]
	opts := synth.WorldOptions(sz[0], sz[1], seed)
	if big {
		opts.MinSide = 0.5
	}
	opts.Fonts = fonts
	opts.Symbols = sym
	ph, err := synth.Render(pz, opts)
	defer ph.Image.Close()
	if err != nil {
		p.err = err
		return p
	}
	p.truth, p.shape = ph.Truth, ph.Truth.Shape
	n := ph.Truth.N()
	if n > 9 || sym != sudoku.Numbers {
		p.glyphs = ocr.ValueGlyphs(sym, n)
		p.symbols = sym
	}
	g, cells, err := det.Analyze(ph.Image)
	if len(cells) != n*n || g.Shape.N() != n {
		if err == nil {
			err = fmt.Errorf("%d cells, shape %v", len(cells), g.Shape)
		}
		p.err = err
		return p
	}
	// Near a 45° turn vision may call another corner top-left than synth
	// does: the grid is then cut turned by quarter turns.
	p.turns, p.corner = matchCorners(g.Corners, ph.Corners)
	if p.corner > 0.03 {
		p.err = fmt.Errorf("corners off by %.1f%% of the side", 100*p.corner)
		return p
	}
	p.truth = p.truth.Turn(p.turns)
	p.cells = cells
	return p
}

// ninePuzzle is a 9×9 puzzle of 24..36 givens: one of puzzles completed
// from its solution, or a random one when there are none.
func ninePuzzle(puzzles []sudoku.Grid, seed int64, rng *rand.Rand) (sudoku.Grid, error) {
	if len(puzzles) > 0 {
		return completePuzzle(puzzles[rng.Intn(len(puzzles))], 24+rng.Intn(13), rng)
	}
	return synth.RandomPuzzle(sudoku.Shape{BoxRows: 3, BoxCols: 3}, seed, 24+rng.Intn(13))
}

// completePuzzle adds givens from the puzzle's solution until it has
// clues of them; extra givens keep a unique solution unique.
func completePuzzle(pz sudoku.Grid, clues int, rng *rand.Rand) (sudoku.Grid, error) {
	sol, err := sudoku.Solve(pz)
	if err != nil {
		return sudoku.Grid{}, err
	}
	g := pz.Clone()
	for _, i := range rng.Perm(len(g.Cells)) {
		if g.Givens() >= clues {
			break
		}
		if g.Cells[i] == 0 {
			g.Cells[i] = sol.Cells[i]
		}
	}
	return g, nil
}

// loadPuzzles reads one-line puzzles (e.g. 17-clue.txt), at most max.
func loadPuzzles(path string, max int) ([]sudoku.Grid, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []sudoku.Grid
	sc := bufio.NewScanner(f)
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	for sc.Scan() && len(out) < max {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		g, err := sudoku.ParseLine(line, &s9)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, g)
	}
	return out, sc.Err()
}

// cornerError is the largest distance between found and true corners as a
// fraction of the true grid's mean side.
func cornerError(found, want [4]gocv.Point2f) float64 {
	d := func(a, b gocv.Point2f) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }
	var side, worst float64
	for i := 0; i < 4; i++ {
		side += d(want[i], want[(i+1)%4]) / 4
		worst = math.Max(worst, d(found[i], want[i]))
	}
	return worst / side
}
