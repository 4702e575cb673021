// Package play holds the rules of a game session that are not the board's
// (package game's), for Sudoku and Kakuro, solo and in rooms: hints per
// game, the plausibility floor and finish flags, the move history cap, how
// mistakes are counted, which assists unrank a game, the daily puzzle's
// rules, the actions every kind shares (Move, Mark, Undo, Check, …), and
// Solo, the service that loads, acts on and stores solo games.
//
// In: plain values (entries and solution, an assist, a day); for the
// actions, a Played (a kind's board, its cells and its solution); for
// Solo, a store.Store. Out: tallies, flags, decisions and *Error
// refusals, which front ends word in their terms. No HTTP.
package play
