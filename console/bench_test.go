package console

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/solvers"
)

// BenchmarkCommands25 times every command the specification wants answered
// at once on a 25x25 board (5x5 boxes, testdata/puzzles/b5x5.txt), output
// to io.Discard: the goal is at most 50 ms each. num_solutions, generate,
// validate and hint are left out (they solve); "save (edit)" includes the
// check that the board has a solution, with the program's ILP solver.
func BenchmarkCommands25(b *testing.B) {
	tmp := b.TempDir()
	file := "testdata/puzzles/b5x5.txt"
	cases := []struct {
		name   string
		setup  string
		script []string // run in turn, one per iteration
	}{
		{"solve", "", []string{"solve " + file}},
		{"edit", "", []string{"edit " + file}},
		{"print_board", "solve " + file, []string{"print_board"}},
		{"mark_errors", "solve " + file, []string{"mark_errors 0", "mark_errors 1"}},
		{"set", "solve " + file, []string{"set 1 1 3", "set 1 1 0"}},
		{"undo_redo", "solve " + file + "\nset 1 1 3", []string{"undo", "redo"}},
		{"autofill_undo", "solve " + file, []string{"autofill", "undo"}},
		{"reset", "solve " + file, []string{"set 1 1 3", "reset"}},
		{"save (solve)", "solve " + file, []string{"save " + filepath.Join(tmp, "s.txt")}},
		{"save (edit)", "edit testdata/puzzles/nearly25.txt", []string{"save " + filepath.Join(tmp, "e.txt")}},
		{"invalid", "solve " + file, []string{"generate 1 1"}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s := New(io.Discard, Config{Solver: solvers.NewILP()})
			for _, line := range splitLines(c.setup) {
				s.Execute(line)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Execute(c.script[i%len(c.script)])
			}
		})
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}
