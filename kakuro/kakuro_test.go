package kakuro

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// wikipedia is the example of FORMAT.md (Wikipedia's Kakuro figure).
const wikipedia = `8 8
# 23\ 30\ # # 27\ 12\ 16\
\16 . . # 17\24 . . .
\17 . . 15\29 . . . .
\35 . . . . . 12\ #
# \7 . . 7\8 . . 7\
# 11\ 10\16 . . . . .
\21 . . . . \5 . .
\6 . . . # \3 . .
`

const wikipediaSolved = `8 8
# 23\ 30\ # # 27\ 12\ 16\
\16 9 7 # 17\24 8 7 9
\17 8 9 15\29 8 9 5 7
\35 6 8 5 9 7 12\ #
# \7 6 1 7\8 2 6 7\
# 11\ 10\16 4 6 1 3 2
\21 8 9 3 1 \5 1 4
\6 3 1 2 # \3 2 1
`

func TestCombinations(t *testing.T) {
	cases := []struct {
		n, sum int
		want   [][]int
	}{
		{2, 3, [][]int{{1, 2}}},
		{2, 4, [][]int{{1, 3}}},
		{2, 10, [][]int{{1, 9}, {2, 8}, {3, 7}, {4, 6}}},
		{2, 16, [][]int{{7, 9}}},
		{2, 17, [][]int{{8, 9}}},
		{3, 6, [][]int{{1, 2, 3}}},
		{3, 7, [][]int{{1, 2, 4}}},
		{3, 23, [][]int{{6, 8, 9}}},
		{3, 24, [][]int{{7, 8, 9}}},
		{4, 10, [][]int{{1, 2, 3, 4}}},
		{4, 11, [][]int{{1, 2, 3, 5}}},
		{4, 29, [][]int{{5, 7, 8, 9}}},
		{4, 30, [][]int{{6, 7, 8, 9}}},
		{5, 15, [][]int{{1, 2, 3, 4, 5}}},
		{5, 35, [][]int{{5, 6, 7, 8, 9}}},
		{6, 21, [][]int{{1, 2, 3, 4, 5, 6}}},
		{7, 41, [][]int{{2, 4, 5, 6, 7, 8, 9}}},
		{7, 30, [][]int{{1, 2, 3, 4, 5, 6, 9}, {1, 2, 3, 4, 5, 7, 8}}},
		{8, 44, [][]int{{2, 3, 4, 5, 6, 7, 8, 9}}},
		{9, 45, [][]int{{1, 2, 3, 4, 5, 6, 7, 8, 9}}},
		{1, 7, [][]int{{7}}},
		{2, 2, nil},
		{2, 18, nil},
		{3, 5, nil},
		{9, 44, nil},
		{10, 45, nil},
		{0, 0, nil},
	}
	for _, c := range cases {
		got := Combinations(c.n, c.sum)
		if len(got) == 0 && len(c.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Combinations(%d, %d) = %v, want %v", c.n, c.sum, got, c.want)
		}
	}
	// Every set of n digits appears under exactly one sum: C(9, n) in all,
	// and every set adds up to its sum.
	binom := []int{1, 9, 36, 84, 126, 126, 84, 36, 9, 1}
	for n := 1; n <= 9; n++ {
		total := 0
		for s := MinSum(n); s <= MaxSum(n); s++ {
			for _, set := range Combinations(n, s) {
				total++
				sum := 0
				for _, d := range set {
					sum += d
				}
				if sum != s || len(set) != n {
					t.Errorf("Combinations(%d, %d) holds %v", n, s, set)
				}
			}
			if len(Combinations(n, s)) == 0 {
				t.Errorf("Combinations(%d, %d) is empty inside [MinSum, MaxSum]", n, s)
			}
		}
		if total != binom[n] {
			t.Errorf("length %d: %d sets, want C(9,%d) = %d", n, total, n, binom[n])
		}
		if len(Combinations(n, MinSum(n)-1)) != 0 || len(Combinations(n, MaxSum(n)+1)) != 0 {
			t.Errorf("length %d: sets outside [%d, %d]", n, MinSum(n), MaxSum(n))
		}
	}
}

