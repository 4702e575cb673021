package ocr_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// tableClassifier returns preset probabilities: each cell carries its own
// index in its four corner pixels (as i/1000, unchanged by quarter turns),
// so Read's batching can be checked too. A cell is read with its preset
// probabilities only when its "up" mark (pixel r0c1) is on, that is, when
// it is upright; otherwise the classifier is unsure.
type tableClassifier struct {
	probs map[int][]float32
	seen  map[int]bool
}

func (t *tableClassifier) Classify(cells [][]float32) ([][]float32, error) {
	out := make([][]float32, len(cells))
	for k, c := range cells {
		if len(c) != ocr.CellLen {
			return nil, &ocr.InputError{Cell: k, Reason: "bad length"}
		}
		i := int(c[0]*1000 + 0.5)
		t.seen[i] = true
		out[k] = t.probs[i]
		if c[1] != 1 {
			out[k] = make([]float32, 10)
			for v := range out[k] {
				out[k][v] = 0.1
			}
		}
	}
	return out, nil
}

// mark writes the cell index and the up mark, turned k quarter turns.
func mark(i, k int) []float32 {
	px := make([]float32, ocr.CellLen)
	s := vision.CellSize
	for _, j := range []int{0, s - 1, s * (s - 1), s*s - 1} {
		px[j] = float32(i) / 1000
	}
	px[1] = 1
	return ocr.TurnCell(px, k)
}

// sure returns probabilities with mass p on v and the rest on alt.
func sure(v int, p float32, alt int) []float32 {
	q := make([]float32, 10)
	q[v] = p
	q[alt] += 1 - p
	return q
}

// setup builds the cells and a classifier that reads puzzle perfectly, with
// confidence 0.999 (the runner-up being class 0).
func setup(t *testing.T, puzzle string, shape sudoku.Shape) (sudoku.Grid, []vision.Cell, *tableClassifier) {
	return setupTurned(t, puzzle, shape, 0)
}

// setupTurned is setup with every cell image turned k quarter turns.
func setupTurned(t *testing.T, puzzle string, shape sudoku.Shape, k int) (sudoku.Grid, []vision.Cell, *tableClassifier) {
	t.Helper()
	g, err := sudoku.ParseLine(puzzle, &shape)
	if err != nil {
		t.Fatal(err)
	}
	n := shape.N()
	cells := make([]vision.Cell, n*n)
	tc := &tableClassifier{probs: map[int][]float32{}, seen: map[int]bool{}}
	for i, v := range g.Cells {
		cells[i] = vision.Cell{Row: i / n, Col: i % n, Empty: v == 0}
		if v != 0 {
			cells[i].Pixels = mark(i, k)
			tc.probs[i] = sure(v, 0.999, 0)
		}
	}
	return g, cells, tc
}

const wiki = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"

