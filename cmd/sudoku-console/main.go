// Command sudoku-console is the console Sudoku game of the course project
// specification: no arguments, commands on standard input, answers on
// standard output. Type "edit" for an empty board or "solve FILE" to play a
// saved puzzle; see package console for the commands.
package main

import (
	"os"

	"github.com/sudokuar/sudokuar/console"
)

func main() { os.Exit(console.Main()) }
