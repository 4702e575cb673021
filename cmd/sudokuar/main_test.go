package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

const (
	wikiPuzzle   = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	wikiSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)

// runCLI runs the command line args on stdin and returns the exit status,
// stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut strings.Builder
	code := run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		args       []string
		code       int
		out, errex string // substrings expected in stdout / stderr
	}{
		{nil, exitUsage, "", "commands:"},
		{[]string{"help"}, exitOK, "solve", ""},
		{[]string{"help", "solve"}, exitOK, "--limit", ""},
		{[]string{"help", "nope"}, exitUsage, "", "unknown command"},
		{[]string{"nope"}, exitUsage, "", `unknown command "nope"`},
		{[]string{"solv"}, exitUsage, "", `did you mean "solve"?`},
		{[]string{"loadgen"}, exitUsage, "", `did you mean "dev loadgen"?`},
		{[]string{"kakuro", "solv"}, exitUsage, "", `did you mean "kakuro solve"?`},
		{[]string{"kakuro"}, exitUsage, "", "name a command"},
		{[]string{"kakuro", "--help"}, exitOK, "count", ""},
		{[]string{"help", "kakuro"}, exitOK, "DOWN\\ACROSS", ""},
		{[]string{"help", "kakuro", "generate"}, exitOK, "--level", ""},
		{[]string{"help", "kakuro", "nope"}, exitUsage, "", `did you mean "kakuro`},
		{[]string{"help", "solve", "extra"}, exitUsage, "", "has no command"},
		{[]string{"help", "dev"}, exitOK, "--peer", ""},
		{[]string{"--json"}, exitUsage, "", "goes after its command"},
		{[]string{"solve", "-h"}, exitOK, "usage: sudokuar solve", ""},
		{[]string{"solve", "--help"}, exitOK, "usage: sudokuar solve", ""},
		{[]string{"solve", "--bogus"}, exitUsage, "", "unknown flag --bogus"},
		{[]string{"solve", "--bxo"}, exitUsage, "", "did you mean --box?"},
		{[]string{"solve", "--limit"}, exitUsage, "", "--limit needs a value"},
		{[]string{"solve", "--limit", "x"}, exitUsage, "", `invalid value "x" for --limit`},
		{[]string{"solve", "--box", "7x7"}, exitUsage, "", "--box"},
		{[]string{"solve", "a", "b"}, exitUsage, "", "at most one"},
		{[]string{"solve", "/no/such/file"}, exitFail, "", "no such file"},
		{[]string{"generate", "--size", "7"}, exitUsage, "", "prime"},
		{[]string{"generate", "extra"}, exitUsage, "", "unexpected argument"},
	}
	for _, tc := range tests {
		code, out, errOut := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errex) {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want code %d with %q / %q", tc.args, code, out, errOut, tc.code, tc.out, tc.errex)
		}
	}
}

// TestEveryHelp asks every command of the table for its help, both ways,
// and checks that the user's help keeps the developer flags out.
func TestEveryHelp(t *testing.T) {
	var walk func(prefix []string, cs []command)
	walk = func(prefix []string, cs []command) {
		for _, c := range cs {
			path := append(append([]string(nil), prefix...), c.name)
			for _, args := range [][]string{append(append([]string(nil), path...), "--help"), append([]string{"help"}, path...)} {
				code, out, errOut := runCLI(t, "", args...)
				if code != exitOK || !strings.HasPrefix(out, "usage: sudokuar "+strings.Join(path, " ")) || errOut != "" {
					t.Errorf("%v: code %d, stdout %q, stderr %q", args, code, out, errOut)
				}
				for _, d := range c.dev {
					if strings.Contains(out, "  --"+d+" ") || strings.Contains(out, "  --"+d+"\n") {
						t.Errorf("%v lists the developer flag --%s", args, d)
					}
				}
			}
			walk(path, c.subs)
		}
	}
	walk(nil, commands())
	_, out, _ := runCLI(t, "", "help")
	if strings.Contains(out, "loadgen") {
		t.Errorf("the user's command list names a developer tool:\n%s", out)
	}
}

