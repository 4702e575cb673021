package live

// pageState is what the session knows of the page in view, which says
// whether the latest reading may be drawn on it.
type pageState int

const (
	// searching: nothing read yet.
	searching pageState = iota
	// following: the latest reading stands for the page in view.
	following
	// onHold: the page may not be the one read (its ink print wavered, or
	// the outline jumped to another): nothing is drawn until a reading of
	// frame from or later is in. The vote goes on.
	onHold
	// changed: the page may be another puzzle (it came back into view or
	// its ink changed): the next recognition votes afresh, and nothing is
	// drawn until a reading of frame from or later is in.
	changed
	// chosen: the user chose another grid (Tab): as changed, and the
	// recogniser is told the user chose it.
	chosen
)

func (s pageState) String() string {
	return [...]string{"searching", "following", "on hold", "changed", "chosen"}[s]
}

// page is the state of the page in view and, while on hold, changed or
// chosen, the first frame whose reading settles it.
type page struct {
	state pageState
	from  int
}

// pageEvent is what happens to the page: a reading comes in, the display
// loop sees it waver or change, the user chooses a grid, or a
// recognition is sent.
type pageEvent struct {
	kind  eventKind
	frame int  // the frame it happened in (readingIn: the frame read)
	read  bool // readingIn: the reading read a puzzle
}

type eventKind int

const (
	readingIn  eventKind = iota // a recognition's reading came in
	wavered                     // the ink print is not surely the page read, or the outline jumped
	pageChange                  // the page came back into view, or its ink changed
	gridChosen                  // the user chose another grid; frame is the first after the key
	asked                       // a recognition was sent to the recogniser
)

// next is the page's one transition function.
func (p page) next(e pageEvent) page {
	switch e.kind {
	case readingIn:
		switch {
		case p.state == searching:
			return page{state: following}
		case p.waiting() && e.read && e.frame >= p.from:
			return page{state: following}
		}
	case wavered:
		if !p.waiting() {
			return page{state: onHold, from: e.frame}
		}
	case pageChange:
		switch p.state {
		case searching, following:
			return page{state: changed, from: e.frame}
		case onHold:
			return page{state: changed, from: p.from}
		}
	case gridChosen:
		if !p.waiting() {
			return page{state: chosen, from: e.frame}
		}
		return page{state: chosen, from: p.from}
	case asked:
		if p.state == changed || p.state == chosen {
			return page{state: onHold, from: p.from}
		}
	}
	return p
}

// waiting reports whether nothing may be drawn until a reading of frame
// p.from or later is in.
func (p page) waiting() bool { return p.state >= onHold }

// fresh reports whether the next recognition starts a fresh vote.
func (p page) fresh() bool { return p.state == changed || p.state == chosen }
