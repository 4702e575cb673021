package web

import (
	"bytes"
	"image"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/draw"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// TestAPIScanPhoto reads real and synthetic photos through /api/scan, as
// they are and enlarged to 4000 pixels (decoded reduced, at half size or
// less): each answer carries the right solution with the engine's rating
// and level, and the corners of the enlarged one, in its own pixels, are
// the first's scaled, those of the grid read and of every grid in view.
func TestAPIScanPhoto(t *testing.T) {
	a := newAPIServer(t, Config{})
	photo, want := cameraPhoto(t)
	beside := filepath.Join(testenv.RepoRoot(), "testdata", "synth-beside", "image1.jpg")
	for _, p := range []struct {
		path, solution string
		grids          int
	}{{photo, want, 0}, {beside, solutionOf(t, beside), 2}} {
		data, err := os.ReadFile(p.path)
		if err != nil {
			t.Fatal(err)
		}
		big, scale := enlarged(t, p.path, 4000)
		var first []any
		for _, tc := range []struct {
			name  string
			data  []byte
			scale float64
		}{{"photo.jpg", data, 1}, {"big.jpg", big, scale}} {
			name := filepath.Base(p.path) + " as " + tc.name
			ct, body := multipartBody(t, "photo", tc.name, tc.data)
			status, v := a.call("POST", "/api/scan", ct, body)
			if status != 200 || v["status"] != "solved" || v["solution"] != p.solution {
				t.Fatalf("%s: %d status %v solution %v, want solved %s", name, status, v["status"], v["solution"], p.solution)
			}
			if r, _ := v["rating"].(float64); r <= 0 || v["level"] == nil || v["level"] == "" {
				t.Errorf("%s: rating %v level %v, want the engine's", name, v["rating"], v["level"])
			}
			// The grid is found again on a resampled photo: a few of the
			// first photo's pixels either way, and more for a grid in view
			// that was not read (its outline is the search's, unrefined).
			all, tol := []any{v["corners"]}, []float64{4}
			grids, _ := v["grids"].([]any)
			if len(grids) != p.grids {
				t.Fatalf("%s: %d grids in view, want %d", name, len(grids), p.grids)
			}
			for _, g := range grids {
				m, _ := g.(map[string]any)
				all = append(all, m["corners"])
				tol = append(tol, map[bool]float64{true: 4, false: 12}[m["read"] == true])
			}
			if tc.scale == 1 {
				first = all
				continue
			}
			for k := range all {
				c, c1 := cornersOf(all[k]), cornersOf(first[k])
				for i := range 4 {
					for j := range 2 {
						if d := math.Abs(c[i][j] - c1[i][j]*tc.scale); d > tol[k]*tc.scale {
							t.Errorf("%s: outline %d corner %d is %v, want about %v (the first photo's × %.2f)", name, k, i, c[i], [2]float64{c1[i][0] * tc.scale, c1[i][1] * tc.scale}, tc.scale)
						}
					}
				}
			}
		}
	}
}

// cornersOf reads four [x, y] corners of a JSON answer.
func cornersOf(v any) [4][2]float64 {
	var c [4][2]float64
	cs, _ := v.([]any)
	for i := range min(4, len(cs)) {
		p, _ := cs[i].([]any)
		for j := range min(2, len(p)) {
			c[i][j], _ = p[j].(float64)
		}
	}
	return c
}

// enlarged is the photo at path resampled to side pixels wide, as a JPEG,
// and the factor it grew by.
func enlarged(t *testing.T, path string, side int) ([]byte, float64) {
	t.Helper()
	photo := decodeFile(t, path)
	pb := photo.Bounds()
	k := float64(side) / float64(pb.Dx())
	big := image.NewRGBA(image.Rect(0, 0, side, int(float64(pb.Dy())*k)))
	draw.CatmullRom.Scale(big, big.Bounds(), photo, pb, draw.Src, nil)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, big, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), float64(big.Bounds().Dx()) / float64(pb.Dx())
}

// solutionOf is the solution of the puzzle in path's .dat truth.
func solutionOf(t testing.TB, path string) string {
	t.Helper()
	g, err := sudoku.ReadDatFile(strings.TrimSuffix(path, ".jpg") + ".dat")
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sudoku.Solve(g)
	if err != nil {
		t.Fatal(err)
	}
	return sudoku.CellString(sol.Cells)
}
