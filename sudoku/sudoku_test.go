package sudoku

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// The puzzle from Wikipedia's Sudoku article and its solution.
const (
	wikiPuzzle   = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	wikiSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)

func mustLine(t testing.TB, line string) Grid {
	t.Helper()
	g, err := ParseLine(line, nil)
	if err != nil {
		t.Fatalf("ParseLine(%q): %v", line, err)
	}
	return g
}

// checkSolution fails t unless sol is a full grid that breaks no rule and
// keeps every given of puzzle.
func checkSolution(t testing.TB, puzzle, sol Grid) {
	t.Helper()
	if sol.Shape != puzzle.Shape || len(sol.Cells) != len(puzzle.Cells) {
		t.Fatalf("solution shape %v/%d cells, puzzle %v/%d", sol.Shape, len(sol.Cells), puzzle.Shape, len(puzzle.Cells))
	}
	for i, v := range sol.Cells {
		if v < 1 || v > sol.N() {
			t.Fatalf("solution cell %d = %d", i, v)
		}
		if p := puzzle.Cells[i]; p != 0 && p != v {
			t.Fatalf("solution changes given %d at cell %d to %d", p, i, v)
		}
	}
	if c := Validate(sol); len(c) != 0 {
		t.Fatalf("solution breaks the rules: %v", c[0])
	}
}

