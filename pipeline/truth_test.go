package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

func TestTally(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	const puzzle = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
	truth, err := sudoku.ParseCellGrid(s9, puzzle)
	if err != nil {
		t.Fatal(err)
	}
	result := func(given string) Result {
		g, err := sudoku.ParseCellGrid(s9, given)
		if err != nil {
			t.Fatal(err)
		}
		v := Judge(g)
		return Result{Found: true, Puzzle: g, Status: v.Status, Solved: v.Solution}
	}
	var tl Tally
	tl.Add("exact.jpg", result(puzzle), truth)
	// A given missed (read empty): still one solution, the true one.
	tl.Add("missed.jpg", result("030070000"+puzzle[9:]), truth)
	// A given misread: conflicts, no solution.
	tl.Add("misread.jpg", result("530070005"+puzzle[9:]), truth)
	tl.Add("nogrid.jpg", Result{Status: StatusNoGrid}, truth)
	tl.Add("4x4.jpg", Result{Found: true, Status: StatusSeveral, Puzzle: sudoku.NewGrid(sudoku.Shape{BoxRows: 2, BoxCols: 2})}, truth)

	if tl.Images != 5 || tl.Found != 4 || tl.Exact != 1 || tl.Solved != 2 {
		t.Errorf("images %d found %d exact %d solved %d; want 5 4 1 2", tl.Images, tl.Found, tl.Exact, tl.Solved)
	}
	if tl.Cells != 5*81 || tl.CellsRight != 81+80+80 {
		t.Errorf("cells %d/%d, want %d/%d", tl.CellsRight, tl.Cells, 81+80+80, 5*81)
	}
	if tl.Digits != 5*30 || tl.DigitsRight != 30+29+30 {
		t.Errorf("digits %d/%d, want %d/%d", tl.DigitsRight, tl.Digits, 30+29+30, 5*30)
	}
	var b strings.Builder
	tl.Report(&b)
	report := b.String()
	for _, want := range []string{
		"grids exact:      20.0% (1/5)",
		"grids solved:     40.0% (2/5",
		"missed.jpg: solved; 1 cells wrong (want->got): r1c1 5->0",
		"misread.jpg: no solution; 1 cells wrong (want->got): r1c9 0->5",
		"nogrid.jpg: no grid; grid not found",
		"4x4.jpg: several solutions; read as 2x2 boxes, truth is 3x3",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "exact.jpg") {
		t.Errorf("an exact, solved grid is listed as a miss:\n%s", report)
	}
}

func TestReadTruth(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "image7.jpg")
	if _, err := ReadTruth(img); err == nil || !strings.Contains(err.Error(), "image7.jpg") {
		t.Fatalf("no .dat: err = %v", err)
	}
	dat := "phone\n640x480:24 JPG\n" + strings.Repeat("0 0 0 0 0 0 0 0 0\n", 8) + "1 2 3 4 5 6 7 8 9\n"
	os.WriteFile(filepath.Join(dir, "image7.dat"), []byte(dat), 0o644)
	g, err := ReadTruth(img)
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 9 || g.Cells[72] != 1 || g.Cells[80] != 9 {
		t.Fatalf("read %v", g)
	}
	if TruthFile("a/b.c.png") != "a/b.c.dat" {
		t.Errorf("TruthFile(a/b.c.png) = %s", TruthFile("a/b.c.png"))
	}
}
