package main

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

func generateFlags(fs *flag.FlagSet) func(*env, []string) int {
	size := fs.Int("size", 9, "grid side N (4, 6, 8, 9, 10, 12, 16, 25, ...; boxes as nearly square as N allows)")
	box := fs.String("box", "", "box shape `RxC` instead of --size (e.g. 3x2)")
	count := fs.Int("count", 1, "number of puzzles")
	seed := fs.Int64("seed", 1, "random seed of the first puzzle; puzzle i uses seed+i, so output is reproducible")
	clues := fs.Int("clues", 0, "stop removing givens at this many (0: as few as uniqueness allows)")
	level := fs.String("level", "", "difficulty level: easy, medium, hard, expert or extreme (bands on the Sudoku Explainer scale: sudokuar help rate)")
	symmetry := fs.Bool("symmetry", false, "with --level, keep the givens symmetric under a half turn")
	showRating := fs.Bool("rating", false, "with --level, follow each puzzle with its rating, level and hardest technique")
	return func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintf(e.stderr, "sudokuar generate: unexpected argument %q\n", args[0])
			return exitUsage
		}
		var shape sudoku.Shape
		var err error
		if *box != "" {
			shape, err = sudoku.ParseShape(*box)
		} else {
			shape, err = sudoku.ShapeForN(*size)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar generate: %v\n", err)
			return exitUsage
		}
		if *count < 0 || *clues < 0 {
			fmt.Fprintln(e.stderr, "sudokuar generate: --count and --clues must not be negative")
			return exitUsage
		}
		out := bufio.NewWriter(e.stdout)
		defer out.Flush()
		if *level != "" {
			lv, err := logic.ParseLevel(*level)
			if err != nil {
				fmt.Fprintf(e.stderr, "sudokuar generate: --level: %v\n", err)
				return exitUsage
			}
			if *clues != 0 {
				fmt.Fprintln(e.stderr, "sudokuar generate: --clues and --level do not go together")
				return exitUsage
			}
			for i := 0; i < *count; i++ {
				g, r, err := logic.Generate(shape, lv, *seed+int64(i), *symmetry)
				if err != nil {
					out.Flush()
					fmt.Fprintf(e.stderr, "sudokuar generate: %v\n", err)
					return exitFail
				}
				if *showRating {
					fmt.Fprintf(out, "%s %.1f %s %s\n", g, r.SE, r.Level, r.Hardest)
				} else {
					fmt.Fprintln(out, g)
				}
				out.Flush()
			}
			return exitOK
		}
		if *symmetry || *showRating {
			fmt.Fprintln(e.stderr, "sudokuar generate: --symmetry and --rating need --level")
			return exitUsage
		}
		for i := 0; i < *count; i++ {
			g, err := sudoku.Generate(shape, *seed+int64(i), *clues)
			if err != nil {
				out.Flush()
				fmt.Fprintf(e.stderr, "sudokuar generate: %v\n", err)
				return exitFail
			}
			fmt.Fprintln(out, g)
		}
		return exitOK
	}
}
