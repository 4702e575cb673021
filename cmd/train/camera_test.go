package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/models"
	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/vision"
)

// TestCameraFramesCarryTheTruth shoots 9×9 photos of testdata/synth with
// random cameras, cuts the frames as training does and checks that the
// labels sit on the cells that show them: vision's empty cells are where
// the truth has none, every digit cell gives two views (Pixels and one
// more), and the cells are small, as a held-up camera sees them.
func TestCameraFramesCarryTheTruth(t *testing.T) {
	var paths []string
	for _, k := range []string{"4", "10", "16"} {
		paths = append(paths, filepath.Join("..", "..", "testdata", "synth", "image"+k+".jpg"))
	}
	stills, skipped := cameraStills(cutPhotos(paths, true, 1, nil))
	if len(stills) < 2 {
		t.Fatalf("%d stills usable for camera frames (%d skipped), want ≥ 2", len(stills), skipped)
	}
	const per = 8
	frames := realCameraPhotos(stills, per, 7, 2)
	if len(frames) != per*len(stills) {
		t.Fatalf("%d frames, want %d", len(frames), per*len(stills))
	}
	cl, err := ocr.NewGo(models.Digits())
	if err != nil {
		t.Fatal(err)
	}
	cut, agree, digitSamples := 0, 0, 0
	for _, p := range frames {
		if p.cells == nil {
			t.Logf("%s: %v", p.name, p.err)
			continue
		}
		cut++
		if !strings.HasSuffix(p.source, "-camera") || !p.allViews {
			t.Errorf("%s: source %q, allViews %v", p.name, p.source, p.allViews)
		}
		if side := sideOf(p.corners) / 9; side < 7 || side > 23 {
			t.Errorf("%s: cells of %.1f px, want about 9–20", p.name, side)
		}
		off, digits := 0, 0
		for i, c := range p.cells {
			if c.Empty != (p.truth.Cells[i] == 0) {
				off++
			}
			if p.truth.Cells[i] != 0 {
				digits++
			}
		}
		if off > 4 {
			t.Errorf("%s: vision's emptiness differs from the truth in %d cells: labels misplaced", p.name, off)
		}
		s := p.samples()
		if len(s) < 2*(digits-off) {
			t.Errorf("%s: %d samples for %d digits, want two views each", p.name, len(s), digits)
		}
		var batch [][]float32
		var labels []int
		for _, x := range s {
			if x.y < 0 || x.y > 9 || len(x.x) != vision.CellSize*vision.CellSize {
				t.Fatalf("%s: bad sample (label %d, %d pixels)", p.name, x.y, len(x.x))
			}
			if x.y != 0 {
				batch, labels = append(batch, x.x), append(labels, x.y)
			}
		}
		// The shipped reader agrees with most labels: the cells are
		// turned upright and carry their own digit (a turned or shifted
		// truth would read as noise).
		probs, err := cl.Classify(batch)
		if err != nil {
			t.Fatal(err)
		}
		for j, pr := range probs {
			best := 0
			for k := range pr[:10] {
				if pr[k] > pr[best] {
					best = k
				}
			}
			if best == labels[j] {
				agree++
			}
		}
		digitSamples += len(labels)
	}
	if digitSamples == 0 || float64(agree) < 0.8*float64(digitSamples) {
		t.Errorf("the shipped reader agrees with %d of %d digit labels of the camera cells, want ≥ 80%%", agree, digitSamples)
	}
	t.Logf("%d of %d frames cut; the shipped reader agrees with %d of %d digit labels", cut, len(frames), agree, digitSamples)
	// These pages are whole newspaper pages with a small grid among
	// crosswords, and many cameras put it at the smallest size vision
	// takes: few frames are cut (seeded, so always the same).
	if cut < 3 {
		t.Errorf("vision cut %d of %d camera frames, want at least 3", cut, len(frames))
	}
}