// TestFlagsAfterArgs checks that flags may follow the arguments in every
// kind of command, and that "--" ends them.
func TestFlagsAfterArgs(t *testing.T) {
	code, out, errOut := runCLI(t, wikiPuzzle+"\n", "solve", "-", "--count")
	if code != exitOK || out != "1\n" {
		t.Errorf("solve - --count: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "", "hint", wikiPuzzle, "--json")
	if code != exitOK || !strings.HasPrefix(out, "{") {
		t.Errorf("hint PUZZLE --json: %d %q", code, out)
	}
	code, out, _ = runCLI(t, kakuroPuzzle, "kakuro", "count", "-", "--limit=5")
	if code != exitOK || !strings.Contains(out, "1 solutions") {
		t.Errorf("kakuro count - --limit=5: %d %q", code, out)
	}
	if code, _, errOut := runCLI(t, "", "solve", "--", "--count"); code != exitFail || !strings.Contains(errOut, "--count") {
		t.Errorf("solve -- --count read the flag: %d %q", code, errOut)
	}
}

func TestSolveLines(t *testing.T) {
	in := strings.Join([]string{
		"# a comment",
		"",
		wikiPuzzle,
		"not a puzzle",
		"55" + wikiPuzzle[2:],
		"12345678.........9" + strings.Repeat(".", 63),
		"1.3..4.......2.1", // parses, but r1c2 can hold nothing
		wikiPuzzle[:10] + "!" + wikiPuzzle[11:],
	}, "\n")
	code, out, errOut := runCLI(t, in, "solve")
	if code != exitFail {
		t.Errorf("exit %d, want %d", code, exitFail)
	}
	if want := wikiSolution + "\n"; out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	for _, want := range []string{
		"stdin:4: line format, char 4: unexpected space",
		"stdin:5: sudoku: conflicting givens: 5 twice in row 1 (r1c1, r1c2)",
		"stdin:6: sudoku: no solution",
		"stdin:7: sudoku: no solution",
		"stdin:8: line format, char 11: bad character '!'",
		"5 of 6 puzzles failed",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestSolveCountAndBox(t *testing.T) {
	code, out, _ := runCLI(t, "................\n12..34..........\n"+wikiPuzzle+"\n", "solve", "--count", "--limit", "100")
	if code != exitOK || out != "100\n12\n1\n" {
		t.Errorf("--count: code %d, out %q", code, out)
	}
	code, out, _ = runCLI(t, "................\n", "solve", "--count", "--limit", "0")
	if code != exitOK || out != "288\n" {
		t.Errorf("--count --limit 0: code %d, out %q", code, out)
	}
	// A 6x6 row that is legal with 3x2 boxes but not with the default 2x3.
	six := "123456" + "345612" + strings.Repeat(".", 24)
	if code, _, errOut := runCLI(t, six, "solve"); code != exitFail || !strings.Contains(errOut, "box") {
		t.Errorf("6x6 default boxes: code %d, stderr %q", code, errOut)
	}
	code, out, errOut := runCLI(t, six, "solve", "--box", "3x2")
	if code != exitOK {
		t.Fatalf("--box 3x2: code %d, stderr %q", code, errOut)
	}
	s := sudoku.Shape{BoxRows: 3, BoxCols: 2}
	g, err := sudoku.ParseLine(strings.TrimSpace(out), &s)
	if err != nil || len(sudoku.Validate(g)) != 0 || g.Givens() != 36 {
		t.Errorf("--box 3x2 solution %q invalid (%v)", out, err)
	}
}

func TestSolveGridAndDat(t *testing.T) {
	grid := "2 2\n0 0 1. 0\n0 1. 0 0\n1. 0 0 2\n0 0 0 0\n"
	// Only the fixed values count: the 2 at r3c4 is an entry, dropped.
	fixedOnly, _ := sudoku.ParseLine("..1..1..1.......", nil)
	withEntry, _ := sudoku.ParseLine("..1..1..1..2....", nil)
	want, notWant := sudoku.CountSolutions(fixedOnly, 0), sudoku.CountSolutions(withEntry, 0)
	if want == notWant {
		t.Fatalf("test grid does not tell fixed from entries (%d)", want)
	}
	code, out, errOut := runCLI(t, grid, "solve", "--count")
	if code != exitOK || out != fmt.Sprintf("%d\n", want) {
		t.Errorf("grid file count: code %d out %q err %q, want %d", code, out, errOut, want)
	}
	dir := t.TempDir()
	dat := filepath.Join(dir, "x.dat")
	var b strings.Builder
	p, _ := sudoku.ParseLine(wikiPuzzle, nil)
	sudoku.WriteDat(&b, p, sudoku.DatHeader{Camera: "cam", Photo: "640x480:24 JPG"})
	os.WriteFile(dat, []byte(b.String()), 0o644)
	code, out, errOut = runCLI(t, "", "solve", dat)
	if code != exitOK || out != wikiSolution+"\n" {
		t.Errorf(".dat: code %d out %q err %q", code, out, errOut)
	}
	os.WriteFile(dat, []byte("cam\nphoto\n1 2 3 4 5 6 7\n"), 0o644)
	code, _, errOut = runCLI(t, "", "solve", dat)
	if code != exitFail || !strings.Contains(errOut, "x.dat:3:") || !strings.Contains(errOut, "prime") {
		t.Errorf("bad .dat: code %d err %q", code, errOut)
	}
}

func TestGenerateThenSolve(t *testing.T) {
	code, out, errOut := runCLI(t, "", "generate", "--count", "3", "--seed", "7", "--box", "2x3")
	if code != exitOK {
		t.Fatalf("generate: %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("generate printed %d lines", len(lines))
	}
	for _, l := range lines {
		g, err := sudoku.ParseLine(l, nil)
		if err != nil || !sudoku.IsUnique(g) {
			t.Errorf("generated %q: %v, unique %v", l, err, sudoku.IsUnique(g))
		}
	}
	_, again, _ := runCLI(t, "", "generate", "--count", "3", "--seed", "7", "--box", "2x3")
	if again != out {
		t.Error("same seed, different puzzles")
	}
	code, sols, errOut := runCLI(t, out, "solve")
	if code != exitOK || len(strings.Split(strings.TrimSpace(sols), "\n")) != 3 {
		t.Errorf("solving generated: %d %q %q", code, sols, errOut)
	}
	code, out, _ = runCLI(t, "", "generate", "--clues", "30")
	if g, err := sudoku.ParseLine(strings.TrimSpace(out), nil); code != exitOK || err != nil || g.Givens() != 30 {
		t.Errorf("--clues 30: %q", out)
	}
}

// TestSolveTop95 runs the command on the shared benchmark file and checks
// every solution against its puzzle.
func TestSolveTop95(t *testing.T) {
	path := testenv.Shared(t, "puzzles/top95.txt")
	code, out, errOut := runCLI(t, "", "solve", path)
	if code != exitOK || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	checkAgainst(t, path, out, 95)
}

// checkAgainst checks that out holds one valid solution per puzzle in path.
func checkAgainst(t *testing.T, path, out string, want int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var puzzles []sudoku.Grid
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		g, err := sudoku.ParseLine(text, nil)
		if err != nil {
			t.Fatal(err)
		}
		puzzles = append(puzzles, g)
	}
	sols := strings.Split(strings.TrimSpace(out), "\n")
	if len(puzzles) != want || len(sols) != want {
		t.Fatalf("%d puzzles, %d solutions, want %d", len(puzzles), len(sols), want)
	}
	for i, p := range puzzles {
		s, err := sudoku.ParseLine(sols[i], &p.Shape)
		if err != nil {
			t.Fatalf("solution %d: %v", i+1, err)
		}
		if s.Givens() != len(s.Cells) || len(sudoku.Validate(s)) != 0 {
			t.Fatalf("solution %d is not a valid full grid: %s", i+1, s)
		}
		for k, v := range p.Cells {
			if v != 0 && s.Cells[k] != v {
				t.Fatalf("solution %d changes a given at cell %d", i+1, k)
			}
		}
	}
}

func TestSolveDemo(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "puzzles", "demo.txt")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("demo puzzles missing: %v", err)
	}
	code, out, errOut := runCLI(t, "", "solve", path)
	if code != exitOK || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	checkAgainst(t, path, out, 20)
}

// TestSolveLongLines feeds lines too long to be puzzles (10 MB of digits,
// a long comment, multi-byte characters) between good ones: each long one
// is reported with its length and the next line is solved as usual.
func TestSolveLongLines(t *testing.T) {
	in := strings.Join([]string{
		strings.Repeat("1", 10_000_000),
		wikiPuzzle,
		"#" + strings.Repeat("x", maxLine),
		strings.Repeat("é", maxLine+1),
		wikiPuzzle + "\r",                    // a CRLF line ending
		strings.Repeat("2", maxLine-1) + " ", // at the limit: read, and refused as a puzzle
		wikiPuzzle,                           // the last line, without a newline
	}, "\n")
	code, out, errOut := runCLI(t, in, "solve")
	if code != exitFail {
		t.Errorf("exit %d, want %d", code, exitFail)
	}
	if want := strings.Repeat(wikiSolution+"\n", 3); out != want {
		t.Errorf("stdout %q, want three solutions", out)
	}
	want := fmt.Sprintf("stdin:1: too long (10000000 characters; at most %d)\n"+
		"stdin:3: too long (%d characters; at most %d)\n"+
		"stdin:4: too long (%d characters; at most %d)\n"+
		"stdin:6: line format: %d characters is not the size of any grid (want 81 for 9x9, or N*N)\n"+
		"sudokuar solve: 4 of 7 puzzles failed\n", maxLine, maxLine+1, maxLine, maxLine+1, maxLine, maxLine-1)
	if errOut != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, want)
	}
}
