package play

import "fmt"

// Tally counts a game's mistakes: digits entered that are not the
// solution's. Shown (an assist), each counts as it is entered. Hidden, a
// wrong digit taken back by the very next action (undo, erase, another
// digit in that cell) was a slip, mended before anything was learned, and
// does not count; any other next action settles it as a mistake.
type Tally struct {
	Count int // mistakes settled
	Slip  int // 1 + the cell of a wrong digit that may still be a slip; 0 none
}

// Next is the tally once the player acts again: on cell (-1 for an
// action on no one cell), or undo. A slip taken back is dropped; any
// other action counts it.
func (t Tally) Next(cell int, undo bool) Tally {
	if t.Slip == 0 {
		return t
	}
	if !undo && (cell < 0 || cell != t.Slip-1) {
		t.Count++
	}
	t.Slip = 0
	return t
}

// Wrote is the tally after a wrong digit went into cell, mistakes shown
// or not.
func (t Tally) Wrote(cell int, shown bool) Tally {
	if shown {
		t.Count++
		return t
	}
	t.Slip = cell + 1
	return t
}

// Settled is the tally with its slip counted: at the end of the game, or
// when mistakes start being shown.
func (t Tally) Settled() Tally { return t.Next(-1, false) }

// Total is every mistake, the open slip included.
func (t Tally) Total() int {
	if t.Slip != 0 {
		return t.Count + 1
	}
	return t.Count
}

// MaxMistakeLimit is the highest mistake limit a game takes; the pages
// offer 3, as sudoku.com does.
const MaxMistakeLimit = 9

// CheckLimit says whether a game may be played with a limit of n
// mistakes (0: none).
func CheckLimit(n int) error {
	if n < 0 || n > MaxMistakeLimit {
		return fmt.Errorf("mistake limit %d: want 0 (none) to %d", n, MaxMistakeLimit)
	}
	return nil
}

// Lost reports whether a game with a limit of limit mistakes (0: none)
// is lost: the limit is reached. A limit needs the mistakes shown, so
// there are no slips to wait for.
func Lost(t Tally, limit int) bool { return limit > 0 && t.Count >= limit }
