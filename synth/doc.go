// Package synth makes the project's own test photos: it prints a Sudoku
// puzzle of any supported size (4, 6, 8, 9, 12, 16) on a newspaper page
// with text, rules, boxes and other puzzles around it, then photographs
// the page through a simulated phone camera: perspective (tilt, in-plane
// turn, distance), blur, sensor noise, uneven light and shadows, and JPEG
// compression.
//
// In: a puzzle (sudoku.Grid), fonts (Go's own, plus Debian's when asked)
// and Options with a seed. Out: a Photo with the image (a gocv.Mat the
// caller closes, and its JPEG bytes), the puzzle as printed, and the four
// outer corners of the grid in image pixels. The same inputs give the same
// bytes.
//
// Values 10..16 print as two-digit numbers by default, as most printed
// 12×12 and 16×16 puzzles do; Options.Symbols = Letters prints A..G
// instead, ZeroBased prints 0..F. Options.Variety (on in WorldOptions, the
// digit model's training photos) adds print weights, plain 1s, barred 7s,
// stains, strong glare and screens with moiré.
//
// The flat page is drawn in pure Go (fonts via golang.org/x/image); the
// camera stage uses OpenCV through gocv for the warp, blur and JPEG.
package synth
