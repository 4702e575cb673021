package live

import (
	"image"
	"image/color"
	"math"
	"sync/atomic"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
)

// pickLog is a scripted recogniser that also notes, per page (its mark),
// whether each recognition was told where the grid is (Pick.Within) and
// how far that is from the grid it read.
type pickLog struct {
	*scripted
	picks []loggedPick
}

type loggedPick struct {
	mark   uint8
	within bool
	off    float64 // distance from the hint's centre to the grid read's (px)
	found  bool
}

func (p *pickLog) ProcessPick(frame gocv.Mat, pick vision.Pick) pipeline.Result {
	r := p.scripted.ProcessPick(frame, pick)
	l := loggedPick{mark: frame.GetVecbAt(2, 2)[0], within: pick.Within != nil, found: r.Found}
	if pick.Within != nil && r.Found {
		a, b := quadCentre(*pick.Within), quadCentre(r.Grid.Corners)
		l.off = math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
	}
	p.picks = append(p.picks, l)
	return r
}

// TestRecognitionToldWhereTheGridIs plays page A until it is solved, then
// page B in its place. The first recognition of A searches the whole
// frame; once a reading found the grid, recognitions are told where the
// tracker has it (and read it there); the first recognition after the
// swap to B searches the whole frame again.
func TestRecognitionToldWhereTheGridIs(t *testing.T) {
	a, truthA := markedPage(t, 7201, 10)
	defer a.Close()
	b, truthB := markedPage(t, 7202, 250)
	defer b.Close()
	ra, rb := judged(truthA, nil), judged(truthB, nil)
	rec := &pickLog{scripted: &scripted{det: vision.NewDetector(vision.Options{}), calls: map[uint8]int{},
		read: map[uint8][]pipeline.Result{10: {ra}, 250: {rb}}}}
	solvedA, solvedB := 0, 0
	src := &seqSource{imgs: []gocv.Mat{a, b}, count: []int{40, 40}}
	src.ready = func(at int) bool { return at == 0 && solvedA >= 10 || at == 1 && solvedB >= 10 }
	_, err := Run(src, nil, Options{
		Every: 5, Undrawn: true,
		NewRecognizer: func() (Recognizer, error) { return rec, nil },
		OnFrame: func(f FrameInfo) {
			switch f.Solution {
			case ra.Solution():
				solvedA++
			case rb.Solution():
				solvedB++
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if solvedA == 0 || solvedB == 0 {
		t.Fatalf("A solved on %d frames, B on %d: want both", solvedA, solvedB)
	}
	hinted := map[uint8]int{}
	for i, p := range rec.picks {
		first := i == 0 || rec.picks[i-1].mark != p.mark
		if first && p.within {
			t.Errorf("recognition %d, the first of page %d: told where to look, want a whole search", i, p.mark)
		}
		if p.within {
			hinted[p.mark]++
			if !p.found || p.off > 3 {
				t.Errorf("recognition %d of page %d: hinted, found %v, %.1f px from the hint", i, p.mark, p.found, p.off)
			}
		}
	}
	if hinted[10] == 0 || hinted[250] == 0 {
		t.Errorf("hinted recognitions: %d of A, %d of B; want some of each (%d in all)", hinted[10], hinted[250], len(rec.picks))
	}
}

// TestMoveBackReported: a recognition of a frame whose grid crosses the
// frame's edge reports what the HUD says of it, "move back" (live --json
// prints it), and so does the frame, though the recogniser reads the part
// of the grid in view as the whole puzzle and solves it: the grid read
// whole before is larger.
func TestMoveBackReported(t *testing.T) {
	a, truthA := markedPage(t, 7203, 10)
	defer a.Close()
	// The page moved right and down until its grid crosses the frame's edge.
	cut := gocv.NewMat()
	defer cut.Close()
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	for i, v := range []float64{1, 0, 200, 0, 1, 150} {
		m.SetDoubleAt(i/3, i%3, v)
	}
	gocv.WarpAffineWithParams(a, &cut, m, image.Pt(a.Cols(), a.Rows()), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{110, 110, 110, 0})
	// Keep the page's mark for the scripted recogniser.
	for y := 0; y < 5; y++ {
		for x := 0; x < 5; x++ {
			cut.SetUCharAt(y, x*3, 10)
			cut.SetUCharAt(y, x*3+1, 10)
			cut.SetUCharAt(y, x*3+2, 10)
		}
	}
	ra := judged(truthA, nil)
	rec := unpicked{&scripted{det: vision.NewDetector(vision.Options{}), calls: map[uint8]int{}, read: map[uint8][]pipeline.Result{10: {ra}}}}
	var statuses []pipeline.Status
	var shown []string
	// The cut-off page stays in view until a recognition of it is
	// reported: on a busy machine the recogniser may still be on the
	// whole page's frames when twenty cut ones have gone by.
	var cutRead atomic.Bool
	src := &seqSource{imgs: []gocv.Mat{a, cut}, count: []int{20, 20}, ready: func(at int) bool { return at == 0 || cutRead.Load() }}
	_, err := Run(src, nil, Options{
		Every: 5, Undrawn: true,
		NewRecognizer: func() (Recognizer, error) { return rec, nil },
		OnRecognition: func(r Recognition) {
			if r.Frame >= 20 {
				statuses = append(statuses, r.Status)
				cutRead.Store(true)
			}
		},
		OnFrame: func(f FrameInfo) {
			if f.Index >= 20 {
				shown = append(shown, f.Status)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(statuses) == 0 {
		t.Fatal("no recognition of the frames whose grid reaches the edge")
	}
	for i, s := range statuses {
		if s != pipeline.StatusMoveBack {
			t.Errorf("recognition %d of the cut-off page: status %q, want %q", i, s, pipeline.StatusMoveBack)
		}
	}
	for i, s := range shown {
		if s != pipeline.StatusMoveBack.String() {
			t.Errorf("frame %d of the cut-off page: HUD %q, want %q", 20+i, s, pipeline.StatusMoveBack)
		}
	}
}

// unpicked is a scripted recogniser that reads the most grid-like outline
// of every frame, wherever it was told to look.
type unpicked struct{ *scripted }

func (u unpicked) ProcessPick(frame gocv.Mat, _ vision.Pick) pipeline.Result {
	return u.scripted.ProcessPick(frame, vision.Pick{})
}