// candidates renders the domains of the white cells as "12 3 789 ...".
func candidates(dom []uint16) string {
	var parts []string
	for _, m := range dom {
		s := ""
		for _, d := range maskDigits(m) {
			s += fmt.Sprint(d)
		}
		if s == "" {
			s = "-"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// TestPropagation checks what propagation alone deduces on small boards:
// the candidates of every white cell (row-major) after all runs are made
// consistent, before any search.
func TestPropagation(t *testing.T) {
	cases := []struct {
		name, board string
		ok          bool
		want        string
	}{
		{"one combination each way", "3 3\n# 4\\ 3\\\n\\3 . .\n\\4 . .\n", true, "1 2 3 1"},
		{"crossing of 3 in two and 4 in two is 1", "3 3\n# 3\\ 4\\\n\\3 . .\n\\4 . .\n", true, "2 1 1 3"},
		{"16 in two is 7 and 9", "3 3\n# 16\\ 17\\\n\\16 . .\n\\17 . .\n", true, "7 9 9 8"},
		{"rows and columns that cannot agree", "3 3\n# 3\\ 3\\\n\\3 . .\n\\4 . .\n", false, ""},
		{"a given narrows its runs", "3 4\n# 6\\ 7\\ 8\\\n\\6 1 . .\n\\15 . . .\n", true, "1 3 2 5 4 6"},
		{"no clue means only all different", "2 3\n# # #\n# . .\n", true, "123456789 123456789"},
		{"a cell clued two ways differently", "3 3\n# 3\\ #\n\\2 . #\n# # #\n", false, ""},
		{"a 2x3 block", "3 4\n# 15\\ 17\\ 8\\\n\\24 . . .\n\\16 . . .\n", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, _, err := parse(strings.NewReader(c.board))
			if err != nil {
				t.Fatal(err)
			}
			e := newEngine(b)
			dom := append([]uint16(nil), e.init...)
			ok := e.propagateAll(dom)
			if ok != c.ok {
				t.Fatalf("propagate ok = %v, want %v (candidates %s)", ok, c.ok, candidates(dom))
			}
			if !ok {
				return
			}
			want := c.want
			if want == "" {
				want = candidatesOf(t, c.board)
			}
			if candidates(dom) != want {
				t.Errorf("candidates %s, want %s", candidates(dom), want)
			}
			// Propagation never removes a digit some solution uses.
			if brute := candidatesOf(t, c.board); !covers(dom, brute) {
				t.Errorf("candidates %s lose digits of solutions %s", candidates(dom), brute)
			}
		})
	}
}

// covers reports whether every digit listed in brute (as candidates
// renders) is in dom.
func covers(dom []uint16, brute string) bool {
	for i, f := range strings.Fields(brute) {
		for _, ch := range f {
			if ch != '-' && dom[i]&digitBit(int(ch-'0')) == 0 {
				return false
			}
		}
	}
	return true
}

// candidatesOf computes, by brute force over every filling, the digits each
// white cell takes in some solution: an independent check of propagation
// on boards small enough to enumerate.
func candidatesOf(t *testing.T, text string) string {
	t.Helper()
	b, _, err := parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	whites := b.Whites()
	runs := b.Runs()
	pos := map[int]int{}
	for i, w := range whites {
		pos[w] = i
	}
	seen := make([]uint16, len(whites))
	digits := make([]int, len(whites))
	var rec func(i int)
	rec = func(i int) {
		if i == len(whites) {
			for _, r := range runs {
				sum, used := 0, 0
				for _, c := range r.Cells {
					d := digits[pos[c]]
					if used&(1<<d) != 0 {
						return
					}
					used |= 1 << d
					sum += d
				}
				if r.Sum != 0 && sum != r.Sum {
					return
				}
			}
			for k, d := range digits {
				seen[k] |= digitBit(d)
			}
			return
		}
		lo, hi := 1, 9
		if g := b.Cells[whites[i]].Digit; g > 0 {
			lo, hi = g, g
		}
		for d := lo; d <= hi; d++ {
			digits[i] = d
			rec(i + 1)
		}
	}
	rec(0)
	return candidates(seen)
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, text string
		format     bool   // a *FormatError, else a *RuleError
		want       string // in the message
	}{
		{"empty", "", true, "empty input"},
		{"header", "8\n", true, "line 1"},
		{"header not numbers", "a b\n", true, `board size "a"`},
		{"too big", "1000 2\n", true, "from 1 to 200"},
		{"short row", "2 3\n# 3\\ 4\\\n\\3 .\n", true, "line 3: row 2 has 2 tokens"},
		{"missing rows", "3 3\n# 3\\ 4\\\n", true, "1 rows, the header announces 3"},
		{"extra rows", "1 2\n# #\n# #\n", true, "line 3: more than the 1 rows"},
		{"bad token", "2 2\n# 3\\\n\\3 x\n", true, `line 3, row 2 col 2 ("x"): bad token`},
		{"bad clue", "2 2\n# 3\\4\\\n\\3 .\n", true, `row 1 col 2 ("3\\4\\"): bad clue`},
		{"clue with letters", "2 2\n# a\\\n\\3 .\n", true, "bad clue"},
		{"zero digit", "2 2\n# #\n# 0\n", true, "bad token"},
		{"run longer than 9", "2 11\n# # # # # # # # # # #\n\\45 . . . . . . . . . .\n", false, "line 3, row 2 col 1: across run of 10 cells is longer than 9"},
		{"impossible sum", "3 3\n# 3\\ 4\\\n\\18 . .\n\\4 . .\n", false, "line 3, row 2 col 1: across clue 18 cannot be made from 2 distinct digits 1-9 (they sum to 3-17)"},
		{"sum over 45", "3 3\n# 3\\ 4\\\n\\99 . .\n\\4 . .\n", false, "across clue 99"},
		{"white cell in no run", "3 3\n# # #\n# . #\n# # #\n", false, "row 2 col 2: white cell is in no run"},
		{"run without clue", "3 3\n# 3\\ 4\\\n# . .\n\\4 . .\n", false, "across run of 2 white cells has no clue"},
		{"clue pointing at a block", "3 3\n# 3\\ 4\\7\n\\3 . .\n\\4 . .\n", false, "across clue 7 heads no run"},
		{"clue pointing at the edge", "3 3\n# 3\\ 4\\\n\\3 . .\n\\4 . 5\\\n", false, "heads no run"},
		{"repeated given", "3 3\n# 4\\ 4\\\n\\4 2 2\n\\4 . .\n", false, "digit 2 appears twice in the across run at row 2 col 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseString(c.text)
			if err == nil {
				t.Fatal("no error")
			}
			var fe *FormatError
			var re *RuleError
			if c.format && !errors.As(err, &fe) {
				t.Fatalf("want a *FormatError, got %T %v", err, err)
			}
			if !c.format && !errors.As(err, &re) {
				t.Fatalf("want a *RuleError, got %T %v", err, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}
}

func TestFormatRoundTrip(t *testing.T) {
	for _, text := range []string{wikipedia, wikipediaSolved} {
		b, err := ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != text {
			t.Errorf("round trip changed the text:\n%s\nwant\n%s", b, text)
		}
	}
	// Extra spaces, blank lines and "0" sides read the same.
	loose := "\n 3 3 \n\n#   4\\0 3\\\n0\\3 . .\n\\4 . .\n\n"
	b, err := ParseString(loose)
	if err != nil {
		t.Fatal(err)
	}
	if want := "3 3\n# 4\\ 3\\\n\\3 . .\n\\4 . .\n"; b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

func TestSolveWikipedia(t *testing.T) {
	b, err := ParseString(wikipedia)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := Solve(b)
	if err != nil {
		t.Fatal(err)
	}
	if sol.String() != wikipediaSolved {
		t.Errorf("solution\n%s\nwant\n%s", sol, wikipediaSolved)
	}
}

func TestSolveOutcomes(t *testing.T) {
	cases := []struct {
		name, board string
		count       int
		err         error
	}{
		{"two solutions", "3 3\n# 4\\ 4\\\n\\4 . .\n\\4 . .\n", 2, ErrMultipleSolutions},
		{"no solution", "3 3\n# 3\\ 3\\\n\\3 . .\n\\4 . .\n", 0, ErrNoSolution},
		{"a given that cannot fit", "3 3\n# 4\\ 3\\\n\\3 3 .\n\\4 . .\n", 0, ErrNoSolution},
		{"unique", "3 3\n# 4\\ 3\\\n\\3 . .\n\\4 . .\n", 1, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := ParseString(c.board)
			if err != nil {
				t.Fatal(err)
			}
			n, err := CountSolutions(b, 10)
			if err != nil || n != c.count {
				t.Fatalf("count = %d, %v; want %d", n, err, c.count)
			}
			_, err = Solve(b)
			if !errors.Is(err, c.err) {
				t.Fatalf("Solve error %v, want %v", err, c.err)
			}
			var me *MultipleError
			if errors.As(err, &me) && (me.First.String() == me.Second.String() || !me.First.Filled()) {
				t.Errorf("MultipleError shows %v and %v", me.First, me.Second)
			}
		})
	}
}

// sharedPuzzles returns the published puzzles of ../shared/puzzles/kakuro
// (test data only: never copied into the repository) by name.
func sharedPuzzles(tb testing.TB) []string {
	dir := testenv.Shared(tb, "puzzles/kakuro")
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".solution.txt") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		testenv.Missing(tb, "no puzzles in "+dir)
	}
	return out
}

func solutionFile(puzzle string) string { return strings.TrimSuffix(puzzle, ".txt") + ".solution.txt" }

// TestSharedPuzzles solves every published puzzle, proves it unique and
// compares the solution with the published one, byte for byte.
func TestSharedPuzzles(t *testing.T) {
	for _, f := range sharedPuzzles(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			b, err := ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(solutionFile(f))
			if err != nil {
				t.Fatal(err)
			}
			if !sameLayout(b, string(want)) {
				t.Errorf("puzzle and solution layouts differ")
			}
			s, err := NewSolver(b)
			if err != nil {
				t.Fatal(err)
			}
			res := s.Count(2)
			if res.Count != 1 {
				t.Fatalf("%d solutions, want 1", res.Count)
			}
			if got := res.Solutions[0].String(); got != string(want) {
				t.Errorf("solution differs from the published one:\n%s", got)
			}
		})
	}
}

// sameLayout reports whether the solution text has b's blocks and clues.
func sameLayout(b *Board, solution string) bool {
	sb, err := ParseString(solution)
	return err == nil && sb.Blank().String() == b.Blank().String()
}
