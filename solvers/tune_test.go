package solvers

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/sudoku"
)

// TestTune runs a stochastic solver over a puzzle file with parameters
// from the environment and prints the solved rate and times: the command
// the README's tuning figures come from. It is skipped unless
// SUDOKUAR_TUNE names the file:
//
//	SUDOKUAR_TUNE=testdata/puzzles/hard-tune.txt TUNE_SOLVER=anneal \
//	  TUNE_PARAMS='Cooling=0.99,ChainFactor=0.2' TUNE_TIMEOUT=10s \
//	  go test -run TestTune -v -timeout 0 ./solvers
func TestTune(t *testing.T) {
	path := os.Getenv("SUDOKUAR_TUNE")
	if path == "" {
		t.Skip("SUDOKUAR_TUNE is not set")
	}
	puzzles := readPuzzleFile(t, path)
	if k, err := strconv.Atoi(os.Getenv("TUNE_N")); err == nil && k < len(puzzles) {
		puzzles = puzzles[:k]
	}
	timeout := 10 * time.Second
	if d, err := time.ParseDuration(os.Getenv("TUNE_TIMEOUT")); err == nil {
		timeout = d
	}
	seed := uint64(1)
	if s, err := strconv.ParseUint(os.Getenv("TUNE_SEED"), 10, 64); err == nil {
		seed = s
	}
	name := os.Getenv("TUNE_SOLVER")
	var ap AnnealParams
	var cp CGAParams
	for _, kv := range strings.Split(os.Getenv("TUNE_PARAMS"), ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		f, _ := strconv.ParseFloat(v, 64)
		switch k {
		case "NoSingles":
			ap.NoSingles, cp.NoSingles = f != 0, f != 0
		case "Cooling":
			ap.Cooling = f
		case "ChainFactor":
			ap.ChainFactor = f
		case "ReheatAfter":
			ap.ReheatAfter = int(f)
		case "RestartAfter":
			ap.RestartAfter, cp.RestartAfter = int(f), int(f)
		case "Focus":
			ap.Focus = int(f)
		case "Population":
			cp.Population = int(f)
		case "Elite":
			cp.Elite = int(f)
		case "Tournament":
			cp.Tournament = int(f)
		case "Mutation":
			cp.Mutation = f
		case "Swaps":
			cp.Swaps = int(f)
		case "Believe":
			cp.Believe = f
		default:
			t.Fatalf("unknown parameter %q", k)
		}
	}
	var times []time.Duration
	solved := 0
	for i, g := range puzzles {
		var s Solver
		switch name {
		case "anneal":
			s = NewAnneal(seed+uint64(i), ap)
		case "cga":
			s = NewCGA(seed+uint64(i), cp)
		default:
			var err error
			if s, err = New(name, Options{Seed: seed + uint64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		start := time.Now()
		res, err := s.Solve(ctx, g)
		el := time.Since(start)
		cancel()
		if err == nil {
			if cerr := Check(g, res.Solution); cerr != nil {
				t.Fatalf("puzzle %d: %v", i+1, cerr)
			}
			solved++
			times = append(times, el)
			if os.Getenv("TUNE_EACH") != "" {
				fmt.Printf("%v %s\n", el.Round(time.Millisecond), g)
			}
		} else if testing.Verbose() {
			t.Logf("puzzle %d: %v", i+1, err)
		}
	}
	slices.Sort(times)
	q := func(p float64) time.Duration {
		if len(times) == 0 {
			return 0
		}
		return times[min(len(times)-1, int(p*float64(len(times))))]
	}
	fmt.Printf("%s %s %s: solved %d/%d, median %v, p90 %v (of the solved)\n", name, os.Getenv("TUNE_PARAMS"), path, solved, len(puzzles), q(0.5).Round(time.Millisecond), q(0.9).Round(time.Millisecond))
}

// readPuzzleFile reads one-line puzzles, skipping blanks and '#' lines.
func readPuzzleFile(t *testing.T, path string) []sudoku.Grid {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sudoku.Grid
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		g, err := sudoku.ParseLine(text, nil)
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, g)
	}
	return out
}
