package pipeline

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sudokuar/sudokuar/sudoku"
)

// TruthFile returns the ground-truth file for an image: the .dat file of the
// same name next to it (image1.jpg -> image1.dat).
func TruthFile(image string) string {
	return strings.TrimSuffix(image, filepath.Ext(image)) + ".dat"
}

// ReadTruth reads the ground truth next to image.
func ReadTruth(image string) (sudoku.Grid, error) {
	p := TruthFile(image)
	if _, err := os.Stat(p); err != nil {
		return sudoku.Grid{}, fmt.Errorf("ground truth for %s: %w", image, err)
	}
	g, err := sudoku.ReadDatFile(p)
	if err != nil {
		return sudoku.Grid{}, fmt.Errorf("ground truth for %s: %w", image, err)
	}
	return g, nil
}

// PenFile returns the truth file of an image's handwritten entries: the
// .pen file of the same name next to it (wicht-mixed-train's format).
func PenFile(image string) string {
	return strings.TrimSuffix(image, filepath.Ext(image)) + ".pen"
}

// ReadPenTruth reads the handwritten entries' truth next to image; ok is
// false (and err nil) when there is none.
func ReadPenTruth(image string) (g sudoku.Grid, ok bool, err error) {
	p := PenFile(image)
	if _, err := os.Stat(p); err != nil {
		return sudoku.Grid{}, false, nil
	}
	g, err = sudoku.ReadDatFile(p)
	if err != nil {
		return sudoku.Grid{}, false, fmt.Errorf("entries' truth for %s: %w", image, err)
	}
	return g, true, nil
}

// Tally scores recognitions against ground truth.
type Tally struct {
	Images int // images scored
	Found  int // a grid was found
	Exact  int // every cell read right (givens and empties)
	Solved int // solved, and the solution is the true one
	// WrongShown counts grids shown as solved whose solution is not the
	// true one: the outcome the reader must never have.
	WrongShown int
	// Check counts grids with one solution that were not shown as solved
	// because a cell was not read surely enough ("check cells"), and
	// CheckRight those of them whose givens were in fact read exactly.
	Check, CheckRight int
	// Cells and CellsRight count every cell of every scored image; a grid
	// not found, or found with the wrong size, counts all its cells wrong.
	Cells, CellsRight int
	// Digits and DigitsRight count the cells that hold a printed digit.
	Digits, DigitsRight int
	Misses              []Miss
	// Pen pages (a .pen truth beside the image): how many, how many with
	// every entry read right, the handwritten entries and how many were
	// read right, the entries that are wrong (against the givens'
	// solution), and of the cells called wrong those that are not
	// (false alarms: the outcome to avoid), and the wrong entries missed.
	PenPages, EntriesExact            int
	Entries, EntriesRight             int
	WrongEntries, FalseAlarms, Missed int
}

// AddPen scores the entries of r against the page's truth: printed
// givens truth and handwritten entries pen.
func (t *Tally) AddPen(r Result, truth, pen sudoku.Grid) {
	t.PenPages++
	sol, err := sudoku.Solve(truth)
	got := make([]int, len(pen.Cells))
	if cells, err := sudoku.ParseCells(r.Entries, pen.N()); err == nil {
		got = cells
	}
	exact := true
	for i, e := range pen.Cells {
		if got[i] != e {
			exact = false
		}
		if e == 0 {
			continue
		}
		t.Entries++
		if got[i] == e {
			t.EntriesRight++
		}
		if err == nil && e != sol.Cells[i] {
			t.WrongEntries++
			if !slices.Contains(r.Mistakes, i) {
				t.Missed++
			}
		}
	}
	if exact {
		t.EntriesExact++
	}
	for _, i := range r.Mistakes {
		if i < 0 || i >= len(pen.Cells) || pen.Cells[i] == 0 || err != nil || pen.Cells[i] == sol.Cells[i] {
			t.FalseAlarms++
		}
	}
}

// Miss is an image whose grid was not read exactly or not solved.
type Miss struct {
	File   string
	Status Status
	Wrong  []CellMiss // empty when the grid was not found or had the wrong size
	Note   string
}

// CellMiss is one misread cell (0-based row and column; 0 = empty).
type CellMiss struct {
	Row, Col, Got, Want int
}

