package pipeline

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
)

// mixedHoldout lists the held-out pen pages: the names of
// testdata/live/wicht-holdout.list that wicht-mixed-train holds, as paths
// without their extension.
func mixedHoldout(tb testing.TB) []string {
	tb.Helper()
	dir := testenv.Shared(tb, "datasets/wicht-mixed-train")
	f, err := os.Open(testenv.Committed(tb, "testdata/live/wicht-holdout.list"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name := strings.TrimSuffix(filepath.Base(strings.TrimSpace(sc.Text())), ".jpg")
		if name == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, name+".pen")); err == nil {
			out = append(out, filepath.Join(dir, name))
		}
	}
	if len(out) == 0 {
		testenv.Missing(tb, "no held-out page in "+dir)
	}
	return out
}

// truthReading is the reading a perfect pen reader would make of page
// (a path without extension): printed givens from its .dat, handwritten
// entries from its .pen, every cell sure.
func truthReading(tb testing.TB, page string) ocr.Reading {
	tb.Helper()
	given, err := sudoku.ReadDatFile(page + ".dat")
	if err != nil {
		tb.Fatal(err)
	}
	pen, err := sudoku.ReadDatFile(page + ".pen")
	if err != nil {
		tb.Fatal(err)
	}
	n := len(given.Cells)
	rd := ocr.Reading{Given: given, Conf: make([]float32, n), Kinds: make([]ocr.Kind, n),
		KindConf: make([]float32, n), Entries: make([]int, n), EntryConf: make([]float32, n)}
	for i := range given.Cells {
		rd.Conf[i], rd.KindConf[i] = 1, 1
		switch {
		case given.Cells[i] != 0:
			rd.Kinds[i] = ocr.KindPrinted
		case pen.Cells[i] != 0:
			rd.Kinds[i], rd.Entries[i], rd.EntryConf[i] = ocr.KindHand, pen.Cells[i], 1
		}
	}
	rd.Solutions = sudoku.CountSolutions(given, 2)
	return rd
}

// fromReading is the Result the pipeline makes of rd, read from cells
// large enough not to be doubted for their size.
func fromReading(rd ocr.Reading) Result {
	r := Result{Found: true, CellPx: 40, Pen: PenOf(rd)}
	r.take(rd, StatusNone)
	return r
}

// TestEntriesOnHeldOutPages checks the entries of every held-out pen page,
// read as the truth says, and the same pages with two entries swapped:
// givens and entries split exactly, the swapped (wrong) entries flagged,
// no right entry flagged, an unsure wrong entry only "check rXcY", and no
// entry called wrong while the gate holds the solution.
func TestEntriesOnHeldOutPages(t *testing.T) {
	for _, page := range mixedHoldout(t) {
		t.Run(filepath.Base(page), func(t *testing.T) {
			rd := truthReading(t, page)
			sol, err := sudoku.Solve(rd.Given)
			if err != nil {
				t.Fatalf("truth givens: %v", err)
			}
			var wrong, right []int // entries the truth says are wrong / right
			for i, e := range rd.Entries {
				switch {
				case e == 0:
				case e != sol.Cells[i]:
					wrong = append(wrong, i)
				default:
					right = append(right, i)
				}
			}
			// Two right entries of different digits, swapped: both wrong.
			a, b := -1, -1
			for _, i := range right {
				for _, j := range right {
					if a < 0 && rd.Entries[i] != rd.Entries[j] {
						a, b = i, j
					}
				}
			}
			swapped := func() ocr.Reading {
				s := rd
				s.Entries = slices.Clone(rd.Entries)
				s.EntryConf = slices.Clone(rd.EntryConf)
				s.Entries[a], s.Entries[b] = s.Entries[b], s.Entries[a]
				return s
			}
			cases := []struct {
				name     string
				rd       func() ocr.Reading
				mistakes []int
				check    []int
			}{
				{"as written", func() ocr.Reading { return rd }, wrong, nil},
				{"two swapped", swapped, sorted(append(slices.Clone(wrong), a, b)), nil},
				{"one swapped entry unsure", func() ocr.Reading {
					s := swapped()
					s.EntryConf[a] = 0.9
					return s
				}, sorted(append(slices.Clone(wrong), b)), []int{a}},
				{"gate holds the givens", func() ocr.Reading {
					s := swapped()
					s.Conf = slices.Clone(rd.Conf)
					for i, v := range s.Given.Cells {
						if v != 0 {
							s.Conf[i] = 0.3 // a given to check: no certain solution
							break
						}
					}
					return s
				}, nil, nil},
			}
			for _, c := range cases {
				if a < 0 && c.name != "as written" {
					continue
				}
				r := fromReading(c.rd())
				if r.Given() != sudoku.CellString(rd.Given.Cells) {
					t.Errorf("%s: given %s, want the printed digits", c.name, r.Given())
				}
				if c.name == "as written" && r.Entries != sudoku.CellString(rd.Entries) {
					t.Errorf("%s: entries %s, want %s", c.name, r.Entries, sudoku.CellString(rd.Entries))
				}
				if !slices.Equal(r.Mistakes, c.mistakes) {
					t.Errorf("%s: mistakes %v, want %v (status %s)", c.name, r.Mistakes, c.mistakes, r.Status)
				}
				for _, i := range r.Mistakes {
					if e := c.rd().Entries[i]; e == sol.Cells[i] {
						t.Errorf("%s: right entry %d at cell %d called wrong", c.name, e, i)
					}
				}
				var check []int
				for _, ch := range r.EntryCheck {
					check = append(check, ch.Cell)
				}
				if !slices.Equal(check, c.check) {
					t.Errorf("%s: entry_check %v, want %v", c.name, r.EntryCheck, c.check)
				}
				if c.name == "gate holds the givens" && (r.Status == StatusSolved || r.Solution() != strings.Repeat("0", 81) && r.Solution() != "") {
					t.Errorf("%s: status %q solution %q, want the solution held", c.name, r.Status, r.Solution())
				}
				if r.Progress == "" {
					t.Errorf("%s: no progress", c.name)
				}
			}
		})
	}
}

