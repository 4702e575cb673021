package ocr_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/ocr/digitnet"
)

// BenchmarkClassify times one batch of a typical grid (30 givens) and of a
// full 9×9 grid (81 cells) per backend, with the shipped model when there is
// one (the architecture, not the weights, sets the cost).
func BenchmarkClassify(b *testing.B) {
	data := digitnet.Init(digitnet.DefaultArch, rand.New(rand.NewSource(1))).ONNX()
	if m := shippedBytes(); len(m) > 0 {
		data = m
	}
	for _, backend := range []string{ocr.BackendGo, ocr.BackendOpenCV} {
		for _, n := range []int{30, 81} {
			b.Run(fmt.Sprintf("%s/%dcells", backend, n), func(b *testing.B) {
				c, err := ocr.New(data, backend)
				if err != nil {
					b.Fatal(err)
				}
				defer ocr.CloseClassifier(c)
				cells := randomCells(rand.New(rand.NewSource(2)), n)
				if _, err := c.Classify(cells); err != nil { // build the graph outside the timing
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
}
