// Command sudokuar solves Sudoku: from puzzle text today, and (as the other
// subcommands arrive) from photos and a live camera, drawing the solution
// back onto the picture.
//
// Usage:
//
//	sudokuar <command> [flags] [args]
//	sudokuar help [command]
//
// Each command lives in its own file and is listed in commands() below; to
// add one, write its run function and add one entry there.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// env is what a command may touch of the outside world, so tests can run
// commands on in-memory streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// command is one subcommand.
type command struct {
	name    string
	args    string // synopsis of the arguments after the flags
	summary string // one line for the command list
	// flags declares the command's flags on fs and returns the function
	// that runs it with the parsed flags and the remaining arguments. It
	// returns the exit status: 0 done, 1 failed, 2 bad usage.
	flags func(fs *flag.FlagSet) func(e *env, args []string) int
}

// commands is the table of subcommands, in the order help lists them.
func commands() []command {
	return []command{
		{name: "solve", args: "[FILE|-]", summary: "solve puzzles, one per line (or a grid or .dat file)", flags: solveFlags},
		{name: "bench", args: "FILE...", summary: "compare solvers on puzzle files: a table of solved, failed and times, and an SVG chart", flags: benchFlags},
		{name: "generate", args: "", summary: "print new puzzles that have exactly one solution", flags: generateFlags},
		{name: "scan", args: "PATH...", summary: "find, read and solve the Sudoku in photos (files or folders)", flags: scanFlags},
		{name: "live", args: "", summary: "solve the Sudoku held up to the camera (or in a --video), drawn onto the picture", flags: liveFlags},
		{name: "rate", args: "[FILE|-]", summary: "rate puzzles on the Sudoku Explainer scale, with level and hardest technique", flags: rateFlags},
		{name: "explain", args: "PUZZLE|FILE", summary: "solve a puzzle step by step the way a person would, one sentence per step", flags: explainFlags},
		{name: "hint", args: "PUZZLE|FILE", summary: "show the next logical step (or the first wrong entry, with --current)", flags: hintFlags},
		{name: "console", args: "", summary: "play the console Sudoku game (the same program as sudoku-console): commands on standard input", flags: consoleFlags},
		{name: "serve", args: "", summary: "the game in the browser: play, enter or upload a puzzle, and the AR camera", flags: serveFlags},
		{name: "loadgen", args: "", summary: "simulate players in multiplayer rooms against a running serve and report round trips", flags: loadgenFlags},
		{name: "kakuro", args: "solve|count|rate|generate [flags] [FILE...]", summary: "Kakuro: solve, count solutions, rate and generate puzzles", flags: kakuroFlags},
	}
}

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

func main() {
	os.Exit(run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
}

// run dispatches args (without the program name) and returns the exit
// status.
func run(args []string, e *env) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) == 0 {
			usage(e.stdout)
			return exitOK
		}
		c, ok := lookup(rest[0])
		if !ok {
			fmt.Fprintf(e.stderr, "sudokuar help: unknown command %q\n", rest[0])
			return exitUsage
		}
		fs, _ := newFlagSet(c, e.stdout)
		fs.Usage()
		return exitOK
	}
	c, ok := lookup(name)
	if !ok {
		fmt.Fprintf(e.stderr, "sudokuar: unknown command %q\n", name)
		usage(e.stderr)
		return exitUsage
	}
	fs, runCmd := newFlagSet(c, e.stderr)
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	return runCmd(e, fs.Args())
}

func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// newFlagSet makes c's flag set, printing errors and usage to w.
func newFlagSet(c command, w io.Writer) (*flag.FlagSet, func(*env, []string) int) {
	fs := flag.NewFlagSet("sudokuar "+c.name, flag.ContinueOnError)
	fs.SetOutput(w)
	runCmd := c.flags(fs)
	fs.Usage = func() {
		fmt.Fprintf(w, "usage: sudokuar %s [flags] %s\n\n%s\n\nflags:\n", c.name, c.args, c.summary)
		fs.PrintDefaults()
	}
	return fs, runCmd
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("sudokuar solves Sudoku.\n\nusage: sudokuar <command> [flags] [args]\n\ncommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
	}
	b.WriteString("  help       show a command's flags: sudokuar help <command>\n")
	fmt.Fprint(w, b.String())
}
