package live

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/held"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// penOracle is an oracle whose page the player has started: the printed
// givens are classic, and entries holds per cell the handwritten digit
// (0: none), read surely; on recognition misreadAt one right entry is
// read surely as another digit, as one frame's misread would be.
type penOracle struct {
	*oracle
	entries   []int
	misreadAt int
	misread   int // the cell misread
	mu        sync.Mutex
}

func (p *penOracle) ProcessPick(frame gocv.Mat, pick vision.Pick) pipeline.Result {
	r := p.oracle.ProcessPick(frame, pick)
	if !r.Found {
		return r
	}
	p.mu.Lock()
	call := p.calls
	p.mu.Unlock()
	rd := ocr.Reading{Given: r.Puzzle, Kinds: make([]ocr.Kind, 81), KindConf: make([]float32, 81), Entries: slices.Clone(p.entries), EntryConf: make([]float32, 81)}
	for i := range rd.Kinds {
		rd.KindConf[i] = 1
		switch {
		case r.Puzzle.Cells[i] != 0:
			rd.Kinds[i] = ocr.KindPrinted
		case p.entries[i] != 0:
			rd.Kinds[i], rd.EntryConf[i] = ocr.KindHand, 1
		}
	}
	if call == p.misreadAt {
		rd.Entries[p.misread] = rd.Entries[p.misread]%9 + 1
	}
	r.Pen = pipeline.PenOf(rd)
	// What a single frame would say of itself, judged against its own
	// solution: the session must not show it.
	r.SetMarks(pipeline.CheckEntries(r.Puzzle, r.Solved, r.Pen))
	return r
}

// penPage is classic with handwritten entries: the solution's digits in
// the empty cells of its first rows up to cell upto, except wrong cells
// holding another digit.
func penPage(upto int, wrong ...int) []int {
	e := make([]int, 81)
	for i := 0; i < upto; i++ {
		if classic[i] == '0' {
			e[i] = int(classicSolution[i] - '0')
		}
	}
	for _, i := range wrong {
		e[i] = e[i]%9 + 1
	}
	return e
}

