package play

import (
	"time"

	"github.com/sudokuar/sudokuar/store"
)

// MaxHints is how many hints one player has in one game, solo or in a
// room.
const MaxHints = 5

// MaxHistory is how many moves a solo game keeps for undo: older ones are
// folded into the board, so a game's stored state, and the time every
// action takes to load and rewrite it, stay bounded however many pencil
// marks a client toggles.
const MaxHistory = 500

// DefaultFloorPerStep is the plausibility floor's time per step: a finish
// faster than max(logic steps, empty cells) × this is flagged "too fast"
// and kept off the leaderboards. 300 ms is about the time to move to a
// cell and type its digit; nobody solves while doing only that.
const DefaultFloorPerStep = 300 * time.Millisecond

// PerStep is the floor's time per step a front end's setting asks for: 0
// means DefaultFloorPerStep, a negative setting no floor (0).
func PerStep(setting time.Duration) time.Duration {
	switch {
	case setting == 0:
		return DefaultFloorPerStep
	case setting < 0:
		return 0
	}
	return setting
}

// FloorMs is the plausibility floor of a puzzle solved in steps logical
// steps with empty cells to fill, by a team of players sharing the work
// (1 alone; a team of 0 counts as 1). A perStep of 0 or less is no floor.
func FloorMs(perStep time.Duration, steps, empty, team int) int64 {
	if perStep <= 0 {
		return 0
	}
	return int64(max(steps, empty)) * perStep.Milliseconds() / int64(max(team, 1))
}

// Finish is what decides whether a finished game is ranked.
type Finish struct {
	Own      bool  // the player's own puzzle: they may know its solution
	Assisted bool  // an assist was used (Unranks)
	Replay   bool  // a daily puzzle played again
	Ms       int64 // play time
	FloorMs  int64 // the puzzle's plausibility floor (FloorMs)
}

// Flag says why a finish is not ranked (one of store's Flag values; ""
// ranked), the first reason that holds in the order of Finish's fields.
func (f Finish) Flag() string {
	switch {
	case f.Own:
		return store.FlagOwn
	case f.Assisted:
		return store.FlagAssists
	case f.Replay:
		return store.FlagReplay
	case f.Ms < f.FloorMs:
		return store.FlagTooFast
	}
	return ""
}
