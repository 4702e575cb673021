package console

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// FuzzCommands runs arbitrary command lines on a game in Solve mode and
// then in Edit mode (4x4 boards, so num_solutions ends at once). It never
// panics, every reply ends with a newline, and a line that is not a
// command leaves the board as it was. Lines that open or write files
// (solve, edit, save) are skipped: the fuzzer must not write where it
// likes.
func FuzzCommands(f *testing.F) {
	for _, s := range []string{
		"set 1 1 3", "set 2 1 1\nundo\nredo", "autofill\nundo", "hint 2 1", "mark_errors 0\nprint_board",
		"num_solutions", "validate", "generate 3 3", "reset", "set 99999999999999999999 1 1",
		"\x00\xff set", "set 1 1 1 1 1", "exit", "   \t", "generate 16 16\nundo",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		for _, mode := range []string{"solve testdata/puzzles/small.txt", "edit testdata/puzzles/small.txt"} {
			s, out := newSession()
			s.Execute(mode)
			for _, line := range strings.Split(script, "\n") {
				if len(line) > MaxLine {
					continue
				}
				words := strings.FieldsFunc(line, isSpace)
				if len(words) > 0 && (words[0] == "solve" || words[0] == "edit" || words[0] == "save") {
					continue
				}
				var before string
				if s.Game() != nil {
					before = s.Game().Grid().String()
				}
				out.Reset()
				if s.Execute(line) {
					break
				}
				reply := out.String()
				if reply != "" && !strings.HasSuffix(reply, "\n") {
					t.Fatalf("%q: reply %q does not end a line", line, reply)
				}
				if reply == msgInvalid && s.Game() != nil && s.Game().Grid().String() != before {
					t.Fatalf("%q: an invalid command changed the board", line)
				}
				if s.Mode() != Init && s.Game() == nil {
					t.Fatalf("%q: mode %v without a game", line, s.Mode())
				}
			}
		}
	})
}

// FuzzRun feeds whole inputs, line ends and all, to Run: it always ends
// with "Exiting...\n" and prints one prompt per line read.
func FuzzRun(f *testing.F) {
	f.Add([]byte("print_board\n\n\r\nfoo\r\n"))
	f.Add([]byte(strings.Repeat("x", 600) + "\nexit"))
	f.Add([]byte("\x00\n\xff\n"))
	f.Fuzz(func(t *testing.T, input []byte) {
		if bytes.Contains(input, []byte("solve")) || bytes.Contains(input, []byte("edit")) || bytes.Contains(input, []byte("save")) {
			return
		}
		s, out := newSession()
		if err := s.Run(bytes.NewReader(input)); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(out.String(), "Exiting...\n") {
			t.Fatalf("output does not end with Exiting...: %q", out.String())
		}
		// Count the lines Run should have read.
		br := bufio.NewReader(bytes.NewReader(input))
		lines := 0
		for {
			line, _, err := readLine(br)
			if err != nil {
				break
			}
			lines++
			if w := strings.FieldsFunc(line, isSpace); len(w) > 0 && w[0] == "exit" {
				break
			}
		}
		if got := strings.Count(out.String(), msgPrompt); got != lines+1 && !strings.Contains(string(input), "exit") {
			t.Fatalf("%d prompts for %d lines", got, lines)
		}
	})
}
