package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/synth"
)

// codecs are tried in order: H.264 is smallest, MPEG-4 part 2 and Motion
// JPEG are fallbacks for OpenCV builds without an H.264 encoder.
var codecs = []struct{ fourcc, ext string }{
	{"avc1", ".mp4"}, {"mp4v", ".mp4"}, {"MJPG", ".avi"},
}

func runVideo(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth video", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "folder to write demo.<ext>, demo.csv and the puzzles' .dat files into")
	seed := fs.Int64("seed", 1, "seed: the same seed gives the same frames")
	res := fs.String("res", "1280x720", "frame size WxH")
	fps := fs.Float64("fps", 30, "frames per second")
	codec := fs.String("codec", "", "FourCC to use (default: the first of avc1, mp4v, MJPG that this OpenCV can write and read back)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("video: --out is required")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	shape, _ := synth.ShapeFor(9)
	var pz [2]sudoku.Grid
	for i := range pz {
		var err error
		if pz[i], err = synth.RandomPuzzle(shape, *seed*10+int64(i), 0); err != nil {
			return err
		}
	}
	opts := synth.DefaultVideoOptions(*seed, pz[0], pz[1])
	r, err := parseResolutions(*res)
	if err != nil || len(r) != 1 {
		return fmt.Errorf("video: --res %q: want one WIDTHxHEIGHT", *res)
	}
	opts.Width, opts.Height, opts.FPS = r[0].w, r[0].h, *fps
	// Check before OpenCV sees the sizes: a bad writer call aborts the process.
	if err := opts.Validate(); err != nil {
		return fmt.Errorf("video: %w", err)
	}

	tries := codecs
	if *codec != "" {
		tries = []struct{ fourcc, ext string }{{*codec, ".avi"}}
		if *codec == "avc1" || *codec == "mp4v" {
			tries[0].ext = ".mp4"
		}
	}
	var errs []error
	for _, c := range tries {
		path := filepath.Join(*out, "demo"+c.ext)
		frames, err := writeVideo(path, c.fourcc, opts)
		if err == nil {
			err = checkVideo(path, len(frames), opts)
		}
		if err != nil {
			os.Remove(path)
			errs = append(errs, fmt.Errorf("%s: %w", c.fourcc, err))
			continue
		}
		// Remove a video left by another codec, so the folder holds one demo.
		for _, o := range codecs {
			if other := filepath.Join(*out, "demo"+o.ext); other != path {
				os.Remove(other)
			}
		}
		if err := writeVideoTruth(*out, filepath.Base(path), frames, pz, opts); err != nil {
			return err
		}
		st, _ := os.Stat(path)
		fmt.Fprintf(stdout, "wrote %s (%s, %d frames, %.1f MB), demo.csv, puzzle1.dat, puzzle2.dat\n", path, c.fourcc, len(frames), float64(st.Size())/1e6)
		return nil
	}
	return fmt.Errorf("video: no codec worked: %w", errors.Join(errs...))
}

// writeVideo renders the demo into path and returns the frames' truth.
func writeVideo(path, fourcc string, o synth.VideoOptions) ([]synth.VideoFrame, error) {
	vw, err := gocv.VideoWriterFile(path, fourcc, o.FPS, o.Width, o.Height, true)
	if err != nil {
		return nil, err
	}
	defer vw.Close()
	if !vw.IsOpened() {
		return nil, fmt.Errorf("cannot open a %s writer for %s", fourcc, path)
	}
	var frames []synth.VideoFrame
	err = synth.RenderVideo(o, func(m gocv.Mat, tr synth.VideoFrame) error {
		frames = append(frames, tr)
		return vw.Write(m)
	})
	return frames, err
}

// checkVideo reads path back and checks every frame is there at full size.
func checkVideo(path string, want int, o synth.VideoOptions) error {
	vc, err := gocv.VideoCaptureFile(path)
	if err != nil {
		return fmt.Errorf("read back: %w", err)
	}
	defer vc.Close()
	m := gocv.NewMat()
	defer m.Close()
	n := 0
	for vc.Read(&m) {
		if m.Empty() {
			break
		}
		if m.Cols() != o.Width || m.Rows() != o.Height {
			return fmt.Errorf("read back frame %d is %dx%d, want %dx%d", n, m.Cols(), m.Rows(), o.Width, o.Height)
		}
		n++
	}
	if n != want {
		return fmt.Errorf("read back %d frames, wrote %d", n, want)
	}
	return nil
}

// writeVideoTruth writes demo.csv (one row per frame) and the puzzles.
func writeVideoTruth(dir, video string, frames []synth.VideoFrame, pz [2]sudoku.Grid, o synth.VideoOptions) error {
	var b strings.Builder
	fmt.Fprintf(&b, "frame,time_s,puzzle,full_view,p1_x,p1_y,p2_x,p2_y,p3_x,p3_y,p4_x,p4_y\n")
	for _, f := range frames {
		name := ""
		if f.Puzzle >= 0 {
			name = fmt.Sprintf("puzzle%d.dat", f.Puzzle+1)
		}
		full := 0
		if f.FullView {
			full = 1
		}
		fmt.Fprintf(&b, "%d,%.3f,%s,%d", f.Index, f.Time, name, full)
		for _, c := range f.Corners {
			fmt.Fprintf(&b, ",%.2f,%.2f", c.X, c.Y)
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "demo.csv"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	for i, g := range pz {
		var dat strings.Builder
		hdr := sudoku.DatHeader{
			Camera: fmt.Sprintf("synth video %s seed=%d puzzle %d", video, o.Seed, i+1),
			Photo:  fmt.Sprintf("%dx%d:24 VIDEO", o.Width, o.Height),
		}
		if err := sudoku.WriteDat(&dat, g, hdr); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("puzzle%d.dat", i+1)), []byte(dat.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
