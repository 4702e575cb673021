package play

import (
	"time"

	"github.com/sudokuar/sudokuar/store"
)

// Session is what every solo game keeps beside its board, Sudoku or
// Kakuro: hints, the mistakes' tally, assists, ranking and the finish. A
// kind's stored state embeds it (JSON in store.Game.State) beside its own
// fields.
type Session struct {
	Hints int `json:"hints"`
	// Mistakes and Slip are the Tally of wrong digits.
	Mistakes int    `json:"mistakes"`
	Slip     int    `json:"slip,omitempty"`
	Name     string `json:"name,omitempty"` // who finished it
	// ElapsedMs is the play time: Sudoku's up to its clock's last start,
	// Kakuro's set when the game ends.
	ElapsedMs int64 `json:"elapsedMs"`
	// Used lists the assists used; Assisted says the game is unranked (it
	// is all that games stored before the list kept).
	Assisted bool `json:"assisted,omitempty"`
	Used     Used `json:"used,omitempty"`
	// Daily is the day of the daily puzzle the game plays ("" for any
	// other); Replay, that the player had played that day's before; Own,
	// that the puzzle is the player's own. Each unranks a finish.
	Daily      string `json:"daily,omitempty"`
	Replay     bool   `json:"replay,omitempty"`
	Own        bool   `json:"own,omitempty"`
	FloorMs    int64  `json:"floorMs,omitempty"`    // the plausibility floor (FloorMs)
	FinishedAt int64  `json:"finishedAt,omitempty"` // unix ms of the finishing move
	Flag       string `json:"flag,omitempty"`       // why the finish is unranked (Finish.Flag)
	// ShowErrors is the "show mistakes" assist, on now (Used lists the
	// assists ever used); MistakeLimit (0: none) loses the game when
	// reached, and keeps mistakes shown.
	ShowErrors   bool `json:"showErrors,omitempty"`
	MistakeLimit int  `json:"mistakeLimit,omitempty"`
	// HintStages counts every stage of every hint shown (nudge, pattern,
	// answer); HintStage is the stage the open hint last showed (1 or 2),
	// 0 when no hint is open: its later stages are free until the next
	// move.
	HintStages int `json:"hintStages,omitempty"`
	HintStage  int `json:"hintStage,omitempty"`
}

// Leaked reports whether an assist that tells right from wrong is or was
// on: the mistakes counter may then show while playing.
func (s *Session) Leaked() bool { return s.ShowErrors || s.Used.Leaked() }

// Tally is the session's mistakes, and SetTally keeps one.
func (s *Session) Tally() Tally     { return Tally{Count: s.Mistakes, Slip: s.Slip} }
func (s *Session) SetTally(t Tally) { s.Mistakes, s.Slip = t.Count, t.Slip }

// Next moves the tally on as the player acts on cell (-1: no one cell)
// or undoes.
func (s *Session) Next(cell int, undo bool) { s.SetTally(s.Tally().Next(cell, undo)) }

// Use records that assist a was used.
func (s *Session) Use(a Assist) {
	s.Used = s.Used.With(a)
	s.Assisted = s.Assisted || Unranks(a)
}

// TakeHint counts a new hint, or refuses one beyond MaxHints.
func (s *Session) TakeHint() error {
	if s.Hints >= MaxHints {
		return Refuse(Conflict, "no hints left: all %d used", MaxHints)
	}
	s.Hints++
	return nil
}

// Finish ends the session at now after ms of play: its slip counts, and
// Flag says whether the finish is ranked.
func (s *Session) Finish(now time.Time, ms int64) {
	s.SetTally(s.Tally().Settled())
	s.ElapsedMs = ms
	s.FinishedAt = now.UnixMilli()
	s.Flag = Finish{Own: s.Own, Assisted: s.Assisted, Replay: s.Replay, Ms: ms, FloorMs: s.FloorMs}.Flag()
}

// Result is the leaderboard's result of rec, finished in this session.
func (s *Session) Result(rec store.Game) store.Result {
	return store.Result{
		GameID: rec.ID, Kind: rec.Kind, Size: rec.Size, Level: rec.Level, Player: rec.Player, Name: s.Name,
		Millis: s.ElapsedMs, Hints: s.Hints, Mistakes: s.Mistakes, Finished: time.UnixMilli(s.FinishedAt).UTC(),
		Flag: s.Flag, Daily: s.Daily,
	}
}
