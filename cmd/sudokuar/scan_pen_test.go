package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// TestDescribeEntries: scan's text says what the entries of a real pen
// page come to, with cell names: the counts, the wrong entries once two
// are swapped, an entry to check, and nothing checked when the givens are
// not solved.
func TestDescribeEntries(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	page := filepath.Join(dir, "image1")
	given, err := sudoku.ReadDatFile(page + ".dat")
	if err != nil {
		t.Fatal(err)
	}
	pen, err := sudoku.ReadDatFile(page + ".pen")
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sudoku.Solve(given)
	if err != nil {
		t.Fatal(err)
	}
	truth := func() pipeline.Pen {
		p := pipeline.Pen{Kinds: make([]ocr.Kind, 81), Entries: make([]int, 81), Conf: make([]float32, 81), Sure: make([]bool, 81)}
		for i, e := range pen.Cells {
			switch {
			case given.Cells[i] != 0:
				p.Kinds[i] = ocr.KindPrinted
			case e != 0:
				p.Kinds[i], p.Entries[i], p.Conf[i], p.Sure[i] = ocr.KindHand, e, 1, true
			}
		}
		return p
	}
	// image1 begins with two entries, r1c1 and r1c2.
	swapped := truth()
	swapped.Entries[0], swapped.Entries[1] = swapped.Entries[1], swapped.Entries[0]
	unsure := truth()
	unsure.Sure[0], unsure.Conf[0] = false, 0.8
	cases := []struct {
		name     string
		pen      pipeline.Pen
		solution sudoku.Grid
		want     []string
		not      []string
	}{
		{"as written", truth(), sol, []string{"entries: solved, every cell filled in and right"}, []string{"wrong"}},
		{"two swapped", swapped, sol, []string{"2 wrong", "wrong r1c1 r1c2"}, nil},
		{"unsure", unsure, sol, []string{"1 to check", "check r1c1 (handwritten"}, []string{"wrong r"}},
		{"givens not solved", swapped, sudoku.Grid{}, []string{"entries not checked"}, []string{"wrong"}},
	}
	if given.Cells[0] != 0 || given.Cells[1] != 0 || pen.Cells[0] == pen.Cells[1] {
		t.Fatalf("image1 changed: cells 0 and 1 are not two different entries")
	}
	for _, c := range cases {
		r := pipeline.Result{Found: true, Grid: vision.Grid{Shape: given.Shape}, Puzzle: given, Solved: c.solution, Status: pipeline.StatusSolved}
		if c.solution.Cells == nil {
			r.Status = pipeline.StatusCheck
		}
		r.SetMarks(pipeline.CheckEntries(given, c.solution, c.pen))
		got := describeEntries(r)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q says %q", c.name, got, w)
			}
		}
	}
}

// TestScanPenJSON scans held-out pen pages with the pen model and reads
// the JSON as ../shared/tools/score_pen.py does: given and entries of 81
// characters, and no mistake on these pages, whose entries are all right.
func TestScanPenJSON(t *testing.T) {
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	var photos []string
	for _, n := range []string{"image1006", "image101", "image1014"} {
		photos = append(photos, filepath.Join(dir, n+".jpg"))
	}
	code, stdout, stderr := runScanCapture(t, append([]string{"--json", "--pen", "embedded"}, photos...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != len(photos) {
		t.Fatalf("%d JSON lines for %d photos", len(lines), len(photos))
	}
	for _, l := range lines {
		var r struct {
			File, Given, Entries string
			Mistakes             []int
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Given) != 81 || len(r.Entries) != 81 || len(r.Mistakes) > 0 {
			t.Errorf("%s: given %q entries %q mistakes %v: want 81 characters each and no mistake", r.File, r.Given, r.Entries, r.Mistakes)
		}
	}
	if code, _, stderr := runScanCapture(t, "--pen", filepath.Join(t.TempDir(), "absent.onnx"), photos[0]); code != exitUsage || !strings.Contains(stderr, "--pen") {
		t.Errorf("--pen with a missing file: exit %d, %q; want a usage error naming --pen", code, stderr)
	}
}
