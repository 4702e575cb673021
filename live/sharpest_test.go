package live

import (
	"fmt"
	"image"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/held"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// TestSharpestKeeps: of the frames offered since the last take, the one
// taken is the sharpest, the newest of equally sharp ones; a frame the
// grid was not followed in (unsharp) only when no other was offered;
// nothing after a reset.
func TestSharpestKeeps(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []float64 // offered in turn, frame i marked i
		reset  int       // reset after this many offers (-1: never)
		want   int       // the frame taken (-1: none)
	}{
		{"one", []float64{5}, -1, 0},
		{"the sharpest", []float64{5, 40, 7, 6}, -1, 1},
		{"the newest of equals", []float64{40, 3, 40, 3}, -1, 2},
		{"followed beats not followed", []float64{unsharp, 0.5, unsharp}, -1, 1},
		{"none followed: the newest", []float64{unsharp, unsharp, unsharp}, -1, 2},
		{"reset: only the frames after it", []float64{50, 40, 3, 4}, 2, 3},
		{"reset last: none", []float64{50, 40}, 2, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := newSharpest()
			defer k.Close()
			for i, s := range tc.scores {
				if i == tc.reset {
					k.reset()
				}
				frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(i), 0, 0, 0), 4, 4, gocv.MatTypeCV8UC3)
				k.offer(frame, job{index: i}, nil, 0, s)
				frame.Close()
			}
			if tc.reset == len(tc.scores) {
				k.reset()
			}
			j, _, _, ok := k.take()
			if !ok {
				if tc.want >= 0 {
					t.Fatalf("nothing taken, want frame %d", tc.want)
				}
				return
			}
			defer j.frame.Close()
			if tc.want < 0 {
				t.Fatalf("took frame %d, want none", j.index)
			}
			if j.index != tc.want || int(j.frame.GetVecbAt(0, 0)[0]) != tc.want {
				t.Errorf("took job %d, frame marked %d; want %d", j.index, j.frame.GetVecbAt(0, 0)[0], tc.want)
			}
			if _, _, _, again := k.take(); again {
				t.Error("a second take found a frame: want the keeper emptied")
			}
		})
	}
}

// TestSharpnessOrdersBlur: on real photos held up to a 640×480 camera,
// the grid's sharpness falls as the frame is blurred more.
func TestSharpnessOrdersBlur(t *testing.T) {
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	k := newSharpest()
	defer k.Close()
	for _, name := range []string{"image1", "image1000", "image1036"} {
		t.Run(name, func(t *testing.T) {
			sharp, _ := stillPhoto(t, name)
			defer sharp.Close()
			g, err := det.LocatePick(sharp, vision.Pick{})
			if err != nil {
				t.Fatalf("no grid in the sharp frame: %v", err)
			}
			last := 0.0
			for i, sigma := range []float64{4, 2, 1, 0} {
				b := blurred(sharp, sigma)
				s := k.sharpness(b, g)
				b.Close()
				if i > 0 && s <= last {
					t.Errorf("blur %.0f px: sharpness %.1f, not above %.1f of the blurrier frame", sigma, s, last)
				}
				last = s
			}
		})
	}
}

