package main

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

func generateFlags(fs *flag.FlagSet) func(*env, []string) int {
	size := fs.Int("size", 9, "grid side N (4, 6, 8, 9, 10, 12, 16, 25, ...); boxes as sudoku.ShapeForN")
	box := fs.String("box", "", "box shape `RxC` instead of --size (e.g. 3x2)")
	count := fs.Int("count", 1, "number of puzzles")
	seed := fs.Int64("seed", 1, "random seed of the first puzzle; puzzle i uses seed+i, so output is reproducible")
	clues := fs.Int("clues", 0, "stop removing givens at this many (0: as few as uniqueness allows)")
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
