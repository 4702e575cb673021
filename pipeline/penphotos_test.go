package pipeline

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/sudokuar/sudokuar/internal/held"
	"github.com/sudokuar/sudokuar/sudoku"
)

// Floors of TestPenPhotos, the figures of the shipped pen model on the
// held-out pages (docs/performance.md, "Pen pages"): a model that reads
// fewer fails.
const (
	minPenExact      = 17
	minPenCells      = 2395 // of 32×81, given and entry both right
	minPenFlaggedPct = 25
)

// TestPenPhotos reads the held-out pen pages with the shipped models:
// givens and entries split, no right entry ever called wrong, no wrong
// solution; then each page with two of its entries exchanged in the
// photo (two wrong entries): both flagged or named to check, nothing
// else flagged.
func TestPenPhotos(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 photos")
	}
	pages := mixedHoldout(t)
	p, err := New(Options{}) // the embedded pen models
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	exact, cells, flagged, wrongEntries := 0, 0, 0, 0
	for _, page := range pages {
		rd := truthReading(t, page)
		sol, err := sudoku.Solve(rd.Given)
		if err != nil {
			t.Fatal(err)
		}
		img, err := ReadImage(page+".jpg", 0)
		if err != nil {
			t.Fatal(err)
		}
		r := p.Process(img)
		name := filepath.Base(page)
		if r.Entries == sudoku.CellString(rd.Entries) && r.Given() == sudoku.CellString(rd.Given.Cells) {
			exact++
		}
		if len(r.Given()) == 81 && len(r.Entries) == 81 {
			want := sudoku.CellString(rd.Given.Cells) + sudoku.CellString(rd.Entries)
			for i := 0; i < 81; i++ {
				if r.Given()[i] == want[i] && r.Entries[i] == want[81+i] {
					cells++
				}
			}
		}
		judgePen(t, name, r, rd.Entries, sol)
		// Two entries of different digits exchanged in the photo.
		i := slices.IndexFunc(rd.Entries, func(e int) bool { return e != 0 })
		j := slices.IndexFunc(rd.Entries, func(e int) bool { return e != 0 && e != rd.Entries[i] })
		if i < 0 || j < 0 || !r.Found {
			img.Close()
			continue
		}
		if err := held.SwapCells(&img, Corners(r.Grid), i, j); err != nil {
			img.Close()
			t.Fatal(err)
		}
		entries := slices.Clone(rd.Entries)
		entries[i], entries[j] = entries[j], entries[i]
		s := p.Process(img)
		img.Close()
		judgePen(t, name+" swapped", s, entries, sol)
		wrongEntries += 2
		for _, c := range []int{i, j} {
			if slices.Contains(s.Mistakes, c) {
				flagged++
			}
		}
	}
	t.Logf("%d/%d pages exact, %d/%d cells right; %d of %d exchanged entries flagged", exact, len(pages), cells, 81*len(pages), flagged, wrongEntries)
	if exact < minPenExact || cells < minPenCells || flagged < wrongEntries*minPenFlaggedPct/100 {
		t.Errorf("%d/%d pages exact (floor %d), %d cells right (floor %d), %d/%d wrong entries flagged (floor %d%%)",
			exact, len(pages), minPenExact, cells, minPenCells, flagged, wrongEntries, minPenFlaggedPct)
	}
}

// judgePen fails t for what must never happen on a pen page: a right
// entry (or a cell without one) called wrong, or a wrong solution shown.
func judgePen(t *testing.T, name string, r Result, entries []int, sol sudoku.Grid) {
	t.Helper()
	if r.IsSolved() && r.Solution() != sudoku.CellString(sol.Cells) {
		t.Errorf("%s: wrong solution shown", name)
	}
	for _, c := range r.Mistakes {
		if entries[c] == 0 || entries[c] == sol.Cells[c] {
			t.Errorf("%s: r%dc%d called wrong, but holds %d (solution %d)", name, c/9+1, c%9+1, entries[c], sol.Cells[c])
		}
	}
}