func TestReadResolves(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	cases := []struct {
		name    string
		tweak   func(p map[int][]float32)
		changes []int // cells expected to change, in order
		reason  string
	}{
		{"clean", func(map[int][]float32) {}, nil, ""},
		// r1c1 is 5; misread as 3 (which conflicts with r1c2 = 3), 5 second.
		{"conflict", func(p map[int][]float32) { p[0] = sure(3, 0.6, 5) }, []int{0}, "3 twice in row 1"},
		// r1c1 misread as 2 (no conflict; 2 is not in its row, column or
		// box) makes the grid unsolvable; the search restores 5.
		{"unsolvable", func(p map[int][]float32) { p[0] = sure(2, 0.7, 5) }, []int{0}, "unique solution"},
		// A conflict whose next most likely digit (2) leaves no solution:
		// the joint search goes on to the third (5).
		{"conflict then search", func(p map[int][]float32) {
			q := make([]float32, 10)
			q[3], q[2], q[5] = 0.5, 0.3, 0.2
			p[0] = q
		}, []int{0}, "3 twice in row 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, cells, cl := setup(t, wiki, s9)
			tc.tweak(cl.probs)
			r, err := ocr.Read(cl, s9, cells)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Given.Equal(want) {
				t.Errorf("read\n%v\nwant\n%v", r.Given, want)
			}
			if r.Solutions != 1 {
				t.Errorf("Solutions = %d, want 1", r.Solutions)
			}
			for i, v := range want.Cells {
				if cl.seen[i] != (v != 0) {
					t.Errorf("cell %d (value %d) classified: %v", i, v, cl.seen[i])
				}
			}
			if r.Turns != 0 {
				t.Errorf("Turns = %d, want 0", r.Turns)
			}
			var got []int
			for _, c := range r.Changes {
				got = append(got, c.Cell)
				if c.Reason == "" {
					t.Errorf("change %+v has no reason", c)
				}
			}
			if len(got) != len(tc.changes) {
				t.Fatalf("changes %+v, want cells %v", r.Changes, tc.changes)
			}
			if tc.reason != "" && !strings.Contains(r.Changes[0].Reason, tc.reason) {
				t.Errorf("reason %q does not say %q", r.Changes[0].Reason, tc.reason)
			}
			if len(r.Changes) > 0 && r.Changes[len(r.Changes)-1].To != 5 {
				t.Errorf("last change %+v, want to 5", r.Changes[len(r.Changes)-1])
			}
			for i, p := range r.Prob {
				if (p == nil) != cells[i].Empty {
					t.Errorf("cell %d: Prob %v but Empty %v", i, p, cells[i].Empty)
				}
			}
		})
	}
}

// TestReadTurned: cells of a page photographed sideways or upside down are
// read turned back, and Turns says how.
func TestReadTurned(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	for k := 0; k < 4; k++ {
		want, cells, cl := setupTurned(t, wiki, s9, k)
		r, err := ocr.Read(cl, s9, cells)
		if err != nil {
			t.Fatal(err)
		}
		if wantTurns := (4 - k) % 4; r.Turns != wantTurns {
			t.Errorf("cells turned %d: Turns = %d, want %d", k, r.Turns, wantTurns)
		}
		if !r.Given.Equal(want) || r.Solutions != 1 {
			t.Errorf("cells turned %d: read\n%v\nwant\n%v", k, r.Given, want)
		}
	}
}

// TestReadUnfixable: two low-confidence cells both misread, with no
// probability on the truth: Read returns the grid as read and says it has
// no unique solution, without error.
func TestReadUnfixable(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	_, cells, cl := setup(t, wiki, s9)
	cl.probs[0] = sure(2, 1, 0) // r1c1 5 → 2 with full confidence
	r, err := ocr.Read(cl, s9, cells)
	if err != nil {
		t.Fatal(err)
	}
	if r.Solutions == 1 {
		t.Errorf("Solutions = 1 for a grid with a certain misread: %v", r.Changes)
	}
	if r.Given.Cells[0] != 2 {
		t.Errorf("r1c1 = %d, want the misread 2 kept", r.Given.Cells[0])
	}
}

func TestReadSmallGridIgnoresBigDigits(t *testing.T) {
	s4 := sudoku.Shape{BoxRows: 2, BoxCols: 2}
	want, cells, cl := setup(t, "1000000200300004", s4)
	// r1c1 is 1; the model prefers 7, which a 4×4 grid cannot hold.
	q := make([]float32, 10)
	q[7], q[1] = 0.8, 0.2
	cl.probs[0] = q
	r, err := ocr.Read(cl, s4, cells)
	if err != nil {
		t.Fatal(err)
	}
	if r.Given.Cells[0] != 1 || len(r.Prob[0]) != 5 {
		t.Errorf("r1c1 = %d with probabilities %v, want 1 and values 0..4 only", r.Given.Cells[0], r.Prob[0])
	}
	_ = want
}

