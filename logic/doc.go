// Package logic solves Sudoku the way a person does: with pencil marks and
// named techniques, one deduction at a time, never guessing. From that it
// rates puzzles, gives hints, explains solutions and generates puzzles of a
// chosen level.
//
// In: a puzzle (sudoku.Grid, any box shape from 4×4 to 16×16), and for
// hints the grid in progress. Out: Steps (plain values: technique, rating,
// placements, eliminations, the pattern that proves them, one sentence),
// Ratings on the Sudoku Explainer scale with a Level, Hints, solutions and
// generated puzzles.
//
// The techniques live in families, one file each (singles, intersections,
// subsets, fish, wings, single-digit patterns, colouring, uniqueness,
// chains, almost locked sets, forcing chains), each a Technique value with a
// name, a rating and a finder. Two orders run them: Rate follows Sudoku
// Explainer's order and rating rules, so its numbers compare with the scale
// the puzzle community quotes; Hint, NextStep and SolveSteps prefer the
// techniques people know. Both orders use the same implementations.
//
// The engine knows nothing of files or people: it imports only sudoku, dlx
// and the standard library, and prints nothing.
package logic
