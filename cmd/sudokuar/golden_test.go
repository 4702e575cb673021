package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/golden"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/live"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
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

// noGridPhoto writes into dir the pinned photo with no grid
// (golden.NoGridPNG) and returns its path.
func noGridPhoto(t *testing.T, dir string) string {
	path := filepath.Join(dir, "no-grid.png")
	if err := os.WriteFile(path, golden.NoGridPNG(t), 0o644); err != nil {
		t.Fatal(err)
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

// Puzzles of the fixed live results below: a 9×9 with one solution.
const (
	goldenGiven    = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
	goldenSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)

// goldenLiveResults are fixed recognitions of the kinds live reports,
// each with the fields its kind carries, so encoding them pins every
// field of the live --json line without the timing of a run (which frames
// the asynchronous recogniser reads). Fields that have no place in the
// line are set too (Prob, Pen, the grid's Side): they must stay out of it.
func goldenLiveResults() []live.Recognition {
	s9, s12 := sudoku.Shape{BoxRows: 3, BoxCols: 3}, sudoku.Shape{BoxRows: 3, BoxCols: 4}
	parse := func(shape sudoku.Shape, s string) sudoku.Grid {
		g, err := sudoku.ParseCellGrid(shape, s)
		if err != nil {
			panic(err)
		}
		return g
	}
	conf := make([]float64, 81)
	for i := range conf {
		conf[i] = 1
	}
	conf[7], conf[40], conf[79] = 0.997, 0.92, 0.5
	grid := vision.Grid{Side: 450, Shape: s9,
		Corners: [4]gocv.Point2f{{X: 101.5, Y: 62.25}, {X: 540.75, Y: 60}, {X: 548.13, Y: 430.9}, {X: 95.02, Y: 441.47}}}
	puzzle, solution := parse(s9, goldenGiven), parse(s9, goldenSolution)
	read := func(i int, status pipeline.Status) live.Recognition {
		return live.Recognition{
			Result: pipeline.Result{
				Found: true, Grid: grid, Puzzle: puzzle,
				Status: status, Ms: 48.5, Conf: conf, CellPx: 31.62,
				Prob: [][]float32{{0.5, 0.5}},
				Pen:  pipeline.Pen{Entries: []int{1}},
			},
			Frame: i,
			Own:   &live.Reading{Given: goldenGiven, Status: pipeline.StatusSolved},
		}
	}
	noGrid := live.Recognition{Result: pipeline.Result{Status: pipeline.StatusNoGrid, Ms: 12.25,
		Error: "no Sudoku grid found: show the whole grid, flat and well lit"}}
	reading := read(1, pipeline.StatusReading)
	solved := read(11, pipeline.StatusSolved)
	solved.Solved, solved.Changed, solved.Turns = solution, []int{40}, 1
	held := read(21, pipeline.StatusCheck)
	held.Check = []pipeline.Check{{Cell: 79, Name: "r9c8", Reason: "read 7, only 50% sure"}}
	held.Fused = &live.Reading{Given: goldenGiven, Status: pipeline.StatusCheck, Views: 3}
	moveBack := read(31, pipeline.StatusMoveBack)
	moveBack.Grid.Corners[1] = gocv.Point2f{X: 639, Y: 0}
	conflict := read(41, pipeline.StatusConflict)
	conflict.Puzzle = parse(s9, "55"+goldenGiven[2:])
	conflict.Own = &live.Reading{Given: conflict.Given(), Status: pipeline.StatusConflict}
	conflict.Conflicts = []int{0, 1}
	two := read(51, pipeline.StatusSolved)
	two.Solved = solution
	two.Grids = []pipeline.GridChoice{{Corners: pipeline.Corners(grid), Score: 0.875, Read: true}, {Corners: [4][2]float64{{600, 10}, {630, 10}, {630, 40}, {600, 40}}, Score: 0.25}}
	pen := read(61, pipeline.StatusSolved)
	pen.Solved = solution
	pen.File = "page.mp4" // a result with a file of its own keeps it
	pen.SetMarks(pipeline.Marks{
		Entries:  "004608912002000348100342507059701420020050790013904850901537004280000630340206100",
		Mistakes: []int{2}, Clashes: []int{3}, Notes: []int{9, 10},
		EntryCheck: []pipeline.Check{{Cell: 5, Name: "r1c6", Reason: "handwritten 8, only 86% sure"}},
		Progress:   "40 entries, 1 wrong, 1 to check, 7 cells to go",
	})
	bigGrid := grid
	bigGrid.Shape = s12
	big := live.Recognition{Result: pipeline.Result{Found: true, Grid: bigGrid,
		Puzzle: parse(s12, "A"+strings.Repeat("0", 143)), Status: pipeline.StatusSeveral, Ms: 95.75, Symbols: "letters"},
		Frame: 71}
	return []live.Recognition{noGrid, reading, solved, held, moveBack, conflict, two, pen, big}
}

// TestLiveJSONGolden pins the lines of `sudokuar live --headless --json`
// byte for byte: the results live reports, encoded as live --json
// encodes them (liveJSON), against testdata/golden/live.jsonl.
func TestLiveJSONGolden(t *testing.T) {
	var out bytes.Buffer
	emit := liveJSON(&out, "camera 0")
	for _, r := range goldenLiveResults() {
		emit(r)
	}
	golden.Check(t, "live.jsonl", out.Bytes(), *update)
}

// stillPhoto is a Source that plays one photo, frame after frame, until
// enough says the session has reported what the test needs (at most
// limit frames).
type stillPhoto struct {
	img    gocv.Mat
	enough func() bool
	n      int
}

const stillLimit = 100000

func (s *stillPhoto) Read(m *gocv.Mat) bool {
	if s.enough() || s.n >= stillLimit {
		return false
	}
	s.n++
	s.img.CopyTo(m)
	return true
}
func (s *stillPhoto) FPS() float64     { return 30 }
func (s *stillPhoto) Size() (int, int) { return s.img.Cols(), s.img.Rows() }
func (s *stillPhoto) Name() string     { return "still image4.jpg" }
func (s *stillPhoto) Close() error     { return nil }

// TestLiveJSONGoldenStill pins what a live session reports of a page held
// still: the real recogniser reads a committed synthetic photo shown in
// every frame until two recognitions are reported, and the first two
// lines are compared with testdata/golden/live-still.jsonl. Which frames
// the recogniser reads depends on the machine's speed, so "frame" and
// "ms" are written 0; every frame being the same photo, what it reads
// does not (the second reading looks where the first found the grid, so
// its corners differ a little from the first's).
func TestLiveJSONGoldenStill(t *testing.T) {
	path := filepath.Join(testenv.Committed(t, "testdata/synth"), "image4.jpg")
	img := gocv.IMRead(path, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		t.Fatalf("%s: OpenCV cannot read it", path)
	}
	var out bytes.Buffer
	lines := 0
	emit := liveJSON(&out, "still image4.jpg")
	src := &stillPhoto{img: img, enough: func() bool { return lines >= 2 }}
	_, err := live.Run(src, nil, live.Options{
		OnRecognition: func(r live.Recognition) { lines++; emit(r) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if lines < 2 {
		t.Fatalf("%d recognitions in %d frames, want 2", lines, src.n)
	}
	fixed, err := golden.Lines(out.Bytes(), map[string]func(json.RawMessage) json.RawMessage{"frame": golden.Zero, "ms": golden.Zero})
	if err != nil {
		t.Fatal(err)
	}
	// The first two readings: a third may have been under way when
	// the source ended, and is reported too.
	kept := strings.SplitAfterN(string(fixed), "\n", 3)[:2]
	golden.Check(t, "live-still.jsonl", []byte(strings.Join(kept, "")), *update)
}
