// Package logic solves Sudoku the way a person does: pencil marks and named
// techniques, one deduction at a time, never a guess, on any box shape.
//
//  1. Find steps: each family of techniques is one file; Rate runs them in
//     Sudoku Explainer's order, Hint, NextStep and SolveSteps in the order
//     people learn them (docs/logic.md).
//  2. Out: Steps (technique, placements, eliminations, pattern, sentence),
//     Ratings with a Level, Hints and Advice, puzzles by level (Generate).
package logic