func TestReadRejects(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	_, cells, cl := setup(t, wiki, s9)
	// A ten-class model has no glyphs above 9; no model reads 25×25.
	if _, err := ocr.Read(cl, sudoku.Shape{BoxRows: 4, BoxCols: 4}, make([]vision.Cell, 256)); !errors.Is(err, ocr.ErrGridTooLarge) {
		t.Errorf("16×16: error %v, want ErrGridTooLarge", err)
	}
	if _, err := ocr.Read(cl, sudoku.Shape{BoxRows: 3, BoxCols: 4}, make([]vision.Cell, 144)); !errors.Is(err, ocr.ErrGridTooLarge) {
		t.Errorf("12×12: error %v, want ErrGridTooLarge", err)
	}
	if _, err := ocr.Read(cl, sudoku.Shape{BoxRows: 5, BoxCols: 5}, make([]vision.Cell, 625)); !errors.Is(err, ocr.ErrGridTooLarge) {
		t.Errorf("25×25: error %v, want ErrGridTooLarge", err)
	}
	var ie *ocr.InputError
	if _, err := ocr.Read(cl, s9, cells[:80]); !errors.As(err, &ie) {
		t.Errorf("80 cells: error %v, want InputError", err)
	}
	bad := append([]vision.Cell(nil), cells...)
	bad[0].Pixels = bad[0].Pixels[:100]
	if _, err := ocr.Read(cl, s9, bad); !errors.As(err, &ie) || ie.Cell != 0 {
		t.Errorf("short pixels: error %v, want InputError for cell 0", err)
	}
	swapped := append([]vision.Cell(nil), cells...)
	swapped[3], swapped[4] = swapped[4], swapped[3]
	if _, err := ocr.Read(cl, s9, swapped); !errors.As(err, &ie) {
		t.Errorf("out-of-order cells: error %v, want InputError", err)
	}
}

// TestReadFaintCell: a given that vision called empty (but whose pixels it
// kept) is restored when the grid lacks a unique solution without it. In a
// 17-clue puzzle every given is needed.
func TestReadFaintCell(t *testing.T) {
	const p17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	for _, prob := range []float32{0.9, 0.3} {
		want, cells, cl := setup(t, p17, s9)
		i := 7 // r1c8 = 1
		cells[i].Empty = true
		cl.probs[i] = sure(1, prob, 0)
		r, err := ocr.Read(cl, s9, cells)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Given.Equal(want) || r.Solutions != 1 {
			t.Errorf("p=%v: read\n%v\nwant\n%v (%d solutions)", prob, r.Given, want, r.Solutions)
		}
		if len(r.Changes) != 1 || r.Changes[0].Cell != i || r.Changes[0].From != 0 || r.Changes[0].To != 1 {
			t.Errorf("p=%v: changes %+v, want r1c8 0→1", prob, r.Changes)
		}
	}
	// Without pixels there is nothing to classify: the grid stays ambiguous.
	_, cells, cl := setup(t, p17, s9)
	cells[7].Empty, cells[7].Pixels = true, nil
	r, err := ocr.Read(cl, s9, cells)
	if err != nil {
		t.Fatal(err)
	}
	if r.Solutions != 2 || r.Given.Cells[7] != 0 || r.Prob[7] != nil {
		t.Errorf("no pixels: %d solutions, r1c8 = %d, prob %v", r.Solutions, r.Given.Cells[7], r.Prob[7])
	}
}

