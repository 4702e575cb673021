package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/kakuro"
)

// kakuroAbout is what `sudokuar help kakuro` says of the puzzle files
// (docs/kakuro.md has the whole format).
const kakuroAbout = `A puzzle is a text file: a line "ROWS COLS" (the whole board, clue row and
column included), then ROWS lines of COLS tokens separated by spaces: # a
block, . an empty white cell, 1-9 a white cell holding that digit, and
DOWN\ACROSS a clue cell (the sums of the runs below it and to its right;
a side is empty when there is no run: 16\ or \24). A FILE of - reads
standard input. A bad file is reported as FILE: reason, naming the line and
cell, and the others still run (exit status 1).`

// readKakuros reads each named puzzle ("-" is stdin) and calls fn with it,
// reporting read errors as NAME: error; it returns how many failed.
func readKakuros(e *env, names []string, fn func(name string, b *kakuro.Board) error) int {
	if len(names) == 0 {
		names = []string{"-"}
	}
	failed := 0
	for _, name := range names {
		var b *kakuro.Board
		var err error
		if name == "-" {
			var data []byte
			data, err = io.ReadAll(e.stdin)
			if err == nil {
				b, err = kakuro.Parse(bytes.NewReader(data))
			}
			name = "stdin"
		} else {
			b, err = kakuro.ReadFile(name)
			err = trimName(err, name)
		}
		if err == nil {
			err = fn(name, b)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
			failed++
		}
	}
	return failed
}

// trimName drops the file name ReadFile puts in front, since the command
// prints it itself.
func trimName(err error, name string) error {
	if err == nil {
		return nil
	}
	msg := strings.TrimPrefix(err.Error(), name+": ")
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

func batchStatus(e *env, cmd string, failed, total int) int {
	if failed > 0 {
		if total > 1 {
			fmt.Fprintf(e.stderr, "sudokuar kakuro %s: %d of %d puzzles failed\n", cmd, failed, total)
		}
		return exitFail
	}
	return exitOK
}

// solveWith solves b with the named solver and returns its solution.
// model is the ILP's formulation (ILP only).
func solveWith(solver string, model kakuro.ILPModel, b *kakuro.Board) (*kakuro.Board, kakuro.Result, error) {
	switch solver {
	case "ilp":
		p, err := kakuro.NewILPModel(b, model)
		if err != nil {
			return nil, kakuro.Result{}, err
		}
		sols, st, err := p.Solve(context.Background(), 2)
		res := kakuro.Result{Count: len(sols), Nodes: uint64(st.Nodes)}
		switch {
		case err != nil:
			return nil, res, err
		case len(sols) == 0:
			return nil, res, errors.New("no solution: the clues contradict each other")
		case len(sols) == 1:
			return sols[0], res, nil
		}
		return nil, res, fmt.Errorf("not unique: %v", &kakuro.MultipleError{First: sols[0], Second: sols[1]})
	case "fast":
		s, err := kakuro.NewSolver(b)
		if err != nil {
			return nil, kakuro.Result{}, err
		}
		res := s.Count(2)
		switch res.Count {
		case 0:
			return nil, res, errors.New("no solution: the clues contradict each other")
		case 1:
			return res.Solutions[0], res, nil
		}
		me := &kakuro.MultipleError{First: res.Solutions[0], Second: res.Solutions[1]}
		return nil, res, fmt.Errorf("not unique: %v", me)
	case "dlx":
		sols, err := kakuro.SolveDLX(b, 2)
		if err != nil {
			return nil, kakuro.Result{}, err
		}
		switch len(sols) {
		case 0:
			return nil, kakuro.Result{}, errors.New("no solution: the clues contradict each other")
		case 1:
			return sols[0], kakuro.Result{Count: 1}, nil
		}
		return nil, kakuro.Result{}, errors.New("not unique: more than one solution")
	}
	return nil, kakuro.Result{}, fmt.Errorf("unknown solver %q (want fast, dlx or ilp)", solver)
}

func kakuroSolveFlags(fs *flag.FlagSet) func(*env, []string) int {
	solver := fs.String("solver", "fast", "solver: fast (propagation and search), dlx (exact cover, Dancing Links) or ilp (integer program, GLPK)")
	ilpModel := fs.String("ilp-model", "combinations", "the ILP's formulation: combinations (one variable per digit set of each run), plain (each run's sum, at most one of each digit per run) or propagated (combinations over the fast solver's propagated candidates)")
	stats := fs.Bool("stats", false, "print each puzzle's solving time (wall and thread CPU) and search nodes (GLPK's branch-and-bound nodes for ilp) on stderr")
	return func(e *env, args []string) int {
		model, err := kakuro.ParseILPModel(*ilpModel)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar kakuro solve: --ilp-model: %v\n", err)
			return exitUsage
		}
		out := bufio.NewWriter(e.stdout)
		defer out.Flush()
		n := 0
		// The thread clock counts this goroutine's work (GLPK's too: cgo
		// runs on the calling thread) while it stays on one OS thread.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpuClock := cputime.ThreadClock()
		failed := readKakuros(e, args, func(name string, b *kakuro.Board) error {
			start, c0 := time.Now(), cpuClock()
			sol, res, err := solveWith(*solver, model, b)
			if err != nil {
				return err
			}
			if *stats {
				fmt.Fprintf(e.stderr, "%s: %s wall, %s thread CPU, %d nodes\n", name, time.Since(start).Round(time.Microsecond), (cpuClock() - c0).Round(time.Microsecond), res.Nodes)
			}
			if n > 0 {
				out.WriteByte('\n')
			}
			n++
			if _, err := sol.WriteTo(out); err != nil {
				return err
			}
			return out.Flush()
		})
		return batchStatus(e, "solve", failed, max(len(args), 1))
	}
}

