// Package vision finds a printed Sudoku grid in a camera frame, rectifies it
// and cuts it into cell images.
//
// In: a BGR frame (gocv.Mat). Out: a Grid (corners, homography, box shape)
// and Cells (one normalised CellSize×CellSize image per cell, or Empty).
// The cell image is the contract that package ocr consumes; see Cell.
package vision