// TestReadFaintRepairNotSure: a faint cell the reader reads surely as one
// digit, which the repair fills with another it gave almost no chance to
// reach one solution, is at most as sure as that chance against the
// digit read, not against the empty cell it was taken for: such a given
// is to be checked, never shown sure.
func TestReadFaintRepairNotSure(t *testing.T) {
	const p17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	_, cells, cl := setup(t, p17, s9)
	const i = 7 // r1c8 = 1
	cells[i].Empty = true
	q := make([]float32, 10)
	q[0], q[1], q[7] = 1e-5, 1e-4, 1-1e-4-1e-5
	cl.probs[i] = q
	r, err := ocr.Read(cl, s9, cells)
	if err != nil {
		t.Fatal(err)
	}
	if r.Given.Cells[i] == 0 {
		t.Skip("the repair did not fill r1c8: nothing to judge")
	}
	if c := r.Conf[i]; c >= float32(ocr.DefaultSettings.CheckBelow) {
		t.Errorf("r1c8 filled with %d at %.3g sure: the reader gave it %.0e against %.4f for 7", r.Given.Cells[i], c, q[1], q[7])
	}
}

// TestReadFaintCellConfirmed: once the reading has a unique solution, a
// faint cell becomes a given only when the model is sure of it and it is the
// digit the solution puts there (a faded given the puzzle did not need).
func TestReadFaintCellConfirmed(t *testing.T) {
	// wiki with r1c3 = 4 (its solution's value) added: still unique without it.
	const withExtra = "534070000600195000098000060800060003400803001700020006060000280000419005000080079"
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	cases := []struct {
		name  string
		digit int
		p     float32
		want  int // r1c3 in the reading
	}{
		{"sure and agrees with the solution", 4, 0.95, 4},
		{"sure but not the solution's digit", 9, 0.95, 0},
		{"agrees but unsure", 4, 0.6, 0},
		{"read as empty", 0, 0.99, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, cells, cl := setup(t, withExtra, s9)
			const i = 2
			cells[i].Empty = true
			cl.probs[i] = sure(c.digit, c.p, 0)
			r, err := ocr.Read(cl, s9, cells)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Given.Cells[i]; got != c.want || r.Solutions != 1 {
				t.Fatalf("r1c3 = %d (%d solutions), want %d", got, r.Solutions, c.want)
			}
			if changed := len(r.Changes) == 1 && r.Changes[0].Cell == i && r.Changes[0].To == 4; changed != (c.want != 0) {
				t.Errorf("changes %+v", r.Changes)
			}
		})
	}
}

func TestTop(t *testing.T) {
	p := []float32{0.05, 0.6, 0, 0.3, 0, 0, 0, 0, 0.05, 0}
	cases := []struct {
		k    int
		want []ocr.Guess
	}{
		{1, []ocr.Guess{{1, 0.6}}},
		{3, []ocr.Guess{{1, 0.6}, {3, 0.3}, {0, 0.05}}},
		{0, nil},
	}
	for _, c := range cases {
		got := ocr.Top(p, c.k)
		if len(got) != len(c.want) {
			t.Fatalf("Top(k=%d) = %v, want %v", c.k, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Top(k=%d) = %v, want %v", c.k, got, c.want)
			}
		}
	}
	if len(ocr.Top(p, 20)) != 10 || ocr.Top(nil, 3) != nil {
		t.Error("Top does not clamp k or reject a nil cell")
	}
}

