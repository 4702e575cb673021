package main

import (
	"encoding/json"
	"flag"
	"fmt"

	"github.com/sudokuar/sudokuar/logic"
)

// hintFlags declares `sudokuar hint`: the next step from a puzzle, or from a
// grid in progress (a wrong entry is reported first).
func hintFlags(fs *flag.FlagSet) func(*env, []string) int {
	current := fs.String("current", "", "the grid in progress (`PUZZLE|FILE`: givens plus your entries); default: the puzzle itself")
	asJSON := fs.Bool("json", false, "print the hint as JSON")
	box := fs.String("box", "", "box shape `RxC` for one-line puzzles whose length allows several")
	return func(e *env, args []string) int {
		if len(args) != 1 {
			fmt.Fprintln(e.stderr, "sudokuar hint: name one puzzle (a one-line puzzle, a file, or - for stdin)")
			return exitUsage
		}
		p, name, err := puzzleArg(e, args[0], *box)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar hint: %s: %v\n", name, err)
			return exitFail
		}
		cur := p
		if *current != "" {
			if cur, name, err = puzzleArg(e, *current, *box); err != nil {
				fmt.Fprintf(e.stderr, "sudokuar hint: --current %s: %v\n", name, err)
				return exitFail
			}
		}
		h, err := logic.Hint(p, cur)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar hint: %v\n", err)
			return exitFail
		}
		if *asJSON {
			b, _ := json.Marshal(h)
			fmt.Fprintln(e.stdout, string(b))
			return exitOK
		}
		fmt.Fprintln(e.stdout, h)
		return exitOK
	}
}
