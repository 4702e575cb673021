// Command sudokuar finds, reads and solves Sudoku in photos and a live
// camera, drawing the solution onto the page; it plays Sudoku and Kakuro in
// the console and the browser, rates and explains puzzles, compares solvers.
//
//	sudokuar COMMAND [SUBCOMMAND] [flags] [args]   (flags before or after the args)
//	sudokuar help [COMMAND [SUBCOMMAND]] | help dev | help --markdown
//
// Each command is one entry of commands(); docs/cli.md is generated from it.
package main

//go:generate sh -c "go run . help --markdown > ../../docs/cli.md"

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

// command is one entry of the command table: a command with flags, or a
// group of nested commands (subs).
type command struct {
	name    string
	args    string // synopsis of the arguments
	summary string // one line for the command list
	about   string // optional paragraph shown by its help
	// flags declares the command's flags on fs and returns the function
	// that runs it with the parsed flags and the remaining arguments. It
	// returns the exit status: 0 done, 1 failed, 2 bad usage.
	flags func(fs *flag.FlagSet) func(e *env, args []string) int
	subs  []command // a group's commands (flags is nil)
	dev   []string  // developer flags: listed by `help dev`, not by the command's help
	// defaults says in words the defaults that depend on the machine
	// (flag name -> "one per core"), so help and docs/cli.md do not.
	defaults map[string]string
}

// commands is the table of commands, in the order help lists them. The
// group named "dev" holds the developer tools.
func commands() []command {
	return []command{
		{name: "live", summary: "solve the Sudoku held up to the camera (or in a --video), drawn onto the picture", flags: liveFlags},
		{name: "scan", args: "PATH...", summary: "find, read and solve the Sudoku in photos (files or folders)", flags: scanFlags, defaults: map[string]string{"j": "one per core"}},
		{name: "serve", summary: "the game in the browser: play, rooms with friends, enter or upload a puzzle, the AR camera", flags: serveFlags},
		{name: "console", summary: "play the console Sudoku game (the same program as sudoku-console): commands on standard input", flags: consoleFlags},
		{name: "solve", args: "[FILE|-]", summary: "solve puzzles, one per line (or a grid or .dat file)", flags: solveFlags},
		{name: "generate", summary: "print new puzzles that have exactly one solution", flags: generateFlags},
		{name: "rate", args: "[FILE|-]", summary: "rate puzzles on the Sudoku Explainer scale, with level and hardest technique", about: rateAbout, flags: rateFlags, dev: []string{"against", "check"}},
		{name: "explain", args: "PUZZLE|FILE", summary: "solve a puzzle step by step the way a person would, one sentence per step", flags: explainFlags},
		{name: "hint", args: "PUZZLE|FILE", summary: "show the next logical step (or the first wrong entry, with --current)", flags: hintFlags},
		{name: "bench", args: "FILE...", summary: "compare solvers on puzzle files: a table of solved, failed and times, and an SVG chart", flags: benchFlags, dev: []string{"peer", "peer-runs", "redraw", "clock"}},
		{name: "kakuro", summary: "Kakuro: solve, count solutions, rate and generate puzzles", about: kakuroAbout, subs: []command{
			{name: "solve", args: "[FILE...|-]", summary: "print the solution of each puzzle, in the same text format", flags: kakuroSolveFlags},
			{name: "count", args: "[FILE...|-]", summary: "print the number of solutions of each puzzle", flags: kakuroCountFlags},
			{name: "rate", args: "[FILE...|-]", summary: "print the level of each puzzle (easy, medium, hard, expert) and the techniques it needs", flags: kakuroRateFlags},
			{name: "generate", summary: "print new puzzles with exactly one solution", flags: kakuroGenerateFlags},
		}},
		{name: "dev", summary: "developer tools: the load generator, and the developer flags of bench and rate", subs: []command{
			{name: "loadgen", summary: "simulate players in multiplayer rooms against running serve nodes and report round trips", flags: loadgenFlags},
		}},
	}
}