func sorted(s []int) []int { slices.Sort(s); return s }

// TestCheckEntries covers what the held-out pages do not: clashes between
// entries even when unsolved, notes and unclear ink, a page with ink and no
// printed digit, a page full and right, and a plain page unchanged.
func TestCheckEntries(t *testing.T) {
	// The held-out pages are all full: rub one entry out.
	rd := truthReading(t, mixedHoldout(t)[0])
	empty := slices.Index(rd.Kinds, ocr.KindHand)
	rd.Kinds[empty], rd.Entries[empty], rd.EntryConf[empty] = ocr.KindEmpty, 0, 0
	sol, err := sudoku.Solve(rd.Given)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("full and right", func(t *testing.T) {
		s := rd
		s.Kinds, s.Entries, s.EntryConf = slices.Clone(rd.Kinds), slices.Clone(rd.Entries), slices.Clone(rd.EntryConf)
		for i, v := range s.Given.Cells {
			if v == 0 {
				s.Kinds[i], s.Entries[i], s.EntryConf[i] = ocr.KindHand, sol.Cells[i], 1
			}
		}
		r := fromReading(s)
		if !r.PageSolved() || len(r.Mistakes) > 0 {
			t.Errorf("progress %q mistakes %v, want solved", r.Progress, r.Mistakes)
		}
	})
	t.Run("clash unsolved", func(t *testing.T) {
		s := rd
		s.Kinds, s.Entries, s.EntryConf = slices.Clone(rd.Kinds), slices.Clone(rd.Entries), slices.Clone(rd.EntryConf)
		// The digit of a given in the same row, written in the empty cell.
		row := empty / 9
		d := 0
		for c := 0; c < 9; c++ {
			if v := s.Given.Cells[row*9+c]; v != 0 {
				d = v
			}
		}
		s.Kinds[empty], s.Entries[empty], s.EntryConf[empty] = ocr.KindHand, d, 1
		s.Solutions = 2 // as if the givens had several solutions
		r := fromReading(s)
		if !slices.Contains(r.Clashes, empty) || len(r.Mistakes) > 0 {
			t.Errorf("clashes %v mistakes %v status %q, want cell %d clashing and no mistake", r.Clashes, r.Mistakes, r.Status, empty)
		}
	})
	t.Run("notes and unclear", func(t *testing.T) {
		s := rd
		s.Kinds = slices.Clone(rd.Kinds)
		s.Kinds[empty] = ocr.KindNotes
		var other int
		for i := range s.Kinds {
			if s.Kinds[i] == ocr.KindHand {
				other = i
				break
			}
		}
		s.Kinds[other] = ocr.KindUnclear
		r := fromReading(s)
		if !slices.Equal(r.Notes, []int{empty}) {
			t.Errorf("notes %v, want [%d]", r.Notes, empty)
		}
		if len(r.EntryCheck) != 1 || r.EntryCheck[0].Cell != other || slices.Contains(r.Mistakes, other) {
			t.Errorf("entry_check %v mistakes %v, want only %d to check", r.EntryCheck, r.Mistakes, other)
		}
	})
	t.Run("no printed digits", func(t *testing.T) {
		s := rd
		s.Given = sudoku.NewGrid(rd.Given.Shape)
		s.Kinds = slices.Clone(rd.Kinds)
		for i, k := range s.Kinds {
			if k == ocr.KindPrinted {
				s.Kinds[i] = ocr.KindEmpty
			}
		}
		s.Solutions = 2
		if r := fromReading(s); r.Status != StatusNoPrinted || r.Solution() != "" && strings.Trim(r.Solution(), "0") != "" {
			t.Errorf("status %q solution %q, want %q", r.Status, r.Solution(), StatusNoPrinted)
		}
	})
	t.Run("plain page", func(t *testing.T) {
		s := rd
		s.Kinds, s.Entries = slices.Clone(rd.Kinds), make([]int, 81)
		for i, k := range s.Kinds {
			if k == ocr.KindHand {
				s.Kinds[i] = ocr.KindEmpty
			}
		}
		if r := fromReading(s); r.Entries != "" || r.Progress != "" || r.Status != StatusSolved {
			t.Errorf("entries %q progress %q status %q, want no entry fields and solved", r.Entries, r.Progress, r.Status)
		}
	})
}

