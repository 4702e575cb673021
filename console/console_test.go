package console

import (
	"bufio"
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/solvers"
	"github.com/sudokuar/sudokuar/sudoku"
)

// newSession returns a session on a buffer with DLX and a fixed seed.
func newSession() (*Session, *bytes.Buffer) {
	var out bytes.Buffer
	return New(&out, Config{Solver: solvers.NewILP(), Rand: rand.New(rand.NewPCG(1, 2))}), &out
}

// boardOf prints the current board alone.
func boardOf(t *testing.T, s *Session, out *bytes.Buffer) string {
	t.Helper()
	out.Reset()
	s.Execute("print_board")
	return out.String()
}

// TestHostileLines checks the line rules on input no one types by hand:
// 256 characters are a command, 257 are not; a 10,000-character line, a
// line of binary garbage and a line of NULs are one invalid command each;
// the board stays as it was.
func TestHostileLines(t *testing.T) {
	edit256 := "edit" + strings.Repeat(" ", 252)
	lines := []string{
		"solve testdata/puzzles/small.txt",
		edit256 + " ", // 257: invalid
		strings.Repeat("x", 10000),
		"set 1 1 " + strings.Repeat("9", 10000),
		"\x00\x01\x02\xff\xfe\x7fELF",
		strings.Repeat("\x00", 300),
		"set\x001 1 3",
		"print_board",
		edit256, // 256: edit
		"exit",
	}
	s, out := newSession()
	if err := s.Run(strings.NewReader(strings.Join(lines, "\n") + "\n")); err != nil {
		t.Fatal(err)
	}
	board := "-------------------\n|  4     |  1.    |\n|      1.|        |\n-------------------\n|  1.    |      2 |\n|        |        |\n-------------------\n"
	empty9 := strings.Repeat("----------------------------------------\n"+strings.Repeat("|            |            |            |\n", 3), 3) + "----------------------------------------\n"
	p := "Enter your command:\n"
	bad := p + "ERROR: invalid command\n"
	want := "Sudoku\n------\n" + p + board + bad + bad + bad + bad + bad + bad + p + board + p + empty9 + p + "Exiting...\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant\n%s", firstDifference(out.String(), want), want)
	}
}

// TestReadLine checks line splitting at the limits, with both line ends
// and without one at the end.
func TestReadLine(t *testing.T) {
	long := strings.Repeat("a", MaxLine)
	for _, tc := range []struct {
		in    string
		lines []string // "!" for a line that is too long
	}{
		{"a\nb\n", []string{"a", "b"}},
		{"a\r\nb", []string{"a", "b"}},
		{long + "\n" + long + "a\n" + long + "\r\n", []string{long, "!", long}},
		{strings.Repeat("z", 100000) + "\nok", []string{"!", "ok"}},
		{"\n\n", []string{"", ""}},
		{"", nil},
	} {
		br := bufio.NewReaderSize(strings.NewReader(tc.in), 16)
		var got []string
		for {
			line, tooLong, err := readLine(br)
			if err != nil {
				break
			}
			if tooLong {
				line = "!"
			}
			got = append(got, line)
		}
		if strings.Join(got, "|") != strings.Join(tc.lines, "|") || len(got) != len(tc.lines) {
			t.Errorf("readLine(%.20q...) = %q, want %q", tc.in, got, tc.lines)
		}
	}
}

