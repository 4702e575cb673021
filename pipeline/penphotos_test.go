package pipeline

import (
	"image"
	"image/color"
	"path/filepath"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// swapCells exchanges the ink of cells a and b of the 9×9 grid whose
// corners (TL, TR, BR, BL) lie at q in photo, in place: the page as if
// the player had written each digit in the other's cell. Each cell's
// inside (clear of the grid lines) is moved through the page's
// perspective.
func swapCells(photo *gocv.Mat, q [4][2]float64, a, b int) error {
	const cs = 64
	side := float32(9 * cs)
	pts := make([]gocv.Point2f, 4)
	for k, p := range q {
		pts[k] = gocv.Point2f{X: float32(p[0]), Y: float32(p[1])}
	}
	src := gocv.NewPoint2fVectorFromPoints(pts)
	defer src.Close()
	dst := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: side, Y: 0}, {X: side, Y: side}, {X: 0, Y: side}})
	defer dst.Close()
	h := gocv.GetPerspectiveTransform2f(src, dst)
	defer h.Close()
	hi := gocv.GetPerspectiveTransform2f(dst, src)
	defer hi.Close()
	rect := gocv.NewMat()
	defer rect.Close()
	gocv.WarpPerspective(*photo, &rect, h, image.Pt(int(side), int(side)))
	swapped := rect.Clone()
	defer swapped.Close()
	mask := gocv.NewMatWithSize(int(side), int(side), gocv.MatTypeCV8U)
	defer mask.Close()
	const inset = 7 // pixels of the 64: clear of the grid lines
	box := func(i int) image.Rectangle {
		x, y := (i%9)*cs, (i/9)*cs
		return image.Rect(x+inset, y+inset, x+cs-inset, y+cs-inset)
	}
	for _, p := range [][2]int{{a, b}, {b, a}} {
		from, to := rect.Region(box(p[0])), swapped.Region(box(p[1]))
		from.CopyTo(&to)
		from.Close()
		to.Close()
		gocv.Rectangle(&mask, box(p[1]), color.RGBA{255, 255, 255, 0}, -1)
	}
	back, backMask := gocv.NewMat(), gocv.NewMat()
	defer back.Close()
	defer backMask.Close()
	sz := image.Pt(photo.Cols(), photo.Rows())
	gocv.WarpPerspective(swapped, &back, hi, sz)
	gocv.WarpPerspective(mask, &backMask, hi, sz)
	gocv.Threshold(backMask, &backMask, 127, 255, gocv.ThresholdBinary)
	back.CopyToWithMask(photo, backMask)
	return nil
}

// Floors of TestPenPhotos, the figures of the shipped pen model on the
// held-out pages (docs/performance.md, "Pen pages"): a model that reads
// fewer fails.
const (
	minPenExact      = 0
	minPenCells      = 2240 // of 32×81, given and entry both right
	minPenFlaggedPct = 10
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
	p, err := New(Options{})
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
		if r.Entries == sudoku.CellString(rd.Entries) && r.Given == sudoku.CellString(rd.Given.Cells) {
			exact++
		}
		if len(r.Given) == 81 && len(r.Entries) == 81 {
			want := sudoku.CellString(rd.Given.Cells) + sudoku.CellString(rd.Entries)
			for i := 0; i < 81; i++ {
				if r.Given[i] == want[i] && r.Entries[i] == want[81+i] {
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
		if err := swapCells(&img, r.Corners, i, j); err != nil {
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
	if r.IsSolved() && r.Solution != sudoku.CellString(sol.Cells) {
		t.Errorf("%s: wrong solution shown", name)
	}
	for _, c := range r.Mistakes {
		if entries[c] == 0 || entries[c] == sol.Cells[c] {
			t.Errorf("%s: r%dc%d called wrong, but holds %d (solution %d)", name, c/9+1, c%9+1, entries[c], sol.Cells[c])
		}
	}
}
