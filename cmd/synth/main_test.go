package main

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

func TestPhotosCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := []string{"--out", dir, "--count", "8", "--seed", "3", "--sizes", "4,6,8,9,12,16", "--res", "320x240,400x300", "-j", "2"}
	if err := run(args, &out, &errb); err != nil {
		t.Fatalf("%v (%s)", err, errb.String())
	}
	f, err := os.Open(filepath.Join(dir, "outlines.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 9 || recs[0][0] != "filepath" || len(recs[0]) != 9 {
		t.Fatalf("outlines.csv: %d records, header %v", len(recs), recs[0])
	}
	wantN := []int{4, 6, 8, 9, 12, 16, 4, 6}
	for k, rec := range recs[1:] {
		name := strings.TrimPrefix(rec[0], "./")
		if name != "image"+strconv.Itoa(k+1)+".jpg" {
			t.Errorf("row %d names %s", k+1, rec[0])
		}
		for _, v := range rec[1:] {
			if _, err := strconv.Atoi(v); err != nil {
				t.Errorf("row %d: corner %q is not a whole number", k+1, v)
			}
		}
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() < 1000 {
			t.Errorf("%s: missing or tiny (%v)", name, err)
		}
		dat, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(name, ".jpg")+".dat"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(dat)), "\n")
		wantRes := "320x240:24 JPG"
		if k >= 6 {
			wantRes = "400x300:24 JPG"
		}
		if !strings.HasPrefix(lines[0], "synth seed=") || lines[1] != wantRes || len(lines) != 2+wantN[k] {
			t.Errorf("%s.dat: header %q / %q and %d rows, want %q and %d rows", name, lines[0], lines[1], len(lines)-2, wantRes, wantN[k])
		}
		g, err := sudoku.ReadDatFile(filepath.Join(dir, strings.TrimSuffix(name, ".jpg")+".dat"))
		if err != nil {
			t.Fatal(err)
		}
		if g.N() != wantN[k] || !sudoku.IsUnique(g) {
			t.Errorf("%s.dat: a %d×%d grid (want %d), unique: %v", name, g.N(), g.N(), wantN[k], sudoku.IsUnique(g))
		}
	}
	// The same flags give the same files, whatever the number of workers.
	dir2 := t.TempDir()
	args[1], args[len(args)-1] = dir2, "1"
	if err := run(args, &out, &errb); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"image1.jpg", "image8.jpg", "image5.dat", "outlines.csv"} {
		a, _ := os.ReadFile(filepath.Join(dir, name))
		b, _ := os.ReadFile(filepath.Join(dir2, name))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 2 and -j 1", name)
		}
	}
}

func TestBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--count", "2"},
		{"--out", dir, "--sizes", "7"},
		{"--out", dir, "--sizes", "9,x"},
		{"--out", dir, "--count", "0"},
		{"--out", dir, "--res", "640"},
		{"--out", dir, "--res", "0x480"},
		{"video"},
		{"video", "--out", dir, "--res", "0x0"},
		{"video", "--out", dir, "--fps", "0"},
	} {
		var out, errb bytes.Buffer
		if err := run(args, &out, &errb); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

func TestVideoCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if err := run([]string{"video", "--out", dir, "--res", "320x180", "--fps", "8"}, &out, &errb); err != nil {
		t.Fatalf("%v (%s)", err, errb.String())
	}
	recs, err := readCSV(filepath.Join(dir, "demo.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+92 {
		t.Fatalf("demo.csv has %d rows, want 92 frames", len(recs)-1)
	}
	vids, _ := filepath.Glob(filepath.Join(dir, "demo.*"))
	if len(vids) != 2 { // the video and demo.csv
		t.Fatalf("files %v: want one video beside demo.csv", vids)
	}
	for _, p := range []string{"puzzle1.dat", "puzzle2.dat"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Error(err)
		}
	}
	t.Log(out.String())
}

func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return csv.NewReader(f).ReadAll()
}

func TestFontsCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run([]string{"fonts"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 6 || !strings.HasPrefix(lines[0], "Go-Regular\t") || len(strings.Split(lines[0], "\t")) != 4 {
		t.Fatalf("fonts listing starts %q (%d lines)", lines[0], len(lines))
	}
}

// TestDimCommand dims a folder of one photo, leaving out the one the skip
// list names: the copy is darker, its truth is copied, the other absent.
func TestDimCommand(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	var out, errb bytes.Buffer
	if err := run([]string{"--out", src, "--count", "2", "--sizes", "9", "-j", "1"}, &out, &errb); err != nil {
		t.Fatalf("%v (%s)", err, errb.String())
	}
	skip := filepath.Join(t.TempDir(), "skip.list")
	if err := os.WriteFile(skip, []byte("elsewhere/image2.jpg\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"dim", "--out", dst, "--level", "0.3", "--skip", skip, src}, &out, &errb); err != nil {
		t.Fatalf("%v (%s)", err, errb.String())
	}
	mean := func(path string) float64 {
		m := gocv.IMRead(path, gocv.IMReadGrayScale)
		defer m.Close()
		if m.Empty() {
			t.Fatalf("%s: not written or not an image", path)
		}
		return m.Mean().Val1
	}
	if a, b := mean(filepath.Join(src, "image1.jpg")), mean(filepath.Join(dst, "image1.jpg")); math.Abs(b-0.3*a) > 3 {
		t.Errorf("dimmed to mean grey %.1f from %.1f, want about %.1f", b, a, 0.3*a)
	}
	if _, err := os.Stat(filepath.Join(dst, "image1.dat")); err != nil {
		t.Errorf("truth not copied: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dst, "image2.jpg")); err == nil {
		t.Error("image2.jpg written though the skip list names it")
	}
}

// TestCutCommand: synth cut writes, for each photo of the list given to
// --only, its seven crops with the photo's truth: each a part of the
// photo, the cut ones smaller than the grid's box, the tight one holding
// it; a photo the list does not name is left out.
func TestCutCommand(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	var out, errb bytes.Buffer
	if err := run([]string{"--out", src, "--count", "2", "--sizes", "9", "-j", "1"}, &out, &errb); err != nil {
		t.Fatalf("%v (%s)", err, errb.String())
	}
	only := filepath.Join(t.TempDir(), "only.list")
	if err := os.WriteFile(only, []byte("elsewhere/image1.jpg\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"cut", "--out", dst, "--only", only, src}, &out, &errb); err != nil {
		t.Fatalf("%v (%s)", err, errb.String())
	}
	photo := gocv.IMRead(filepath.Join(src, "image1.jpg"), gocv.IMReadColor)
	defer photo.Close()
	for _, c := range cuts {
		m := gocv.IMRead(filepath.Join(dst, "image1-"+c.name+".jpg"), gocv.IMReadColor)
		if m.Empty() {
			t.Errorf("image1-%s.jpg: not written or not an image", c.name)
			continue
		}
		if m.Cols() > photo.Cols() || m.Rows() > photo.Rows() || (m.Cols() == photo.Cols() && m.Rows() == photo.Rows()) {
			t.Errorf("image1-%s.jpg is %dx%d, the photo %dx%d: want a part of it", c.name, m.Cols(), m.Rows(), photo.Cols(), photo.Rows())
		}
		m.Close()
		if _, err := os.Stat(filepath.Join(dst, "image1-"+c.name+".dat")); err != nil {
			t.Errorf("truth not copied: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "image2-tight.jpg")); err == nil {
		t.Error("image2 cropped though the --only list leaves it out")
	}
	if err := run([]string{"cut", src}, &out, &errb); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("cut without --out: %v, want the usage", err)
	}
}
