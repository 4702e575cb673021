package rooms

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

// What rooms asks of the engine: a puzzle of a size and level (with its
// solution, which stays on the server) and a hint for a board in play.

// Puzzle is a game's puzzle with its solution.
type Puzzle struct {
	Givens   sudoku.Grid
	Solution sudoku.Grid
	Rating   float64 // Sudoku Explainer scale
	Level    logic.Level
	// Steps is how many logical steps the engine's rating took: with the
	// empty cells it sets the plausibility floor of a finish.
	Steps int
}

// PuzzleSource makes puzzles. Implementations are safe for concurrent use.
type PuzzleSource interface {
	Puzzle(ctx context.Context, s sudoku.Shape, level logic.Level) (Puzzle, error)
}

// Generator is the PuzzleSource that asks package logic for a new unique,
// symmetric puzzle rated within the level's band.
type Generator struct{}

// Puzzle implements PuzzleSource.
func (Generator) Puzzle(ctx context.Context, s sudoku.Shape, level logic.Level) (Puzzle, error) {
	p, r, err := logic.GenerateContext(ctx, s, level, int64(rand.Uint64()>>1), true)
	if err != nil {
		return Puzzle{}, err
	}
	sol, err := sudoku.Solve(p)
	if err != nil {
		return Puzzle{}, fmt.Errorf("rooms: the generated puzzle does not solve: %w", err)
	}
	return Puzzle{Givens: p, Solution: sol, Rating: r.SE, Level: r.Level, Steps: len(r.Steps)}, nil
}

// Pool keeps a few puzzles ready for each size and level that has been
// asked for, so a quick match does not wait for the generator: a puzzle
// taken is replaced in the background.
type Pool struct {
	src  PuzzleSource
	keep int

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	ready   map[poolKey][]Puzzle
	filling map[poolKey]bool
}

type poolKey struct {
	shape sudoku.Shape
	level logic.Level
}

// NewPool keeps up to keep puzzles of each kind asked for, made by src.
func NewPool(src PuzzleSource, keep int) *Pool {
	ctx, cancel := context.WithCancel(context.Background())
	return &Pool{src: src, keep: keep, ctx: ctx, cancel: cancel, ready: map[poolKey][]Puzzle{}, filling: map[poolKey]bool{}}
}

// Puzzle implements PuzzleSource: a ready puzzle if there is one, else a
// new one made now.
func (p *Pool) Puzzle(ctx context.Context, s sudoku.Shape, level logic.Level) (Puzzle, error) {
	k := poolKey{s, level}
	p.mu.Lock()
	list := p.ready[k]
	var pz Puzzle
	ok := len(list) > 0
	if ok {
		pz, p.ready[k] = list[0], list[1:]
	}
	p.mu.Unlock()
	p.refill(k)
	if ok {
		return pz, nil
	}
	return p.src.Puzzle(ctx, s, level)
}

// Warm starts filling the pool for s and level before anyone asks.
func (p *Pool) Warm(s sudoku.Shape, level logic.Level) { p.refill(poolKey{s, level}) }

// refill makes puzzles for k in the background until keep are ready; one
// filler per kind at a time.
func (p *Pool) refill(k poolKey) {
	p.mu.Lock()
	if p.filling[k] || len(p.ready[k]) >= p.keep || p.ctx.Err() != nil {
		p.mu.Unlock()
		return
	}
	p.filling[k] = true
	p.wg.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.wg.Done()
		for {
			ctx, cancel := context.WithTimeout(p.ctx, generateTimeout)
			pz, err := p.src.Puzzle(ctx, k.shape, k.level)
			cancel()
			p.mu.Lock()
			if err == nil {
				p.ready[k] = append(p.ready[k], pz)
			}
			if err != nil || len(p.ready[k]) >= p.keep || p.ctx.Err() != nil {
				p.filling[k] = false
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
		}
	}()
}

// Close stops the background fillers and waits for them.
func (p *Pool) Close() {
	p.cancel()
	p.wg.Wait()
}

// generateTimeout bounds one puzzle's generation.
const generateTimeout = 30 * time.Second

// hintTimeout bounds one hint's search.
const hintTimeout = 5 * time.Second

// Sizes lists the board sides a room can be played on.
var Sizes = []int{4, 6, 9, 16}

// generatorCap is the hardest level the generator reaches, by side, in the
// time a player waits (docs/performance.md, "Tuning").
var generatorCap = map[int]logic.Level{4: logic.Easy, 16: logic.Hard}

// MaxLevel is the hardest level offered for a board of side n.
func MaxLevel(n int) logic.Level {
	s, err := sudoku.ShapeForN(n)
	if err != nil {
		return logic.Easy
	}
	l := logic.MaxLevel(s)
	if c, ok := generatorCap[n]; ok && c < l {
		l = c
	}
	return l
}

// shapeFor returns the box shape of a board of side n, if rooms offer it.
func shapeFor(n int) (sudoku.Shape, error) {
	for _, x := range Sizes {
		if x == n {
			return sudoku.ShapeForN(n)
		}
	}
	return sudoku.Shape{}, fmt.Errorf("size %d: want 4, 6, 9 or 16", n)
}

// hint returns the next hint for the board cur of puzzle, in the engine's
// one form for every front end, or an error when the engine has none (or
// none in time, or ctx ended: the room closed).
func hint(ctx context.Context, puzzle, cur sudoku.Grid) (logic.Advice, error) {
	ctx, cancel := context.WithTimeout(ctx, hintTimeout)
	defer cancel()
	a, err := logic.Advise(ctx, puzzle, cur)
	if errors.Is(err, context.DeadlineExceeded) {
		return logic.Advice{}, errors.New("the logic engine found no step in time")
	}
	return a, err
}
