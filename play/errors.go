package play

import (
	"errors"
	"fmt"

	"github.com/sudokuar/sudokuar/game"
)

// ErrorKind is what kind of refusal a rule of play gives; a front end
// maps it to its own terms (web: an HTTP status).
type ErrorKind int

// The kinds of refusal.
const (
	Bad       ErrorKind = iota // the request is malformed
	NotFound                   // no such game or action
	Forbidden                  // not the game's player
	Conflict                   // not now: over, paused, no hints left
)

// Error is a rule of play refusing an action.
type Error struct {
	Kind ErrorKind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Refuse is an *Error of kind k.
func Refuse(k ErrorKind, format string, args ...any) error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// GameError words a refusal of package game as an *Error; other errors
// pass unchanged.
func GameError(err error) error {
	var re *game.RangeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re):
		return Refuse(Bad, "%s %d is not %d..%d", re.What, re.Value, re.Min, re.Max)
	case errors.Is(err, game.ErrNoUndo):
		return Refuse(Conflict, "nothing to undo")
	case errors.Is(err, game.ErrNoRedo):
		return Refuse(Conflict, "nothing to redo")
	case errors.Is(err, game.ErrFixed):
		return Refuse(Conflict, "a given cannot change")
	case errors.Is(err, game.ErrWall):
		return Refuse(Bad, "that square takes no digit")
	}
	return err
}
