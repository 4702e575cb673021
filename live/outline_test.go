package live

import (
	"path/filepath"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

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
			once := make([]int, len(frames))
			for i := range once {
				once[i] = 1
			}
			sum, err := Run(&seqSource{imgs: frames, count: once}, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Puzzles != 1 {
				t.Errorf("%d frames, %d recognitions: %d puzzles, want 1 (the vote started afresh on the same page)", sum.Frames, sum.Recognitions, sum.Puzzles)
			}
		})
	}
}
