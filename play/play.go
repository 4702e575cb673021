// Package play holds the rules of a game session that are not the board's
// (package game's): how mistakes are counted and end a game, which assists
// unrank it or tell right from wrong, and the daily puzzle's day and rules,
// for Sudoku and Kakuro alike through a small Board interface.
//
// In: plain values (entries and solution, an assist, the time, a day). Out:
// tallies and decisions. No HTTP, storage or clock; web's sessions call it
// (their older rules, hints and the plausibility floor, are to move here).
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
