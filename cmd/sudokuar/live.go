package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sudokuar/sudokuar/internal/wire"
	"github.com/sudokuar/sudokuar/live"
	"github.com/sudokuar/sudokuar/pipeline"
)

type liveConfig struct {
	camera   int
	video    string
	headless bool
	json     bool
	out      string
	backend  string
	pen      string // --pen: a pen model file, "none", or "" for the embedded one
	manual   bool
	every    int
	frames   int
	paced    bool
	saveDir  string
	loop     bool
}

// liveFlags declares the live flags on fs and returns the command.
func liveFlags(fs *flag.FlagSet) func(*env, []string) int {
	var c liveConfig
	fs.IntVar(&c.camera, "camera", 0, "camera `number` to read from")
	fs.StringVar(&c.video, "video", "", "read this video `file` instead of a camera")
	fs.BoolVar(&c.headless, "headless", false, "no window: process as fast as possible (see --out, --json)")
	fs.BoolVar(&c.json, "json", false, "print one JSON line per recognition (the scan --json fields plus \"frame\")")
	fs.StringVar(&c.out, "out", "", "write the annotated video to this .mp4 or .avi `file`")
	fs.StringVar(&c.backend, "ocr-backend", pipeline.BackendGo, "digit network runtime: onnx-go or opencv")
	fs.StringVar(&c.pen, "pen", "", penUsage())
	fs.BoolVar(&c.manual, "manual", false, "start with auto-solve off (Space turns it on)")
	fs.IntVar(&c.every, "every", 10, "recognise every `N`th frame")
	fs.IntVar(&c.frames, "frames", 0, "stop after this many frames (0: until the source ends)")
	fs.BoolVar(&c.paced, "realtime", false, "headless: still play at the source's frame rate")
	fs.StringVar(&c.saveDir, "save-dir", ".", "where the S key saves frames and puzzles")
	fs.BoolVar(&c.loop, "loop", false, "with --video in a window: play the video over and over until Q")
	return func(e *env, rest []string) int {
		if len(rest) > 0 {
			fmt.Fprintf(e.stderr, "sudokuar live: unexpected argument %q (a video goes after --video)\n", rest[0])
			return exitUsage
		}
		if c.every < 1 {
			fmt.Fprintf(e.stderr, "sudokuar live: --every %d: must be 1 or more\n", c.every)
			return exitUsage
		}
		if _, _, err := penModel(c.pen); err != nil {
			fmt.Fprintln(e.stderr, "sudokuar live:", err)
			return exitUsage
		}
		if err := liveRun(c, e.stdout, e.stderr); err != nil {
			fmt.Fprintln(e.stderr, "sudokuar", err)
			return exitFail
		}
		return exitOK
	}
}

// defaultLiveOut is where a run without a display writes its video when no
// --out was given, so that it still leaves something to look at.
const defaultLiveOut = "out/live.mp4"