// TestReadDoubt: a given for which another value also gives a unique
// solution is listed in Doubt unless that value is far less likely
// (altFloor); a reading with a doubt is not Certain. In the wiki puzzle
// r3c8 = 6 can be read as 5 and the grid still has one (other) solution.
func TestReadDoubt(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	const cell = 2*9 + 7 // r3c8
	cases := []struct {
		name      string
		read, alt int
		p         float32
		doubt     bool
	}{
		{"right, rival 1% likely", 6, 5, 0.99, true},
		{"misread 6 as 5, truth 3% likely", 5, 6, 0.97, true},
		{"right, rival 1e-7 likely", 6, 5, 1 - 1e-7, false},
		{"right, the other value breaks a rule", 6, 9, 0.9, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, cells, cl := setup(t, wiki, s9)
			cl.probs[cell] = sure(c.read, c.p, c.alt)
			r, err := ocr.Read(cl, s9, cells)
			if err != nil {
				t.Fatal(err)
			}
			if r.Solutions != 1 || r.Given.Cells[cell] != c.read {
				t.Fatalf("r3c8 = %d with %d solutions, want %d and 1", r.Given.Cells[cell], r.Solutions, c.read)
			}
			got := len(r.Doubt) == 1 && r.Doubt[0].Cell == cell && r.Doubt[0].Alt == c.alt
			if got != c.doubt || r.Certain() == c.doubt {
				t.Errorf("doubts %+v, certain %v; want doubt on r3c8 (alt %d): %v", r.Doubt, r.Certain(), c.alt, c.doubt)
			}
		})
	}
	// Below CheckBelow a given is a doubt whatever the rules say.
	_, cells, cl := setup(t, wiki, s9)
	q := make([]float32, 10)
	q[5], q[3], q[0] = 0.45, 0.3, 0.25 // 3 is in row 1 already
	cl.probs[0] = q
	r, err := ocr.Read(cl, s9, cells)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Doubt) != 1 || r.Doubt[0].Cell != 0 || !strings.Contains(r.Doubt[0].Reason, "45% sure") {
		t.Errorf("r1c1 read 45%% sure: doubts %+v", r.Doubt)
	}
}

// TestReadRival: two repairs with different unique solutions nearly as
// likely: Read keeps the likelier one but lists the cell as a doubt.
func TestReadRival(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	_, cells, cl := setup(t, wiki, s9)
	// r3c8 read as 9 (in its column already: a conflict); 6 and 5 both
	// give a unique solution.
	q := make([]float32, 10)
	q[9], q[6], q[5] = 0.5, 0.3, 0.2
	cl.probs[2*9+7] = q
	r, err := ocr.Read(cl, s9, cells)
	if err != nil {
		t.Fatal(err)
	}
	if r.Given.Cells[2*9+7] != 6 || r.Solutions != 1 || r.Certain() {
		t.Errorf("r3c8 = %d, %d solutions, certain %v; want 6, 1, not certain", r.Given.Cells[2*9+7], r.Solutions, r.Certain())
	}
	if len(r.Doubt) != 1 || r.Doubt[0].Alt != 5 {
		t.Errorf("doubts %+v, want r3c8 with 5 as the rival", r.Doubt)
	}
}

// glyphClassifier reads cells like tableClassifier but over all NumGlyphs
// glyph classes.
type glyphClassifier struct{ tableClassifier }

func (g *glyphClassifier) Glyphs() int { return ocr.NumGlyphs }

// TestReadBigGrids: 12×12 and 16×16 puzzles printed with numbers, letters or
// 0..F are read back as values, the convention found from the glyphs.
func TestReadBigGrids(t *testing.T) {
	for _, shape := range []sudoku.Shape{{BoxRows: 3, BoxCols: 4}, {BoxRows: 4, BoxCols: 4}} {
		n := shape.N()
		pz, err := sudoku.Generate(shape, 7, n*n/2)
		if err != nil {
			t.Fatal(err)
		}
		for _, sym := range sudoku.AllSymbols {
			t.Run(fmt.Sprintf("%dx%d %v", n, n, sym), func(t *testing.T) {
				glyphs := ocr.ValueGlyphs(sym, n)
				cl := &glyphClassifier{tableClassifier{probs: map[int][]float32{}, seen: map[int]bool{}}}
				cells := make([]vision.Cell, n*n)
				for i, v := range pz.Cells {
					cells[i] = vision.Cell{Row: i / n, Col: i % n, Empty: v == 0}
					if v != 0 {
						cells[i].Pixels = mark(i, 0)
						p := make([]float32, ocr.NumGlyphs)
						p[glyphs[v]] = 0.99
						p[0] = 0.01
						cl.probs[i] = p
					}
				}
				r, err := ocr.Read(cl, shape, cells)
				if err != nil {
					t.Fatal(err)
				}
				if r.Symbols != sym || !r.Given.Equal(pz) || !r.Certain() {
					t.Errorf("read with %v, certain %v, doubts %v:\n%v\nwant %v:\n%v", r.Symbols, r.Certain(), r.Doubt, r.Given, sym, pz)
				}
			})
		}
	}
	// A ten-class model cannot read them.
	_, cells, cl := setup(t, wiki, sudoku.Shape{BoxRows: 3, BoxCols: 3})
	_ = cells
	if _, err := ocr.Read(cl, sudoku.Shape{BoxRows: 4, BoxCols: 4}, make([]vision.Cell, 256)); !errors.Is(err, ocr.ErrGridTooLarge) {
		t.Errorf("16×16 with a ten-class model: %v", err)
	}
}

