package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const kakuroPuzzle = "3 4\n# 6\\ 7\\ 8\\\n\\6 1 . .\n\\15 . . .\n"
const kakuroSolved = "3 4\n# 6\\ 7\\ 8\\\n\\6 1 3 2\n\\15 5 4 6\n"

// TestKakuroCommands runs solve, count, rate and generate as a user would,
// with a batch holding a bad file, a non-unique and an unsolvable puzzle.
func TestKakuroCommands(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.txt", kakuroPuzzle)
	bad := write("bad.txt", "3 4\n# 6\\ 7\\ 8\\\n\\6 1 x .\n\\15 . . .\n")
	two := write("two.txt", "3 3\n# 4\\ 4\\\n\\4 . .\n\\4 . .\n")
	none := write("none.txt", "3 3\n# 3\\ 3\\\n\\3 . .\n\\4 . .\n")

	code, out, _ := runCLI(t, kakuroPuzzle, "kakuro", "solve", "-")
	if code != 0 || out != kakuroSolved {
		t.Fatalf("solve stdin: %d %q", code, out)
	}
	code, out, errs := runCLI(t, "", "kakuro", "solve", bad, good, two, none)
	if code != 1 || out != kakuroSolved {
		t.Errorf("batch: exit %d, stdout %q (want only the good solution)", code, out)
	}
	for _, want := range []string{
		"bad.txt: kakuro format, line 3, row 2 col 3 (\"x\"): bad token",
		"two.txt: not unique",
		"none.txt: no solution",
		"3 of 4 puzzles failed",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
	}
	if code, out, _ := runCLI(t, "", "kakuro", "count", two); code != 0 || !strings.Contains(out, "two.txt: 2 solutions") {
		t.Errorf("count: %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "kakuro", "rate", good); code != 0 || !strings.Contains(out, "good.txt: ") {
		t.Errorf("rate: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "", "kakuro", "generate", "--size", "5", "--level", "easy", "--seed", "3")
	if code != 0 || !strings.HasPrefix(out, "6 6\n") {
		t.Fatalf("generate: %d %q", code, out)
	}
	gen := write("gen.txt", out)
	if code, out, _ := runCLI(t, "", "kakuro", "rate", gen); code != 0 || !strings.Contains(out, ": easy") {
		t.Errorf("generated puzzle rates %q", out)
	}
	if code, _, _ := runCLI(t, "", "kakuro", "frobnicate"); code != 2 {
		t.Errorf("unknown action: exit %d", code)
	}
}
