package console

import (
	"fmt"
	"os"
	"os/signal"

	"github.com/sudokuar/sudokuar/solvers"
)

// SolverName is the solver the program uses for validate, hint, generate
// and saving in Edit mode: integer linear programming, as the
// specification asks.
const SolverName = "ilp"

// Main runs the game on the process's standard streams, as the programs
// sudoku-console and sudokuar console do, and returns the exit status.
// Ctrl-C (SIGINT) stops a long command and returns to the prompt; at the
// prompt it ends the program as usual. num_solutions reports its progress
// on standard error when that is a terminal, leaving standard output
// exactly as the specification prescribes.
func Main() int {
	sv, err := solvers.New(SolverName, solvers.Options{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "sudoku-console: %v\n", err)
		return 1
	}
	cfg := Config{Solver: sv}
	if isTerminal(os.Stderr) {
		cfg.Progress = os.Stderr
	}
	s := New(os.Stdout, cfg)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			if !s.Interrupt() {
				os.Exit(130) // 128 + SIGINT, as the shell reports it
			}
		}
	}()

	if err := s.Run(os.Stdin); err != nil {
		fmt.Fprintf(os.Stderr, "sudoku-console: %v\n", err)
		return 1
	}
	return 0
}

// isTerminal reports whether f is a terminal (a character device).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
