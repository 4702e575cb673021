package vision

// CellSize is the side, in pixels, of the normalised cell image handed to the
// digit classifier.
const CellSize = 28

// Cell is one cell of the rectified grid, ready for the digit classifier.
//
// Contract with package ocr: Pixels holds CellSize*CellSize grey values in
// row-major order, each in [0, 1], ink bright (1) on a dark background (0).
// Grid-line remnants touching the cell border are removed, and the main ink
// component is scaled (aspect kept) to fit a 20×20 box and centred by its
// bounding box, as in MNIST. Empty cells have Empty set; their Pixels may be
// nil.
//
// Half, when set, is a second view of the same ink, framed as Pixels: the
// photo cut half-way between the grey of the cell's paper and that of the
// digit's ink rather than by the adaptive binarisation, so a gap or a bowl
// that blur filled in stays open. The reader looks at it for the cells it
// is unsure of.
//
// Looks, set for the digits (and faint ink kept in Pixels) of grids up to
// 9×9 whose cells are smaller than Options.LookPx in the frame (a page
// held far from a webcam), holds three more views of the same ink, framed
// as Pixels: cut nearer the paper's grey (thicker strokes), nearer the
// ink's (thinner: a gap blur filled opens), and a grey view, the mean of
// cuts from paper to ink. One cut of such a cell reads a blurred 5, 6, 8
// or 9 wrongly or unsurely; the reader combines all the views of the cells
// it is unsure of.
type Cell struct {
	Row, Col int
	Empty    bool
	Ink      int // ink pixels found in the cell before normalisation
	Pixels   []float32
	Half     []float32
	Looks    [][]float32
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
}