// BenchmarkRepair times Read with a classifier that costs nothing (preset
// probabilities), so ns/op is what the repair search and the doubt check
// add to a grid's reading: the budget is 20 ms.
func BenchmarkRepair(b *testing.B) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	const p17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	cases := []struct {
		name   string
		puzzle string
		tweak  func(p map[int][]float32, cells []vision.Cell)
	}{
		{"unique", wiki, func(map[int][]float32, []vision.Cell) {}},
		{"conflict", wiki, func(p map[int][]float32, _ []vision.Cell) { p[0] = sure(3, 0.6, 5) }},
		{"faint digit needed", p17, func(p map[int][]float32, c []vision.Cell) { c[7].Empty = true; p[7] = sure(1, 0.3, 0) }},
		{"rival", wiki, func(p map[int][]float32, _ []vision.Cell) {
			q := make([]float32, 10)
			q[9], q[6], q[5] = 0.5, 0.3, 0.2
			p[2*9+7] = q
		}},
		{"every given unsure", wiki, func(p map[int][]float32, _ []vision.Cell) {
			for i, q := range p {
				v := 0
				for k := range q {
					if q[k] > q[v] {
						v = k
					}
				}
				r := make([]float32, 10)
				for k := range r {
					r[k] = 0.6 / 9
				}
				r[v] = 0.4
				p[i] = r
			}
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			t := &testing.T{}
			_, cells, cl := setup(t, c.puzzle, s9)
			c.tweak(cl.probs, cells)
			benchRead(b, cl, s9, cells)
		})
	}
}

// TestReadSecondLook: a cell the model is unsure of is read again from its
// half-way view (vision.Cell.Half) and the two readings combined; a sure
// cell is not looked at twice, nor a reading already certain with every
// given at least LookCertainBelow sure, and SecondLook 0 turns the look off.
func TestReadSecondLook(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	const cell = 2*9 + 7 // r3c8, a 6; 5 would also give a unique solution
	const halfMark = 500 + cell
	cases := []struct {
		name    string
		read    []float32 // from Pixels
		half    []float32 // from Half
		set     float64   // Settings.SecondLook
		looked  bool      // Half was classified
		certain bool
	}{
		{"unsure, the half-way view agrees", sure(6, 0.99, 5), sure(6, 0.99999, 5), 0.999, true, true},
		{"unsure, the half-way view disagrees", sure(6, 0.99, 5), sure(5, 0.99, 6), 0.999, true, false},
		{"sure: no second look", sure(6, 0.9999, 5), sure(5, 0.99, 6), 0.999, false, true},
		{"certain and every given 95% sure: no second look", sure(6, 0.996, 5), sure(5, 0.99, 6), 0.999, false, true},
		{"certain but a given under 95%: looked, and put in doubt", []float32{0.055, 0, 0, 0, 0, 0.005, 0.94, 0, 0, 0}, sure(5, 0.99, 6), 0.999, true, false},
		{"second look off", sure(6, 0.99, 5), sure(6, 0.99999, 5), 0, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, cells, cl := setup(t, wiki, s9)
			cl.probs[cell] = c.read
			cl.probs[halfMark] = c.half
			cells[cell].Half = mark(halfMark, 0)
			set := ocr.DefaultSettings
			set.SecondLook = c.set
			r, err := ocr.ReadWith(cl, s9, cells, set)
			if err != nil {
				t.Fatal(err)
			}
			if cl.seen[halfMark] != c.looked {
				t.Errorf("half-way view classified: %v, want %v", cl.seen[halfMark], c.looked)
			}
			if r.Certain() != c.certain {
				t.Errorf("certain %v (doubts %+v), want %v", r.Certain(), r.Doubt, c.certain)
			}
			if r.Solutions != 1 || r.Given.Cells[cell] != 6 && c.certain {
				t.Errorf("r3c8 = %d with %d solutions, want 6 and 1", r.Given.Cells[cell], r.Solutions)
			}
		})
	}
}

