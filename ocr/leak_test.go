//go:build matprofile

package ocr_test

import (
	"bytes"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/ocr"
)

// TestNoMatLeak classifies many batches (and bad ones) with the OpenCV
// backend and checks every Mat it made was closed. Run with -tags
// matprofile.
func TestNoMatLeak(t *testing.T) {
	before := gocv.MatProfile.Count()
	func() {
		c, err := ocr.Default(ocr.BackendOpenCV)
		if err != nil {
			t.Fatal(err)
		}
		defer ocr.CloseClassifier(c)
		rng := rand.New(rand.NewSource(1))
		for i := 0; i < 100; i++ {
			if _, err := c.Classify(randomCells(rng, 1+i%81)); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Classify([][]float32{make([]float32, 5)}); err == nil {
				t.Fatal("short cell accepted")
			}
		}
	}()
	if after := gocv.MatProfile.Count(); after != before {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("Mat count %d before, %d after:\n%s", before, after, b.String())
	}
}
