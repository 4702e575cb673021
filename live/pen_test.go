package live

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
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
			var reports []pipeline.Result
			_, err = Run(src, &keySink{keys: c.keys}, Options{
				NewRecognizer: func() (Recognizer, error) { return po, nil },
				OnFrame:       func(f FrameInfo) { frames = append(frames, f) },
				OnRecognition: func(r pipeline.Result) { reports = append(reports, r) },
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
					t.Errorf("recognition of frame %d calls the misread right entry wrong: %v", *r.Frame, r.Mistakes)
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
