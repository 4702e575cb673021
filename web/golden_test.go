package web

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/golden"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/live"
	"github.com/sudokuar/sudokuar/logic"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden from the server's answers")

// TestAPIScanGolden pins the answers of POST /api/scan byte for byte
// (fields, their order, number formats, the HTTP status) on the real
// photos whose `scan --json` lines cmd/sudokuar's TestScanJSONGolden pins:
// a printed page solved, one held for a check, two pen-filled pages, the
// part of a page above its grid, and a text file sent as a photo. Each
// line of testdata/golden/api-scan.txt is the status and the body; the
// time taken ("ms") is written 0, the one field that varies run to run.
func TestAPIScanGolden(t *testing.T) {
	type upload struct {
		name string
		data []byte
	}
	var ups []upload
	for _, p := range []struct{ name, rel string }{
		{"printed.jpg", "datasets/wicht-v2-train/image10.jpg"},
		{"held.jpg", "datasets/wicht-v2-train/image41.jpg"},
		{"pen-solved.jpg", "datasets/wicht-mixed-train/image1059.jpg"},
		{"pen-check.jpg", "datasets/wicht-mixed-train/image33.jpg"},
	} {
		data, err := os.ReadFile(testenv.Shared(t, p.rel))
		if err != nil {
			t.Fatal(err)
		}
		ups = append(ups, upload{p.name, data})
	}
	ups = append(ups, upload{"no-grid.png", golden.NoGridPNG(t)}, upload{"not-a-photo.jpg", []byte("this is text, not a JPEG\n")})

	a := newAPIServer(t, Config{})
	var out bytes.Buffer
	for _, u := range ups {
		ct, body := multipartBody(t, "photo", u.name, u.data)
		res, err := a.Client().Post(a.URL+"/api/scan", ct, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("%s: %d %s", u.name, res.StatusCode, raw)
		}
		fixed, err := golden.Fields(bytes.TrimSuffix(raw, []byte("\n")), map[string]func(json.RawMessage) json.RawMessage{"ms": golden.Zero})
		if err != nil {
			t.Fatalf("%s: %v", u.name, err)
		}
		fmt.Fprintf(&out, "%d %s\n", res.StatusCode, fixed)
	}
	golden.Check(t, "api-scan.txt", out.Bytes(), *update)
}

// TestCameraAnswerGolden pins the camera's frame answers (the JSON the
// camera page reads for each frame) byte for byte, on the kinds of frame
// a session reports: nothing in view, a printed page solved, one with a
// given in conflict among several grids, and a pen page unchecked,
// checked, asked to check after the session stopped, with a wrong entry
// as H's answer, with a step as H's answer, filled by Space and solved.
// The server's time ("serverMs") is not set here: it is the one field
// that varies run to run.
func TestCameraAnswerGolden(t *testing.T) {
	const given = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
	const solution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
	entries := "002608912" + strings.Repeat("0", 72)
	corners := [4][2]float64{{101.5, 80.25}, {540, 82}, {538.75, 420}, {99, 418.5}}
	pen := live.FrameInfo{Located: true, Corners: corners, Box: [2]int{3, 3}, Given: given, Solution: solution,
		Entries: entries, Notes: []int{40}, Progress: "6 entries, 45 cells to go", Status: "6 entries, 45 cells to go"}
	checked := pen
	checked.Checking, checked.Mistakes = true, []int{2}
	checked.Progress, checked.Status = "6 entries, 1 wrong, 45 cells to go", "6 entries, 1 wrong, 45 cells to go"
	wrongHint := checked
	wrongHint.PenHint = &logic.HintResult{Wrong: &logic.WrongEntry{Cell: 2, Entered: 2, Correct: 4, Text: "Wrong entry: r1c3"}}
	wrongHint.Hint = "Wrong entry: r1c3"
	stepHint := pen
	stepHint.PenHint = &logic.HintResult{Step: &logic.Step{Technique: "Naked Single", Cells: []int{10, 11},
		Placements: []logic.Candidate{{Cell: 10, Digit: 7}}, Text: "Naked Single: r2c2 is 7"}}
	stepHint.Hint = "Naked Single: r2c2 is 7"
	filled := pen
	filled.Fill = strings.Repeat("0", 9) + solution[9:]
	solvedPen := pen
	solvedPen.Entries, solvedPen.Solved, solvedPen.Progress, solvedPen.Status = solution, true, "solved", "solved"
	f := frameMsg{seq: 7, w: 640, h: 480}
	frames := []struct {
		info live.FrameInfo
		want bool
	}{
		{live.FrameInfo{Status: "searching for a grid"}, false},
		{live.FrameInfo{Located: true, Corners: corners, Box: [2]int{3, 3}, Given: given, Solution: solution, Status: "solved", Auto: true}, false},
		{live.FrameInfo{Located: true, Corners: corners, Box: [2]int{3, 3}, Given: given, Conflicts: []int{0, 4},
			Status: "check r1c1, r1c5", Grids: 2, GridAt: 1}, false},
		{pen, false},
		{checked, true},
		{checked, false},
		{wrongHint, true},
		{stepHint, false},
		{filled, false},
		{solvedPen, true},
	}
	var out bytes.Buffer
	for _, fr := range frames {
		b, err := json.Marshal(answerOf(f, fr.info, fr.want))
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	golden.Check(t, "camera.jsonl", out.Bytes(), *update)
}
