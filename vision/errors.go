package vision

import "fmt"

// QualityKind tells why a frame could not be read, so callers can react
// (show a hint, skip the frame, report a broken file).
type QualityKind int

// The reasons a frame is rejected.
const (
	// BadInput: the frame itself is unusable (empty, too small, wrong type,
	// not an image file).
	BadInput QualityKind = iota + 1
	// NoGrid: no quadrilateral that could be a Sudoku grid was found.
	NoGrid
	// TooSmall: a grid was found but covers too little of the frame to be read.
	TooSmall
	// TooBlurry: the rectified grid has too little detail (low variance of the
	// Laplacian).
	TooBlurry
	// TooDark: the rectified grid's ink stands too little from its paper,
	// against the noise, to be read.
	TooDark
	// CutOff: the grid runs off the frame's edge (the outline found lies
	// along the edge where the grid's outer line is missing), so part of
	// it is not in view. Grid holds the part found; there are no cells.
	CutOff
)

// String names the kind.
func (k QualityKind) String() string {
	switch k {
	case BadInput:
		return "bad input"
	case NoGrid:
		return "no grid"
	case TooSmall:
		return "too small"
	case TooBlurry:
		return "too blurry"
	case TooDark:
		return "too dark"
	case CutOff:
		return "cut off"
	}
	return fmt.Sprintf("QualityKind(%d)", int(k))
}

// QualityError is returned by Locate and Analyze (and pipeline.ReadImage) when a frame
// cannot be read. Kind lets callers tell the cases apart; Error gives a
// message that can be shown to the user as is.
type QualityError struct {
	Kind QualityKind
	Msg  string // detail for logs (sizes, values found)
}

// Error returns a user-facing sentence followed by the detail.
func (e *QualityError) Error() string {
	var hint string
	switch e.Kind {
	case BadInput:
		hint = "cannot use this image"
	case NoGrid:
		hint = "no Sudoku grid found: show the whole grid, flat and well lit"
	case TooSmall:
		hint = "grid too small: move closer"
	case TooBlurry:
		hint = "image too blurry: hold still or focus"
	case TooDark:
		hint = "image too dark: add light"
	case CutOff:
		hint = "the grid runs off the edge of the image: move back so all of it is in view"
	default:
		hint = e.Kind.String()
	}
	if e.Msg == "" {
		return hint
	}
	return hint + " (" + e.Msg + ")"
}

func qualityErr(k QualityKind, format string, args ...any) *QualityError {
	return &QualityError{Kind: k, Msg: fmt.Sprintf(format, args...)}
}
