package ocr

// What a cell holds on a page a person has started with a pen or pencil.
// Givens are the printed digits only; handwritten digits are the player's
// entries, and pencil notes (several small digits) are neither.

// Kind is what a cell of a page holds.
type Kind uint8

// The kinds of cell. Unclear is ink the reader cannot call printed or
// handwritten surely (a scribble, a crossed-out or half-erased digit): it
// is never a given and never an entry, and the player is asked to check it.
const (
	KindEmpty Kind = iota
	KindPrinted
	KindHand
	KindNotes
	KindUnclear
)

// String is the kind's name as the JSON and the text output write it.
func (k Kind) String() string {
	switch k {
	case KindEmpty:
		return "empty"
	case KindPrinted:
		return "printed"
	case KindHand:
		return "hand"
	case KindNotes:
		return "notes"
	case KindUnclear:
		return "unclear"
	}
	return "unknown"
}

// Ink reports whether a cell of kind k holds the player's ink (an entry,
// notes or ink the reader could not call): never a given.
func (k Kind) Ink() bool { return k == KindHand || k == KindNotes || k == KindUnclear }

// EntrySureAt is the probability a handwritten digit must be read with
// (its kind and its digit both) before the check may call it wrong; below
// it the cell is "check rXcY". It lies above the surest wrong reading of
// a handwritten cell on the pen model's calibration pages (cmd/train
// --pen prints it; see models/README.md).
const EntrySureAt = 0.997

// EntrySure reports whether cell i holds an entry read surely enough to be
// called wrong when it disagrees with the solution.
func (r Reading) EntrySure(i int) bool {
	return i >= 0 && i < len(r.Entries) && r.Entries[i] > 0 &&
		r.EntryConf[i] >= EntrySureAt && r.KindConf[i] >= EntrySureAt
}

// setKinds fills the kinds of a reading made without a pen model: a cell
// is printed when it holds a given, else empty, and there are no entries.
func setKinds(r *Reading) {
	n := len(r.Conf)
	r.Kinds = make([]Kind, n)
	r.KindConf = make([]float32, n)
	r.Entries = make([]int, n)
	r.EntryConf = make([]float32, n)
	r.EntryProb = make([][]float32, n)
	for i := range r.Kinds {
		if r.Given.Cells != nil && r.Given.Cells[i] > 0 {
			r.Kinds[i] = KindPrinted
		}
		r.KindConf[i] = r.Conf[i]
	}
}