func kakuroCountFlags(fs *flag.FlagSet) func(*env, []string) int {
	limit := fs.Int("limit", 1000, "stop counting at this many solutions")
	return func(e *env, args []string) int {
		failed := readKakuros(e, args, func(name string, b *kakuro.Board) error {
			s, err := kakuro.NewSolver(b)
			if err != nil {
				return err
			}
			res := s.Count(max(*limit, 1))
			more := ""
			if res.Count >= *limit {
				more = " (or more)"
			}
			fmt.Fprintf(e.stdout, "%s: %d solutions%s\n", name, res.Count, more)
			return nil
		})
		return batchStatus(e, "count", failed, max(len(args), 1))
	}
}

func kakuroRateFlags(fs *flag.FlagSet) func(*env, []string) int {
	return func(e *env, args []string) int {
		failed := readKakuros(e, args, func(name string, b *kakuro.Board) error {
			r, err := kakuro.Rate(b)
			switch {
			case errors.Is(err, kakuro.ErrNoSolution):
				return errors.New("no solution: the clues contradict each other")
			case errors.Is(err, kakuro.ErrMultipleSolutions):
				return fmt.Errorf("not unique, so it has no level: %v", err)
			case err != nil:
				return err
			}
			fmt.Fprintf(e.stdout, "%s: %v\n", name, r)
			return nil
		})
		return batchStatus(e, "rate", failed, max(len(args), 1))
	}
}

