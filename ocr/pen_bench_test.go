package ocr_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/models"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// BenchmarkPen times the pen model on a full 9×9 page (81 inked cells,
// the most it reads per page) per backend, with the shipped pen model.
func BenchmarkPen(b *testing.B) {
	for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
		b.Run(fmt.Sprintf("%s/81cells", backend), func(b *testing.B) {
			c, err := ocr.NewPen(models.Pen(), backend)
			if err != nil {
				b.Fatal(err)
			}
			defer ocr.CloseClassifier(c)
			benchPen(b, c, 81, 0)
		})
		// A full page and the second batch of its handwritten digits read
		// again through their other views (readPen), as many as it reads
		// at most (penViewsMost).
		b.Run(fmt.Sprintf("%s/81cells+24views", backend), func(b *testing.B) {
			c, err := ocr.NewPen(models.Pen(), backend)
			if err != nil {
				b.Fatal(err)
			}
			defer ocr.CloseClassifier(c)
			benchPen(b, c, 81, 24)
		})
	}
}

// benchPen times classifying a batch of n random pen inputs, then one of
// extra (none when 0), as readPen does for a page.
func benchPen(b *testing.B, c ocr.Classifier, n, extra int) {
	rng := rand.New(rand.NewSource(2))
	batches := [][][]float32{penCells(rng, n)}
	if extra > 0 {
		batches = append(batches, penCells(rng, extra))
	}
	for _, cells := range batches {
		if _, err := c.Classify(cells); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	cpu := cputime.Process()
	for i := 0; i < b.N; i++ {
		for _, cells := range batches {
			if _, err := c.Classify(cells); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkReadPenPages times a whole read of real pen-filled pages of
// the training side (wicht-mixed-train, none held out): the pen model, the
// printed digits, the page's typeface where the pen model hesitates (and
// the read again it may cause) and the promotion for one solution. ms/op
// is per page; the pages include two whose givens have several solutions
// before the promotion (image76, image160).
func BenchmarkReadPenPages(b *testing.B) {
	pages := loadPenPages(b, benchPenPages)
	for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
		b.Run(backend, func(b *testing.B) { benchReadPen(b, backend, pages) })
	}
}

// penPage is a page's cells as vision cut them.
type penPage struct {
	shape sudoku.Shape
	cells []vision.Cell
}

// benchReadPen times ReadWith on pages, in turn, with the embedded models
// run by backend.
func benchReadPen(b *testing.B, backend string, pages []penPage) {
	digits, err := ocr.Default(backend)
	if err != nil {
		b.Fatal(err)
	}
	defer ocr.CloseClassifier(digits)
	pen, err := ocr.DefaultPen(backend)
	if err != nil {
		b.Fatal(err)
	}
	defer ocr.CloseClassifier(pen)
	set := ocr.DefaultSettings
	set.Pen = pen
	for _, p := range pages { // build every batch-size graph first
		if _, err := ocr.ReadWith(digits, p.shape, p.cells, set); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	cpu := cputime.Process()
	for i := 0; i < b.N; i++ {
		p := pages[i%len(pages)]
		if _, err := ocr.ReadWith(digits, p.shape, p.cells, set); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