// TestReadUnlikelyRepairDoubted: a repair that takes a value the model gave
// little chance against what it read is not presented as certain, even
// when it is the only unique reading the search finds (a 12×12 read far
// away was repaired 4→8 at p=0.05 against 0.41 and solved wrongly, the
// page's digit not being among the alternatives). r1c1 of wiki is 5, read
// as 3 (which clashes with r1c2 = 3) with 5 the runner-up.
func TestReadUnlikelyRepairDoubted(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	for _, tc := range []struct {
		p3      float32 // the model's probability of the misread 3 (5 has the rest)
		certain bool
	}{
		{0.6, true},   // 5 two thirds as likely: repaired and certain
		{0.9, false},  // 5 a ninth as likely: repaired, r1c1 to check
		{0.98, false}, // 5 a 49th as likely
	} {
		want, cells, cl := setup(t, wiki, s9)
		cl.probs[0] = sure(3, tc.p3, 5)
		r, err := ocr.Read(cl, s9, cells)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Given.Equal(want) || r.Solutions != 1 || len(r.Changes) != 1 {
			t.Fatalf("p(3)=%v: read %v with %d solutions, changes %+v; want wiki repaired at r1c1", tc.p3, r.Given, r.Solutions, r.Changes)
		}
		if r.Certain() != tc.certain {
			t.Errorf("p(3)=%v: certain %v (conf %.2f, doubt %+v), want %v", tc.p3, r.Certain(), r.Conf[0], r.Doubt, tc.certain)
		}
		if !tc.certain && (len(r.Doubt) != 1 || r.Doubt[0].Cell != 0) {
			t.Errorf("p(3)=%v: doubt %+v, want r1c1", tc.p3, r.Doubt)
		}
	}
}

// TestReadWideRepair: more givens misread than the search's three edits
// (a blurred thin font reads several 3s as 1s and 13s as 11s), each as a
// value given elsewhere in its row, with the printed value the model's
// second choice at about a third of the odds: the wide repair restores a
// 12×12 or 16×16 puzzle, and since every change goes against the model's
// odds, each changed cell is to be checked (never shown as certain). A
// 9×9 with four such misreads is left as read (no wide repair there).
func TestReadWideRepair(t *testing.T) {
	for _, tc := range []struct {
		shape  sudoku.Shape
		givens int
		wrong  int
	}{
		{sudoku.Shape{BoxRows: 3, BoxCols: 4}, 56, 5},
		{sudoku.Shape{BoxRows: 4, BoxCols: 4}, 112, 5},
	} {
		n := tc.shape.N()
		t.Run(fmt.Sprintf("%dx%d, %d misread", n, n, tc.wrong), func(t *testing.T) {
			pz, cells, cl, misread := misreadPuzzle(t, tc.shape, tc.givens, tc.wrong)
			r, err := ocr.Read(cl, tc.shape, cells)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Given.Equal(pz) || r.Solutions != 1 {
				t.Fatalf("read with %d solutions, changes %+v:\n%v\nwant\n%v", r.Solutions, r.Changes, r.Given, pz)
			}
			if len(r.Changes) != tc.wrong {
				t.Errorf("%d changes, want %d: %+v", len(r.Changes), tc.wrong, r.Changes)
			}
			doubted := map[int]bool{}
			for _, d := range r.Doubt {
				doubted[d.Cell] = true
			}
			for i := range misread {
				if !doubted[i] || r.Conf[i] >= 0.5 {
					t.Errorf("r%dc%d changed back to the printed value with confidence %.2f, doubted %v: want it to be checked", i/n+1, i%n+1, r.Conf[i], doubted[i])
				}
			}
			if r.Certain() {
				t.Error("a reading with every change against the model's odds is certain")
			}
		})
	}
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	pz, cells, cl, _ := misreadPuzzle(t, s9, 28, 4)
	r, err := ocr.Read(cl, s9, cells)
	if err != nil {
		t.Fatal(err)
	}
	if r.Given.Equal(pz) || r.Solutions == 1 || len(r.Changes) > 0 {
		t.Errorf("9×9 with four givens misread: repaired (%d solutions, changes %+v), want it left as read", r.Solutions, r.Changes)
	}
}

