package play

import (
	"slices"
	"time"

	"github.com/sudokuar/sudokuar/logic"
)

// OpenHint counts stage (1: a new hint, 2: its pattern, 3: its answer)
// of a hint the engine is about to find. A new hint is one of MaxHints,
// counted before the engine runs so that a failed one counts too; stages
// 2 and 3 are for the hint still open (no move since), and are free. The
// answer closes it.
func OpenHint(g Played, stage int) error {
	sess := g.Session()
	if stage > 1 && sess.HintStage == 0 {
		return Refuse(Conflict, "no hint open: ask for a new one")
	}
	if stage == 1 {
		if err := sess.TakeHint(); err != nil {
			return err
		}
		sess.Next(-1, false)
	}
	sess.HintStages++
	sess.HintStage = stage % 3
	return nil
}

// PlayAdvice plays a hint's answer, if the board's entries are still
// seen (those the engine was asked about): a wrong entry is erased, a
// placement placed (taking it from its peers' marks; the last one
// finishes the game), an elimination taken from the pencil marks that
// hold it.
func PlayAdvice(g Played, seen []int, adv logic.Advice, now time.Time) error {
	if !slices.Equal(Entries(g), seen) {
		return Refuse(Conflict, "the board changed while the hint was found: ask again")
	}
	b, cs := g.Board(), g.Cells()
	for _, w := range adv.Wrong {
		r, c := cs.Square(w)
		if _, err := b.Set(r, c, 0); err != nil {
			return GameError(err)
		}
	}
	for _, p := range adv.Placements {
		r, c := cs.Square(p.Cell)
		if _, err := b.Place(r, c, p.Digit); err != nil {
			return GameError(err)
		}
	}
	for _, e := range adv.Eliminations {
		r, c := cs.Square(e.Cell)
		if m := b.Marks(r, c); m.Has(e.Digit) && b.Value(r, c) == 0 {
			if _, err := b.SetMarks(r, c, m&^(1<<e.Digit)); err != nil {
				return GameError(err)
			}
		}
	}
	finishIfSolved(g, now)
	return nil
}
