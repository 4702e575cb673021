// Package synth makes the project's own test photos: (1) print a puzzle of
// size 4 to 16 (sudoku.Grid; two-digit numbers, or Options.Symbols) on a
// newspaper page with text and clutter around it, in pure Go; (2) place the
// page before a simulated phone camera (Pose); (3) blur, noise, uneven light,
// JPEG, through gocv. Out: a Photo (a gocv.Mat the caller closes, its JPEG
// bytes, the puzzle as printed, the grid's corners). The same Options and
// seed give the same bytes; Options.Variety adds the training photos' extras.
package synth
