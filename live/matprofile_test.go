//go:build matprofile

package live

import (
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/pipeline"
)

// TestLongRunNoMatLeak plays the demo video three times over (1,035
// frames: about 100 recognitions, three puzzle changes per pass, overlay
// on every frame, an annotated video written) and checks that every Mat
// the run made was closed.
//
//	go test -tags matprofile ./live -run LongRun
func TestLongRunNoMatLeak(t *testing.T) {
	needModel(t)
	d := loadDemo(t)
	out, err := NewVideoFile(t.TempDir()+"/long.avi", DefaultFPS)
	if err != nil {
		t.Fatal(err)
	}
	before := gocv.MatProfile.Count()
	src, err := OpenVideoLoop(d.video)
	if err != nil {
		t.Fatal(err)
	}
	recs := 0
	sum, err := Run(src, out, Options{MaxFrames: 3 * len(d.frames), OnRecognition: func(Recognition) { recs++ }})
	src.Close()
	out.Close()
	if err != nil {
		t.Fatal(err)
	}
	if sum.Frames != 3*len(d.frames) {
		t.Fatalf("played %d frames, want %d", sum.Frames, 3*len(d.frames))
	}
	if after := gocv.MatProfile.Count(); after != before {
		var prof strings.Builder
		gocv.MatProfile.WriteTo(&prof, 1)
		t.Fatalf("Mat count went from %d to %d over %d frames and %d recognitions:\n%s", before, after, sum.Frames, recs, prof.String())
	}
	t.Logf("%d frames, %d recognitions, %d puzzles: Mat count back to %d", sum.Frames, recs, sum.Puzzles, before)
}

// TestFuseNoMatLeak reads a page held up to a webcam (six frames of
// andreibrihac-1, whose vote the gate holds so the canvases are fused
// and read) with fusion and without, and checks that every Mat the
// recogniser, the fuser and the canvas reading made was closed.
//
//	go test -tags matprofile ./live -run FuseNoMatLeak
func TestFuseNoMatLeak(t *testing.T) {
	needModel(t)
	dir := testenv.Shared(t, "datasets/others-train")
	frames := heldFrames(t, filepath.Join(dir, "andreibrihac-1.jpg"), []int{5, 15, 25, 35, 45, 55})
	defer closeAll(frames)
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	recogniseAll(p, frames) // the pipeline's own scratch Mats, made once
	before := gocv.MatProfile.Count()
	v := recogniseAll(p, frames)
	recogniseAll(singleReader{p}, frames)
	if after := gocv.MatProfile.Count(); after != before {
		var prof strings.Builder
		gocv.MatProfile.WriteTo(&prof, 1)
		t.Fatalf("Mat count went from %d to %d:\n%s", before, after, prof.String())
	}
	t.Logf("fused: %s; Mat count back to %d", v.verdict.Status, before)
}
