package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
)

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		args     []string
		wantPos  []string
		wantJSON bool
		wantJ    int
	}{
		{[]string{"--json", "a", "b"}, []string{"a", "b"}, true, 1},
		{[]string{"a", "--json", "b"}, []string{"a", "b"}, true, 1},
		{[]string{"a", "b", "-j", "2"}, []string{"a", "b"}, false, 2},
		{[]string{"-j", "3", "--", "--json"}, []string{"--json"}, false, 3},
		{nil, nil, false, 1},
	}
	for _, tc := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		js := fs.Bool("json", false, "")
		j := fs.Int("j", 1, "")
		pos, err := parseInterleaved(fs, tc.args)
		if err != nil {
			t.Fatalf("parseInterleaved(%q): %v", tc.args, err)
		}
		if !reflect.DeepEqual(pos, tc.wantPos) || *js != tc.wantJSON || *j != tc.wantJ {
			t.Errorf("parseInterleaved(%q) = %q json %v j %d", tc.args, pos, *js, *j)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := parseInterleaved(fs, []string{"a", "--nope"}); err == nil {
		t.Error("an unknown flag after a path was accepted")
	}
}

func TestOutputNames(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		filepath.Join(dir, "a", "img1.jpg"),
		filepath.Join(dir, "b", "img1.jpg"),   // same name, other folder
		filepath.Join(dir, "img2.solved.png"), // looks like an output
		filepath.Join(dir, "img2.tiff"),       // would map onto the input above
		filepath.Join(dir, "img3.bmp"),
	}
	got := outputNames(files, dir)
	want := []string{"img1.solved.jpg", "img1.solved-2.jpg", "img2.solved.solved.png", "img2.solved-2.png", "img3.solved.png"}
	for i := range want {
		want[i] = filepath.Join(dir, want[i])
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("outputNames:\n got %q\nwant %q", got, want)
	}
}

func TestCheckOutDir(t *testing.T) {
	dir := t.TempDir()
	if err := checkOutDir(filepath.Join(dir, "new", "deep")); err != nil {
		t.Fatalf("a new folder: %v", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	// A folder under a regular file cannot exist, even for root.
	if err := checkOutDir(filepath.Join(file, "out")); err == nil || !strings.Contains(err.Error(), "--out") {
		t.Fatalf("out under a file: err = %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "new", "deep"))
	if len(entries) != 0 {
		t.Fatalf("the write test left %d files behind", len(entries))
	}
}

// runScanCapture runs the scan command and returns its exit status, stdout
// and stderr.
func runScanCapture(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"scan"}, args...), &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

func TestScanUsageErrors(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "f")
	os.WriteFile(file, []byte("x"), 0o644)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no paths", nil, 2, "at least one"},
		{"-j 0", []string{"-j", "0", file}, 2, "-j 0"},
		{"empty folder", []string{empty + "/"}, 2, "no images"},
		{"missing path", []string{filepath.Join(empty, "nope")}, 2, "nope"},
		{"unwritable out", []string{"--out", filepath.Join(file, "o"), file}, 2, "--out"},
		{"bad backend", []string{"--ocr-backend", "tpu", file}, 2, "tpu"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "empty folder" {
				os.Remove(file)
				defer os.WriteFile(file, []byte("x"), 0o644)
			}
			code, _, stderr := runScanCapture(t, tc.args...)
			if code != tc.wantCode || !strings.Contains(stderr, tc.wantErr) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr, tc.wantCode, tc.wantErr)
			}
		})
	}
}

// synthDir is the committed synthetic photo set with its .dat truth.
func synthDir(t *testing.T) string {
	t.Helper()
	dir := testenv.Committed(t, "testdata/synth")
	imgs, _ := pipeline.ImageFiles([]string{dir}, true)
	if len(imgs) == 0 {
		t.Fatalf("no synthetic photos in %s (committed; `make synth` writes them)", dir)
	}
	return dir
}

