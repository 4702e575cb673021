package synth

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

// Job is one photo to write: its file name stem, grid side and options.
// The puzzle is generated from the options' seed.
type Job struct {
	Name    string
	Size    int
	Clues   int // 0: a share of the cells that suits the size
	Options Options
	PNG     bool // also write Name.png, decoded from the JPEG, for viewers that lack JPEG
}

// WriteJob renders the job's photo into dir as Name.jpg and Name.dat and
// returns its outlines.csv row (with newline). JPEG must be on.
func WriteJob(dir string, j Job) (string, error) {
	if j.Options.JPEGMax == 0 {
		return "", &OptionError{Field: "JPEG", Reason: "files are written as JPEG, so quality must be set"}
	}
	shape, err := ShapeFor(j.Size)
	if err != nil {
		return "", err
	}
	pz, err := RandomPuzzle(shape, j.Options.Seed, j.Clues)
	if err != nil {
		return "", err
	}
	ph, err := Render(pz, j.Options)
	if err != nil {
		return "", fmt.Errorf("%s: %w", j.Name, err)
	}
	defer ph.Image.Close()
	if err := os.WriteFile(filepath.Join(dir, j.Name+".jpg"), ph.JPEG, 0o644); err != nil {
		return "", err
	}
	if j.PNG && !gocv.IMWrite(filepath.Join(dir, j.Name+".png"), ph.Image) {
		return "", fmt.Errorf("%s: cannot write PNG copy", j.Name)
	}
	dat, err := DatFile(ph, j.Options)
	if err != nil {
		return "", fmt.Errorf("%s: %w", j.Name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, j.Name+".dat"), []byte(dat), 0o644); err != nil {
		return "", err
	}
	return OutlineRow("./"+j.Name+".jpg", ph.Corners), nil
}

// DatFile formats a photo's ground truth like the real photo dataset's
// .dat files (sudoku.WriteDat): a first line describing the source (here
// the seed, font, style, box shape, in-plane turn and tilt in degrees,
// exact corners, and when there is one the page's curl, and what was
// printed beside the puzzle with its corners), a second line
// "WxH:24 JPG", then the N rows of values, 0 for an empty cell.
func DatFile(ph Photo, o Options) (string, error) {
	var camera strings.Builder
	fmt.Fprintf(&camera, "synth seed=%d font=%s style=%s box=%s rotate=%.1f tilt=%.1f corners=",
		o.Seed, ph.Font, ph.Style, ph.Truth.Shape, ph.Pose.Rotate, ph.Pose.Tilt)
	corners := func(q [4]gocv.Point2f) {
		for i, c := range q {
			if i > 0 {
				camera.WriteByte(';')
			}
			fmt.Fprintf(&camera, "%.2f,%.2f", c.X, c.Y)
		}
	}
	corners(ph.Corners)
	if !ph.Curl.IsFlat() {
		c := ph.Curl
		fmt.Fprintf(&camera, " curl=side%d,start%.2f,angle%.1f,down%v", c.Side, c.Start, c.Angle, c.Down)
	}
	if ph.Beside != BesideNothing {
		fmt.Fprintf(&camera, " beside=%s other=", ph.Beside)
		corners(ph.OtherCorners)
		if len(ph.Other.Cells) > 0 {
			fmt.Fprintf(&camera, " othergiven=%s", ph.Other.String())
		}
	}
	var b strings.Builder
	hdr := sudoku.DatHeader{Camera: camera.String(), Photo: fmt.Sprintf("%dx%d:24 JPG", o.Width, o.Height)}
	if err := sudoku.WriteDat(&b, ph.Truth, hdr); err != nil {
		return "", fmt.Errorf("synth: .dat: %w", err)
	}
	return b.String(), nil
}

// OutlineRow formats one outlines.csv row like the real dataset's: the
// file path, then the corners TL, TR, BR, BL as whole pixels.
func OutlineRow(path string, corners [4]gocv.Point2f) string {
	var b strings.Builder
	b.WriteString(path)
	for _, c := range corners {
		fmt.Fprintf(&b, ",%d,%d", int(math.Round(float64(c.X))), int(math.Round(float64(c.Y))))
	}
	b.WriteByte('\n')
	return b.String()
}