// rateAbout is the levels' bands (logic.MediumFrom and the rest).
const rateAbout = `Levels, as bands of the Sudoku Explainer rating: easy below 2.0 (singles),
medium 2.0 to 2.9 (pointing and claiming), hard 3.0 to 4.4 (pairs to
XYZ-wings), expert 4.5 to 6.4 (unique rectangles, ALS), extreme 6.5 and up
(chains, forcing chains). A bad line is reported as FILE:LINE: reason and
the others are still rated (exit status 1).`

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
	if isHelp(args[0]) {
		return help(args[1:], e)
	}
	path, c, rest, err := find(args)
	if err != nil {
		fmt.Fprintf(e.stderr, "sudokuar: %v\n", err)
		return exitUsage
	}
	if c.flags == nil { // a group without its command
		if len(rest) > 0 && isHelp(rest[0]) {
			printHelp(e.stdout, path, c)
			return exitOK
		}
		fmt.Fprintf(e.stderr, "sudokuar %s: name a command\n\n", path)
		printHelp(e.stderr, path, c)
		return exitUsage
	}
	fs := flag.NewFlagSet("sudokuar "+path, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	runCmd := c.flags(fs)
	pos, err := parseInterleaved(fs, rest)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(e.stdout, path, c)
		return exitOK
	case err != nil:
		fmt.Fprintf(e.stderr, "sudokuar %s: %v\n(sudokuar help %s lists its flags)\n", path, err, path)
		return exitUsage
	}
	return runCmd(e, pos)
}

func isHelp(a string) bool {
	return a == "help" || a == "-h" || a == "-help" || a == "--help"
}

// find walks args down the command table: it returns the command's path
// ("kakuro solve"), the command, and the arguments after its name. An
// unknown name is an error naming the closest real one.
func find(args []string) (string, command, []string, error) {
	table := commands()
	var path []string
	for i, a := range args {
		c, ok := lookup(table, a)
		if !ok {
			if strings.HasPrefix(a, "-") && len(path) == 0 {
				return "", command{}, nil, fmt.Errorf("%s: a flag goes after its command (sudokuar help lists them)", a)
			}
			where := strings.Join(append(path, a), " ")
			return "", command{}, nil, fmt.Errorf("unknown command %q; did you mean %q? (sudokuar help lists them)", where, closestCommand(path, a))
		}
		path = append(path, c.name)
		if c.subs == nil || i == len(args)-1 {
			return strings.Join(path, " "), c, args[i+1:], nil
		}
		if strings.HasPrefix(args[i+1], "-") {
			return strings.Join(path, " "), c, args[i+1:], nil
		}
		table = c.subs
	}
	return "", command{}, nil, errors.New("no command")
}

func lookup(table []command, name string) (command, bool) {
	for _, c := range table {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// closestCommand is the command path nearest to name typed under parent:
// among parent's commands and, at the top level, the nested ones too (so
// `sudokuar loadgen` points at `dev loadgen`).
func closestCommand(parent []string, name string) string {
	var cands []string
	var walk func(prefix string, table []command, depth int)
	walk = func(prefix string, table []command, depth int) {
		for _, c := range table {
			cands = append(cands, prefix+c.name)
			if c.subs != nil && (depth > 0 || len(parent) == 0) {
				walk(prefix+c.name+" ", c.subs, depth+1)
			}
		}
	}
	table, prefix := commands(), ""
	for _, p := range parent {
		c, _ := lookup(table, p)
		table, prefix = c.subs, prefix+p+" "
	}
	walk(prefix, table, len(parent))
	best, bestD := "", 1<<30
	for _, cand := range cands {
		last := cand[strings.LastIndex(cand, " ")+1:]
		if d := editDistance(name, last); d < bestD {
			best, bestD = cand, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// parseInterleaved parses the flags of fs that may come before, between or
// after the positional arguments (`scan photos/ --json` as well as
// `scan --json photos/`), spelled -name or --name, with the value after
// "=" or as the next argument; a lone "--" ends the flags and "-" is an
// argument. It returns the positional arguments. -h and --help give
// flag.ErrHelp; an unknown flag is an error naming the closest real one.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(pos, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		if name == "" || name[0] == '-' || name[0] == '=' {
			return nil, fmt.Errorf("bad flag syntax %q", a)
		}
		name, value, hasValue := strings.Cut(name, "=")
		f := fs.Lookup(name)
		if f == nil {
			if name == "h" || name == "help" {
				return nil, flag.ErrHelp
			}
			near := closestFlag(fs, name)
			return nil, fmt.Errorf("unknown flag %s%s; did you mean %s%s?", dashes(name), name, dashes(near), near)
		}
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			if !hasValue {
				value = "true"
			}
		} else if !hasValue {
			if i+1 == len(args) {
				return nil, fmt.Errorf("flag %s%s needs a value", dashes(name), name)
			}
			i++
			value = args[i]
		}
		if err := fs.Set(name, value); err != nil {
			return nil, fmt.Errorf("invalid value %q for %s%s: %v", value, dashes(name), name, err)
		}
	}
	return pos, nil
}

func closestFlag(fs *flag.FlagSet, name string) string {
	best, bestD := "", 1<<30
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(name, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}