// TestSaveWritesSpecFormat checks the bytes of saved files: every value
// fixed from Edit mode, only the puzzle's fixed cells from Solve mode.
func TestSaveWritesSpecFormat(t *testing.T) {
	dir := t.TempDir()
	s, out := newSession()
	for _, line := range []string{
		"solve testdata/puzzles/small.txt", "set 2 1 2", "save " + dir + "/solve.txt",
		"edit testdata/puzzles/small.txt", "set 2 1 2", "save " + dir + "/edit.txt",
	} {
		s.Execute(line)
	}
	for name, want := range map[string]string{
		"solve.txt": "2 2\n4 2 1. 0\n0 1. 0 0\n1. 0 0 2\n0 0 0 0\n",
		"edit.txt":  "2 2\n4. 2. 1. 0\n0 1. 0 0\n1. 0 0 2.\n0 0 0 0\n",
	} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q (session said %q)", name, got, err, want, out.String())
		}
	}
	// A failed save leaves an existing file alone.
	before, _ := os.ReadFile(filepath.Join(dir, "edit.txt"))
	s.Execute("set 3 1 4") // 4 twice in row 1: erroneous, cannot be saved
	s.Execute("save " + dir + "/edit.txt")
	after, _ := os.ReadFile(filepath.Join(dir, "edit.txt"))
	if !bytes.Equal(before, after) {
		t.Error("a refused save changed the file")
	}
}

// TestUnreadableFile: a file without read permission cannot be opened.
// Root reads it anyway, so the test needs another user.
func TestUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can read a file without read permission")
	}
	path := filepath.Join(t.TempDir(), "locked.txt")
	os.WriteFile(path, []byte("1 1\n0\n"), 0)
	s, out := newSession()
	s.Execute("solve " + path)
	s.Execute("edit " + path)
	if want := msgSolveOpen + msgEditOpen; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestInterruptCount stops num_solutions on an empty 9x9 board (6.67e21
// solutions) from another goroutine, as Ctrl-C does, and checks that the
// game goes on with the board unchanged. Progress lines go to their own
// writer.
func TestInterruptCount(t *testing.T) {
	var out, progress bytes.Buffer
	var mu sync.Mutex
	s := New(&out, Config{Solver: solvers.NewILP(), Progress: lockedWriter{&progress, &mu}, ProgressEvery: 20 * time.Millisecond})
	s.Execute("edit")
	board := boardOf(t, s, &out)
	if s.Interrupt() {
		t.Error("Interrupt with no command running reported one")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Interrupt once it has counted and reported, not after a guess
		// at how long that takes (after a minute without a report, the
		// check below fails).
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			mu.Lock()
			reported := strings.Contains(progress.String(), "solutions so far")
			mu.Unlock()
			if reported {
				break
			}
		}
		for !s.Interrupt() {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	out.Reset()
	s.Execute("num_solutions")
	<-done
	if got := out.String(); !strings.HasPrefix(got, "Interrupted: counting stopped after ") || strings.Count(got, "\n") != 1 {
		t.Errorf("num_solutions printed %q", got)
	}
	if got := boardOf(t, s, &out); got != board {
		t.Errorf("board changed:\n%s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(progress.String(), "solutions so far") {
		t.Errorf("no progress lines: %q", progress.String())
	}
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// slow is a solver that waits for its context: it stands for an ILP solve
// that takes long.
type slow struct{}

func (slow) Name() string { return "slow" }
func (slow) Solve(ctx context.Context, _ sudoku.Grid) (solvers.Result, error) {
	<-ctx.Done()
	return solvers.Result{}, &solvers.TimeoutError{Solver: "slow", Conflicts: -1, Err: ctx.Err()}
}

// TestInterruptSolver stops validate, hint, generate and an Edit-mode save
// that wait on the solver.
func TestInterruptSolver(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, Config{Solver: slow{}})
	for _, tc := range []struct{ setup, cmd string }{
		{"edit", "validate"},
		{"edit", "generate 3 3"},
		{"edit", "save " + filepath.Join(t.TempDir(), "x.txt")},
		{"solve testdata/puzzles/small.txt", "hint 2 1"},
	} {
		s.Execute(tc.setup)
		board := boardOf(t, s, &out)
		go func() {
			for !s.Interrupt() {
				time.Sleep(5 * time.Millisecond)
			}
		}()
		out.Reset()
		s.Execute(tc.cmd)
		if got := out.String(); !strings.HasPrefix(got, "Interrupted: ") {
			t.Errorf("%s: printed %q", tc.cmd, got)
		}
		if got := boardOf(t, s, &out); got != board {
			t.Errorf("%s changed the board", tc.cmd)
		}
	}
}