// TestTallyPen scores the held-out pages read as the truth says (entries
// exact, nothing flagged falsely) and with a right entry called wrong
// (a false alarm counted) and an entry read wrong (not exact).
func TestTallyPen(t *testing.T) {
	var ok, bad Tally
	for _, page := range mixedHoldout(t) {
		rd := truthReading(t, page)
		pen, err := sudoku.ReadDatFile(page + ".pen")
		if err != nil {
			t.Fatal(err)
		}
		r := fromReading(rd)
		ok.AddPen(r, rd.Given, pen)
		i := slices.Index(rd.Kinds, ocr.KindHand)
		r.Mistakes = append(r.Mistakes, i)
		e := []byte(r.Entries)
		e[i] = '0'
		r.Entries = string(e)
		bad.AddPen(r, rd.Given, pen)
	}
	if ok.PenPages == 0 || ok.EntriesExact != ok.PenPages || ok.FalseAlarms != 0 || ok.Missed != 0 || ok.EntriesRight != ok.Entries {
		t.Errorf("truth readings: %+v, want every page exact and no false alarm", ok)
	}
	if bad.EntriesExact != 0 || bad.FalseAlarms != bad.PenPages || bad.EntriesRight != bad.Entries-bad.PenPages {
		t.Errorf("one entry lost and called wrong per page: %+v", bad)
	}
}

// TestJudgeEntryPrior: with the digits' probabilities, a hesitant reading
// where the solution's digit is plausible counts as right, a cell is
// called wrong only when its kind is sure and the solution's digit all
// but ruled out, and anything between is a check;
// without a solution, only the reading itself counts.
func TestJudgeEntryPrior(t *testing.T) {
	probs := func(top int, p float32, want int, pw float32) []float32 {
		q := make([]float32, 10)
		rest := (1 - p - pw) / 7
		for d := 1; d <= 9; d++ {
			q[d] = rest
		}
		q[top], q[want] = p, pw
		return q
	}
	const sure, fair, unsure = 0.999, 0.95, 0.8
	cases := []struct {
		name    string
		q       []float32
		kind    float32
		want    int
		digit   int
		verdict entryVerdict
	}{
		{"a European 4 read as 9, the solution 4", probs(9, 0.35, 4, 0.64), fair, 4, 4, entryRight},
		{"a clear 3 where 5 belongs", probs(3, 0.9999, 5, 0.00001), sure, 5, 3, entryWrong},
		{"a 3 where 5 belongs, 5 under the sure kind's bar", probs(3, 0.99, 5, EntryWrongAt/2), sure, 5, 3, entryWrong},
		{"the same with the kind fairly sure", probs(3, 0.99, 5, EntryWrongAt/2), fair, 5, 3, entryCheck},
		{"a clear 3 where 5 belongs, the kind fairly sure", probs(3, 0.9999, 5, 0.000001), fair, 5, 3, entryCheck},
		{"a clear 3 where 5 belongs, the kind unsure", probs(3, 0.9999, 5, 0.000001), unsure, 5, 3, entryCheck},
		{"a 3 that may be a 5", probs(3, 0.98, 5, 0.01), sure, 5, 3, entryCheck},
		{"no solution, hesitant", probs(9, 0.6, 4, 0.39), sure, 0, 9, entryCheck},
	}
	for _, c := range cases {
		pen := Pen{Kinds: []ocr.Kind{ocr.KindHand}, Entries: []int{argmaxFrom(c.q, 1)}, Conf: []float32{0.6},
			Sure: []bool{false}, KindProb: []float32{c.kind}, Probs: [][]float32{c.q}}
		got := judgeEntry(pen, 0, c.want, 9)
		if got.digit != c.digit || got.verdict != c.verdict {
			t.Errorf("%s: read %d verdict %d, want %d verdict %d", c.name, got.digit, got.verdict, c.digit, c.verdict)
		}
	}
}