func TestShapeForN(t *testing.T) {
	tests := []struct {
		n    int
		want Shape
		ok   bool
	}{
		{1, Shape{1, 1}, true}, {4, Shape{2, 2}, true}, {6, Shape{2, 3}, true}, {8, Shape{2, 4}, true},
		{9, Shape{3, 3}, true}, {10, Shape{2, 5}, true}, {12, Shape{3, 4}, true}, {15, Shape{3, 5}, true},
		{16, Shape{4, 4}, true}, {25, Shape{5, 5}, true}, {7, Shape{}, false}, {0, Shape{}, false},
		{26, Shape{}, false}, {-9, Shape{}, false},
	}
	for _, tc := range tests {
		got, err := ShapeForN(tc.n)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ShapeForN(%d) = %v, %v; want %v (ok %v)", tc.n, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseShape(t *testing.T) {
	tests := []struct {
		in   string
		want Shape
		ok   bool
	}{
		{"3x3", Shape{3, 3}, true}, {"2X3", Shape{2, 3}, true}, {" 4*3 ", Shape{4, 3}, true},
		{"3", Shape{}, false}, {"0x3", Shape{}, false}, {"6x6", Shape{}, false}, {"axb", Shape{}, false},
	}
	for _, tc := range tests {
		got, err := ParseShape(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseShape(%q) = %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseLine(t *testing.T) {
	s23 := Shape{3, 2}
	tests := []struct {
		name  string
		in    string
		shape *Shape
		want  Shape
		cells map[int]int // spot checks
		col   int         // > 0: want a *ParseError at this character
	}{
		{"9x9", wikiPuzzle, nil, Shape{3, 3}, map[int]int{0: 5, 1: 3, 2: 0, 80: 9}, 0},
		{"zeros", strings.ReplaceAll(wikiPuzzle, ".", "0"), nil, Shape{3, 3}, map[int]int{2: 0, 4: 7}, 0},
		{"comment", wikiPuzzle + "  # from Wikipedia", nil, Shape{3, 3}, map[int]int{80: 9}, 0},
		{"crlf", "  " + wikiPuzzle + "\r\n", nil, Shape{3, 3}, map[int]int{0: 5}, 0},
		{"4x4", "1.3..4.......2.1", nil, Shape{2, 2}, map[int]int{0: 1, 2: 3, 15: 1}, 0},
		{"16x16 letters", "G" + strings.Repeat(".", 254) + "a", nil, Shape{4, 4}, map[int]int{0: 16, 255: 10}, 0},
		{"6x6 3x2 boxes", "123456" + strings.Repeat(".", 30), &s23, Shape{3, 2}, map[int]int{5: 6}, 0},
		{"bad length", wikiPuzzle[:80], nil, Shape{}, nil, 0},
		{"length for shape", wikiPuzzle, &s23, Shape{}, nil, 0},
		{"bad char", wikiPuzzle[:10] + "x" + wikiPuzzle[11:], nil, Shape{}, nil, 11},
		{"too large", wikiPuzzle[:3] + "A" + wikiPuzzle[4:], nil, Shape{}, nil, 4},
		{"unicode", wikiPuzzle[:79] + "é", nil, Shape{}, nil, 0},
		{"inner space", wikiPuzzle[:40] + " " + wikiPuzzle[40:], nil, Shape{}, nil, 41},
		{"empty", "", nil, Shape{}, nil, 0},
		{"prime side", strings.Repeat(".", 49), nil, Shape{}, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParseLine(tc.in, tc.shape)
			if tc.cells == nil {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("err = %v, want a *ParseError", err)
				}
				if tc.col > 0 && pe.Col != tc.col {
					t.Errorf("error at char %d, want %d (%v)", pe.Col, tc.col, pe)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.Shape != tc.want {
				t.Errorf("shape %v, want %v", g.Shape, tc.want)
			}
			for i, v := range tc.cells {
				if g.Cells[i] != v {
					t.Errorf("cell %d = %d, want %d", i, g.Cells[i], v)
				}
			}
			// String gives the canonical form back: '.' and upper case.
			back, err := ParseLine(g.String(), tc.shape)
			if err != nil || !back.Equal(g) {
				t.Errorf("round trip via %q: %v", g.String(), err)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	g := mustLine(t, wikiPuzzle)
	if c := Validate(g); c != nil {
		t.Fatalf("Wikipedia puzzle: conflicts %v", c)
	}
	g.Cells[2] = 5  // r1c3 = 5 clashes with r1c1 (row and box)
	g.Cells[72] = 6 // r9c1 = 6 clashes with r2c1 in column 1 and r7c2 in box 7
	got := Validate(g)
	want := []Conflict{
		{A: 0, B: 2, Unit: Row, Index: 0, Value: 5, Side: 9},
		{A: 9, B: 72, Unit: Column, Index: 0, Value: 6, Side: 9},
		{A: 0, B: 2, Unit: Box, Index: 0, Value: 5, Side: 9},
		{A: 55, B: 72, Unit: Box, Index: 6, Value: 6, Side: 9},
	}
	if len(got) != len(want) {
		t.Fatalf("conflicts %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("conflict %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if s := got[0].String(); s != "5 twice in row 1 (r1c1, r1c3)" {
		t.Errorf("String() = %q", s)
	}
	// 6x6 with 2x3 boxes: box 1 is rows 0-1, columns 3-5.
	h := NewGrid(Shape{2, 3})
	h.Set(0, 3, 4)
	h.Set(1, 5, 4)
	if c := Validate(h); len(c) != 1 || c[0].Unit != Box || c[0].Index != 1 || c[0].A != 3 || c[0].B != 11 {
		t.Errorf("6x6 box conflict: %+v", c)
	}
}

func TestSolve(t *testing.T) {
	sol, err := Solve(mustLine(t, wikiPuzzle))
	if err != nil {
		t.Fatal(err)
	}
	if sol.String() != wikiSolution {
		t.Errorf("solution %s, want %s", sol, wikiSolution)
	}

	conflicting := mustLine(t, "55"+wikiPuzzle[2:])
	_, err = Solve(conflicting)
	var ce *ConflictError
	if !errors.As(err, &ce) || len(ce.Conflicts) == 0 {
		t.Errorf("conflicting givens: err = %v", err)
	}

	// No two givens clash, but r1c9 can hold nothing: 1..8 in its row, 9 in its column.
	stuck := mustLine(t, "12345678.........9"+strings.Repeat(".", 63))
	if _, err := Solve(stuck); !errors.Is(err, ErrNoSolution) {
		t.Errorf("unsolvable: err = %v, want ErrNoSolution", err)
	}

	bad := NewGrid(Shape{3, 3})
	bad.Cells[0] = 10
	if _, err := Solve(bad); !errors.Is(err, ErrInvalidGrid) {
		t.Errorf("value 10: err = %v, want ErrInvalidGrid", err)
	}
	if _, err := Solve(Grid{Shape: Shape{3, 3}, Cells: make([]int, 80)}); !errors.Is(err, ErrInvalidGrid) {
		t.Errorf("80 cells: err = %v, want ErrInvalidGrid", err)
	}
	sv, _ := NewSolver(Shape{2, 2})
	if _, err := sv.Solve(mustLine(t, wikiPuzzle)); !errors.Is(err, ErrInvalidGrid) {
		t.Errorf("9x9 into a 4x4 solver: err = %v", err)
	}
}

func TestCountSolutions(t *testing.T) {
	tests := []struct {
		name  string
		g     Grid
		limit int
		want  int
	}{
		{"empty 4x4", NewGrid(Shape{2, 2}), 0, 288}, // 288 Shidoku grids
		{"empty 4x4 capped", NewGrid(Shape{2, 2}), 10, 10},
		{"Wikipedia", mustLine(t, wikiPuzzle), 0, 1},
		{"first box fixed", mustLine(t, "12..34.........."), 0, 12}, // 288 / 4!
		{"conflict", mustLine(t, "11.............."), 0, 0},
	}
	for _, tc := range tests {
		if got := CountSolutions(tc.g, tc.limit); got != tc.want {
			t.Errorf("%s: %d solutions, want %d", tc.name, got, tc.want)
		}
	}
	if !IsUnique(mustLine(t, wikiPuzzle)) || IsUnique(NewGrid(Shape{2, 2})) {
		t.Error("IsUnique wrong")
	}
}

func TestSolverReuseAndAllocs(t *testing.T) {
	sv, err := NewSolver(Shape{3, 3})
	if err != nil {
		t.Fatal(err)
	}
	p := mustLine(t, wikiPuzzle)
	dst := make([]int, 81)
	for i := 0; i < 3; i++ { // errors in between must not spoil the solver
		if err := sv.SolveInto(dst, p); err != nil {
			t.Fatal(err)
		}
		sv.SolveInto(dst, mustLine(t, "55"+wikiPuzzle[2:]))
		sv.Count(NewGrid(Shape{3, 3}), 5)
	}
	if got := (Grid{Shape{3, 3}, dst}).String(); got != wikiSolution {
		t.Errorf("reused solver: %s", got)
	}
	if a := testing.AllocsPerRun(20, func() { sv.SolveInto(dst, p) }); a != 0 {
		t.Errorf("SolveInto allocates %.1f times, want 0", a)
	}
	if a := testing.AllocsPerRun(20, func() { sv.Count(p, 2) }); a != 0 {
		t.Errorf("Count allocates %.1f times, want 0", a)
	}
}

func TestGenerate(t *testing.T) {
	for _, n := range []int{4, 6, 8, 9, 10, 12} {
		s, _ := ShapeForN(n)
		for seed := int64(1); seed <= 3; seed++ {
			p, err := Generate(s, seed, 0)
			if err != nil {
				t.Fatalf("%v seed %d: %v", s, seed, err)
			}
			if CountSolutions(p, 2) != 1 {
				t.Fatalf("%v seed %d: not unique: %v", s, seed, p)
			}
			// Minimal: no given can go without losing uniqueness (the
			// budget is never hit at these sizes).
			for i, v := range p.Cells {
				if v == 0 {
					continue
				}
				p.Cells[i] = 0
				if CountSolutions(p, 2) == 1 {
					t.Fatalf("%v seed %d: given at %d is redundant", s, seed, i)
				}
				p.Cells[i] = v
			}
			again, _ := Generate(s, seed, 0)
			if !again.Equal(p) {
				t.Errorf("%v seed %d: not reproducible", s, seed)
			}
		}
	}
	a, _ := Generate(Shape{3, 3}, 1, 0)
	b, _ := Generate(Shape{3, 3}, 2, 0)
	if a.Equal(b) {
		t.Error("seeds 1 and 2 gave the same puzzle")
	}
	c, _ := Generate(Shape{3, 3}, 1, 40)
	if c.Givens() != 40 || !IsUnique(c) {
		t.Errorf("clues 40: %d givens, unique %v", c.Givens(), IsUnique(c))
	}
	if _, err := Generate(Shape{0, 3}, 1, 0); err == nil {
		t.Error("bad shape accepted")
	}
}

func TestGridFile(t *testing.T) {
	const text = "2 2\n4 0 1. 0\n0 1. 0 0\n\t1. 0 0 2\n0 0 0 0\n"
	g, fixed, err := ReadGrid(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if g.Shape != (Shape{2, 2}) || g.String() != "4.1..1..1..2...." {
		t.Errorf("grid %v %s", g.Shape, g)
	}
	wantFixed := map[int]bool{2: true, 5: true, 8: true}
	for i, f := range fixed {
		if f != wantFixed[i] {
			t.Errorf("fixed[%d] = %v", i, f)
		}
	}
	if p := Puzzle(g, fixed); p.String() != "..1..1..1......." {
		t.Errorf("Puzzle: %s", p)
	}
	var b strings.Builder
	if err := WriteGrid(&b, g, fixed); err != nil {
		t.Fatal(err)
	}
	g2, fixed2, err := ReadGrid(strings.NewReader(b.String()))
	if err != nil || !g2.Equal(g) || len(fixed2) != len(fixed) {
		t.Fatalf("round trip through\n%s: %v", b.String(), err)
	}
	for i := range fixed {
		if fixed[i] != fixed2[i] {
			t.Errorf("round trip fixed[%d]", i)
		}
	}
	// "9 9" header: side given twice.
	nine := "9 9\n" + strings.Repeat("0 ", 81)
	if g, _, err := ReadGrid(strings.NewReader(nine)); err != nil || g.Shape != (Shape{3, 3}) {
		t.Errorf("9 9 header: %v %v", g.Shape, err)
	}

	bad := []badGrid{
		{"empty", "", 1, 0},
		{"header", "2 x\n", 1, 2},
		{"short", "2 2\n1 2 3\n", 2, 3},
		{"long", "2 2\n" + strings.Repeat("0 ", 16) + "\n0\n", 3, 1},
		{"value", "2 2\n0 0 0 0\n0 5 0 0\n0 0 0 0\n0 0 0 0\n", 3, 2},
		{"fixed empty", "2 2\n0. 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n", 2, 1},
		{"junk", "2 2\n0 0 0 0\n0 0 a 0\n0 0 0 0\n0 0 0 0\n", 3, 3},
		{"huge", "9 9\n0\n", 1, 1},
	}
	checkParseErrors(t, ReadGrid, bad)
}

func TestDat(t *testing.T) {
	rows := "0 0 0 7 0 0 0 8 0 \n0 9 0 0 0 3 1 0 0 \n" + strings.Repeat("0 0 0 0 0 0 0 0 0 \n", 7)
	for _, header := range []string{"sonyEricsson s500i\n640x480:24 JPG\n", "iPhone\r\n960x1280: 24 JPG\r\n", "\n\n"} {
		g, hdr, err := ReadDatHeader(strings.NewReader(header + rows + "\n\n"))
		if err != nil {
			t.Fatalf("header %q: %v", header, err)
		}
		if g.Shape != (Shape{3, 3}) || g.At(0, 3) != 7 || g.At(1, 6) != 1 || g.Givens() != 5 {
			t.Errorf("header %q: grid %s", header, g)
		}
		if strings.ContainsAny(hdr.Camera+hdr.Photo, "\r\n") {
			t.Errorf("header fields keep line ends: %q", hdr)
		}
	}
	g, _ := ReadDat(strings.NewReader("cam\nphoto\n" + rows))
	var b strings.Builder
	if err := WriteDat(&b, g, DatHeader{"cam", "640x480:24 JPG"}); err != nil {
		t.Fatal(err)
	}
	if back, err := ReadDat(strings.NewReader(b.String())); err != nil || !back.Equal(g) {
		t.Errorf("round trip: %v", err)
	}

	bad := []struct {
		name, text string
		line       int
	}{
		{"short", "cam\n", 2},
		{"row length", "cam\nphoto\n" + strings.Replace(rows, "0 9 0", "0 9", 1), 4},
		{"value", "cam\nphoto\n" + strings.Replace(rows, "0 9 0", "0 99 0", 1), 4},
		{"missing rows", "cam\nphoto\n0 0 0 0 0 0 0 0 0\n", 4},
		{"extra", "cam\nphoto\n" + rows + "1 2\n", 12},
		{"prime", "cam\nphoto\n0 0 0 0 0 0 0\n", 3},
	}
	for _, tc := range bad {
		_, err := ReadDat(strings.NewReader(tc.text))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line {
			t.Errorf("%s: err = %v, want *ParseError at line %d", tc.name, err, tc.line)
		}
	}
}

func TestDatasetFiles(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-v2-train")
	files, _ := filepath.Glob(filepath.Join(dir, "*.dat"))
	if len(files) == 0 {
		t.Fatal("no .dat files")
	}
	for _, f := range files {
		g, err := ReadDatFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if g.N() != 9 || g.Givens() < 17 {
			t.Errorf("%s: %v grid with %d givens", f, g.Shape, g.Givens())
		}
	}
	if _, err := ReadDatFile(filepath.Join(dir, "no-such.dat")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestTop95(t *testing.T) {
	puzzles := loadPuzzles(t, testenv.Shared(t, "puzzles/top95.txt"))
	sv, _ := NewSolver(Shape{3, 3})
	for i, p := range puzzles {
		sol, err := sv.Solve(p)
		if err != nil {
			t.Fatalf("puzzle %d: %v", i+1, err)
		}
		checkSolution(t, p, sol)
		if n, err := sv.Count(p, 2); n != 1 || err != nil {
			t.Errorf("puzzle %d: %d solutions (%v)", i+1, n, err)
		}
	}
}

func TestGeneratedLarge(t *testing.T) {
	for _, name := range []string{"gen16.txt", "gen25.txt"} {
		path := filepath.Join("..", "testdata", "puzzles", name)
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%s is committed but absent: %v", path, err)
		}
		for _, p := range loadPuzzles(t, path) {
			sol, err := Solve(p)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkSolution(t, p, sol)
		}
	}
}

// TestGridFileStrict checks the console game's exact reading: what the
// forgiving reader lets through is an error here, and every error points at
// the field to blame.
func TestGridFileStrict(t *testing.T) {
	good := "2 2\n4 0 1. 0\n0 1. 0 0\n1. 0 0 2\n0 0 0 0\n"
	for name, text := range map[string]string{
		"lines":         good,
		"one line tabs": "2\t\t\t2\t\t\t4\t\t\t0\t\t\t1.\t\t\t0\t\t\t0 1. 0 0 1. 0 0 2 0 0 0 0",
		"broken lines":  "2\n2 4\n0\n1.\r\n0 0 1. 0\v0 1. 0 0 2 0\f0\n0 0\n\n\n",
	} {
		g, fixed, err := ReadGridStrict(strings.NewReader(text))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if g.String() != "4.1..1..1..2...." || !fixed[2] || !fixed[5] || !fixed[8] || fixed[0] {
			t.Errorf("%s: read %s %v", name, g, fixed)
		}
	}
	bad := []badGrid{
		{"side twice", "9 9\n" + strings.Repeat("0 ", 81), 1, 1},
		{"3 3 with 9 values", "3 3\n1 2 3\n4 5 6\n7 8 9\n", 4, 3},
		{"comment", "# c\n1 3\n1. 2 3\n0 0 0\n0 0 0\n", 1, 1},
		{"zero header", "0 0\n", 1, 1},
		{"negative header", "-3 3\n", 1, 1},
		{"one number", "3\n", 1, 1},
		{"letters", "a b\n", 1, 1},
		{"overflow", "99999999999999999999 3\n", 1, 1},
		{"too many", good + "0\n", 6, 1},
		{"too few", "2 2\n4 0 1. 0\n0 1. 0 0\n1. 0 0 2\n0 0 0\n", 5, 3},
		{"value overflow", "1 1\n99999999999999999999999\n", 2, 1},
		{"long field", "1 1\n" + strings.Repeat("1", 100), 2, 1},
		{"binary", "2 2\n\x00\xff\x01 0 0 0\n" + strings.Repeat("0 ", 12), 2, 1},
		{"six by six boxes", "6 6\n0\n", 1, 1},
	}
	checkParseErrors(t, ReadGridStrict, bad)
	// A file of endless whitespace stops at the byte limit.
	_, _, err := ReadGridStrict(io.LimitReader(spaces{}, maxGridBytes+10))
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "longer than") {
		t.Errorf("endless whitespace: %v", err)
	}
}

// spaces is an endless stream of spaces.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestWriteGridExact checks the save format byte for byte: single spaces,
// a '.' after fixed values, a newline after the header and every row.
func TestWriteGridExact(t *testing.T) {
	g := NewGrid(Shape{2, 5})
	g.Set(0, 0, 10)
	g.Set(0, 4, 3)
	g.Set(9, 9, 7)
	fixed := make([]bool, 100)
	fixed[0] = true
	var b strings.Builder
	if err := WriteGrid(&b, g, fixed); err != nil {
		t.Fatal(err)
	}
	want := "2 5\n10. 0 0 0 3 0 0 0 0 0\n" + strings.Repeat("0 0 0 0 0 0 0 0 0 0\n", 8) + "0 0 0 0 0 0 0 0 0 7\n"
	if b.String() != want {
		t.Errorf("WriteGrid:\n%q\nwant\n%q", b.String(), want)
	}
}

// badGrid is a grid file a reader must refuse, and where it must say the
// problem is.
type badGrid struct {
	name, text string
	line, col  int
}

// checkParseErrors reads each bad file with read and checks that the error
// is a *ParseError at the expected line and field.
func checkParseErrors(t *testing.T, read func(io.Reader) (Grid, []bool, error), bad []badGrid) {
	t.Helper()
	for _, tc := range bad {
		_, _, err := read(strings.NewReader(tc.text))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: err = %v, want *ParseError", tc.name, err)
			continue
		}
		if pe.Line != tc.line || pe.Col != tc.col {
			t.Errorf("%s: error at line %d field %d, want %d/%d (%v)", tc.name, pe.Line, pe.Col, tc.line, tc.col, pe)
		}
	}
}
