package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/vision"
)

// runCut writes crops of real photos (folders of imageK.jpg and their .dat
// truth) whose edge cuts the grid, and one crop of each grid whole but
// tight, each with the photo's .dat: how a photo taken too close looks.
// A crop that cuts the grid must never be shown solved wrongly (scan
// --truth counts it); the tight one must read as the photo does. Photos
// whose grid vision does not find are left out.
func runCut(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth cut", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "folder to write the crops and their .dat files into (created if missing)")
	skip := fs.String("skip", "", "a list of photos to leave out (one path a line, matched by file name), e.g. testdata/live/wicht-holdout.list")
	only := fs.String("only", "", "a list of the photos to crop, the others left out (e.g. testdata/live/wicht-holdout.list, to measure once)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return errors.New("usage: synth cut --out DIR [--skip LIST | --only LIST] FOLDER (one or more)")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	photos, err := photosWithTruth(fs.Args(), *skip, *only)
	if err != nil {
		return err
	}
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	n, crops := 0, 0
	for _, p := range photos {
		k, err := cutOne(det, p, *out)
		if err != nil {
			return err
		}
		if k > 0 {
			n++
		}
		crops += k
	}
	fmt.Fprintf(stdout, "wrote %d crops of %d photos and their .dat files to %s\n", crops, n, *out)
	return nil
}

// cuts are the crops runCut writes, as shares of the grid's bounding box
// (x0, y0, x1, y1; 0 and 1 its edges, beyond them the photo's): a quarter
// of the grid cut off each side, a tenth of it right and below, and the
// grid whole with a 2-pixel margin (tight, below).
var cuts = []struct {
	name           string
	x0, y0, x1, y1 float64
}{
	{"cutR", -9, -9, 0.75, 9},
	{"cutL", 0.25, -9, 9, 9},
	{"cutT", -9, 0.25, 9, 9},
	{"cutB", -9, -9, 9, 0.75},
	{"cut1R", -9, -9, 0.9, 9},
	{"cut1B", -9, -9, 9, 0.9},
	{"tight", 0, 0, 1, 1},
}

// cutOne writes the crops of photo p into folder out and returns how many
// it wrote (none when vision finds no grid in it).
func cutOne(det *vision.Detector, p photo, out string) (int, error) {
	img := gocv.IMRead(p.path, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return 0, fmt.Errorf("%s: cannot read or decode it", p.path)
	}
	g, _, err := det.Analyze(img)
	if err != nil {
		return 0, nil
	}
	box := boundsOf(g.Corners)
	whole := image.Rect(0, 0, img.Cols(), img.Rows())
	base := strings.TrimSuffix(filepath.Base(p.path), ".jpg")
	for _, c := range cuts {
		r := image.Rect(at(box.Min.X, box.Dx(), c.x0), at(box.Min.Y, box.Dy(), c.y0), at(box.Min.X, box.Dx(), c.x1), at(box.Min.Y, box.Dy(), c.y1))
		if c.name == "tight" {
			r = r.Inset(-2)
		}
		r = r.Intersect(whole)
		if r.Dx() < 64 || r.Dy() < 64 {
			continue
		}
		region := img.Region(r)
		crop := region.Clone()
		region.Close()
		name := filepath.Join(out, base+"-"+c.name)
		ok := gocv.IMWriteWithParams(name+".jpg", crop, []int{gocv.IMWriteJpegQuality, dimQuality})
		crop.Close()
		if !ok {
			return 0, fmt.Errorf("write %s.jpg: encoding failed", name)
		}
		if err := os.WriteFile(name+".dat", p.dat, 0o644); err != nil {
			return 0, err
		}
	}
	return len(cuts), nil
}

// at is the pixel at share f of a span of n pixels from x0; beyond 0 or 1
// it reaches far past the photo (the crop is clipped to it).
func at(x0, n int, f float64) int {
	return x0 + int(math.Round(f*float64(n)))
}

// boundsOf is the pixel box around q.
func boundsOf(q [4]gocv.Point2f) image.Rectangle {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range q {
		x0, y0 = math.Min(x0, float64(c.X)), math.Min(y0, float64(c.Y))
		x1, y1 = math.Max(x1, float64(c.X)), math.Max(y1, float64(c.Y))
	}
	return image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1)))
}
