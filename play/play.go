// Package play holds the rules of a game session that are not the board's
// own (those are package game's): how mistakes are counted and when they
// end a game, which assists make a game unranked and which tell right
// from wrong, and what the daily puzzle is and what it allows. Sudoku and
// Kakuro sessions share them through a small Board interface.
//
// In: plain values (a board's entries and its solution, the assist asked
// for, the clock's time, a day). Out: plain values and decisions (a
// tally, whether a game is lost, a refusal, a day's level and seed). No
// HTTP, no storage, no clock of its own: the web's handlers (and, later,
// rooms) call it and keep the results.
//
// The web's session rules that came before this package (the hints
// allowed, the plausibility floor, the finish flags) still live in
// package web; they are to move here, beside these.
package play

// Board is what the rules here need of a board being played, Sudoku or
// Kakuro: its cells in one numbering, the player's entry in each (0:
// empty) and the solution's digit.
type Board interface {
	Cells() int
	Entry(cell int) int
	Answer(cell int) int
}

// Wrong lists the filled cells whose entry is not the solution's.
func Wrong(b Board) []int {
	out := []int{}
	for i := range b.Cells() {
		if v := b.Entry(i); v != 0 && v != b.Answer(i) {
			out = append(out, i)
		}
	}
	return out
}

// Solved reports whether every cell holds the solution's digit.
func Solved(b Board) bool {
	for i := range b.Cells() {
		if b.Entry(i) != b.Answer(i) {
			return false
		}
	}
	return true
}

// Entries is a Board of plain slices: the entries and the solution, one
// per cell.
type Entries struct{ Now, Solution []int }

func (e Entries) Cells() int          { return len(e.Solution) }
func (e Entries) Entry(cell int) int  { return e.Now[cell] }
func (e Entries) Answer(cell int) int { return e.Solution[cell] }
