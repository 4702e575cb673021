package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/live"
	"github.com/sudokuar/sudokuar/pipeline"
)

// TestSolutionPrinterMoveBack: without a window, live prints "move back"
// once each time recognitions say the grid reaches the frame's edge, and
// nothing else for them.
func TestSolutionPrinterMoveBack(t *testing.T) {
	var out bytes.Buffer
	p := newSolutionPrinter(&out)
	for i, st := range []pipeline.Status{pipeline.StatusMoveBack, pipeline.StatusMoveBack, pipeline.StatusNoGrid, pipeline.StatusMoveBack} {
		f := i * 10
		p(live.Recognition{Result: pipeline.Result{Status: st}, Frame: f})
	}
	want := "frame 0: move back\nframe 30: move back\n"
	if got := out.String(); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
	if strings.Contains(out.String(), "solved") {
		t.Error("a solution printed for a grid reaching the edge")
	}
}
