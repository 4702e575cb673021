package kakuro

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestILPAgrees cross-checks the integer program against the fast solver:
// on small boards with zero, one and two solutions, and on the published
// puzzles (same unique solution). GLPK needs from milliseconds to minutes
// per puzzle, so by default only boards of up to 100 white cells run here;
// KAKURO_ILP_ALL=1 runs every one (the README's ILP column:
// KAKURO_ILP_ALL=1 go test -run ILPAgrees -v -timeout 2h ./kakuro).
func TestILPAgrees(t *testing.T) {
	ctx := context.Background()
	small := []string{
		"3 3\n# 4\\ 4\\\n\\4 . .\n\\4 . .\n",
		"3 3\n# 3\\ 3\\\n\\3 . .\n\\4 . .\n",
		"3 3\n# 4\\ 3\\\n\\3 3 .\n\\4 . .\n",
		"3 4\n# 6\\ 7\\ 8\\\n\\6 1 . .\n\\15 . . .\n",
		wikipedia,
	}
	for _, text := range small {
		b, err := ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		agree(t, ctx, b, text[:5])
	}
	if testing.Short() {
		return
	}
	for _, f := range sharedPuzzles(t) {
		b, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Whites()) > 100 && os.Getenv("KAKURO_ILP_ALL") == "" {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		start := time.Now()
		agree(t, ctx, b, name)
		t.Logf("%s: %d white cells, ilp %v", name, len(b.Whites()), time.Since(start).Round(time.Millisecond))
	}
}

func agree(t *testing.T, ctx context.Context, b *Board, name string) {
	t.Helper()
	s, _ := NewSolver(b)
	fast := s.Count(2)
	p, err := NewILP(b)
	if err != nil {
		t.Fatal(err)
	}
	sols, _, err := p.Solve(ctx, 2)
	if err != nil {
		t.Fatalf("%s: ilp: %v", name, err)
	}
	if len(sols) != fast.Count {
		t.Fatalf("%s: ilp finds %d solutions, fast solver %d", name, len(sols), fast.Count)
	}
	if fast.Count == 1 && sols[0].String() != fast.Solutions[0].String() {
		t.Errorf("%s: ilp solution differs:\n%s", name, sols[0])
	}
	for _, sol := range sols {
		if err := checkSolution(sol); err != nil {
			t.Errorf("%s: ilp solution breaks a rule: %v", name, err)
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
