// Package play holds the rules of a game session that are not the board's
// (package game's), for Sudoku and Kakuro, solo and in rooms: hints per
// game, the plausibility floor and finish flags, the move history cap, how
// mistakes are counted, which assists unrank a game, the daily puzzle's
// rules, and Solo, the service that loads, acts on and stores solo games.
//
// In: plain values (entries and solution, an assist, a day) and, for Solo,
// a store.Store and a kind's Game. Out: tallies, flags, decisions and
// *Error refusals, which front ends word in their terms. No HTTP.
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
