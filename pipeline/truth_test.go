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
	// Part of the 9×9 read as a 6×6 and solved: a wrong solution shown.
	s6 := sudoku.Shape{BoxRows: 2, BoxCols: 3}
	six, err := sudoku.ParseCellGrid(s6, "000000000000000000000000000000000000")
	if err != nil {
		t.Fatal(err)
	}
	tl.Add("6x6.jpg", Result{Found: true, Status: StatusSolved, Puzzle: six, Solved: six}, truth)

	if tl.Images != 6 || tl.Found != 5 || tl.Exact != 1 || tl.Solved != 2 || tl.WrongShown != 1 {
		t.Errorf("images %d found %d exact %d solved %d wrong shown %d; want 6 5 1 2 1", tl.Images, tl.Found, tl.Exact, tl.Solved, tl.WrongShown)
	}
	if tl.Cells != 6*81 || tl.CellsRight != 81+80+80 {
		t.Errorf("cells %d/%d, want %d/%d", tl.CellsRight, tl.Cells, 81+80+80, 6*81)
	}
	if tl.Digits != 6*30 || tl.DigitsRight != 30+29+30 {
		t.Errorf("digits %d/%d, want %d/%d", tl.DigitsRight, tl.Digits, 30+29+30, 6*30)
	}
	var b strings.Builder
	tl.Report(&b)
	report := b.String()
	for _, want := range []string{
		"grids exact:      16.7% (1/6)",
		"grids solved:     33.3% (2/6",
		"6x6.jpg: solved; read as 2x3 boxes, truth is 3x3; solved as that",
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
