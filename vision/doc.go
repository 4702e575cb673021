// Package vision finds a printed Sudoku grid in a camera frame, rectifies it
// and cuts it into cell images.
//
// In: a frame (gocv.Mat, 8-bit grey, BGR or BGRA, any size; large frames
// are downscaled first). Out: a Grid (corners, homographies, box shape)
// and Cells (one normalised CellSize×CellSize image per cell, or Empty).
// The cell image is the contract that package ocr consumes; see Cell.
//
// A Detector is reused across frames: Locate is the cheap per-frame tracker
// (corners and homography only), Analyze does the whole job (corners,
// rectification, box shape from the grid's line profiles, cells). Frames
// that cannot be read give a *QualityError whose Kind tells why (BadInput,
// NoGrid, TooSmall, TooBlurry, TooDark) and whose message can be shown to
// the user. Files are loaded by pipeline.ReadImage.
//
// Steps of Analyze: grey at a bounded resolution; blur, adaptive threshold
// and the external contours that reduce to quadrilaterals
// (Douglas-Peucker at 1.5% of the perimeter, else the four longest sides,
// else the largest quadrilateral in the hull); when the largest holds no
// lattice (a page's own outline against the background, a frame around
// the puzzle), the components inside it too, as the grid printed on the
// page is never an external contour, and the largest group of cell-like
// holes in it (a grid fused with the page's edge); when several qualify (two
// puzzles, a crossword, a framed article), the one whose inside looks most
// like a Sudoku lattice (lines at every 1/N with little ink between them,
// thicker lines every few cells), not the largest alone (Candidates lists
// them, AnalyzePick reads another; the default pick reads the next two
// when the first shows no grid lines, and takes one only when its lines
// are clear); when that finds no grid, or one whose lines hardly stand
// out, the search again over the page's region alone at the finer
// resolution its size affords (up to FindSide pixels, enlarging up to
// twice: a grid at arm's length whose thin lines vanish at the frame's
// search resolution), taken when its lines are clear (a candidate that
// holds no lattice at the search's resolution, mostly a page held up,
// gets that closer look first, and is read where the search found it
// only when the closer look reads no clear 9×9 grid); corners refined on straight
// edge runs of the outline (robust to text or a finger touching the grid,
// and to curved paper); a square canvas through the homography; when the
// lines inside it are weak (the outline fused with a page frame, a
// crossword or a caption), the grid found again from its cells (the holes
// of the outline's component: the largest group of similar neighbouring
// quadrilaterals), or each side moved in to the outermost long stroke
// near it (a caption along a side); N and the box shape r×c from the row and column
// profiles of the long strokes (grid lines at every 1/N, thicker lines
// every r rows and c columns; a grid still read as 4×4 at the finest
// canvas is checked for cell lines too light to binarise, as dips in the
// median grey of its rows and columns inside each box); the rectification
// snapped to the measured grid lines (12×12 and 16×16 grids, read on the
// finest canvas; a 12×12 is cut on the 12×12 canvas, a 16×16 on the
// finest; on coarser grids only a corner
// the lines put far from the outline's is moved); on a curled page (the
// outline's sides bow, or the boxes are crowded where the page turns
// away) the canvas is resampled through a Bend instead of one homography:
// the sides fitted as curves and blended across the grid, the box lines
// spaced evenly, and a piecewise-bilinear map through the measured line
// crossings, each kept only when the lines stand out more; cells from the
// connected ink components left once the grid lines are removed (but not
// where a stroke crosses a line: digits on a fold or a crease, nor the
// strokes shorter than a cell in a cell's middle: the stem of a tall 1,
// a digit touching the canvas's edge), kept when
// near a cell's centre, large enough and much darker than the paper, with
// thin tails (a bent line's remnant fused with the digit) cut off.
package vision

// Importing vision quiets OpenCV's own logging (see internal/cvenv):
// every part of sudokuar that calls OpenCV imports this package, so its
// warnings never reach the user's terminal.
import _ "github.com/sudokuar/sudokuar/internal/cvenv"
