package solvers

import (
	"bufio"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// loadSet reads a one-line puzzle file from ../shared, skipping comments
// and blank lines; at most limit puzzles (0: all). It skips tb when the
// file is absent.
func loadSet(tb testing.TB, rel string, limit int) []sudoku.Grid {
	tb.Helper()
	path := testenv.Shared(tb, rel)
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []sudoku.Grid
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan() && (limit == 0 || len(out) < limit); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		g, err := sudoku.ParseLine(text, nil)
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// crossCheck solves every puzzle with s (Unique) and with DLX and fails on
// any disagreement: a wrong grid, a different solution of a unique puzzle,
// or a different verdict on uniqueness.
func crossCheck(t *testing.T, name string, s *ILP, puzzles []sudoku.Grid) {
	t.Helper()
	for k, g := range puzzles {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, unique, err := s.Unique(ctx, g)
		cancel()
		if err != nil {
			t.Errorf("%s #%d: %v", name, k+1, err)
			continue
		}
		if err := Check(g, res.Solution); err != nil {
			t.Errorf("%s #%d: bad grid: %v", name, k+1, err)
			continue
		}
		want, err := sudoku.Solve(g)
		if err != nil {
			t.Fatalf("%s #%d: DLX: %v", name, k+1, err)
		}
		count := sudoku.CountSolutions(g, 2)
		if unique != (count == 1) {
			t.Errorf("%s #%d: ilp says unique=%v, DLX counts %d", name, k+1, unique, count)
		}
		if count == 1 && !res.Solution.Equal(want) {
			t.Errorf("%s #%d: ilp and DLX found different solutions of a unique puzzle", name, k+1)
		}
	}
}

func TestILPAgainstDLX(t *testing.T) {
	s := NewILP()
	crossCheck(t, "top95", s, loadSet(t, "puzzles/top95.txt", 0))
	crossCheck(t, "16x16", s, loadSet(t, "puzzles/large/gecode_16x16.txt", 0))
	crossCheck(t, "17-clue", s, loadSet(t, "puzzles/17-clue.txt", 300))
}

func TestILPAgainstDLXWithGLPKBranching(t *testing.T) {
	// With singles only, the top95 puzzles leave GLPK 150-300 binaries
	// to branch on: this exercises the model, the solution read-back and
	// the uniqueness cut on every one of them.
	s := NewILP()
	s.level = reduceSingles
	puzzles := loadSet(t, "puzzles/top95.txt", 0)
	if testing.Short() {
		puzzles = puzzles[:20]
	}
	crossCheck(t, "top95 (singles only)", s, puzzles)
}

func TestILPShapes(t *testing.T) {
	// Generated puzzles of every box shape the project uses, and puzzles
	// with more than one solution, all checked against DLX.
	s := NewILP()
	for _, shape := range []sudoku.Shape{{BoxRows: 1, BoxCols: 1}, {BoxRows: 1, BoxCols: 2}, {BoxRows: 2, BoxCols: 2}, {BoxRows: 2, BoxCols: 3}, {BoxRows: 3, BoxCols: 2}, {BoxRows: 2, BoxCols: 4}, {BoxRows: 3, BoxCols: 3}, {BoxRows: 2, BoxCols: 5}, {BoxRows: 3, BoxCols: 4}, {BoxRows: 4, BoxCols: 4}, {BoxRows: 5, BoxCols: 5}} {
		var puzzles []sudoku.Grid
		seeds := int64(3)
		if shape.N() >= 16 {
			seeds = 1 // GLPK takes 0.1-0.6 s to prove a 16x16 unique
		}
		for seed := int64(1); seed <= seeds; seed++ {
			g, err := sudoku.Generate(shape, seed, 0)
			if err != nil {
				t.Fatalf("generate %v: %v", shape, err)
			}
			puzzles = append(puzzles, g)
			// A third of the givens: (usually) several solutions, and
			// GLPK has to branch to find two.
			if shape.N() <= 9 {
				sparse := g.Clone()
				for i := range sparse.Cells {
					if i%3 != 0 {
						sparse.Cells[i] = 0
					}
				}
				puzzles = append(puzzles, sparse)
			}
		}
		crossCheck(t, shape.String(), s, puzzles)
	}
}

func TestILPPlayerEntriesAndHints(t *testing.T) {
	// The console's validate and hint: a board with the player's entries.
	s := NewILP()
	puzzle := parse(t, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
	sol, err := sudoku.Solve(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	// Right entries: still solvable, and every hint is the solution's
	// digit.
	board := puzzle.Clone()
	for i := 0; i < len(board.Cells); i += 7 {
		board.Cells[i] = sol.Cells[i]
	}
	res, err := s.Solve(context.Background(), board)
	if err != nil {
		t.Fatalf("board with right entries: %v", err)
	}
	if !res.Solution.Equal(sol) {
		t.Error("hints from a board with right entries differ from the solution")
	}
	// A wrong entry that breaks no rule yet: unsolvable.
	wrong := puzzle.Clone()
	for i, v := range puzzle.Cells {
		if v != 0 {
			continue
		}
		for d := 1; d <= 9; d++ {
			wrong.Cells[i] = d
			if d != sol.Cells[i] && len(sudoku.Validate(wrong)) == 0 {
				break
			}
		}
		if wrong.Cells[i] != sol.Cells[i] && len(sudoku.Validate(wrong)) == 0 {
			break
		}
		wrong.Cells[i] = 0
	}
	if _, err := s.Solve(context.Background(), wrong); !errors.Is(err, sudoku.ErrNoSolution) {
		t.Errorf("board with a wrong entry: err = %v, want sudoku.ErrNoSolution", err)
	}
	if _, _, err := s.Unique(context.Background(), wrong); !errors.Is(err, sudoku.ErrNoSolution) {
		t.Errorf("Unique, board with a wrong entry: err = %v, want sudoku.ErrNoSolution", err)
	}
}

func TestILPErrors(t *testing.T) {
	s := NewILP()
	var ce *sudoku.ConflictError
	if _, err := s.Solve(context.Background(), parse(t, "11..............")); !errors.As(err, &ce) {
		t.Errorf("conflicting givens: %v, want *sudoku.ConflictError", err)
	}
	for name, g := range map[string]sudoku.Grid{
		"bad shape":      {Shape: sudoku.Shape{BoxRows: 0, BoxCols: 3}},
		"too few cells":  {Shape: sudoku.Shape{BoxRows: 2, BoxCols: 2}, Cells: make([]int, 15)},
		"value too high": {Shape: sudoku.Shape{BoxRows: 2, BoxCols: 2}, Cells: append([]int{5}, make([]int, 15)...)},
		"negative value": {Shape: sudoku.Shape{BoxRows: 2, BoxCols: 2}, Cells: append([]int{-1}, make([]int, 15)...)},
	} {
		if _, err := s.Solve(context.Background(), g); !errors.Is(err, sudoku.ErrInvalidGrid) {
			t.Errorf("%s: %v, want sudoku.ErrInvalidGrid", name, err)
		}
	}
	// No conflict among the givens, but r1c4 has no candidate left.
	if _, err := s.Solve(context.Background(), parse(t, "123...4.........")); !errors.Is(err, sudoku.ErrNoSolution) {
		t.Errorf("dead cell: %v, want sudoku.ErrNoSolution", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var te *TimeoutError
	if _, err := s.Solve(ctx, parse(t, "1...........2..3")); !errors.As(err, &te) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want a *TimeoutError wrapping context.Canceled", err)
	}
	// A deadline that ends GLPK's search midway: an empty 16x16 leaves
	// GLPK 4096 binaries and no propagation.
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	empty := sudoku.NewGrid(sudoku.Shape{BoxRows: 4, BoxCols: 4})
	if _, err := s.Solve(ctx, empty); !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline on an empty 16x16: %v, want a *TimeoutError wrapping context.DeadlineExceeded", err)
	}
}

// allGrids returns every full grid of shape s (all 288 for 4x4), by
// counting through DLX-checked completions cell by cell.
func allGrids(t *testing.T, s sudoku.Shape) []sudoku.Grid {
	var out []sudoku.Grid
	var fill func(g sudoku.Grid, i int)
	fill = func(g sudoku.Grid, i int) {
		if i == len(g.Cells) {
			out = append(out, g.Clone())
			return
		}
		for d := 1; d <= g.N(); d++ {
			g.Cells[i] = d
			if len(sudoku.Validate(g)) == 0 {
				fill(g, i+1)
			}
		}
		g.Cells[i] = 0
	}
	fill(sudoku.NewGrid(s), 0)
	return out
}

func TestReductionIsSound(t *testing.T) {
	// Random 4x4 boards against every solution: the reduction may only
	// drop candidates no solution uses, and may only report a
	// contradiction when there is no solution.
	shape := sudoku.Shape{BoxRows: 2, BoxCols: 2}
	grids := allGrids(t, shape)
	if len(grids) != 288 {
		t.Fatalf("%d full 4x4 grids, want 288", len(grids))
	}
	u := newUnits(shape)
	rng := rand.New(rand.NewPCG(5, 6))
	for k := 0; k < 3000; k++ {
		g := sudoku.NewGrid(shape)
		for i := range g.Cells {
			if rng.IntN(4) == 0 {
				g.Cells[i] = 1 + rng.IntN(4)
			}
		}
		if len(sudoku.Validate(g)) > 0 {
			continue
		}
		r := newReduction(u)
		ok := r.load(g) && r.probe(newReduction(u))
		solutions := 0
		for _, full := range grids {
			if Check(g, full) != nil {
				continue
			}
			solutions++
			for i, v := range full.Cells {
				if ok && r.cand[i]&(1<<v) == 0 {
					t.Fatalf("%s: the reduction dropped %d at cell %d, which solution %s uses", g, v, i, full)
				}
			}
		}
		if !ok && solutions > 0 {
			t.Fatalf("%s: the reduction found a contradiction, but there are %d solutions", g, solutions)
		}
	}
	// The 17-clue puzzles: the solution's digit survives in every cell.
	u9 := newUnits(sudoku.Shape{BoxRows: 3, BoxCols: 3})
	for k, g := range loadSet(t, "puzzles/17-clue.txt", 500) {
		sol, err := sudoku.Solve(g)
		if err != nil {
			t.Fatal(err)
		}
		r := newReduction(u9)
		if !r.load(g) || !r.probe(newReduction(u9)) {
			t.Fatalf("17-clue #%d: contradiction reported on a solvable puzzle", k+1)
		}
		for i, v := range sol.Cells {
			if r.cand[i]&(1<<v) == 0 || (r.val[i] != 0 && r.val[i] != v) {
				t.Fatalf("17-clue #%d: cell %d lost its solution digit %d", k+1, i, v)
			}
		}
	}
}

func TestILPInParallel(t *testing.T) {
	// One ILP per goroutine (a Solver is not safe for concurrent use);
	// GLPK solves on each goroutine's thread at once. Run with -race too.
	puzzles := loadSet(t, "puzzles/top95.txt", 0)
	done := make(chan error, 2)
	for w := 0; w < 2; w++ {
		go func() {
			s := NewILP()
			s.level = reduceSingles // so that GLPK does the branching
			for k := w; k < len(puzzles); k += 4 {
				res, err := s.Solve(context.Background(), puzzles[k])
				if err == nil {
					err = Check(puzzles[k], res.Solution)
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for w := 0; w < 2; w++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
