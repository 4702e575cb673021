package web

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

// The web asks the engine for four things: a new puzzle of a size and
// level, the rating and level of a puzzle, a hint for a grid in progress,
// and a solution. This file is the one place that asks, so the pages never
// need to know which package answers.

// levels are the logic engine's level names, easiest first.
var levels = func() []string {
	var out []string
	for _, l := range logic.Levels {
		out = append(out, l.String())
	}
	return out
}()

// Sizes a player can choose on the play page, with their box shapes.
var playSizes = []sudoku.Shape{{BoxRows: 2, BoxCols: 2}, {BoxRows: 2, BoxCols: 3}, {BoxRows: 3, BoxCols: 3}, {BoxRows: 4, BoxCols: 4}}

func validLevel(l string) bool {
	_, err := logic.ParseLevel(l)
	return err == nil && l == strings.ToLower(strings.TrimSpace(l))
}

// maxLevel is the hardest level the play page offers for a grid of side n:
// logic.MaxLevel, but at most expert on 16×16, where a hint on an extreme
// puzzle may need forcing chains longer than hintTimeout (a game whose
// hints fail is worse than one level fewer; docs/performance.md, "Tuning").
func maxLevel(n int) string {
	s, err := sudoku.ShapeForN(n)
	if err != nil {
		return levels[0]
	}
	l := logic.MaxLevel(s)
	if n >= 16 && l > logic.Expert {
		l = logic.Expert
	}
	return l.String()
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
	Rating           float64 // Sudoku Explainer scale; 0: not rated
	Level            string
	// Steps is how many logical steps the engine's rating took: with the
	// empty cells, it sets the plausibility floor of a finish.
	Steps int
	// Own marks a puzzle the player brought (typed, pasted or
	// photographed): they may know its solution, so its result goes to
	// their history but not to the leaderboard.
	Own bool
}

// Time limits for the engine's slower answers, so a request never hangs.
const (
	generateTimeout = 30 * time.Second // extreme 9×9 puzzles take seconds
	rateTimeout     = 3 * time.Second
	hintTimeout     = 5 * time.Second
)

// generate makes a unique, symmetric puzzle of shape s whose rating lies in
// level's band. A level the shape cannot reach is a 400.
func generate(ctx context.Context, s sudoku.Shape, level string, seed uint64) (Generated, error) {
	lvl, err := logic.ParseLevel(level)
	if err != nil {
		return Generated{}, errorf(http.StatusBadRequest, "level %q: want one of %s", level, strings.Join(levels, ", "))
	}
	if top, _ := logic.ParseLevel(maxLevel(s.N())); lvl > top {
		return Generated{}, errorf(http.StatusBadRequest, "no %s puzzles at %s: the hardest there is %s", level, sizeName(s), top)
	}
	ctx, cancel := context.WithTimeout(ctx, generateTimeout)
	defer cancel()
	p, r, err := logic.GenerateContext(ctx, s, lvl, int64(seed>>1), true)
	var le *logic.LevelError
	switch {
	case errors.As(err, &le):
		return Generated{}, errorf(http.StatusBadRequest, "no %s puzzles at %s: the hardest there is %s", level, sizeName(s), le.Max)
	case ctx.Err() != nil:
		return Generated{}, errorf(http.StatusServiceUnavailable, "no %s %s puzzle found in %v: try again", level, sizeName(s), generateTimeout)
	case err != nil:
		return Generated{}, fmt.Errorf("generate %s %s: %w", sizeName(s), level, err)
	}
	sol, err := sudoku.Solve(p)
	if err != nil {
		return Generated{}, fmt.Errorf("generate %s %s: %w", sizeName(s), level, err)
	}
	return Generated{Puzzle: p, Solution: sol, Rating: r.SE, Level: r.Level.String(), Steps: len(r.Steps)}, nil
}

// rate returns the Sudoku Explainer rating and level of a unique puzzle,
// or an error when the engine cannot rate it in time (or at all: sizes
// beyond 16×16).
func rate(ctx context.Context, g sudoku.Grid) (float64, string, error) {
	ctx, cancel := context.WithTimeout(ctx, rateTimeout)
	defer cancel()
	r, err := logic.RateContext(ctx, g)
	if err != nil {
		return 0, "", err
	}
	return r.SE, r.Level.String(), nil
}

// hint returns the next hint for the grid in progress cur (the givens are
// puzzle's non-zero cells), in the engine's one form for every front end:
// a wrong entry of the player comes first, as advice naming it.
func hint(ctx context.Context, puzzle, cur sudoku.Grid) (logic.Advice, error) {
	within, cancel := context.WithTimeout(ctx, hintTimeout)
	defer cancel()
	a, err := logic.Advise(within, puzzle, cur)
	switch {
	case err != nil && ctx.Err() != nil:
		return logic.Advice{}, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return logic.Advice{}, errors.New("the logic engine found no step in time")
	}
	return a, err
}

// newSeed returns a random seed for the generator.
func newSeed() uint64 { return rand.Uint64() }
