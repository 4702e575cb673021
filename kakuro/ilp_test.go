package kakuro

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
)

// TestILPAgrees cross-checks the integer program against the fast solver:
// on small boards with zero, one and two solutions (every formulation), and
// on every published puzzle (same unique solution, found and proven unique
// by the default combination model: about 2 s of CPU for all 35 here).
// The plain formulation needs minutes on some published boards, so it runs
// on them only with KAKURO_ILP_ALL=1:
//
//	KAKURO_ILP_ALL=1 go test -run ILPAgrees -v -timeout 2h ./kakuro
func TestILPAgrees(t *testing.T) {
	ctx := context.Background()
	small := []string{
		"3 3\n# 4\\ 4\\\n\\4 . .\n\\4 . .\n",
		"3 3\n# 3\\ 3\\\n\\3 . .\n\\4 . .\n",
		"3 3\n# 4\\ 3\\\n\\3 3 .\n\\4 . .\n",
		"3 4\n# 6\\ 7\\ 8\\\n\\6 1 . .\n\\15 . . .\n",
		"3 3\n# 17\\ 3\\\n\\10 . .\n\\10 . .\n", // 17 = 8+9 and 3 = 1+2 across two 10s: none
		wikipedia,
	}
	for _, text := range small {
		b, err := ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []ILPModel{ILPCombinations, ILPPlain, ILPPropagated} {
			agree(t, ctx, b, m, text[:5])
		}
	}
	if testing.Short() {
		return
	}
	all := os.Getenv("KAKURO_ILP_ALL") != ""
	for _, f := range sharedPuzzles(t) {
		b, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		models := []ILPModel{ILPCombinations}
		if all {
			models = append(models, ILPPlain, ILPPropagated)
		}
		for _, m := range models {
			start := time.Now()
			agree(t, ctx, b, m, name)
			t.Logf("%s: %d white cells, ilp (%v) %v", name, len(b.Whites()), m, time.Since(start).Round(time.Millisecond))
		}
	}
}

func agree(t *testing.T, ctx context.Context, b *Board, m ILPModel, name string) {
	t.Helper()
	s, _ := NewSolver(b)
	fast := s.Count(2)
	p, err := NewILPModel(b, m)
	if err != nil {
		t.Fatal(err)
	}
	sols, _, err := p.Solve(ctx, 2)
	if err != nil {
		t.Fatalf("%s: ilp (%v): %v", name, m, err)
	}
	if len(sols) != fast.Count {
		t.Fatalf("%s: ilp (%v) finds %d solutions, fast solver %d", name, m, len(sols), fast.Count)
	}
	if fast.Count == 1 && sols[0].String() != fast.Solutions[0].String() {
		t.Errorf("%s: ilp (%v) solution differs:\n%s", name, m, sols[0])
	}
	for _, sol := range sols {
		if err := checkSolution(sol); err != nil {
			t.Errorf("%s: ilp (%v) solution breaks a rule: %v", name, m, err)
		}
	}
}

// BenchmarkILP times the integer program on every published puzzle, per
// formulation: build the program, solve it, exclude the solution and
// prove the second program infeasible. It reports the CPU time of the
// benchmark's thread (GLPK runs on it) beside the wall time:
//
//	go test -run '^$' -bench 'ILP/combinations' -benchtime 3x -count 3 ./kakuro
//
// The plain formulation (ILP/plain) runs for minutes on some boards; a
// board it has not finished within KAKURO_ILP_CAP (default 60s) is
// reported as failed rather than waited for.
func BenchmarkILP(b *testing.B) {
	capTime := 60 * time.Second
	if v := os.Getenv("KAKURO_ILP_CAP"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("KAKURO_ILP_CAP: %v", err)
		}
		capTime = d
	}
	files := sharedPuzzles(b)
	for _, m := range []ILPModel{ILPCombinations, ILPPlain, ILPPropagated} {
		for _, f := range files {
			board, err := ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(f), ".txt")
			b.Run(m.String()+"/"+name, func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0 := cputime.Thread()
				var st ILPStats
				for b.Loop() {
					p, err := NewILPModel(board, m)
					if err != nil {
						b.Fatal(err)
					}
					ctx, cancel := context.WithTimeout(context.Background(), capTime)
					var sols []*Board
					sols, st, err = p.Solve(ctx, 2)
					cancel()
					if err != nil {
						b.ReportMetric(1, "failed")
						b.Skipf("not finished within %v: %v", capTime, err)
					}
					if len(sols) != 1 {
						b.Fatalf("%d solutions", len(sols))
					}
				}
				reportCPU(b, cpu0)
				b.ReportMetric(float64(st.Nodes), "nodes")
				b.ReportMetric(float64(st.Vars), "vars")
			})
		}
	}
}

// checkSolution verifies a filled board against every run, independently
// of the solvers.
func checkSolution(b *Board) error {
	for _, r := range b.Runs() {
		sum, seen := 0, 0
		for _, c := range r.Cells {
			d := b.Cells[c].Digit
			if d < 1 || d > 9 || seen&(1<<d) != 0 {
				return &RuleError{Problems: []Problem{{Row: c/b.Cols + 1, Col: c%b.Cols + 1, Reason: "empty or repeated digit"}}}
			}
			seen |= 1 << d
			sum += d
		}
		if sum != r.Sum {
			return &RuleError{Problems: []Problem{{Row: r.Cells[0]/b.Cols + 1, Col: r.Cells[0]%b.Cols + 1, Reason: "wrong sum"}}}
		}
	}
	return nil
}
