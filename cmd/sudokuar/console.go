package main

import (
	"flag"
	"fmt"

	"github.com/sudokuar/sudokuar/console"
)

// consoleFlags runs the console game, the program sudoku-console, on the
// process's standard streams. Like sudoku-console it takes no arguments.
func consoleFlags(fs *flag.FlagSet) func(*env, []string) int {
	return func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintln(e.stderr, "sudokuar console: takes no arguments (commands come on standard input)")
			return exitUsage
		}
		return console.Main()
	}
}
