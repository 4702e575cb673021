package ocr_test

import (
	"fmt"
	"log"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
)

// Read a photographed puzzle: vision cuts the cells, ocr reads them with
// the embedded model on the pure-Go runtime.
func ExampleRead() {
	img, err := pipeline.ReadImage("../testdata/synth/image10.jpg", 0)
	defer img.Close()
	if err != nil {
		log.Fatal(err)
	}
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	grid, cells, err := det.Analyze(img)
	if err != nil {
		log.Fatal(err)
	}
	clf, err := ocr.Default(ocr.BackendGo)
	if err != nil {
		log.Fatal(err)
	}
	defer ocr.CloseClassifier(clf)
	r, err := ocr.Read(clf, grid.Shape, cells)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Given.Pretty())
	fmt.Println("givens:", r.Given.Givens(), "solutions:", r.Solutions, "changes:", len(r.Changes))
	// Output:
	// . 3 8  . . .  . . .
	// . . .  . 3 4  . . .
	// . . 6  9 . .  1 . .
	//
	// . . .  . 1 8  . 7 4
	// 4 5 .  2 . 3  . . 9
	// 8 . 3  . . .  . . 1
	//
	// . . 2  . . .  5 . 7
	// . . .  1 6 .  4 3 8
	// . . .  . . .  . 2 .
	//
	// givens: 28 solutions: 1 changes: 0
}
