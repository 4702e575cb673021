// Package vision finds a printed Sudoku grid in a frame and cuts it into
// cell images (Cell); Locate tracks corners only, bad frames give a
// *QualityError. Analyze: (1) candidates: outlines reduced to quadrilaterals
// and grids inside a page; (2) the one most like a Sudoku lattice, looked at
// closer when its lines are faint; (3) corners refined and the grid warped
// flat, through a Bend when curled; (4) size and box shape from the line
// profiles; (5) cells from the ink left once the lines are removed.
package vision

// Importing vision quiets OpenCV's own logging (see internal/cvenv):
// every part of sudokuar that calls OpenCV imports this package, so its
// warnings never reach the user's terminal.
import _ "github.com/sudokuar/sudokuar/internal/cvenv"