// Add scores result r of file against truth.
func (t *Tally) Add(file string, r Result, truth sudoku.Grid) {
	t.Images++
	n2 := len(truth.Cells)
	t.Cells += n2
	digits := 0
	for _, v := range truth.Cells {
		if v != 0 {
			digits++
		}
	}
	t.Digits += digits
	if r.Found {
		t.Found++
	}
	miss := Miss{File: file, Status: r.Status}
	got := r.Puzzle
	if len(got.Cells) != n2 || got.Shape != truth.Shape {
		switch {
		case !r.Found:
			miss.Note = "grid not found"
		case len(got.Cells) == 0:
			miss.Note = "grid found but not read"
		default:
			miss.Note = fmt.Sprintf("read as %s boxes, truth is %s", got.Shape, truth.Shape)
		}
		if r.IsSolved() {
			// A puzzle of another size shown solved is the worst output:
			// a solution drawn on a page it does not belong to.
			miss.Note += "; solved as that"
			t.WrongShown++
		}
		t.Misses = append(t.Misses, miss)
		return
	}
	n := truth.N()
	for i, want := range truth.Cells {
		if got.Cells[i] == want {
			t.CellsRight++
			if want != 0 {
				t.DigitsRight++
			}
			continue
		}
		miss.Wrong = append(miss.Wrong, CellMiss{Row: i / n, Col: i % n, Got: got.Cells[i], Want: want})
	}
	exact := len(miss.Wrong) == 0
	if exact {
		t.Exact++
	}
	solvedRight := false
	if r.IsSolved() {
		if exact {
			solvedRight = true
		} else if want, err := sudoku.Solve(truth); err == nil && want.Equal(r.Solved) {
			solvedRight = true
		}
		if !solvedRight {
			miss.Note = "solved the misread puzzle"
			t.WrongShown++
		}
	}
	if r.Status == StatusCheck {
		t.Check++
		if exact {
			t.CheckRight++
		}
	}
	if solvedRight {
		t.Solved++
	}
	if !exact || !solvedRight {
		t.Misses = append(t.Misses, miss)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// Report writes the figures and then the misses, one per line.
func (t *Tally) Report(w io.Writer) {
	fmt.Fprintf(w, "images:           %d (grid found in %d)\n", t.Images, t.Found)
	fmt.Fprintf(w, "cell accuracy:    %.2f%% (%d/%d cells, empty or not)\n", pct(t.CellsRight, t.Cells), t.CellsRight, t.Cells)
	fmt.Fprintf(w, "digit accuracy:   %.2f%% (%d/%d printed digits)\n", pct(t.DigitsRight, t.Digits), t.DigitsRight, t.Digits)
	fmt.Fprintf(w, "grids exact:      %.1f%% (%d/%d)\n", pct(t.Exact, t.Images), t.Exact, t.Images)
	fmt.Fprintf(w, "grids solved:     %.1f%% (%d/%d, true solution)\n", pct(t.Solved, t.Images), t.Solved, t.Images)
	fmt.Fprintf(w, "wrong solutions:  %d shown as solved (must be 0)\n", t.WrongShown)
	fmt.Fprintf(w, "check cells:      %d grids held back for a check (%d of them read exactly)\n", t.Check, t.CheckRight)
	if t.PenPages > 0 {
		fmt.Fprintf(w, "pen pages:        %d, entries exact on %d\n", t.PenPages, t.EntriesExact)
		fmt.Fprintf(w, "entry accuracy:   %.2f%% (%d/%d handwritten digits)\n", pct(t.EntriesRight, t.Entries), t.EntriesRight, t.Entries)
		fmt.Fprintf(w, "wrong entries:    %d, missed %d\n", t.WrongEntries, t.Missed)
		fmt.Fprintf(w, "false alarms:     %d right entries called wrong (must be 0)\n", t.FalseAlarms)
	}
	if len(t.Misses) == 0 {
		return
	}
	fmt.Fprintf(w, "misses (%d):\n", len(t.Misses))
	for _, m := range t.Misses {
		fmt.Fprintf(w, "  %s: %s", m.File, m.Status)
		if m.Note != "" {
			fmt.Fprintf(w, "; %s", m.Note)
		}
		if len(m.Wrong) > 0 {
			parts := make([]string, len(m.Wrong))
			for i, c := range m.Wrong {
				parts[i] = fmt.Sprintf("r%dc%d %d->%d", c.Row+1, c.Col+1, c.Want, c.Got)
			}
			fmt.Fprintf(w, "; %d cells wrong (want->got): %s", len(m.Wrong), strings.Join(parts, " "))
		}
		fmt.Fprintln(w)
	}
}
