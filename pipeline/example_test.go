package pipeline_test

import (
	"fmt"
	"log"

	"github.com/sudokuar/sudokuar/pipeline"
)

// Example reads and solves one of the project's synthetic photos, as
// `sudokuar scan` does for each file.
func Example() {
	img, err := pipeline.ReadImage("../testdata/synth/image4.jpg", 0)
	defer img.Close() // ReadImage returns a Mat to close even on error
	if err != nil {
		log.Fatal(err)
	}
	p, err := pipeline.New(pipeline.Options{}) // onnx-go, embedded model
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()

	r := p.Process(img)
	fmt.Println(r.Status, r.Grid.Shape.BoxRows, r.Grid.Shape.BoxCols)
	fmt.Println("given:   ", r.Given())
	fmt.Println("solution:", r.Solution())
	// Output:
	// solved 3 3
	// given:    300000060079000400001003008006000000230900180005200906700001050050740800090500017
	// solution: 342879561879615432561423798986157243237964185415238976728391654153746829694582317
}
