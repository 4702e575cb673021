package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// help runs `sudokuar help [COMMAND [SUBCOMMAND]]`, `help dev` and
// `help --markdown`.
func help(args []string, e *env) int {
	if len(args) == 0 {
		usage(e.stdout)
		return exitOK
	}
	if args[0] == "--markdown" || args[0] == "-markdown" {
		if len(args) > 1 {
			fmt.Fprintf(e.stderr, "sudokuar help: --markdown takes no command, found %q\n", args[1])
			return exitUsage
		}
		markdown(e.stdout)
		return exitOK
	}
	path, c, rest, err := find(args)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("%q has no command %q", path, rest[0])
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "sudokuar help: %v\n", err)
		return exitUsage
	}
	printHelp(e.stdout, path, c)
	return exitOK
}

// usage is the top-level help: the user's commands (not the developer
// tools).
func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("sudokuar reads, solves and plays Sudoku: from photos, a live camera, the browser or the console.\n\n")
	b.WriteString("usage: sudokuar COMMAND [flags] [args]   (flags may also come after the args)\n\ncommands:\n")
	for _, c := range commands() {
		if c.name == "dev" {
			continue
		}
		s := c.summary
		if c.subs != nil {
			s += " (sudokuar help " + c.name + ")"
		}
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, s)
	}
	b.WriteString("  help       a command's flags: sudokuar help COMMAND (or sudokuar COMMAND --help)\n\n")
	b.WriteString("Developer tools: sudokuar help dev.\n")
	fmt.Fprint(w, b.String())
}

// flagSet returns c's flags, declared on a throwaway set.
func flagSet(path string, c command) *flag.FlagSet {
	fs := flag.NewFlagSet("sudokuar "+path, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if c.flags != nil {
		c.flags(fs)
	}
	return fs
}

// synopsis is the usage line of the command at path.
func synopsis(path string, c command) string {
	s := "sudokuar " + path
	switch {
	case c.subs != nil:
		s += " COMMAND [flags] [args]"
	case hasFlags(path, c):
		s += " [flags]"
	}
	if c.args != "" {
		s += " " + c.args
	}
	return s
}

func hasFlags(path string, c command) bool {
	n := 0
	flagSet(path, c).VisitAll(func(f *flag.Flag) {
		if !slices.Contains(c.dev, f.Name) {
			n++
		}
	})
	return n > 0
}

// printHelp prints the help of the command (or group) at path.
func printHelp(w io.Writer, path string, c command) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", synopsis(path, c), c.summary)
	if c.about != "" {
		fmt.Fprintf(w, "\n%s\n", c.about)
	}
	if c.subs != nil {
		fmt.Fprint(w, "\ncommands:\n")
		for _, s := range c.subs {
			fmt.Fprintf(w, "  %-10s %s\n", s.name, s.summary)
		}
		fmt.Fprintf(w, "\nsudokuar help %s COMMAND shows a command's flags.\n", path)
		if path == "dev" {
			printDevFlags(w)
		}
		return
	}
	if hasFlags(path, c) {
		fmt.Fprint(w, "\nflags:\n")
		printFlags(w, flagSet(path, c), c.defaults, func(f *flag.Flag) bool { return !slices.Contains(c.dev, f.Name) })
	}
	if len(c.dev) > 0 {
		fmt.Fprintf(w, "\ndeveloper flags (sudokuar help dev): --%s\n", strings.Join(c.dev, ", --"))
	}
}

// printDevFlags lists the developer flags of the user's commands.
func printDevFlags(w io.Writer) {
	for _, c := range commands() {
		if len(c.dev) == 0 {
			continue
		}
		fmt.Fprintf(w, "\ndeveloper flags of sudokuar %s:\n", c.name)
		printFlags(w, flagSet(c.name, c), c.defaults, func(f *flag.Flag) bool { return slices.Contains(c.dev, f.Name) })
	}
}

// printFlags prints the flags of fs that keep accepts, as --name VALUE and
// their usage below, wrapped to fit a terminal.
func printFlags(w io.Writer, fs *flag.FlagSet, defaults map[string]string, keep func(*flag.Flag) bool) {
	fs.VisitAll(func(f *flag.Flag) {
		if !keep(f) {
			return
		}
		fmt.Fprintf(w, "  %s\n", flagSyntax(f))
		for _, line := range wrap(flagUsage(f, defaults), 72) {
			fmt.Fprintf(w, "        %s\n", line)
		}
	})
}

// flagSyntax is how f is written: --name or --name VALUE (-x for a
// one-letter flag).
func flagSyntax(f *flag.Flag) string {
	s := dashes(f.Name) + f.Name
	if name, _ := flag.UnquoteUsage(f); name != "" {
		s += " " + name
	}
	return s
}

// dashes is how the help writes a flag's dashes: one for a one-letter
// flag (-j), two for a word (--json). Both forms are accepted.
func dashes(name string) string {
	if len(name) == 1 {
		return "-"
	}
	return "--"
}

