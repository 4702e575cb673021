// Package vision finds a printed Sudoku grid in a frame and cuts it into
// cell images. In: a frame (8-bit grey, BGR or BGRA gocv.Mat). Out: a
// Grid (corners, homographies, box shape, bend) and its Cells, or a
// *QualityError saying why not. Locate only finds the corners, for
// tracking.
//
// Analyze is a line of named steps (Grid.Via lists those that made a
// reading); each attempt is a reading of its own, on a search and a
// canvas of its own, kept when acceptable and better (accept.go):
//
//  1. search (search.go, choice.go): outlines reduced to quadrilaterals,
//     and grids inside a page, the most Sudoku-like first;
//  2. rectify (rectify.go, shape.go): the one taken warped flat and
//     binarised, its size and box shape read from the line profiles;
//  3. analyse (analyse.go): the search steps in order (within, search,
//     early-closer, read, closer: closer.go), and on each canvas the
//     mends (mends.go: a bend, evened boxes, the grid found again from
//     its cells or its edge lines, a whole lattice, a finer canvas), a
//     part of a grid grown to the whole (whole.go);
//  4. final canvas (final.go, bend.go, bendlines.go): corners snapped to
//     the lattice, the bend refined, sharpness and brightness measured;
//  5. cells (cells.go): grid lines removed (lineremoval.go), strokes
//     cleaned (strokes.go), each digit resampled (resample.go).
package vision

// Importing vision quiets OpenCV's own logging (see internal/cvenv):
// every part of sudokuar that calls OpenCV imports this package, so its
// warnings never reach the user's terminal.
import _ "github.com/sudokuar/sudokuar/internal/cvenv"
