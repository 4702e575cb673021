package synth_test

import (
	"fmt"

	"github.com/sudokuar/sudokuar/synth"
)

// Render a 6×6 puzzle as a 640×480 phone photo and read its ground truth.
func ExampleRender() {
	shape, err := synth.ShapeFor(6)
	if err != nil {
		panic(err)
	}
	puzzle, err := synth.RandomPuzzle(shape, 1, 14)
	if err != nil {
		panic(err)
	}
	photo, err := synth.Render(puzzle, synth.DefaultOptions(640, 480, 7))
	if err != nil {
		panic(err)
	}
	defer photo.Image.Close()
	givens := 0
	for _, v := range photo.Truth.Cells {
		if v != 0 {
			givens++
		}
	}
	fmt.Println(photo.Image.Cols(), photo.Image.Rows(), photo.Truth.Shape, givens)
	inside := true
	for _, c := range photo.Corners {
		inside = inside && c.X >= 0 && c.X < 640 && c.Y >= 0 && c.Y < 480
	}
	fmt.Println("corners in view:", inside)
	// Output:
	// 640 480 2x3 14
	// corners in view: true
}
