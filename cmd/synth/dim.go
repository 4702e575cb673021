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

	"github.com/sudokuar/sudokuar/synth"
)

// runDim writes copies of real photos (folders of imageK.jpg and their
// .dat truth) as a dim room, a shadow or a lamp's glare gives them
// (synth.Dim), for measuring how the
// reader copes with light as people have it: each photo's noise is drawn
// from the seed and the photo's place among those written, so the same
// folders and flags give the same files.
func runDim(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth dim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "folder to write the dimmed photos and their .dat files into (created if missing)")
	var l synth.Light
	fs.Float64Var(&l.Level, "level", 0.35, "light kept at the photo's left edge (0..4; 1: as taken)")
	fs.Float64Var(&l.Side, "side", 1, "light at the right edge as a share of --level's (1: evenly lit)")
	fs.Float64Var(&l.Noise, "noise", 3, "grey Gaussian noise added, in grey levels")
	fs.Float64Var(&l.Blur, "blur", 0.7, "Gaussian blur, in pixels (0: none)")
	fs.Float64Var(&l.Shadow, "shadow", 0, "light kept where a straight-edged shadow falls across part of the photo (0: no shadow)")
	fs.Float64Var(&l.Glare, "glare", 0, "a lamp's highlight on part of the photo, in times white at its centre (0: none)")
	seed := fs.Int64("seed", 1, "seed of the noise")
	skip := fs.String("skip", "", "a list of photos to leave out (one path a line, matched by file name), e.g. testdata/live/wicht-holdout.list")
	only := fs.String("only", "", "a list of the photos to write, the others left out (e.g. testdata/live/wicht-holdout.list, to measure once)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return errors.New("usage: synth dim --out DIR [--level F --side F --noise F --blur F --shadow F --glare F --seed S --skip LIST | --only LIST] FOLDER (one or more)")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	photos, err := photosWithTruth(fs.Args(), *skip, *only)
	if err != nil {
		return err
	}
	n := 0
	for _, p := range photos {
		if err := dimOne(p.path, *out, p.dat, l, *seed*1_000_003+int64(n)); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(stdout, "wrote %d photos in %.0f%%..%.0f%% light and their .dat files to %s\n", n, 100*l.Level, 100*l.Level*l.Side, *out)
	return nil
}

// dimOne writes photo p, dimmed in light l with the noise of seed, and its
// truth dat into folder out.
func dimOne(p, out string, dat []byte, l synth.Light, seed int64) error {
	img := gocv.IMRead(p, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return fmt.Errorf("%s: cannot read or decode it", p)
	}
	dim, err := synth.Dim(img, l, seed)
	defer dim.Close()
	if err != nil {
		return err
	}
	base := filepath.Base(p)
	if !gocv.IMWriteWithParams(filepath.Join(out, base), dim, []int{gocv.IMWriteJpegQuality, dimQuality}) {
		return fmt.Errorf("write %s: encoding failed", filepath.Join(out, base))
	}
	return os.WriteFile(filepath.Join(out, strings.TrimSuffix(base, ".jpg")+".dat"), dat, 0o644)
}

// dimQuality is the JPEG quality of a dimmed photo: a phone's.
const dimQuality = 92
