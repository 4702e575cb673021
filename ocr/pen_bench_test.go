package ocr_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/models"
	"github.com/sudokuar/sudokuar/ocr"
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