// TestScanSynthetic runs the scanner end to end over the synthetic photos,
// plus a broken file, and checks the JSON lines against the .dat truth.
func TestScanSynthetic(t *testing.T) {
	src := synthDir(t)
	imgs, err := pipeline.ImageFiles([]string{src}, true)
	if err != nil {
		t.Fatal(err)
	}
	// Copy a few photos and their truth beside a broken "photo".
	if len(imgs) > 6 {
		imgs = imgs[:6]
	}
	dir := t.TempDir()
	for _, f := range imgs {
		for _, p := range []string{f, pipeline.TruthFile(f)} {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644)
		}
	}
	os.WriteFile(filepath.Join(dir, "broken.jpg"), []byte("not a jpeg"), 0o644)
	out := filepath.Join(dir, "annotated")

	code, stdout, stderr := runScanCapture(t, "--json", "--truth", "-j", "2", "--out", out, dir)
	if code != 1 {
		t.Errorf("exit %d with a broken file, want 1 (stderr %q)", code, stderr)
	}
	if !strings.Contains(stderr, "broken.jpg") {
		t.Errorf("stderr does not name the broken file: %q", stderr)
	}
	if !strings.Contains(stderr, "grids exact:") {
		t.Errorf("no truth report on stderr: %q", stderr)
	}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	lines, readable, exact := 0, 0, 0
	for sc.Scan() {
		lines++
		var r struct {
			File     string          `json:"file"`
			Found    bool            `json:"found"`
			Corners  [][2]float64    `json:"corners"`
			Box      []int           `json:"box"`
			Given    string          `json:"given"`
			Solution string          `json:"solution"`
			Status   pipeline.Status `json:"status"`
			Ms       *float64        `json:"ms"`
			Rating   *float64        `json:"rating"`
			Level    string          `json:"level"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d is not JSON: %v: %s", lines, err, sc.Text())
		}
		if r.Ms == nil || len(r.Corners) != 4 || len(r.Box) != 2 {
			t.Errorf("line %d lacks fields: %s", lines, sc.Text())
		}
		if filepath.Base(r.File) == "broken.jpg" {
			if r.Status != pipeline.StatusLoadError {
				t.Errorf("broken.jpg status %q", r.Status)
			}
			continue
		}
		truth, err := pipeline.ReadTruth(r.File)
		if err != nil {
			t.Fatal(err)
		}
		if n := truth.N(); r.Box[0]*r.Box[1] != n {
			t.Errorf("%s: box %v, truth %v", r.File, r.Box, truth.Shape)
		}
		if truth.N() > 9 {
			// Read with the glyphs 10..16; their accuracy is measured by
			// the pipeline and train figures, here only that they are read.
			if !r.Found || r.Status == pipeline.StatusUnread || len(r.Given) != truth.N()*truth.N() {
				t.Errorf("%s: a %dx%d grid: found %v, status %q, given %q; want it read", r.File, truth.N(), truth.N(), r.Found, r.Status, r.Given)
			}
			continue
		}
		readable++
		if want := sudoku.CellString(truth.Cells); r.Given == want {
			exact++
		} else {
			t.Logf("%s: given %s, truth %s (status %s)", r.File, r.Given, want, r.Status)
		}
		if r.Status == pipeline.StatusSolved {
			if len(r.Solution) != len(r.Given) || strings.Contains(r.Solution, "0") {
				t.Errorf("%s: solved but solution %q", r.File, r.Solution)
			}
			if r.Rating == nil || *r.Rating < 1 || r.Level == "" {
				t.Errorf("%s: solved but not rated: rating %v level %q", r.File, r.Rating, r.Level)
			}
			if _, err := os.Stat(filepath.Join(out, strings.TrimSuffix(filepath.Base(r.File), filepath.Ext(r.File))+".solved"+filepath.Ext(r.File))); err != nil {
				t.Errorf("%s: no annotated image: %v", r.File, err)
			}
		}
	}
	// Allow one misread among the readable grids: the digit model's own
	// tests hold it to its accuracy; this one checks the wiring.
	if readable == 0 || exact < readable-1 {
		t.Errorf("read %d of %d grids exactly", exact, readable)
	}
	if lines != len(imgs)+1 {
		t.Errorf("%d JSON lines, want %d", lines, len(imgs)+1)
	}
}

// TestScanWicht scores the scanner on the real photos when ../shared is
// there. It reports the figures and asserts floors just under today's
// (README: every grid read exactly, 150 solved and 10 held back for a
// check, none wrong), so one grid lost is a failure.
func TestScanWicht(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 160 photos")
	}
	dir := testenv.Shared(t, "datasets/wicht-v2-train")
	code, stdout, stderr := runScanCapture(t, "--truth", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	i := strings.Index(stdout, "images:")
	if i < 0 {
		t.Fatalf("no report in output")
	}
	t.Logf("\n%s", stdout[i:])
	var pct float64
	var images, exact, solved, of int
	wrong, held, heldRight := -1, 0, 0
	for _, line := range strings.Split(stdout[i:], "\n") {
		fmt.Sscanf(line, "images: %d", &images)
		fmt.Sscanf(line, "grids exact: %f%% (%d/%d)", &pct, &exact, &of)
		fmt.Sscanf(line, "grids solved: %f%% (%d/%d", &pct, &solved, &of)
		fmt.Sscanf(line, "wrong solutions: %d", &wrong)
		fmt.Sscanf(line, "check cells: %d grids held back for a check (%d", &held, &heldRight)
	}
	// A grid held back for a check is not shown as solved (issue 15), but
	// it must still have been read: exact counts it, solved does not.
	if images != 160 || exact < 159 || solved < 149 || solved+held < 159 {
		t.Errorf("images %d, grids exact %d, solved %d, held back %d (%d read right): floors 160 images, 159 exact, 149 solved, 159 solved or held",
			images, exact, solved, held, heldRight)
	}
	if wrong != 0 {
		t.Errorf("%d wrong solutions shown as solved, want 0", wrong)
	}
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	off := newProgressBar(&b, false, 10)
	off.Describe("x.jpg")
	off.Add(3)
	off.Clear()
	off.Finish()
	if b.Len() != 0 {
		t.Fatalf("a bar that is off wrote %q", b.String())
	}
	on := newProgressBar(&b, true, 4)
	on.Describe("image1.jpg")
	on.Add(1)
	if got := b.String(); !strings.Contains(got, "1/4") || !strings.Contains(got, "image1.jpg") || !strings.Contains(got, "[#######") {
		t.Fatalf("bar = %q", got)
	}
	b.Reset()
	on.Clear()
	if b.String() != "\033[2K\r" {
		t.Fatalf("clear wrote %q", b.String())
	}
	b.Reset()
	on.Add(3)
	on.Finish()
	if got := b.String(); !strings.HasSuffix(got, "\033[2K\r") {
		t.Fatalf("a finished bar must clear its line, wrote %q", got)
	}
}

// TestScanPipedHasNoBar runs scan with its output in a file (not a
// terminal): no progress bar may appear on stderr.
func TestScanPipedHasNoBar(t *testing.T) {
	src := synthDir(t)
	imgs, _ := pipeline.ImageFiles([]string{src}, false)
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	code := run([]string{"scan", imgs[0]}, &env{stdin: strings.NewReader(""), stdout: out, stderr: out})
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	b, _ := os.ReadFile(out.Name())
	if strings.Contains(string(b), "\r") || strings.Contains(string(b), "[#") {
		t.Fatalf("progress bar in piped output: %q", b)
	}
}
