package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// TestPenWhenPrintFallsShort reads held-out pages with the default
// options (the pen model where the print alone falls short) and without
// a pen model. The same photos without handwriting must read exactly as
// without the pen model; with handwriting, the default must solve pages
// that the print alone never can (main read all of them "no solution").
func TestPenWhenPrintFallsShort(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 photos")
	}
	pages := mixedHoldout(t)
	plainDir := testenv.Shared(t, "datasets/wicht-v2-train")
	def, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer def.Close()
	none, err := New(Options{NoPen: true})
	if err != nil {
		t.Fatal(err)
	}
	defer none.Close()
	read := func(p *Pipeline, path string) Result {
		img, err := ReadImage(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer img.Close()
		return p.Process(img)
	}
	solvedPen, solvedNone := 0, 0
	for _, page := range pages {
		plain := filepath.Join(plainDir, filepath.Base(page)+".jpg")
		a, b := read(def, plain), read(none, plain)
		if a.Given() != b.Given() || a.Status != b.Status || a.Solution() != b.Solution() {
			t.Errorf("%s without handwriting: default reads %q (%s), without the pen model %q (%s)",
				filepath.Base(plain), a.Given(), a.Status, b.Given(), b.Status)
		}
		if read(def, page+".jpg").Status == StatusSolved {
			solvedPen++
		}
		if read(none, page+".jpg").Status == StatusSolved {
			solvedNone++
		}
	}
	t.Logf("pen pages solved: %d/%d by default, %d without the pen model", solvedPen, len(pages), solvedNone)
	if solvedPen <= solvedNone || solvedPen < len(pages)/2 {
		t.Errorf("pen pages solved: %d/%d by default, %d without the pen model; want more than half and more than without", solvedPen, len(pages), solvedNone)
	}
}
