package synth

import (
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

// ShapeFor returns the box shape Render prints for a grid of side n
// (4: 2x2, 6: 2x3, 8: 2x4, 9: 3x3, 12: 3x4, 16: 4x4; boxes are wider than
// tall, as in print). Other sides give an *OptionError.
func ShapeFor(n int) (sudoku.Shape, error) {
	var s sudoku.Shape
	switch n {
	case 4, 9, 16:
		s = sudoku.Shape{BoxRows: isqrt(n), BoxCols: isqrt(n)}
	case 6, 8:
		s = sudoku.Shape{BoxRows: 2, BoxCols: n / 2}
	case 12:
		s = sudoku.Shape{BoxRows: 3, BoxCols: 4}
	default:
		return sudoku.Shape{}, &OptionError{Field: "size", Reason: fmt.Sprintf("%d is not one of 4, 6, 8, 9, 12, 16", n)}
	}
	return s, nil
}

// RandomPuzzle returns a puzzle of the given shape with exactly one
// solution and about clues givens, made by package sudoku's generator
// (more givens remain where uniqueness needs them). clues <= 0 picks a
// count typical of printed puzzles of that size (DefaultClues). The same
// shape, seed and clues give the same puzzle.
func RandomPuzzle(s sudoku.Shape, seed int64, clues int) (sudoku.Grid, error) {
	if want, err := ShapeFor(s.N()); err != nil || want != s {
		return sudoku.Grid{}, &OptionError{Field: "shape", Reason: fmt.Sprintf("%v is not a supported box shape", s)}
	}
	if clues <= 0 {
		clues = DefaultClues(s.N())
	}
	g, err := sudoku.Generate(s, seed, clues)
	if err != nil {
		return sudoku.Grid{}, fmt.Errorf("synth: puzzle %v seed %d: %w", s, seed, err)
	}
	return g, nil
}

// DefaultClues is the number of givens RandomPuzzle aims at for a grid of
// side n: about what newspapers print (28 for 9×9), a little denser for
// 16×16, where sparse unique puzzles are also slow to make.
func DefaultClues(n int) int {
	switch n {
	case 4:
		return 6
	case 6:
		return 12
	case 8:
		return 22
	case 9:
		return 28
	case 12:
		return 56
	case 16:
		return 112
	}
	return n * n * 2 / 5
}

func isqrt(n int) int {
	r := 0
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}
