package pipeline

import "fmt"

// Status is what happened to one frame. Its words (String) are what a
// user reads on the HUD and a script matches in JSON; the zero Status,
// StatusNone, is a result not yet judged and has no words.
type Status int

// Status values of a Result.
const (
	StatusNone Status = iota
	StatusSolved
	StatusNoGrid
	StatusTooSmall
	// StatusMoveBack: the grid reaches the edge of the frame (live).
	StatusMoveBack
	StatusBlurry
	StatusDark
	StatusConflict
	StatusSeveral
	StatusUnread
	// StatusCheck: the givens have one solution, but some cell is not read
	// surely enough to present it as certain; Check names the cells.
	StatusCheck
	// StatusReading: live has read givens with one solution once, and
	// waits for a second reading to agree before showing it.
	StatusReading
	StatusBadInput
	StatusLoadError
	// StatusNoPrinted is the status of a page with ink but no printed
	// digit: there are no givens to solve, and the pen is never solved from.
	StatusNoPrinted
)

// statusWords are the words of each Status, indexed by it.
var statusWords = [...]string{
	StatusNone:      "",
	StatusSolved:    "solved",
	StatusNoGrid:    "no grid",
	StatusTooSmall:  "move closer",
	StatusMoveBack:  "move back",
	StatusBlurry:    "too blurry",
	StatusDark:      "too dark",
	StatusConflict:  "no solution",
	StatusSeveral:   "several solutions",
	StatusUnread:    "unreadable",
	StatusCheck:     "check cells",
	StatusReading:   "reading ...",
	StatusBadInput:  "bad input",
	StatusLoadError: "load error",
	StatusNoPrinted: "no printed digits (handwriting only)",
}

// String returns the status in the words a user reads.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusWords) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusWords[s]
}

// MarshalText writes the status as its words, as the JSON outputs carry it.
func (s Status) MarshalText() ([]byte, error) {
	if s < 0 || int(s) >= len(statusWords) {
		return nil, fmt.Errorf("pipeline: unknown status %d", int(s))
	}
	return []byte(statusWords[s]), nil
}

// UnmarshalText reads a status from its words.
func (s *Status) UnmarshalText(b []byte) error {
	for i, w := range statusWords {
		if w == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("pipeline: unknown status %q", b)
}
