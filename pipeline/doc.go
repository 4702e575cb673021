// Package pipeline is the one path every front end takes from a picture to
// a solved puzzle: frame -> vision (grid, cells) -> ocr (digits) -> sudoku
// (validation, solution). `sudokuar scan`, `sudokuar live` and the benchmarks
// all call it; none keeps a private copy.
//
// In: a BGR frame (gocv.Mat). Out: a Result (the grid found, the givens
// and their solution as grids, a typed Status, timing, and on a pen page
// the entries checked against the solution), which Draw paints back onto
// the frame. A Result has no JSON form: the front ends encode it with
// internal/wire.
package pipeline
