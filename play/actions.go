package play

import (
	"slices"
	"time"

	"github.com/sudokuar/sudokuar/store"
)

// Played is a solo game of one kind loaded for an action: the Game that
// Solo loads and stores, with what the actions here need to play its
// board, the same for Sudoku and Kakuro.
type Played interface {
	Game
	Cells() Cells        // the cells a player writes in
	Answer(cell int) int // the solution's digit in cell
	// Stop stops the game's clock, which leaves its play time in
	// Session().ElapsedMs; Start starts it again (a clock that never
	// stops ignores it).
	Stop(now time.Time)
	Start(now time.Time)
}

// Args are an action's arguments, as a front end read them; each action
// uses its own.
type Args struct {
	Cell, Value *int
	On          *bool  // errors: show mistakes or not
	Name        string // name, submit: the name a finish is recorded under
	// Clear (move): also take the digit out of the pencil marks of the
	// cells that share a house with it.
	Clear bool
}

// Found is what an action found beyond the board it leaves.
type Found struct {
	Checked  []int  // check: the cells whose entry is wrong
	Revealed *Digit // a revealing hint: the digit it placed
}

// Digit is one digit of the solution a hint placed.
type Digit struct {
	Cell  int `json:"cell"`
	Digit int `json:"digit"`
}

// Rule is one action on a loaded game, run by Act under the game's lock.
type Rule func(g Played, a Args, now time.Time) (Found, error)

// Rules are a kind's actions by name.
type Rules map[string]Rule

// Entries are the player's digits now, one per cell (0: empty).
func Entries(g Played) []int {
	cs, b := g.Cells(), g.Board()
	out := make([]int, cs.N)
	for k := range out {
		out[k] = b.Value(cs.Square(k))
	}
	return out
}

// WrongEntries lists the filled cells whose entry is not the solution's.
func WrongEntries(g Played) []int {
	out := []int{}
	for k, v := range Entries(g) {
		if v != 0 && v != g.Answer(k) {
			out = append(out, k)
		}
	}
	return out
}

// Solved reports whether every cell holds the solution's digit.
func Solved(g Played) bool {
	for k, v := range Entries(g) {
		if v != g.Answer(k) {
			return false
		}
	}
	return true
}

// Move writes one digit (0 erases) in one cell. Writing the digit that
// is already there is no move (and no second mistake); the last right
// digit finishes the game.
func Move(g Played, a Args, now time.Time) (Found, error) {
	cs := g.Cells()
	k, v, err := cs.Check("move", a.Cell, a.Value, 0)
	if err != nil {
		return Found{}, err
	}
	sess, b := g.Session(), g.Board()
	sess.HintStage = 0
	r, c := cs.Square(k)
	if b.Value(r, c) == v {
		return Found{}, nil
	}
	if a.Clear && v != 0 {
		_, err = b.Place(r, c, v)
	} else {
		_, err = b.Set(r, c, v)
	}
	if err != nil {
		return Found{}, GameError(err)
	}
	sess.Next(k, false)
	if v != 0 && v != g.Answer(k) {
		wrote(g, k, now)
	}
	finishIfSolved(g, now)
	return Found{}, nil
}

// Mark toggles one pencil mark of one cell.
func Mark(g Played, a Args, _ time.Time) (Found, error) {
	cs := g.Cells()
	k, v, err := cs.Check("mark", a.Cell, a.Value, 1)
	if err != nil {
		return Found{}, err
	}
	g.Session().HintStage = 0
	r, c := cs.Square(k)
	if _, err := g.Board().ToggleMark(r, c, v); err != nil {
		return Found{}, GameError(err)
	}
	g.Session().Next(-1, false)
	return Found{}, nil
}

// Undo takes back the last move.
func Undo(g Played, _ Args, _ time.Time) (Found, error) {
	g.Session().HintStage = 0
	if _, err := g.Board().Undo(); err != nil {
		return Found{}, GameError(err)
	}
	g.Session().Next(-1, true)
	return Found{}, nil
}

// Redo plays the last move undone again: a wrong digit it writes counts
// again, and it may finish the game.
func Redo(g Played, _ Args, now time.Time) (Found, error) {
	sess := g.Session()
	sess.HintStage = 0
	m, err := g.Board().Redo()
	if err != nil {
		return Found{}, GameError(err)
	}
	sess.Next(-1, false)
	cs := g.Cells()
	for _, ch := range m.Changes {
		if ch.To == ch.From || ch.To == 0 || g.Record().Status != store.StatusPlaying {
			continue
		}
		if k := cs.At(ch.Row, ch.Col); k >= 0 && ch.To != g.Answer(k) {
			wrote(g, k, now)
		}
	}
	finishIfSolved(g, now)
	return Found{}, nil
}

// FillCandidates pencils in every digit each empty cell can still take: an
// assist (it saves the player the work), so the game is unranked. It
// applies the rules to the board as it is and tells nothing of the
// solution, so the daily puzzle offers it too.
func FillCandidates(g Played, _ Args, _ time.Time) (Found, error) {
	sess := g.Session()
	sess.HintStage = 0
	g.Board().Candidates()
	sess.Next(-1, false)
	sess.Use(Candidates)
	return Found{}, nil
}

