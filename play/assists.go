package play

import "slices"

// Assist is a help a player may ask for beyond hints. Hints are counted
// (the leaderboards show them) and never unrank a game; every assist
// does.
type Assist string

// The assists.
const (
	// ShowMistakes colours wrong digits as they are typed (and counts
	// them on the screen); with a mistake limit it is on from the start.
	ShowMistakes Assist = "show mistakes"
	// Check lists the wrong digits so far.
	Check Assist = "check"
	// Candidates pencils in every digit each empty cell can still take.
	Candidates Assist = "candidates"
	// Reveal shows the solution and ends the game.
	Reveal Assist = "solution"
)

// Unranks reports whether using a makes the game unranked: every assist
// does (a game with a hint stays ranked, its hints counted).
func Unranks(a Assist) bool {
	switch a {
	case ShowMistakes, Check, Candidates, Reveal:
		return true
	}
	return false
}

// Leaks reports whether a tells right from wrong: it says something of
// the solution, not only of the rules (Candidates only applies the
// rules to the board as it is).
func Leaks(a Assist) bool {
	switch a {
	case ShowMistakes, Check, Reveal:
		return true
	}
	return false
}

// Used lists the assists a game used, each once, in the order first
// used.
type Used []Assist

// With returns u with a in it.
func (u Used) With(a Assist) Used {
	if slices.Contains(u, a) {
		return u
	}
	return append(u, a)
}

// Unranked reports whether an assist of u unranks the game.
func (u Used) Unranked() bool { return slices.ContainsFunc(u, Unranks) }

// Leaked reports whether an assist of u told right from wrong.
func (u Used) Leaked() bool { return slices.ContainsFunc(u, Leaks) }
