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
			rng := rand.New(rand.NewSource(2))
			cells := make([][]float32, 81)
			for i := range cells {
				cells[i] = append(randomCells(rng, 1)[0], randomCells(rng, 1)[0]...)
			}
			if _, err := c.Classify(cells); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu := cputime.Process()
			for i := 0; i < b.N; i++ {
				if _, err := c.Classify(cells); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}