// CheckEntries lists the wrong entries: an assist, so the game is unranked.
func CheckEntries(g Played, _ Args, now time.Time) (Found, error) {
	sess := g.Session()
	if err := dailyAllows(sess, Check, now); err != nil {
		return Found{}, err
	}
	sess.Next(-1, false)
	sess.Use(Check)
	return Found{Checked: WrongEntries(g)}, nil
}

// ToggleMistakes turns the "show mistakes" assist on or off; on makes the
// game unranked, and a game with a mistake limit keeps it on.
func ToggleMistakes(g Played, a Args, now time.Time) (Found, error) {
	sess := g.Session()
	if a.On == nil {
		return Found{}, Refuse(Bad, "errors needs \"on\": true or false")
	}
	if *a.On {
		if err := dailyAllows(sess, ShowMistakes, now); err != nil {
			return Found{}, err
		}
		sess.SetTally(sess.Tally().Settled()) // a slip is no longer hidden
		sess.Use(ShowMistakes)
	} else if sess.MistakeLimit > 0 {
		return Found{}, Refuse(Conflict, "a game with a mistake limit shows its mistakes to the end")
	}
	sess.ShowErrors = *a.On
	return Found{}, nil
}

// Pause stops the game's clock.
func Pause(g Played, _ Args, now time.Time) (Found, error) {
	g.Stop(now)
	return Found{}, nil
}

// Resume starts a paused game's clock.
func Resume(g Played, _ Args, now time.Time) (Found, error) {
	g.Start(now)
	return Found{}, nil
}

// Submit is what the last right digit does on its own; it stays for
// clients that ask, and names a finished game. It never says which
// entries are wrong.
func Submit(g Played, a Args, now time.Time) (Found, error) {
	if g.Record().Status == store.StatusSolved {
		return Name(g, a, now)
	}
	if empty := g.Board().EmptyCells(); empty > 0 {
		return Found{}, Refuse(Conflict, "not solved yet: %d cells are still empty", empty)
	}
	if !Solved(g) {
		return Found{}, Refuse(Conflict, "every cell is filled but the grid is not the solution (Check or Show mistakes find where, and make the game unranked)")
	}
	finish(g, now)
	return Found{}, nil
}

// Name names a solved game, which records its result.
func Name(g Played, a Args, _ time.Time) (Found, error) {
	if g.Record().Status != store.StatusSolved {
		return Found{}, Refuse(Conflict, "the game is not finished yet: it ends with the last right digit")
	}
	nm, err := store.CleanName(a.Name)
	if err != nil {
		return Found{}, Refuse(Bad, "%v", err)
	}
	g.Session().Name = nm
	return Found{}, nil
}

// GiveUp ends the game and shows the solution (on the daily puzzle the
// solution waits for the day's end: the game ends all the same).
func GiveUp(g Played, _ Args, now time.Time) (Found, error) {
	g.Stop(now)
	sess := g.Session()
	sess.SetTally(sess.Tally().Settled())
	g.Record().Status = store.StatusRevealed
	return Found{}, nil
}

// RevealCell is a hint that places one digit of the solution: in a wrong
// cell first, else in the first empty one. It counts as one of MaxHints.
func RevealCell(g Played, _ Args, now time.Time) (Found, error) {
	sess := g.Session()
	if err := sess.TakeHint(); err != nil {
		return Found{}, err
	}
	sess.Next(-1, false)
	k := -1
	if ws := WrongEntries(g); len(ws) > 0 {
		k = ws[0]
	} else if e := slices.Index(Entries(g), 0); e >= 0 {
		k = e
	}
	if k < 0 {
		return Found{}, Refuse(Conflict, "every cell is filled and right")
	}
	r, c := g.Cells().Square(k)
	if _, err := g.Board().Place(r, c, g.Answer(k)); err != nil {
		return Found{}, GameError(err)
	}
	finishIfSolved(g, now)
	return Found{Revealed: &Digit{Cell: k, Digit: g.Answer(k)}}, nil
}

// wrote counts a wrong digit written in cell k; at the game's mistake
// limit the game is lost.
func wrote(g Played, k int, now time.Time) {
	sess := g.Session()
	sess.SetTally(sess.Tally().Wrote(k, sess.ShowErrors))
	if sess.ShowErrors && Lost(sess.Tally(), sess.MistakeLimit) {
		g.Stop(now)
		g.Record().Status = store.StatusLost
	}
}

// finishIfSolved finishes a game still on whose entries are the
// solution.
func finishIfSolved(g Played, now time.Time) {
	if g.Record().Status == store.StatusPlaying && Solved(g) {
		finish(g, now)
	}
}

// finish ends a game whose board is the solution, by the server's clock,
// and says whether its result is ranked.
func finish(g Played, now time.Time) {
	g.Stop(now)
	g.Record().Status = store.StatusSolved
	sess := g.Session()
	sess.ShowErrors = false
	sess.Finish(now, sess.ElapsedMs)
}

// dailyAllows refuses on the daily puzzle, while its day lasts, an assist
// that tells right from wrong.
func dailyAllows(sess *Session, a Assist, now time.Time) error {
	if sess.Daily == "" {
		return nil
	}
	if err := DailyAllows(a, sess.Daily, now); err != nil {
		return Refuse(Conflict, "%v", err)
	}
	return nil
}