// flagUsage is f's usage with its default, when it has one worth saying
// (in words when defaults has it).
func flagUsage(f *flag.Flag, defaults map[string]string) string {
	_, u := flag.UnquoteUsage(f)
	if d, ok := defaults[f.Name]; ok {
		return u + " (default " + d + ")"
	}
	switch f.DefValue {
	case "", "0", "false", "0s", "[]":
	default:
		if strings.Contains(u, "(default") { // the usage says it in words
			break
		}
		u += fmt.Sprintf(" (default %s)", f.DefValue)
	}
	return u
}

// wrap breaks s into lines of at most width runes, at spaces.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

// markdown writes docs/cli.md: every command, its arguments and flags,
// from the same table and flag sets the program runs on.
func markdown(w io.Writer) {
	var b strings.Builder
	b.WriteString("# Command line\n\n")
	b.WriteString("<!-- Generated from cmd/sudokuar by `go generate ./cmd/sudokuar` (sudokuar help --markdown); a test fails when it differs from the code. Edit the command table and the flags there, not this file. -->\n\n")
	b.WriteString("Every command is `sudokuar COMMAND [flags] [args]`. A flag is spelled `--name value` or `--name=value` " +
		"(`-name` works too), a yes/no flag `--name` or `--name=false`; flags may come before or after the arguments, " +
		"and `--` ends them. `sudokuar help COMMAND` or `sudokuar COMMAND --help` prints a command's flags.\n\n")
	b.WriteString("Exit status: 0 done; 1 failed (an input could not be handled: each is reported on stderr, naming the file, line or cell, and the rest still run); " +
		"2 bad usage (an unknown command or flag is named with the closest real one).\n\n")
	b.WriteString("| command | what it does |\n|---|---|\n")
	var toc func(prefix string, cs []command)
	toc = func(prefix string, cs []command) {
		for _, c := range cs {
			if c.name == "dev" {
				continue
			}
			path := prefix + c.name
			if c.subs != nil {
				toc(path+" ", c.subs)
				continue
			}
			fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", path, anchor(path), cell(c.summary))
		}
	}
	toc("", commands())
	b.WriteString("| [`dev …`](#developer-tools) | developer tools: the load generator and developer flags |\n")
	var sections func(prefix string, cs []command, level string)
	sections = func(prefix string, cs []command, level string) {
		for _, c := range cs {
			path := prefix + c.name
			if c.name == "dev" && prefix == "" {
				b.WriteString("\n## Developer tools\n\n`sudokuar help dev` lists these; they are for measuring the program, not for playing.\n")
				sections(path+" ", c.subs, "###")
				for _, u := range commands() {
					if len(u.dev) == 0 {
						continue
					}
					fmt.Fprintf(&b, "\n### Developer flags of sudokuar %s\n\n", u.name)
					flagTable(&b, flagSet(u.name, u), u.defaults, func(f *flag.Flag) bool { return slices.Contains(u.dev, f.Name) })
				}
				continue
			}
			if c.subs != nil {
				fmt.Fprintf(&b, "\n%s sudokuar %s\n\n%s.\n", level, path, capitalise(c.summary))
				if c.about != "" {
					fmt.Fprintf(&b, "\n%s\n", c.about)
				}
				sections(path+" ", c.subs, level+"#")
				continue
			}
			fmt.Fprintf(&b, "\n%s sudokuar %s\n\n%s.\n\n    %s\n", level, path, capitalise(c.summary), synopsis(path, c))
			if c.about != "" {
				fmt.Fprintf(&b, "\n%s\n", c.about)
			}
			if hasFlags(path, c) {
				b.WriteString("\n")
				flagTable(&b, flagSet(path, c), c.defaults, func(f *flag.Flag) bool { return !slices.Contains(c.dev, f.Name) })
			}
			if len(c.dev) > 0 {
				fmt.Fprintf(&b, "\nDeveloper flags: `--%s` ([below](#developer-flags-of-sudokuar-%s)).\n", strings.Join(c.dev, "`, `--"), c.name)
			}
		}
	}
	sections("", commands(), "##")
	fmt.Fprint(w, b.String())
}

// flagTable writes the flags of fs that keep accepts as a Markdown table.
func flagTable(b *strings.Builder, fs *flag.FlagSet, defaults map[string]string, keep func(*flag.Flag) bool) {
	b.WriteString("| flag | what it does |\n|---|---|\n")
	fs.VisitAll(func(f *flag.Flag) {
		if keep(f) {
			fmt.Fprintf(b, "| `%s` | %s |\n", cell(flagSyntax(f)), cell(flagUsage(f, defaults)))
		}
	})
}

// anchor is the id GitHub gives the heading "sudokuar PATH".
func anchor(path string) string {
	return "sudokuar-" + strings.ReplaceAll(path, " ", "-")
}

// cell escapes s for a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