func liveRun(c liveConfig, stdout, stderr io.Writer) error {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	window := !c.headless
	noDisplay := window && !live.HasDisplay()
	if noDisplay {
		window = false
	}
	var src live.Source
	var err error
	switch {
	case c.video != "" && c.loop && window:
		src, err = live.OpenVideoLoop(c.video)
	case c.video != "":
		// Without a window nobody could stop a loop: play once.
		src, err = live.OpenVideo(c.video)
	default:
		src, err = live.OpenCamera(c.camera)
	}
	if err != nil {
		if errors.Is(err, live.ErrNoCamera) {
			return fmt.Errorf("live: %w\n  e.g. sudokuar live --video testdata/video/demo.mp4", err)
		}
		return fmt.Errorf("live: %w", err)
	}
	defer src.Close()
	if noDisplay {
		if c.out == "" {
			c.out = defaultLiveOut
		}
		logf("live: no display (DISPLAY is not set), so no window: running headless and writing the annotated video to %s", c.out)
	}

	var sinks live.Sinks
	var video *live.VideoFile
	if c.out != "" {
		if err := os.MkdirAll(filepath.Dir(c.out), 0o755); err != nil {
			return fmt.Errorf("live: --out %s: %w", c.out, err)
		}
		if video, err = live.NewVideoFile(c.out, src.FPS()); err != nil {
			return fmt.Errorf("live: %w", err)
		}
		sinks = append(sinks, video)
	}
	if window {
		w, err := live.NewWindow("sudokuar - Q quits, Space solves (fills), C checks, H hints, S saves, Tab: next grid")
		if err != nil {
			return fmt.Errorf("live: %w", err)
		}
		// Last, so that its key wait paces the loop (see live.Sinks).
		sinks = append(sinks, w)
	}
	defer func() { sinks.Close() }()

	pen, none, err := penModel(c.pen)
	if err != nil {
		return err
	}
	opts := live.Options{
		Pipeline:    pipeline.Options{Backend: c.backend, Pen: pen, NoPen: none},
		Every:       c.every,
		ManualSolve: c.manual,
		Paced:       window || c.paced,
		MaxFrames:   c.frames,
		SaveDir:     c.saveDir,
		Logf:        logf,
	}
	switch {
	case c.json:
		opts.OnRecognition = liveJSON(stdout, src.Name())
	case !window:
		// Nobody sees the frames, so show each new solution as text.
		opts.OnRecognition = newSolutionPrinter(stdout)
	}
	var sink live.Sink
	if len(sinks) > 0 {
		sink = sinks
	}
	sum, err := live.Run(src, sink, opts)
	if err != nil {
		return fmt.Errorf("live: %w", err)
	}
	if err := sinks.Close(); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	sinks = nil
	// The summary goes to stderr so that --json output stays clean.
	var b strings.Builder
	fmt.Fprintf(&b, "live: %s: %d frames in %.1f s (%.1f fps), %d recognitions, %d puzzle(s), last status: %s",
		src.Name(), sum.Frames, sum.Elapsed.Seconds(), sum.FPS(), sum.Recognitions, sum.Puzzles, orDash(sum.LastStatus.String()))
	if video != nil {
		fmt.Fprintf(&b, "\nlive: annotated video written to %s", video.Path)
	}
	fmt.Fprintln(stderr, b.String())
	return nil
}

// liveJSON returns the recognition callback of live --json: each
// recognition as one JSON line on w, its file the source's name when the
// result has none.
func liveJSON(w io.Writer, name string) func(live.Recognition) {
	enc := json.NewEncoder(w)
	return func(r live.Recognition) {
		_ = enc.Encode(liveLine(r, name))
	}
}

// liveLine is the JSON line of live --json for recognition r of the
// source called name: the wire form of its Result with the frame and the
// readings beside the vote.
func liveLine(r live.Recognition, name string) wire.Result {
	w := wire.FromResult(r.Result)
	if w.File == "" {
		w.File = name
	}
	frame := r.Frame
	w.Frame = &frame
	w.Own, w.Fused = wireReading(r.Own), wireReading(r.Fused)
	return w
}

func wireReading(r *live.Reading) *wire.Reading {
	if r == nil {
		return nil
	}
	return &wire.Reading{Given: r.Given, Status: r.Status, Views: r.Views}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// newSolutionPrinter returns a recognition callback that prints each newly
// solved puzzle (its givens and its solution side by side) once, and
// "move back" once each time the grid reaches the frame's edge, so that a
// run without a window still shows what was seen and said.
func newSolutionPrinter(w io.Writer) func(live.Recognition) {
	last := ""
	movedBack := false
	return func(r live.Recognition) {
		frame := r.Frame
		if r.Status == pipeline.StatusMoveBack {
			// Said once each time the grid reaches the frame's edge, as
			// the window's status line says it.
			if !movedBack {
				fmt.Fprintf(w, "frame %d: %s\n", frame, r.Status)
			}
			movedBack = true
			return
		}
		movedBack = false
		if !r.IsSolved() || r.Given() == last {
			return
		}
		last = r.Given()
		fmt.Fprintf(w, "frame %d: %dx%d puzzle solved (givens | solution)\n", frame, r.Puzzle.N(), r.Puzzle.N())
		given := strings.Split(strings.TrimRight(r.Puzzle.Pretty(), "\n"), "\n")
		sol := strings.Split(strings.TrimRight(r.Solved.Pretty(), "\n"), "\n")
		width := 0
		for _, line := range given {
			width = max(width, len(line))
		}
		for i := range given {
			if i < len(sol) {
				fmt.Fprintf(w, "  %-*s   |   %s\n", width, given[i], sol[i])
			}
		}
	}
}
