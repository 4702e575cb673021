package vision

// CellSize is the side, in pixels, of the normalised cell image handed to the
// digit classifier.
const CellSize = 28

// Cell is one cell of the rectified grid, ready for the digit classifier
// (package ocr). Every view is CellSize×CellSize grey values in row-major
// order in [0, 1], ink bright (1) on dark (0).
type Cell struct {
	Row, Col int
	Empty    bool
	Ink      int // ink pixels found in the cell before normalisation
	// Pixels is the ink without the grid-line remnants touching the
	// border, scaled (aspect kept) into a 20×20 box and centred by its
	// bounding box, as in MNIST; it may be nil for an Empty cell.
	Pixels []float32
	// Half, when set, is the same ink framed as Pixels but cut half-way
	// between the paper's grey and the ink's, so a gap or bowl that blur
	// filled in stays open; the reader second-looks unsure cells with it.
	Half []float32
	// Looks, for digits of grids up to 9×9 whose cells are under
	// Options.LookPx, holds three more views framed as Pixels: cut nearer
	// the paper (thicker), nearer the ink (thinner), and the grey mean of
	// cuts; the reader combines them for the cells it is unsure of.
	Looks [][]float32
	// View is the cell's whole square resampled to CellSize×CellSize,
	// ink bright on dark as Pixels, without re-centring or re-scaling the
	// ink: its size, place and stroke width tell a handwritten digit or
	// pencil notes from a printed digit. It is grey, from the cell's
	// paper (0) to its darkest ink (1), over the cell's ink and the rim
	// around it (elsewhere 0). It is set for every cell holding ink, also
	// for faint ink left Empty, and nil for a blank cell.
	View []float32
	// Grey is View's grey ink framed as Pixels (scaled to fit 20×20,
	// centred): the shape of a small handwritten digit without the
	// thickening that binarising and then enlarging it brings. Set with
	// View.
	Grey []float32
	// Tint is the colour of the cell's ink against its paper, taken from
	// the frame (blue minus green, red minus green, 0..255 units): near
	// zero for black or grey ink, tens for a blue or red pen. Nil for a
	// frame without colour and for a cell without ink (setTints).
	Tint []float32
}
