package live

import (
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// heldSource plays frames rendered by heldFrames (one page held up to a
// 640×480 webcam, moved as mkvideo moves it), one after another.
type heldSource struct {
	frames []gocv.Mat
	next   int
}

func (s *heldSource) Read(m *gocv.Mat) bool {
	if s.next >= len(s.frames) {
		return false
	}
	s.frames[s.next].CopyTo(m)
	s.next++
	return true
}
func (s *heldSource) FPS() float64 { return 30 }
func (s *heldSource) Size() (int, int) {
	return s.frames[0].Cols(), s.frames[0].Rows()
}
func (s *heldSource) Name() string { return "held" }
func (s *heldSource) Close() error { return nil }

// TestOnePageOneVote: one page held up to a webcam for two seconds is one
// puzzle to the session. On these pages the search finds the page's
// outline in some frames and the grid printed on it in others (both hold
// the point followed), and the grid read is placed on the outline
// followed only once a reading is in: ink prints taken on unlike
// outlines do not compare (similarity 0.1-0.5), and taking them for
// another puzzle started the vote, and the views fused, afresh over and
// over (main's code: 2-6 puzzles on 5 of these pages and 6 others, in
// each of two runs).
func TestOnePageOneVote(t *testing.T) {
	needModel(t)
	dir := testenv.Shared(t, "datasets/others-train")
	at := make([]int, 60)
	for i := range at {
		at[i] = i
	}
	for _, name := range []string{"wizardxz-1", "andreibrihac-4", "es2812-44", "andreibrihac-12"} {
		t.Run(name, func(t *testing.T) {
			frames := heldFrames(t, filepath.Join(dir, name+".jpg"), at)
			defer closeAll(frames)
			sum, err := Run(&heldSource{frames: frames}, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Puzzles != 1 {
				t.Errorf("%d frames, %d recognitions: %d puzzles, want 1 (the vote started afresh on the same page)", sum.Frames, sum.Recognitions, sum.Puzzles)
			}
		})
	}
}