// misreadPuzzle makes a puzzle of the given shape with givens givens and
// the cells of a classifier that reads wrong of them as a value given
// earlier in the same row (p=0.7), the printed value second (p=0.25), and
// the others surely (p=0.99).
func misreadPuzzle(t testing.TB, shape sudoku.Shape, givens, wrong int) (sudoku.Grid, []vision.Cell, *glyphClassifier, map[int]bool) {
	t.Helper()
	n := shape.N()
	pz, err := sudoku.Generate(shape, 11, givens)
	if err != nil {
		t.Fatal(err)
	}
	glyphs := ocr.ValueGlyphs(sudoku.Numbers, n)
	cl := &glyphClassifier{tableClassifier{probs: map[int][]float32{}, seen: map[int]bool{}}}
	cells := make([]vision.Cell, n*n)
	misread := map[int]bool{}
	for i, v := range pz.Cells {
		cells[i] = vision.Cell{Row: i / n, Col: i % n, Empty: v == 0}
		if v == 0 {
			continue
		}
		cells[i].Pixels = mark(i, 0)
		p := make([]float32, ocr.NumGlyphs)
		if w := rowMate(pz, i); w != 0 && len(misread) < wrong && i%3 == 0 {
			misread[i] = true
			p[glyphs[w]], p[glyphs[v]], p[0] = 0.7, 0.25, 0.05
		} else {
			p[glyphs[v]], p[0] = 0.99, 0.01
		}
		cl.probs[i] = p
	}
	if len(misread) != wrong {
		t.Fatalf("%d cells misread, want %d", len(misread), wrong)
	}
	return pz, cells, cl, misread
}

// BenchmarkWideRepair times Read (a classifier that costs nothing) on a
// 16×16 with five givens misread, repaired by the wide repair.
func BenchmarkWideRepair(b *testing.B) {
	shape := sudoku.Shape{BoxRows: 4, BoxCols: 4}
	_, cells, cl, _ := misreadPuzzle(b, shape, 112, 5)
	benchRead(b, cl, shape, cells)
}

// benchRead times Read of cells with cl, reporting its CPU per read.
func benchRead(b *testing.B, cl ocr.Classifier, shape sudoku.Shape, cells []vision.Cell) {
	b.ResetTimer()
	cpu := cputime.Process()
	for i := 0; i < b.N; i++ {
		if _, err := ocr.Read(cl, shape, cells); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// rowMate is the first value given in cell i's row before it (0: none).
func rowMate(g sudoku.Grid, i int) int {
	n := g.N()
	for j := i - i%n; j < i; j++ {
		if g.Cells[j] != 0 {
			return g.Cells[j]
		}
	}
	return 0
}
