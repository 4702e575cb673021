// Command framescore scores single frames of a moving video (made by
// ../shared/tools/mkvideo, with its .truth) as `sudokuar scan --truth`
// scores photos, from half a second after each cut: what one recognition
// makes of a frame before live votes over frames.
//
//	go run ./cmd/framescore [--every 6] [--within] [--look-px N] [--cells] V.avi
//	go run ./cmd/framescore --calib --every 6 A.avi B.avi ...   # calib.go, -h for the flags
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// settle is how many frames after a cut are left out (half a second at
// 30 fps, as ../shared/tools/score_live.py does).
const settle = 15

// segment is one photo's frames in the video.
type segment struct {
	first, last int
	photo       string
	truth       sudoku.Grid
}

func main() {
	every := flag.Int("every", 6, "score every Nth frame of each photo")
	lookPx := flag.Float64("look-px", 0, "vision.Options.LookPx (0: the default, -1: one look)")
	within := flag.Bool("within", false, "read each frame told where the grid is (where a whole search found it), as live does")
	cells := flag.Bool("cells", false, "also print, per cell size, how the cells of the frames read in place were read (digit or empty against the truth)")
	via := flag.Bool("via", false, "also print how often each step of the grid search made the reading of a frame (vision.Grid.Via)")
	calibrate := flag.Bool("calib", false, "measure the gate's evidence per cell size over the videos (any number) instead")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: framescore [flags] VIDEO.avi (with VIDEO.truth beside it)\n       framescore --calib [flags] VIDEO.avi...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if (flag.NArg() != 1 && !*calibrate) || flag.NArg() < 1 || *every < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if *calibrate {
		var c calib
		for _, v := range flag.Args() {
			if err := c.calibrate(v, *every, *within); err != nil {
				fmt.Fprintln(os.Stderr, "framescore:", err)
				os.Exit(1)
			}
		}
		c.report(os.Stdout)
		return
	}
	if err := run(os.Stdout, flag.Arg(0), *every, *lookPx, *within, *cells, *via); err != nil {
		fmt.Fprintln(os.Stderr, "framescore:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, video string, every int, lookPx float64, within, byCell, byStep bool) error {
	var t pipeline.Tally
	var conf confusion
	var steps stepCount
	err := readFrames(video, every, lookPx, within, func(sg segment, name string, r pipeline.Result, _ bool, cells func() []vision.Cell) {
		t.Add(name, r, sg.truth)
		if byCell {
			conf.add(r, cells(), sg.truth)
		}
		if byStep {
			steps.add(r.Grid.Via)
		}
	})
	if err != nil {
		return err
	}
	if t.Images == 0 {
		return fmt.Errorf("%s: no frame scored (does %s match it?)", video, "its .truth")
	}
	t.Report(w)
	if byCell {
		conf.report(w)
	}
	if byStep {
		steps.report(w)
	}
	return nil
}

// stepCount counts the frames whose reading each step of the grid search
// helped make (vision.Grid.Via): a step that never does is one to drop.
type stepCount struct {
	frames int
	n      map[string]int
	order  []string // first seen first
}

func (c *stepCount) add(via []string) {
	c.frames++
	if c.n == nil {
		c.n = map[string]int{}
	}
	seen := map[string]bool{}
	for _, s := range via {
		if seen[s] {
			continue
		}
		seen[s] = true
		if _, ok := c.n[s]; !ok {
			c.order = append(c.order, s)
		}
		c.n[s]++
	}
}

func (c *stepCount) report(w io.Writer) {
	fmt.Fprintf(w, "steps (frames whose reading each made, of %d):\n", c.frames)
	for _, s := range c.order {
		fmt.Fprintf(w, "  %-16s %d\n", s, c.n[s])
	}
}

// readFrames reads every Nth frame of each photo of video, from the
// settle after its cut on (told where the grid is with within, see
// main), and hands each reading to each with its photo's segment, its
// name (photo#frame), whether it is the photo's first, and a function
// that cuts the frame's cells as the reading did (a detector of the same
// options, told the same; made on the first call).
func readFrames(video string, every int, lookPx float64, within bool,
	each func(sg segment, name string, r pipeline.Result, first bool, cells func() []vision.Cell)) error {
	segs, err := readSegments(strings.TrimSuffix(video, filepath.Ext(video)) + ".truth")
	if err != nil {
		return err
	}
	vopts := vision.Options{LookPx: lookPx}
	p, err := pipeline.New(pipeline.Options{Vision: vopts})
	if err != nil {
		return err
	}
	defer p.Close()
	var det *vision.Detector
	defer func() {
		if det != nil {
			det.Close()
		}
	}()
	vc, err := gocv.VideoCaptureFile(video)
	if err != nil {
		return fmt.Errorf("open %s: %w", video, err)
	}
	defer vc.Close()
	frame := gocv.NewMat()
	defer frame.Close()
	s := 0
	first := true
	var seen *[4]gocv.Point2f // where a whole search last found the grid of photo s
	for k := 0; s < len(segs) && vc.Read(&frame); k++ {
		for s < len(segs) && k > segs[s].last {
			s, seen, first = s+1, nil, true
		}
		if s == len(segs) || k < segs[s].first+settle || (k-segs[s].first-settle)%every != 0 || frame.Empty() {
			continue
		}
		r := p.Process(frame)
		var pick vision.Pick
		if within {
			if r.Found {
				q := r.Grid.Corners
				seen = &q
			}
			if seen != nil {
				pick = vision.Pick{Within: seen}
				r = p.ProcessPick(frame, pick)
			}
		}
		cells := func() []vision.Cell {
			if det == nil {
				det = vision.NewDetector(vopts)
			}
			_, cs, _ := det.AnalyzePick(frame, pick)
			return cs
		}
		each(segs[s], fmt.Sprintf("%s#%d", filepath.Base(segs[s].photo), k), r, first, cells)
		first = false
	}
	return nil
}

// readSegments reads a mkvideo .truth file and each photo's truth.
func readSegments(path string) ([]segment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var segs []segment
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var sg segment
		if _, err := fmt.Sscan(sc.Text(), &sg.first, &sg.last, &sg.photo); err != nil || sg.last < sg.first {
			return nil, fmt.Errorf("%s:%d: want \"FIRST LAST PHOTO\", got %q", path, line, sc.Text())
		}
		if sg.truth, err = pipeline.ReadTruth(sg.photo); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		segs = append(segs, sg)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(segs) == 0 {
		return nil, errors.New(path + ": no photos")
	}
	return segs, nil
}
