package logic

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// ratedPuzzle is one line of a rated calibration file.
type ratedPuzzle struct {
	line   string
	grid   sudoku.Grid
	rating float64
}

// readRated reads a file of `PUZZLE RATING ...` lines from ../shared, or
// skips the test when the shared data is absent.
func readRated(t testing.TB, rel string) []ratedPuzzle {
	t.Helper()
	return readRatedFile(t, testenv.Shared(t, rel))
}

// readRatedFile reads a file of `PUZZLE RATING ...` lines; a missing file
// fails t.
func readRatedFile(t testing.TB, path string) []ratedPuzzle {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []ratedPuzzle
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		g, err := sudoku.ParseLine(fields[0], nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		r := 0.0
		if len(fields) > 1 {
			r, _ = strconv.ParseFloat(fields[1], 64)
		}
		out = append(out, ratedPuzzle{fields[0], g, r})
	}
	return out
}

// mustParse parses a one-line puzzle.
func mustParse(t testing.TB, s string) sudoku.Grid {
	t.Helper()
	g, err := sudoku.ParseLine(s, nil)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return g
}

// checkStep fails t if s places a digit that is not the solution's or
// eliminates the solution's digit.
func checkStep(t testing.TB, s Step, sol sudoku.Grid) {
	t.Helper()
	for _, p := range s.Placements {
		if sol.Cells[p.Cell] != p.Digit {
			t.Fatalf("%s places %d in cell %d, solution has %d: %s", s.Technique, p.Digit, p.Cell, sol.Cells[p.Cell], s.Text)
		}
	}
	for _, e := range s.Eliminations {
		if sol.Cells[e.Cell] == e.Digit {
			t.Fatalf("%s eliminates the solution's %d from cell %d: %s", s.Technique, e.Digit, e.Cell, s.Text)
		}
	}
}