// TestPenKeys plays the demo video as a page the player has started (two
// wrong entries, and one frame misreading a right one) with scripted keys:
// nothing that spoils the game before a key; C circles exactly the wrong
// entries, never the misread one; Space fills only the cells without
// ink; H names a wrong entry first; and a page full and right says
// Solved.
func TestPenKeys(t *testing.T) {
	d := loadDemo(t)
	const wrongA, wrongB, misread = 2, 21, 3 // r1c3, r3c4, r1c4: empty in classic
	cases := []struct {
		name    string
		entries []int
		keys    map[int]int
		solved  bool
		undrawn bool // as the web camera runs it
	}{
		{"half done", penPage(45, wrongA, wrongB), map[int]int{15: 'c', 25: ' ', 30: ' ', 35: 'h', 50: 'q'}, false, false},
		{"half done, undrawn", penPage(45, wrongA, wrongB), map[int]int{15: 'c', 25: ' ', 30: ' ', 35: 'h', 50: 'q'}, false, true},
		{"full and right", penPage(81), map[int]int{100: 'q'}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := OpenVideo(d.video)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			po := &penOracle{oracle: newOracle(t, classic), entries: c.entries, misreadAt: 2, misread: misread}
			var frames []FrameInfo
			var reports []Recognition
			_, err = Run(src, &keySink{keys: c.keys}, Options{
				NewRecognizer: func() (Recognizer, error) { return po, nil },
				OnFrame:       func(f FrameInfo) { frames = append(frames, f) },
				OnRecognition: func(r Recognition) { reports = append(reports, r) },
				Undrawn:       c.undrawn,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(reports) < 3 {
				t.Fatalf("%d recognitions, want at least 3", len(reports))
			}
			if len(reports[0].Mistakes) > 0 {
				t.Errorf("first recognition reports mistakes %v: one frame's reading", reports[0].Mistakes)
			}
			for _, r := range reports {
				if slices.Contains(r.Mistakes, misread) {
					t.Errorf("recognition of frame %d calls the misread right entry wrong: %v", r.Frame, r.Mistakes)
				}
			}
			var checked, filled, hinted, solved bool
			for _, f := range frames {
				if f.Entries == "" {
					continue
				}
				checking := f.Index > 15 && c.keys[15] == 'c'
				fill := f.Index > 25 && f.Index <= 30 && c.keys[25] == ' '
				if f.Solution != "" || (!fill && f.Fill != "") {
					t.Errorf("frame %d: drew solution %q fill %q unasked", f.Index, f.Solution, f.Fill)
				}
				if !checking && (len(f.Mistakes) > 0 || strings.Contains(f.Progress, "wrong")) {
					t.Errorf("frame %d, not checking: mistakes %v progress %q", f.Index, f.Mistakes, f.Progress)
				}
				if checking && len(f.Mistakes) > 0 {
					checked = true
					if !slices.Equal(f.Mistakes, []int{wrongA, wrongB}) {
						t.Errorf("frame %d: mistakes %v, want [%d %d]", f.Index, f.Mistakes, wrongA, wrongB)
					}
				}
				if fill && f.Fill != "" {
					filled = true
					for i := range f.Fill {
						want := byte('0')
						if classic[i] == '0' && c.entries[i] == 0 {
							want = classicSolution[i]
						}
						if f.Fill[i] != want {
							t.Errorf("frame %d: fill %q at cell %d, want %q", f.Index, f.Fill[i], i, want)
							break
						}
					}
				}
				if f.Index > 35 && strings.HasPrefix(f.Hint, "Wrong entry") {
					hinted = true
					if f.PenHint == nil || f.PenHint.Wrong == nil || (f.PenHint.Wrong.Cell != wrongA && f.PenHint.Wrong.Cell != wrongB) {
						t.Errorf("frame %d: pen hint %+v, want one of the wrong entries", f.Index, f.PenHint)
					}
				}
				solved = solved || f.Solved
				if f.Solved != c.solved && f.Solved {
					t.Errorf("frame %d: Solved on a page with wrong entries", f.Index)
				}
			}
			if c.solved != solved {
				t.Errorf("solved shown %v, want %v", solved, c.solved)
			}
			if c.keys[15] == 'c' && (!checked || !filled || !hinted) {
				t.Errorf("checked %v, filled %v, hinted a wrong entry %v: want all", checked, filled, hinted)
			}
		})
	}
}

// TestPenVoter: an entry counts as sure only when two readings were sure
// of it and none of another digit; the kind most readings saw wins.
func TestPenVoter(t *testing.T) {
	read := func(kind ocr.Kind, digit int, sure bool) pipeline.Pen {
		p := pipeline.Pen{Kinds: []ocr.Kind{kind}, Entries: []int{digit}, Conf: []float32{0.5}, Sure: []bool{sure}}
		if sure {
			p.Conf[0] = 1
		}
		return p
	}
	hand := func(d int, sure bool) pipeline.Pen { return read(ocr.KindHand, d, sure) }
	cases := []struct {
		name  string
		reads []pipeline.Pen
		kind  ocr.Kind
		digit int
		sure  bool
	}{
		{"one sure reading", []pipeline.Pen{hand(7, true)}, ocr.KindHand, 7, false},
		{"two sure readings", []pipeline.Pen{hand(7, true), hand(7, true)}, ocr.KindHand, 7, true},
		{"one sure of another digit", []pipeline.Pen{hand(7, true), hand(7, true), hand(1, true)}, ocr.KindHand, 7, false},
		{"unsure readings", []pipeline.Pen{hand(7, false), hand(7, false), hand(7, true)}, ocr.KindHand, 7, false},
		{"notes mostly", []pipeline.Pen{read(ocr.KindNotes, 0, false), hand(7, true), read(ocr.KindNotes, 0, false)}, ocr.KindNotes, 0, false},
		{"old readings fall out", []pipeline.Pen{hand(1, true), hand(7, true), hand(7, true), hand(7, true)}, ocr.KindHand, 7, true},
	}
	for _, c := range cases {
		v := newPenVoter(3)
		for _, r := range c.reads {
			v.Add(r)
		}
		got := v.Vote()
		if got.Kinds[0] != c.kind || got.Entries[0] != c.digit || got.Sure[0] != c.sure {
			t.Errorf("%s: voted %v %d sure %v, want %v %d sure %v", c.name, got.Kinds[0], got.Entries[0], got.Sure[0], c.kind, c.digit, c.sure)
		}
	}
}

// TestPenPagesInMotion holds held-out pen pages up to a 640×480 camera in
// mkvideo's motion, eight recognitions each, as written and with two of
// their entries exchanged in the photo: no recognition ever calls a
// right entry wrong or shows a wrong solution, the first of a page calls
// nothing wrong (one frame's reading), and the log says how many of the
// exchanged entries the vote flagged.
func TestPenPagesInMotion(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 96 frames")
	}
	needModel(t)
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	names := mixedHoldoutNames(t, dir)
	if len(names) > 6 {
		names = names[:6]
	}
	p, err := pipeline.New(pipeline.Options{}) // the embedded pen models
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var at []int
	for f := 15; f < 60; f += 6 {
		at = append(at, f)
	}
	flagged, wrong := 0, 0
	for pi, name := range names {
		photo := filepath.Join(dir, name+".jpg")
		given, err := sudoku.ReadDatFile(filepath.Join(dir, name+".dat"))
		if err != nil {
			t.Fatal(err)
		}
		pen, err := sudoku.ReadDatFile(filepath.Join(dir, name+".pen"))
		if err != nil {
			t.Fatal(err)
		}
		sol, err := sudoku.Solve(given)
		if err != nil {
			t.Fatal(err)
		}
		swapped, a, b := swappedPhoto(t, p, photo, pen.Cells)
		for _, tc := range []struct {
			photo   string
			entries []int
		}{{photo, pen.Cells}, {swapped, swapEntries(pen.Cells, a, b)}} {
			frames := heldFramesAt(t, tc.photo, 0.85, pi, at)
			views := recogniseEach(p, frames)
			closeAll(frames)
			for k, v := range views {
				if v.verdict.Status == pipeline.StatusSolved && sudoku.CellString(v.verdict.Solution.Cells) != sudoku.CellString(sol.Cells) {
					t.Errorf("%s frame %d: wrong solution shown", name, v.frame)
				}
				for _, c := range v.marks.Mistakes {
					if tc.entries[c] == 0 || tc.entries[c] == sol.Cells[c] {
						t.Errorf("%s frame %d: r%dc%d called wrong, holds %d", filepath.Base(tc.photo), v.frame, c/9+1, c%9+1, tc.entries[c])
					}
				}
				if k == 0 && len(v.marks.Mistakes) > 0 {
					t.Errorf("%s: the first recognition calls %v wrong", filepath.Base(tc.photo), v.marks.Mistakes)
				}
			}
			if tc.photo == swapped {
				wrong += 2
				last := views[len(views)-1].marks.Mistakes
				for _, c := range []int{a, b} {
					if slices.Contains(last, c) {
						flagged++
					}
				}
			}
		}
	}
	t.Logf("%d of %d exchanged entries flagged at the last recognition", flagged, wrong)
}

