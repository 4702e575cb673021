//go:build matprofile

package live

import (
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"sudokuar/pipeline"
)

// loopSource replays a video file until it has given max frames, so a
// short clip makes a long run.
type loopSource struct {
	path string
	cur  Source
	left int
}

func (l *loopSource) Read(m *gocv.Mat) bool {
	for l.left > 0 {
		if l.cur == nil {
			s, err := OpenVideo(l.path)
			if err != nil {
				return false
			}
			l.cur = s
		}
		if l.cur.Read(m) {
			l.left--
			return true
		}
		l.cur.Close()
		l.cur = nil
	}
	return false
}

func (l *loopSource) FPS() float64     { return DefaultFPS }
func (l *loopSource) Size() (int, int) { return 1280, 720 }
func (l *loopSource) Name() string     { return l.path + " (looped)" }
func (l *loopSource) Close() error {
	if l.cur != nil {
		return l.cur.Close()
	}
	return nil
}

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
	src := &loopSource{path: d.video, left: 3 * len(d.frames)}
	recs := 0
	sum, err := Run(src, out, Options{OnRecognition: func(pipeline.Result) { recs++ }})
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
