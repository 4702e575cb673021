package console

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/solvers"
	"github.com/sudokuar/sudokuar/sudoku"
)

var update = flag.Bool("update", false, "rewrite the golden testdata/sessions/*.out files from the program's output")

// failing is a solver that never finds a solution, to reach the messages
// for a failed generator and a failed validation.
type failing struct{}

func (failing) Name() string { return "failing" }
func (failing) Solve(context.Context, sudoku.Grid) (solvers.Result, error) {
	return solvers.Result{}, sudoku.ErrNoSolution
}

// sessionSolvers names the sessions that run with another solver than
// the program's own (ILP, GLPK).
var sessionSolvers = map[string]solvers.Solver{
	"failing_solver": failing{},
}

// runSession plays input through a fresh session with a fixed seed and
// the program's solver (ILP, as sudoku-console uses) and returns
// everything it printed.
func runSession(t testing.TB, name, input string) string {
	t.Helper()
	var sv solvers.Solver = solvers.NewILP()
	if s, ok := sessionSolvers[name]; ok {
		sv = s
	}
	var out bytes.Buffer
	s := New(&out, Config{Solver: sv, Rand: rand.New(rand.NewPCG(1, 2))})
	if err := s.Run(strings.NewReader(input)); err != nil {
		t.Fatalf("%s: Run: %v", name, err)
	}
	return out.String()
}

// TestSessions plays every testdata/sessions/NAME.in through the game and
// compares the output byte for byte with NAME.out. "$TMP" in a session
// stands for a fresh temporary folder (for save). The .out files were
// written with -update and then read line by line against the
// specification.
func TestSessions(t *testing.T) {
	ins, err := filepath.Glob("testdata/sessions/*.in")
	if err != nil || len(ins) == 0 {
		t.Fatalf("no sessions: %v", err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			got := runSession(t, name, strings.ReplaceAll(string(data), "$TMP", tmp))
			got = strings.ReplaceAll(got, tmp, "$TMP")
			golden := strings.TrimSuffix(in, ".in") + ".out"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s:\n%s", golden, firstDifference(got, string(want)))
			}
		})
	}
}

// firstDifference shows where got and want part, line by line.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d:\n got  %q\n want %q", i+1, gl, wl)
		}
	}
	return "(same lines, different bytes)"
}