// mixedHoldoutNames lists the held-out pen pages (names without .jpg).
func mixedHoldoutNames(tb testing.TB, dir string) []string {
	tb.Helper()
	data, err := os.ReadFile(testenv.Committed(tb, "testdata/live/wicht-holdout.list"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, l := range strings.Fields(string(data)) {
		name := strings.TrimSuffix(filepath.Base(l), ".jpg")
		if _, err := os.Stat(filepath.Join(dir, name+".pen")); err == nil {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		testenv.Missing(tb, "no held-out page in "+dir)
	}
	return out
}

// swappedPhoto writes photo with its first two entries of different
// digits exchanged into a temporary file, and returns it and the cells.
func swappedPhoto(t *testing.T, p *pipeline.Pipeline, photo string, entries []int) (string, int, int) {
	t.Helper()
	a := slices.IndexFunc(entries, func(e int) bool { return e != 0 })
	b := slices.IndexFunc(entries, func(e int) bool { return e != 0 && e != entries[a] })
	img := gocv.IMRead(photo, gocv.IMReadColor)
	defer img.Close()
	r := p.Process(img)
	if a < 0 || b < 0 || !r.Found {
		t.Fatalf("%s: no two entries to exchange, or no grid (%s)", photo, r.Status)
	}
	if err := held.SwapCells(&img, pipeline.Corners(r.Grid), a, b); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(photo))
	if !gocv.IMWrite(out, img) {
		t.Fatalf("write %s", out)
	}
	return out, a, b
}

func swapEntries(e []int, a, b int) []int {
	e = slices.Clone(e)
	e[a], e[b] = e[b], e[a]
	return e
}

// TestPenVoterProbs: the digits' probabilities are voted only once
// penSureReadings readings saw handwriting, as their mean, the kind as
// sure as the least sure of them.
func TestPenVoterProbs(t *testing.T) {
	read := func(p4, kind float32) pipeline.Pen {
		q := make([]float32, 10)
		q[4], q[9] = p4, 1-p4
		return pipeline.Pen{Kinds: []ocr.Kind{ocr.KindHand}, Entries: []int{9}, Conf: []float32{0.5}, Sure: []bool{false},
			KindProb: []float32{kind}, Probs: [][]float32{q}}
	}
	v := newPenVoter(5)
	v.Add(read(0.2, 0.999))
	if got := v.Vote(); got.Probs == nil || got.Probs[0] != nil {
		t.Fatalf("one reading: voted probabilities %v, want none yet", got.Probs)
	}
	v.Add(read(0.6, 0.95))
	got := v.Vote()
	if len(got.Probs[0]) != 10 || got.Probs[0][4] < 0.39 || got.Probs[0][4] > 0.41 || got.KindProb[0] != 0.95 {
		t.Errorf("two readings: p(4) %v kind %v, want 0.4 and 0.95", got.Probs[0], got.KindProb[0])
	}
}
