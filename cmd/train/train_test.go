package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/synth"
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
	// Two sources of 40 and 10 photos, and one single photo.
	for i := 1; i <= 40; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("image%d.jpg", i)), nil, 0o644)
	}
	for i := 1; i <= 10; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("book-%d.jpg", i)), nil, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "news-1.jpg"), nil, 0o644)
	tr1, te1, err := splitPhotos(dir, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	tr2, te2, _ := splitPhotos(dir, 0.2)
	if len(te1) != 10 || len(tr1) != 41 {
		t.Errorf("split %d/%d, want 41/10 (8 of image, 2 of book, the single photo trained on)", len(tr1), len(te1))
	}
	count := map[string]int{}
	for i := range te1 {
		if te1[i] != te2[i] {
			t.Fatal("split not deterministic")
		}
		count[sourceOf(filepath.Base(te1[i]))]++
	}
	if count["image"] != 8 || count["book"] != 2 || count["news"] != 0 {
		t.Errorf("held out per source %v, want image 8, book 2, news 0", count)
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

func TestSourceOf(t *testing.T) {
	for name, want := range map[string]string{"es2812-14.jpg": "es2812", "image1003.jpg": "image", "andreibrihac-7.jpg": "andreibrihac", "x.jpg": "x"} {
		if got := sourceOf(name); got != want {
			t.Errorf("sourceOf(%q) = %q, want %q", name, got, want)
		}
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

func TestECE(t *testing.T) {
	cases := []struct {
		conf  []float64
		right []bool
		want  float64
	}{
		{[]float64{1, 1}, []bool{true, true}, 0},
		{[]float64{0.9, 0.9}, []bool{true, false}, 0.4}, // says 90%, right 50%
		{[]float64{0.6, 0.99}, []bool{true, true}, 0.205},
	}
	for _, c := range cases {
		if got := eceOf(c.conf, c.right); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("eceOf(%v, %v) = %v, want %v", c.conf, c.right, got, c.want)
		}
	}
}

func TestSoftmaxT(t *testing.T) {
	p1 := softmaxT([]float32{2, 0}, 1)
	p2 := softmaxT([]float32{2, 0}, 2)
	if !(p2[0] < p1[0] && p1[0] > 0.88 && p1[0] < 0.881) {
		t.Errorf("softmax at T=1 %v, T=2 %v: a higher temperature must soften", p1, p2)
	}
}

// TestCutIsIndependentOfWorkers: the photos and their cells do not depend
// on how many workers render and cut them, so a seeded run is reproducible
// on any machine.
func TestCutIsIndependentOfWorkers(t *testing.T) {
	fonts, err := synth.GoFonts()
	if err != nil {
		t.Fatal(err)
	}
	a := synthPhotos(4, 77, fonts, nil, 1, 0.25)
	b := synthPhotos(4, 77, fonts, nil, 3, 0.25)
	for i := range a {
		sa, sb := a[i].samples(), b[i].samples()
		if len(sa) != len(sb) || fmt.Sprint(a[i].err) != fmt.Sprint(b[i].err) {
			t.Fatalf("photo %d: %d vs %d samples (%v / %v)", i, len(sa), len(sb), a[i].err, b[i].err)
		}
		for k := range sa {
			if sa[k].y != sb[k].y || fmt.Sprint(sa[k].x) != fmt.Sprint(sb[k].x) {
				t.Fatalf("photo %d sample %d differs between 1 and 3 workers", i, k)
			}
		}
	}
}
