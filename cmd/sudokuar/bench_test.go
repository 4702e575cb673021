package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every solver through `sudokuar solve --solver`: the same output as
// the default for puzzles it solves, one line per puzzle.
func TestSolveWithEverySolver(t *testing.T) {
	in := wikiPuzzle + "\n" + "..4.4...1.2..2..\n"
	for _, name := range []string{"dlx", "bits", "backtrack", "stack", "ilp", "logic", "anneal", "cga"} {
		in := in
		if name == "bits" {
			in = wikiPuzzle + "\n" + wikiPuzzle + "\n"
		}
		code, out, errOut := runCLI(t, in, "solve", "--solver", name, "--timeout", "20s")
		if code != exitOK || !strings.HasPrefix(out, wikiSolution+"\n") || strings.Count(out, "\n") != 2 {
			t.Errorf("--solver %s: code %d, stdout %q, stderr %q", name, code, out, errOut)
		}
	}
	code, _, errOut := runCLI(t, in, "solve", "--solver", "magic")
	if code != exitUsage || !strings.Contains(errOut, `unknown solver "magic"`) {
		t.Errorf("--solver magic: code %d, stderr %q", code, errOut)
	}
	// Counting with a chosen counter, and a solver that cannot count.
	code, out, _ := runCLI(t, "..4.4...1.2..2..\n................\n", "solve", "--count", "--solver", "backtrack")
	if code != exitOK || out != "1\n288\n" {
		t.Errorf("--count --solver backtrack: code %d, stdout %q", code, out)
	}
	code, out, errOut = runCLI(t, wikiPuzzle+"\n..4.4...1.2..2..\n", "solve", "--count", "--solver", "bits")
	if code != exitFail || out != "1\n" || !strings.Contains(errOut, "stdin:2: bits: solvers: box shape not supported: 2x2 boxes") {
		t.Errorf("--count --solver bits: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runCLI(t, wikiPuzzle, "solve", "--count", "--solver", "anneal")
	if code != exitUsage || !strings.Contains(errOut, "cannot count") {
		t.Errorf("--count --solver anneal: code %d, stderr %q", code, errOut)
	}
	// A stochastic solver out of time says so, with its conflicts.
	top95first := "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	code, _, errOut = runCLI(t, top95first, "solve", "--solver", "cga", "--timeout", "30ms")
	if code != exitFail || !strings.Contains(errOut, "stdin:1: cga: gave up after") || !strings.Contains(errOut, "conflicts") {
		t.Errorf("cga out of time: code %d, stderr %q", code, errOut)
	}
}

func TestBench(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "mini.txt")
	puzzles := "# two puzzles\n" + wikiPuzzle + " # a comment\n1...........2..3\n"
	if err := os.WriteFile(set, []byte(puzzles), 0o644); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(dir, "chart.svg")
	saved := filepath.Join(dir, "run.json")
	code, out, errOut := runCLI(t, "", "bench", "--solver", "dlx,backtrack,anneal", "--timeout", "5s", "--svg", svg, "--json", saved, set)
	if code != exitOK {
		t.Fatalf("bench: code %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 4 || !strings.Contains(lines[0], "median") {
		t.Fatalf("bench table:\n%s", out)
	}
	for i, name := range []string{"dlx", "backtrack", "anneal"} {
		f := strings.Fields(lines[i+1])
		if len(f) < 4 || f[0] != "mini" || f[1] != name || f[2] != "2/2" || f[3] != "0" {
			t.Errorf("row %d: %q, want mini %s 2/2 0 ...", i+1, lines[i+1], name)
		}
	}
	chart, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	c := string(chart)
	if !strings.HasPrefix(c, "<svg") || strings.Count(c, "<circle") != 6 || !strings.Contains(c, ">anneal</text>") {
		t.Errorf("chart: %d dots, starts %q", strings.Count(c, "<circle"), c[:min(40, len(c))])
	}

	// A saved run redraws to the same table.
	code, again, errOut := runCLI(t, "", "bench", "--redraw", saved, "--svg", "")
	if code != exitOK || !strings.HasPrefix(out, again) {
		t.Errorf("redraw: code %d, stderr %q, table\n%s\nwant the start of\n%s", code, errOut, again, out)
	}

	// A puzzle a solver cannot do in time is a failure, not an error.
	hard := filepath.Join(dir, "hard.txt")
	os.WriteFile(hard, []byte("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"), 0o644)
	code, out, _ = runCLI(t, "", "bench", "--solver", "cga", "--timeout", "20ms", "--svg", "", hard)
	if code != exitOK || !strings.Contains(out, "0/1") || !strings.Contains(out, "1 out of time") {
		t.Errorf("cga out of time: code %d, table %q", code, out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench"}, "name one or more puzzle files"},
		{[]string{"bench", "--solver", "nope", set}, "unknown solver"},
		{[]string{"bench", "--timeout", "0s", set}, "must be positive"},
		{[]string{"bench", "--anneal", "Speed=9", set}, `no parameter "Speed"`},
		{[]string{"bench", "--clock", "sundial", set}, "want cpu or wall"},
	} {
		code, _, errOut := runCLI(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want %q", tc.args, code, errOut, tc.want)
		}
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte(wikiPuzzle+"\n12x\n"), 0o644)
	code, _, errOut = runCLI(t, "", "bench", bad)
	if code != exitFail || !strings.Contains(errOut, "bad.txt:2:") {
		t.Errorf("bad file: code %d, stderr %q", code, errOut)
	}
}

// bench --peer: our solvers as child processes and a peer program, side
// by side. The child is this test binary running `sudokuar solve`
// (TestChildMain); the peer is echo, which reports a solve-only time.
func TestBenchPeer(t *testing.T) {
	set := filepath.Join(t.TempDir(), "mini.txt")
	if err := os.WriteFile(set, []byte(wikiPuzzle+"\n"+wikiPuzzle+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sets := []benchSet{}
	s, err := readBenchSet(set)
	if err != nil {
		t.Fatal(err)
	}
	sets = append(sets, s)
	ours := func(name string) ([]string, error) {
		return []string{"env", childArgs + "=solve --solver " + name, os.Args[0], "-test.run=^TestChildMain$"}, nil
	}
	p, err := parsePeer("fake=echo solve-cpu-seconds=0.5 puzzles=2")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	code := comparePeers(&env{stdout: &out, stderr: &errOut}, sets, []string{"dlx", "bits"}, []peer{p}, 2, ours)
	text := out.String()
	if code != exitOK || !strings.Contains(text, "| mini (2) | fake | ") || !strings.Contains(text, "| 4 |") ||
		!strings.Contains(text, "mini: dlx / fake: whole process") || !strings.Contains(text, "mini: bits / fake:") || strings.Contains(text, "failed") {
		t.Errorf("code %d, stdout:\n%s\nstderr: %s", code, text, errOut.String())
	}
	for _, bad := range []string{"fake", "=echo", "x="} {
		if _, err := parsePeer(bad); err == nil {
			t.Errorf("parsePeer(%q) took it", bad)
		}
	}
	code, _, stderr := runCLI(t, "", "bench", "--peer", "nope", set)
	if code != exitUsage || !strings.Contains(stderr, "NAME=COMMAND") {
		t.Errorf("--peer nope: code %d, stderr %q", code, stderr)
	}
}