func kakuroGenerateFlags(fs *flag.FlagSet) func(*env, []string) int {
	size := fs.String("size", "9", "play area `N` or RxC (white area without the clue row and column), 3 to 40")
	level := fs.String("level", "medium", "easy, medium, hard or expert (expert rarely succeeds within --timeout)")
	maxRun := fs.Int("max-run", 0, "longest run, 2 to 9 (0: 9, or the longer side of a smaller play area)")
	stats := fs.Bool("stats", false, "print each puzzle's generation time (wall and thread CPU) and rating on stderr, and the median at the end")
	seed := fs.Uint64("seed", 1, "random seed of the first puzzle; puzzle i uses seed+i, so output is reproducible")
	count := fs.Int("count", 1, "number of puzzles")
	dir := fs.String("out", "", "write NAME.txt and NAME.solution.txt per puzzle into this folder instead of printing")
	limit := fs.Duration("timeout", 5*time.Minute, "give up on a puzzle after this long (0: no limit); expert often needs it")
	return func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintf(e.stderr, "sudokuar kakuro generate: unexpected argument %q\n", args[0])
			return exitUsage
		}
		rows, cols, err := parseArea(*size)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar kakuro generate: --size: %v\n", err)
			return exitUsage
		}
		lv, err := kakuro.ParseLevel(*level)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar kakuro generate: --level: %v\n", err)
			return exitUsage
		}
		if *dir != "" {
			if err := os.MkdirAll(*dir, 0o755); err != nil {
				fmt.Fprintf(e.stderr, "sudokuar kakuro generate: %v\n", err)
				return exitFail
			}
		}
		out := bufio.NewWriter(e.stdout)
		defer out.Flush()
		// The thread clock measures this goroutine's work only while it
		// stays on one OS thread.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpuClock := cputime.ThreadClock()
		var walls, cpus []time.Duration
		if *stats {
			defer func() {
				if len(walls) == 0 {
					return
				}
				slices.Sort(walls)
				slices.Sort(cpus)
				fmt.Fprintf(e.stderr, "%d puzzles %dx%d %v: median %s wall (max %s), median %s thread CPU (max %s)\n",
					len(walls), rows, cols, lv, walls[len(walls)/2].Round(time.Millisecond), walls[len(walls)-1].Round(time.Millisecond),
					cpus[len(cpus)/2].Round(time.Millisecond), cpus[len(cpus)-1].Round(time.Millisecond))
			}()
		}
		for i := 0; i < *count; i++ {
			s := *seed + uint64(i)
			t0, c0 := time.Now(), cpuClock()
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if *limit > 0 {
				ctx, cancel = context.WithTimeout(ctx, *limit)
			}
			sol, r, err := kakuro.GenerateContext(ctx, kakuro.GenerateOptions{Rows: rows, Cols: cols, Level: lv, Seed: s, MaxRun: *maxRun})
			cancel()
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("no %v %dx%d puzzle within --timeout %v (expert puzzles are rare; try a lower level or another seed)", lv, rows, cols, *limit)
			}
			wall, cpu := time.Since(t0), cpuClock()-c0
			if *stats {
				walls, cpus = append(walls, wall), append(cpus, cpu)
				fmt.Fprintf(e.stderr, "seed %d: %s wall, %s thread CPU, %v (%v)\n", s, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), r, err)
			}
			if err != nil {
				out.Flush()
				fmt.Fprintf(e.stderr, "sudokuar kakuro generate: seed %d: %v\n", s, err)
				return exitFail
			}
			if *dir == "" {
				if i > 0 {
					out.WriteByte('\n')
				}
				if _, err := sol.Blank().WriteTo(out); err != nil {
					fmt.Fprintf(e.stderr, "sudokuar kakuro generate: %v\n", err)
					return exitFail
				}
				continue
			}
			name := filepath.Join(*dir, fmt.Sprintf("kakuro_%dx%d_%s_%d", rows, cols, lv, s))
			err = os.WriteFile(name+".txt", []byte(sol.Blank().String()), 0o644)
			if err == nil {
				err = os.WriteFile(name+".solution.txt", []byte(sol.String()), 0o644)
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "sudokuar kakuro generate: %v\n", err)
				return exitFail
			}
			fmt.Fprintf(out, "%s.txt: %v\n", name, r)
		}
		return exitOK
	}
}

// parseArea reads "N" or "RxC".
func parseArea(s string) (int, int, error) {
	r, c, found := strings.Cut(strings.ToLower(s), "x")
	if !found {
		c = r
	}
	rows, err1 := strconv.Atoi(r)
	cols, err2 := strconv.Atoi(c)
	if err1 != nil || err2 != nil || rows < 3 || cols < 3 || rows > 40 || cols > 40 {
		return 0, 0, fmt.Errorf("%q: want N or RxC with 3 to 40 each", s)
	}
	return rows, cols, nil
}
