package web

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/sudokuar/sudokuar/sudoku"
)

// The web asks the engine for four things: a new puzzle of a size and
// level, the rating and level of a puzzle, a hint for a grid in progress,
// and a solution. This file is the one place that asks, so the pages never
// need to know which package answers.

// Levels, easiest first, as the logic engine names them.
var levels = []string{"easy", "medium", "hard", "expert", "extreme"}

// Sizes a player can choose on the play page, with their box shapes.
var playSizes = []sudoku.Shape{{BoxRows: 2, BoxCols: 2}, {BoxRows: 2, BoxCols: 3}, {BoxRows: 3, BoxCols: 3}, {BoxRows: 4, BoxCols: 4}}

func validLevel(l string) bool {
	for _, x := range levels {
		if x == l {
			return true
		}
	}
	return false
}

// shapeForSize returns the box shape for a play size given as "9", "9x9".
func shapeForSize(size string) (sudoku.Shape, error) {
	var n int
	if _, err := fmt.Sscanf(size, "%d", &n); err != nil {
		return sudoku.Shape{}, fmt.Errorf("size %q: want 4, 6, 9 or 16", size)
	}
	for _, s := range playSizes {
		if s.N() == n && (size == fmt.Sprint(n) || size == sizeName(s)) {
			return s, nil
		}
	}
	return sudoku.Shape{}, fmt.Errorf("size %q: want 4, 6, 9 or 16", size)
}

// Generated is a new puzzle with what the engine knows of it.
type Generated struct {
	Puzzle, Solution sudoku.Grid
	Rating           float64 // 0: not rated
	Level            string
}

// logicBuiltIn says whether hints and ratings come from the logic engine
// in this build (tests check hints only then).
const logicBuiltIn = false

// ErrNoLogic reports a feature that needs the logic engine (hints,
// ratings), which this build does not have yet.
var ErrNoLogic = errors.New("the logic engine (hints and ratings) is not part of this build yet")

// generate makes a unique puzzle of shape s at level.
//
// Until the logic engine lands, the level is approximated by how many
// clues are left (fewer clues, harder) and the rating is 0; the levels the
// pages offer stay the same.
func generate(ctx context.Context, s sudoku.Shape, level string, seed uint64) (Generated, error) {
	if !validLevel(level) {
		return Generated{}, fmt.Errorf("level %q: want one of %v", level, levels)
	}
	n := s.N()
	share := map[string]float64{"easy": 0.50, "medium": 0.42, "hard": 0.36, "expert": 0.31, "extreme": 0}[level]
	clues := int(share * float64(n*n))
	if err := ctx.Err(); err != nil {
		return Generated{}, err
	}
	p, err := sudoku.Generate(s, int64(seed>>1), clues)
	if err != nil {
		return Generated{}, fmt.Errorf("generate %s %s: %w", sizeName(s), level, err)
	}
	sol, err := sudoku.Solve(p)
	if err != nil {
		return Generated{}, fmt.Errorf("generate %s %s: %w", sizeName(s), level, err)
	}
	return Generated{Puzzle: p, Solution: sol, Level: level}, nil
}

// rate returns the rating and level of a unique puzzle, or ErrNoLogic.
func rate(ctx context.Context, g sudoku.Grid) (float64, string, error) {
	return 0, "", ErrNoLogic
}

// Step is one logical step, as the pages draw it: the cells that prove it
// highlighted, what it places or eliminates, and its sentence.
type Step struct {
	Technique    string  `json:"technique"`
	Sentence     string  `json:"sentence"`
	Cells        []int   `json:"cells"`                  // pattern cells to highlight (row-major)
	Placements   []Digit `json:"placements,omitempty"`   // digits the step places
	Eliminations []Digit `json:"eliminations,omitempty"` // candidates it removes
	Wrong        []int   `json:"wrong,omitempty"`        // entries that contradict the solution
}

// Digit is a value in a cell.
type Digit struct {
	Cell  int `json:"cell"`
	Value int `json:"value"`
}

// hint returns the next simplest step for the grid in progress cur (the
// givens are puzzle's non-zero cells), or ErrNoLogic.
func hint(ctx context.Context, puzzle, cur sudoku.Grid, solution sudoku.Grid) (Step, error) {
	return Step{}, ErrNoLogic
}

// newSeed returns a random seed for the generator.
func newSeed() uint64 { return rand.Uint64() }
