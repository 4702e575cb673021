package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

// explainFlags declares `sudokuar explain`: the whole solution, one step
// per line, the way a person would find it.
func explainFlags(fs *flag.FlagSet) func(*env, []string) int {
	grids := fs.Bool("grids", false, "print the grid with its candidates after each step")
	asJSON := fs.Bool("json", false, "print the steps as JSON, one object per line")
	order := fs.String("order", "hint", "technique order: hint (the techniques people know first) or rate (Sudoku Explainer's order, as rate uses)")
	box := fs.String("box", "", "box shape `RxC` for one-line puzzles whose length allows several")
	return func(e *env, args []string) int {
		if len(args) != 1 {
			fmt.Fprintln(e.stderr, "sudokuar explain: name one puzzle (a one-line puzzle, a file, or - for stdin)")
			return exitUsage
		}
		if *order != "hint" && *order != "rate" {
			fmt.Fprintf(e.stderr, "sudokuar explain: --order %q: want hint or rate\n", *order)
			return exitUsage
		}
		p, name, err := puzzleArg(e, args[0], *box)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar explain: %s: %v\n", name, err)
			return exitFail
		}
		r, err := logic.Rate(p)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar explain: %s: %v\n", name, err)
			return exitFail
		}
		steps := r.Steps
		if *order == "hint" {
			if _, steps, err = logic.SolveSteps(context.Background(), p); err != nil {
				fmt.Fprintf(e.stderr, "sudokuar explain: %s: %v\n", name, err)
				return exitFail
			}
		}
		out := bufio.NewWriter(e.stdout)
		defer out.Flush()
		if *asJSON {
			enc := json.NewEncoder(out)
			for _, s := range steps {
				if err := enc.Encode(s); err != nil {
					fmt.Fprintf(e.stderr, "sudokuar explain: %v\n", err)
					return exitFail
				}
			}
			return exitOK
		}
		fmt.Fprintf(out, "%s\nrating %.1f (%s), hardest step: %s\n", p, r.SE, r.Level, r.Hardest)
		g, _ := logic.NewGrid(p)
		for i, s := range steps {
			fmt.Fprintf(out, "%d. [%.1f] %s\n", i+1, s.Rating, s.Text)
			if *grids {
				if err := g.Apply(s); err != nil {
					fmt.Fprintf(e.stderr, "sudokuar explain: %s: step %d: %v\n", name, i+1, err)
					return exitFail
				}
				writeCandidates(out, g)
			}
		}
		fmt.Fprintf(out, "solved in %d steps\n", len(steps))
		return exitOK
	}
}

// puzzleArg reads a puzzle given as a one-line puzzle, a file (line, grid or
// .dat format; the first puzzle of a line file) or "-" for stdin. It
// returns the puzzle and a name for messages.
func puzzleArg(e *env, arg, box string) (sudoku.Grid, string, error) {
	var shape *sudoku.Shape
	if box != "" {
		s, err := sudoku.ParseShape(box)
		if err != nil {
			return sudoku.Grid{}, "--box", err
		}
		shape = &s
	}
	name := arg
	var data []byte
	if arg == "-" {
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			return sudoku.Grid{}, "stdin", err
		}
		name, data = "stdin", b
	} else if st, err := os.Stat(arg); err == nil && !st.IsDir() {
		if data, err = os.ReadFile(arg); err != nil {
			return sudoku.Grid{}, name, err
		}
	} else {
		g, err := sudoku.ParseLine(arg, shape)
		return g, "puzzle", err
	}
	switch detectFormat("auto", name, data) {
	case "grid":
		g, fixed, err := sudoku.ReadGrid(bytes.NewReader(data))
		return sudoku.Puzzle(g, fixed), name, err
	case "dat":
		g, err := sudoku.ReadDat(bytes.NewReader(data))
		return g, name, err
	}
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		g, err := sudoku.ParseLine(f[0], shape)
		if err != nil {
			return g, fmt.Sprintf("%s:%d", name, i+1), err
		}
		return g, name, nil
	}
	return sudoku.Grid{}, name, fmt.Errorf("no puzzle in it")
}

// writeCandidates prints the grid with placed digits and, in empty cells,
// their candidates after a dot (".159"), boxes set apart.
func writeCandidates(w io.Writer, g *logic.Grid) {
	n := g.N()
	shape := g.Shape()
	width := 1
	for c := 0; c < n*n; c++ {
		if k := len(g.Candidates(c)) + 1; k > width {
			width = k
		}
	}
	cell := func(c int) string {
		if v := g.Value(c); v != 0 {
			return string(sudoku.Symbol(v))
		}
		var b strings.Builder
		b.WriteByte('.')
		for _, d := range g.Candidates(c) {
			b.WriteByte(sudoku.Symbol(d))
		}
		return b.String()
	}
	for r := 0; r < n; r++ {
		if r > 0 && r%shape.BoxRows == 0 {
			fmt.Fprintln(w)
		}
		var b strings.Builder
		for col := 0; col < n; col++ {
			if col > 0 {
				b.WriteByte(' ')
				if col%shape.BoxCols == 0 {
					b.WriteString(" ")
				}
			}
			fmt.Fprintf(&b, "%-*s", width, cell(r*n+col))
		}
		fmt.Fprintln(w, "   "+strings.TrimRight(b.String(), " "))
	}
}