// TestBlurredPageRead plays real photos held still before a 640×480
// camera, every frame blurred but one a second (frame 13 of each 30),
// through a recogniser that takes blinkSpan frames to read one. Blurred
// by 5 px, the grid is followed and misread; by 8 px, it is lost and no
// puzzle is read, and each clear frame comes while the routine reading of
// frame 10 is in hand, so reading the frame current when the recogniser
// is free never reads a clear one. Until the page is read the session
// reads as often as it can, the sharpest frame since the recogniser took
// the last one: a recognition reports the photo's puzzle solved, and
// none another one.
func TestBlurredPageRead(t *testing.T) {
	needModel(t)
	for _, tc := range []struct {
		name  string
		sigma float64 // of the blur, in frame pixels
	}{
		{"image1000", 5},
		{"image1036", 5},
		{"image1036", 8},
	} {
		t.Run(fmt.Sprintf("%s/blur%.0f", tc.name, tc.sigma), func(t *testing.T) {
			sharp, truth := stillPhoto(t, tc.name)
			defer sharp.Close()
			blur := blurred(sharp, tc.sigma)
			defer blur.Close()
			want := sudoku.CellString(truth.Cells)
			ls := newLockstep(t, blinkSpan)
			read, wrong := 0, 0
			ls.frame = func(i int) (gocv.Mat, bool) {
				if read > 0 || i >= blinkFrames {
					return gocv.Mat{}, false
				}
				if i%30 == 13 {
					return sharp, true
				}
				return blur, true
			}
			_, err := Run(ls, nil, Options{
				Undrawn:       true,
				NewRecognizer: func() (Recognizer, error) { return ls, nil },
				OnRecognition: func(r Recognition) {
					if r.Status != pipeline.StatusSolved {
						return
					}
					if r.Given() != want {
						wrong++
						return
					}
					read++
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if read == 0 {
				t.Errorf("never read in %d frames with a clear one each second (%d recognitions)", blinkFrames, ls.calls)
			}
			if wrong > 0 {
				t.Errorf("%d recognitions solved other givens than the photo's", wrong)
			}
		})
	}
}

// TestCadenceAfterRead plays a real photo held still and sharp before a
// 640×480 camera through a recogniser that takes blinkSpan frames to read
// one, fewer than Every: once the page is drawn solved, recognitions fall
// back to one every Every frames, though the recogniser could read more.
func TestCadenceAfterRead(t *testing.T) {
	needModel(t)
	sharp, truth := stillPhoto(t, "image1036")
	defer sharp.Close()
	want := sudoku.CellString(truth.Cells)
	ls := newLockstep(t, blinkSpan)
	const every, after = 10, 100 // frames played once the page is read
	settled := -1                // the frame first drawn solved
	ls.frame = func(i int) (gocv.Mat, bool) {
		if i >= blinkFrames || settled >= 0 && i > settled+after {
			return gocv.Mat{}, false
		}
		return sharp, true
	}
	since := 0 // recognitions of frames after settled
	_, err := Run(ls, nil, Options{
		Every: every, Undrawn: true,
		NewRecognizer: func() (Recognizer, error) { return ls, nil },
		OnFrame: func(f FrameInfo) {
			if settled < 0 && f.Solution != "" && f.Given == want {
				settled = f.Index
			}
		},
		OnRecognition: func(r Recognition) {
			if settled >= 0 && r.Frame > settled {
				since++
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if settled < 0 {
		t.Fatalf("never drawn solved in %d frames", blinkFrames)
	}
	if most := after/every + 1; since > most || since == 0 {
		t.Errorf("%d recognitions in the %d frames after the page was read, want 1 to %d", since, after, most)
	}
}

// TestEagerUntilEntriesRead holds still a page the player has filled in,
// whose givens read and solve at once but some of whose entries the reader
// is unsure of (mixed-train image1022, a tune page): until the pen vote
// holds Votes readings the recogniser reads as often as it can, not every
// Every-th frame, and then it settles back to the cadence.
func TestEagerUntilEntriesRead(t *testing.T) {
	needModel(t)
	page, truth := photoHeldStill(t, "datasets/wicht-mixed-train", "image1022")
	defer page.Close()
	want := sudoku.CellString(truth.Cells)
	ls := newLockstep(t, blinkSpan)
	const every, votes, after = 60, 5, 240
	settled := -1  // the frame first read solved
	var read []int // the frames recognised since
	checks := 0    // entries to check, as the last recognition says
	ls.frame = func(i int) (gocv.Mat, bool) {
		if i >= 2*blinkFrames || len(read) >= votes && i > read[votes-1]+after {
			return gocv.Mat{}, false
		}
		return page, true
	}
	_, err := Run(ls, nil, Options{
		Every: every, Votes: votes, Undrawn: true,
		NewRecognizer: func() (Recognizer, error) { return ls, nil },
		OnRecognition: func(r Recognition) {
			checks = len(r.EntryCheck)
			switch {
			case settled >= 0:
				read = append(read, r.Frame)
			case r.Status == pipeline.StatusSolved && sudoku.CellString(r.Puzzle.Cells) == want:
				settled = r.Frame // nothing is drawn into a pen page unasked
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if settled < 0 || len(read) < votes {
		t.Fatalf("read solved at frame %d, then %d recognitions in %d frames", settled, len(read), 2*blinkFrames)
	}
	if checks == 0 {
		t.Fatalf("no entry left to check: the page does not test the rule")
	}
	// Every Every-th frame, readings come Every frames apart (less one
	// recognition's span); as often as the lockstep recogniser can, a
	// blinkSpan and the display's lag apart. The first of the pen vote's
	// readings after the page read must come so.
	gaps := []int{read[0] - settled, read[1] - read[0], read[2] - read[1]}
	if slices.Min(gaps) >= every/2 {
		t.Errorf("readings after the page was read %d frames apart, want one under %d until the pen vote is full", gaps, every/2)
	}
	late := 0
	for _, f := range read {
		if f > read[votes-1] {
			late++
		}
	}
	if most := after/every + 1; late > most || late == 0 {
		t.Errorf("%d recognitions in the %d frames after the pen vote filled, want 1 to %d", late, after, most)
	}
}

// blinkSpan is how many frames the lockstep recogniser takes to read one,
// blinkFrames how many frames a test plays at most.
const (
	blinkSpan   = 4
	blinkFrames = 300
)

// stillPhoto is the photo name of ../shared's wicht-v2-train (a tune page)
// held still before a 640×480 camera, filling 70% of its height (its grid
// well inside the frame), and its puzzle. The caller closes
// the frame.
func stillPhoto(t *testing.T, name string) (gocv.Mat, sudoku.Grid) {
	t.Helper()
	return photoHeldStill(t, "datasets/wicht-v2-train", name)
}

// photoHeldStill is stillPhoto of a photo of another of ../shared's datasets.
func photoHeldStill(t *testing.T, dataset, name string) (gocv.Mat, sudoku.Grid) {
	t.Helper()
	dir := testenv.Shared(t, dataset)
	img := gocv.IMRead(filepath.Join(dir, name+".jpg"), gocv.IMReadColor)
	if img.Empty() {
		t.Fatalf("%s: not an image", name)
	}
	defer img.Close()
	truth, err := sudoku.ReadDatFile(filepath.Join(dir, name+".dat"))
	if err != nil {
		t.Fatal(err)
	}
	frame, _, err := held.Frame(img, 640, 480, 0.7, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	return frame, truth
}

// blurred is frame under a Gaussian blur of sigma pixels (0: a copy). The
// caller closes it.
func blurred(frame gocv.Mat, sigma float64) gocv.Mat {
	out := frame.Clone()
	if sigma > 0 {
		gocv.GaussianBlur(frame, &out, image.Pt(0, 0), sigma, sigma, gocv.BorderReplicate)
	}
	return out
}

// lockstep is a Source and a Recognizer (the real pipeline) in step: a
// recognition takes span frames, whatever the machine's speed. It starts
// when the recogniser takes a frame, waits until span more frames were
// shown, then reads; the source holds the next frame until it is done.
type lockstep struct {
	p     *pipeline.Pipeline
	span  int
	frame func(i int) (gocv.Mat, bool) // frame i, false: the end
	mu    sync.Mutex
	cond  *sync.Cond
	n     int // frames shown
	from  int // the frame count when the recognition in hand began (-1: none)
	calls int
	ended bool // the source is done
}

func newLockstep(t *testing.T, span int) *lockstep {
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := &lockstep{p: p, span: span, from: -1}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func (l *lockstep) Read(m *gocv.Mat) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.from >= 0 && l.n >= l.from+l.span {
		l.cond.Wait()
	}
	f, ok := l.frame(l.n)
	if ok {
		f.CopyTo(m)
		l.n++
	} else {
		l.ended = true // the recognition in hand reads at once
	}
	l.cond.Broadcast()
	return ok
}

func (l *lockstep) ProcessPick(frame gocv.Mat, pick vision.Pick) pipeline.Result {
	l.mu.Lock()
	l.from = l.n
	l.calls++
	for l.n < l.from+l.span && !l.ended {
		l.cond.Wait()
	}
	l.mu.Unlock()
	r := l.p.ProcessPick(frame, pick)
	l.mu.Lock()
	l.from = -1
	l.cond.Broadcast()
	l.mu.Unlock()
	return r
}

func (l *lockstep) Close() error     { return l.p.Close() }
func (l *lockstep) FPS() float64     { return 30 }
func (l *lockstep) Size() (int, int) { return 640, 480 }
func (l *lockstep) Name() string     { return "lockstep" }
