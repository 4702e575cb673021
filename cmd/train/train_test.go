package main

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
)

func TestTurnGrid(t *testing.T) {
	s2 := sudoku.Shape{BoxRows: 1, BoxCols: 2}
	g := sudoku.Grid{Shape: s2, Cells: []int{1, 2, 0, 1}}
	cases := []struct {
		k    int
		want []int
	}{
		{0, []int{1, 2, 0, 1}},
		{1, []int{0, 1, 1, 2}}, // clockwise: the left column becomes the top row, bottom first
		{2, []int{1, 0, 2, 1}},
		{3, []int{2, 1, 1, 0}},
		{4, []int{1, 2, 0, 1}},
	}
	for _, c := range cases {
		got := g.Turn(c.k)
		for i := range c.want {
			if got.Cells[i] != c.want[i] {
				t.Errorf("turn %d: %v, want %v", c.k, got.Cells, c.want)
				break
			}
		}
	}
}

// TestTurnsAgree: turning a grid and its cell images the same way must keep
// each image with its value, the property the training labels rely on.
func TestTurnsAgree(t *testing.T) {
	s4 := sudoku.Shape{BoxRows: 2, BoxCols: 2}
	g := sudoku.NewGrid(s4)
	for i := range g.Cells {
		g.Cells[i] = i%4 + 1
	}
	// An image whose top-left pixel is lit: after a clockwise quarter turn
	// it is lit top-right, like the grid's top-left value.
	px := make([]float32, ocr.CellLen)
	px[0] = 1
	turned := ocr.TurnCell(px, 1)
	if turned[27] != 1 {
		t.Fatalf("TurnCell moved the top-left pixel elsewhere")
	}
	if tg := g.Turn(1); tg.Cells[3] != g.Cells[0] {
		t.Errorf("Turn moved the top-left value to %v", tg.Cells)
	}
}

func TestReadDat(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]struct {
		text string
		ok   bool
	}{
		"good.dat":  {"phone\n640x480:24 JPG\n" + rows9("0 1 2 3 4 5 6 7 8 "), true},
		"short.dat": {"phone\n640x480:24 JPG\n0 1 2\n", false},
		"bad.dat":   {"phone\n640x480:24 JPG\n" + rows9("0 1 x 3 4 5 6 7 8 "), false},
	}
	for name, c := range cases {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := sudoku.ReadDatFile(p)
		if (err == nil) != c.ok {
			t.Errorf("%s: error %v, want ok=%v", name, err, c.ok)
		}
		if c.ok && (g.N() != 9 || g.Cells[2] != 2) {
			t.Errorf("%s: read %v", name, g.Cells)
		}
	}
	if _, err := sudoku.ReadDatFile(filepath.Join(dir, "missing.dat")); err == nil {
		t.Error("missing file read without error")
	}
}

func rows9(row string) string {
	s := ""
	for i := 0; i < 9; i++ {
		s += row + "\n"
	}
	return s
}

func TestSplitPhotosDeterministic(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 50; i++ {
		os.WriteFile(filepath.Join(dir, "image"+string(rune('a'+i%26))+string(rune('a'+i/26))+".jpg"), nil, 0o644)
	}
	tr1, te1, err := splitPhotos(dir, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	tr2, te2, _ := splitPhotos(dir, 0.2)
	if len(te1) != 10 || len(tr1) != 40 {
		t.Errorf("split %d/%d, want 40/10", len(tr1), len(te1))
	}
	for i := range te1 {
		if te1[i] != te2[i] {
			t.Fatal("split not deterministic")
		}
	}
	seen := map[string]bool{}
	for _, p := range append(tr2, te2...) {
		if seen[p] {
			t.Errorf("%s in both halves", p)
		}
		seen[p] = true
	}
	if _, _, err := splitPhotos(filepath.Join(dir, "none"), 0.2); err == nil {
		t.Error("empty folder split without error")
	}
}

func TestAugmentStaysInRange(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	px := make([]float32, ocr.CellLen)
	for i := 200; i < 500; i++ {
		px[i] = 1
	}
	for k := 0; k < 200; k++ {
		out := augment(px, rng)
		if len(out) != len(px) {
			t.Fatalf("augment changed the length to %d", len(out))
		}
		for _, v := range out {
			if v < 0 || v > 1 {
				t.Fatalf("augment produced %v", v)
			}
		}
	}
	if px[0] != 0 || px[200] != 1 {
		t.Error("augment modified its input")
	}
}
