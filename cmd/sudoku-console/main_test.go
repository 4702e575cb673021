package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmux types into the real built program in a terminal (tmux), as a
// player would: a puzzle is loaded and played, an endless num_solutions
// shows its progress on the terminal and stops on Ctrl-C, and exit ends
// the program. Skipped when tmux is not installed.
func TestTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not installed")
	}
	if testing.Short() {
		t.Skip("takes a few seconds")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sudoku-console")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	puzzles, err := filepath.Abs("../../console/testdata/puzzles")
	if err != nil {
		t.Fatal(err)
	}
	// A private server socket keeps the test away from anyone's tmux.
	sock := fmt.Sprintf("sudoku-console-test-%d", os.Getpid())
	run := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-L", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("new-session", "-d", "-s", "game", "-x", "120", "-y", "50", "-c", puzzles, bin)
	defer exec.Command(tmux, "-L", sock, "kill-server").Run()
	// Keep the pane after the program ends, so the screen can be read.
	run("set-option", "-t", "game", "remain-on-exit", "on")

	screen := func() string { return run("capture-pane", "-p", "-t", "game") }
	waitFor := func(what string, timeout time.Duration) string {
		t.Helper()
		deadline := time.Now().Add(timeout)
		for {
			s := screen()
			if strings.Contains(s, what) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("screen never showed %q:\n%s", what, s)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	typeLine := func(line string) {
		run("send-keys", "-t", "game", "-l", line)
		run("send-keys", "-t", "game", "Enter")
	}

	waitFor("Enter your command:", 10*time.Second)
	typeLine("solve small.txt")
	waitFor("|  1.    |      2 |", 5*time.Second)
	typeLine("set 2 1 1")
	waitFor("|  4   1*|  1.    |", 5*time.Second)
	typeLine("undo")
	waitFor("Undo 2,1: from 1 to _", 5*time.Second)
	typeLine("hint 2 1")
	waitFor("Hint: set cell to ", 5*time.Second)

	typeLine("edit")
	waitFor("|            |            |            |", 5*time.Second)
	typeLine("num_solutions")
	waitFor("solutions so far", 10*time.Second) // progress after 3 s
	run("send-keys", "-t", "game", "C-c")
	waitFor("Interrupted: counting stopped after", 5*time.Second)
	typeLine("print_board")
	typeLine("exit")
	s := waitFor("Exiting...", 5*time.Second)
	if !strings.Contains(s, "ERROR") && strings.Count(s, "Enter your command:") < 2 {
		t.Errorf("expected prompts after the interrupt:\n%s", s)
	}
}
