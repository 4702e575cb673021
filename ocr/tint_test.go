package ocr_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// TestByTint reads pen pages of the training side filled in with a blue
// or red pen, each with an entry the pen models read as print (image10
// r1c1, image16 r2c3): in colour, the ink's colour makes it the player's
// entry, not sure of its kind, and the givens are the printed digits
// exactly; the same photo without its colour reads the cell as before.
func TestByTint(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	digits, err := ocr.Default(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	pen, err := ocr.DefaultPen(ocr.BackendGo)
	if err != nil {
		t.Fatal(err)
	}
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	for _, tc := range []struct {
		page string
		cell int
	}{{"image10", 0}, {"image16", 11}} {
		t.Run(tc.page, func(t *testing.T) {
			path := filepath.Join(dir, tc.page+".jpg")
			dat, err := sudoku.ReadDatFile(strings.TrimSuffix(path, ".jpg") + ".dat")
			if err != nil {
				t.Fatal(err)
			}
			hand, err := sudoku.ReadDatFile(strings.TrimSuffix(path, ".jpg") + ".pen")
			if err != nil {
				t.Fatal(err)
			}
			name := sudoku.CellName(tc.cell, 9)
			r := readPenPhoto(t, det, digits, pen, path, false)
			if !r.Given.Equal(dat) {
				t.Errorf("givens %v, printed %v", r.Given.Cells, dat.Cells)
			}
			if r.Kinds[tc.cell] != ocr.KindHand || r.KindConf[tc.cell] >= ocr.EntrySureAt || r.Entries[tc.cell] != hand.Cells[tc.cell] {
				t.Errorf("%s: %v %d at %.4f, want the handwritten %d under EntrySureAt", name, r.Kinds[tc.cell], r.Entries[tc.cell], r.KindConf[tc.cell], hand.Cells[tc.cell])
			}
			if g := readPenPhoto(t, det, digits, pen, path, true); g.Kinds[tc.cell] != ocr.KindPrinted {
				t.Errorf("%s without colour: %v, want printed (as the pen models read it)", name, g.Kinds[tc.cell])
			}
		})
	}
}