// TestFramesFollowTheirStill: when training settles a still's turn
// anew (a symmetric puzzle), its frames' truth turns with it; a frame
// whose still is unknown is an error.
func TestFramesFollowTheirStill(t *testing.T) {
	paths := []string{filepath.Join("..", "..", "testdata", "synth", "image10.jpg")}
	stills, _ := cameraStills(cutPhotos(paths, true, 1, nil))
	if len(stills) != 1 {
		t.Fatalf("%d stills, want 1", len(stills))
	}
	frames := realCameraPhotos(stills, 8, 7, 1)
	var cut []photoCells
	for _, f := range frames {
		if f.cells != nil {
			cut = append(cut, f)
		}
	}
	if len(cut) == 0 {
		t.Fatal("no frame cut")
	}
	before := make([]string, len(cut))
	for i, f := range cut {
		before[i] = fmt.Sprint(f.truth.Cells)
	}
	if err := followStills(cut, stills); err != nil {
		t.Fatal(err)
	}
	for i, f := range cut {
		if fmt.Sprint(f.truth.Cells) != before[i] {
			t.Errorf("%s: truth changed though its still did not turn", f.name)
		}
	}
	s := &stills[0]
	upright := s.truth.Turn((4 - s.turns) % 4)
	s.turns = (s.turns + 2) % 4
	s.truth = upright.Turn(s.turns)
	if err := followStills(cut, stills); err != nil {
		t.Fatal(err)
	}
	for i, f := range cut {
		if want := fmt.Sprint(upright.Turn(f.turns).Cells); fmt.Sprint(f.truth.Cells) != want || fmt.Sprint(f.truth.Cells) == before[i] {
			t.Errorf("%s: truth did not follow its still's half turn", f.name)
		}
	}
	if err := followStills(cut, nil); err == nil || !strings.Contains(err.Error(), "not among the cut photos") {
		t.Errorf("frames without their still: error %v", err)
	}
}

// TestCameraFrameRefusesBadInput: what OpenCV would abort on, or what
// cannot hold the grid, is an error naming the reason.
func TestCameraFrameRefusesBadInput(t *testing.T) {
	colour := gocv.NewMatWithSize(300, 400, gocv.MatTypeCV8UC3)
	defer colour.Close()
	grey := gocv.NewMatWithSize(300, 400, gocv.MatTypeCV8U)
	defer grey.Close()
	grid := [4]gocv.Point2f{{X: 50, Y: 50}, {X: 250, Y: 50}, {X: 250, Y: 250}, {X: 50, Y: 250}}
	rng := rand.New(rand.NewSource(1))
	ok := sampleCamera(rng)
	tiny := ok
	tiny.w, tiny.h = 10, 10
	huge := ok
	huge.cellPx, huge.w, huge.h = 200, 640, 480
	for _, tc := range []struct {
		name  string
		photo gocv.Mat
		grid  [4]gocv.Point2f
		cam   cameraSpec
		want  string
	}{
		{"empty photo", gocv.NewMat(), grid, ok, "want a colour photo"},
		{"grey photo", grey, grid, ok, "want a colour photo"},
		{"tiny frame", colour, grid, tiny, "bad camera"},
		{"grid larger than the frame", colour, grid, huge, "does not fit"},
		{"collapsed grid", colour, [4]gocv.Point2f{}, ok, "grid of side 0.0 px"},
	} {
		frame, _, err := cameraFrame(tc.photo, tc.grid, 9, tc.cam, rng)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
		if err == nil {
			frame.Close()
		}
	}
	// A good one comes out at the camera's size with the grid inside.
	frame, corners, err := cameraFrame(colour, grid, 9, ok, rng)
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	if frame.Cols() != ok.w || frame.Rows() != ok.h {
		t.Errorf("frame %d×%d, want %d×%d", frame.Cols(), frame.Rows(), ok.w, ok.h)
	}
	for _, c := range corners {
		if c.X < 0 || c.Y < 0 || int(c.X) >= ok.w || int(c.Y) >= ok.h {
			t.Errorf("corner %v outside the frame", c)
		}
	}
	if dir := os.Getenv("TRAIN_CAMERA_DUMP"); dir != "" {
		for i := 0; i < 12; i++ {
			paths := []string{filepath.Join("..", "..", "testdata", "synth", "image10.jpg")}
			st, _ := cameraStills(cutPhotos(paths, true, 1, nil))
			img := gocv.IMRead(paths[0], gocv.IMReadColor)
			f, _, err := cameraFrame(img, st[0].corners, 9, sampleCamera(rand.New(rand.NewSource(int64(i)))), rng)
			if err == nil {
				gocv.IMWrite(filepath.Join(dir, "cam"+string(rune('a'+i))+".png"), f)
				f.Close()
			}
			img.Close()
		}
	}
}
