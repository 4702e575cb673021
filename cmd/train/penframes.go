package main

import (
	"fmt"
	"math/rand"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
)

// Pen pages as a camera sees them (--pen-camera): each mixed training page
// warped into camera frames (camera.go's cameraFrame: perspective, blur,
// noise, exposure, a JPEG's blocks and halved colour), cut by vision as
// live cuts them, and labelled with the page's own .dat and .pen truth.
// A still's handwriting is sharper and its colour fuller than the same
// ink in a video frame. Tried and not shipped (models/README.md).

// penCameraCells cuts --pen-camera frames of each mixed training page, or
// reads them from the cache; none without the flag.
func penCameraCells(c config, pc penConfig, digits ocr.Classifier, pages []string) ([]penSample, error) {
	if pc.camera <= 0 {
		return nil, nil
	}
	cells, err := loadOrCut(pc.cache, fmt.Sprintf("mixed-camera-s%d-n%d", c.seed, pc.camera), func() ([]penSample, error) {
		seeds := map[string]int64{}
		for i, page := range pages {
			seeds[page] = c.seed*100_000 + int64(i)*100
		}
		return cutAll(pages, c.workers, func(det *vision.Detector, path string) ([]penSample, error) {
			return cutMixedFrames(det, digits, path, pc.camera, seeds[path])
		}), nil
	})
	if err != nil {
		return nil, err
	}
	fmt.Printf("pen: %d cells of %d camera frames per mixed training page\n", len(cells), pc.camera)
	return cells, nil
}

// penCameraFrames are the frame sizes of a pen camera; a webcam's, a
// phone's stream and a 1080p camera's.
var penCameraFrames = [][2]int{{640, 480}, {1280, 720}, {1280, 720}, {1920, 1080}}

// samplePenCamera draws a camera for a pen page: sampleCamera's optics and
// codec, with cells as people hold a page they write on before a camera,
// from the smallest on which the pen model still calls an entry wrong
// (pipeline.EntryLeastPx) to a page that fills most of the frame.
func samplePenCamera(rng *rand.Rand) cameraSpec {
	c := sampleCamera(rng)
	fs := penCameraFrames[rng.Intn(len(penCameraFrames))]
	c.w, c.h = fs[0], fs[1]
	if rng.Intn(5) == 0 {
		c.w, c.h = c.h, c.w
	}
	short := float64(min(c.w, c.h))
	least, most := float64(pipeline.EntryLeastPx), 0.7*short/9
	c.cellPx = least + (most-least)*rng.Float64()
	return c
}

// cutMixedFrames makes per camera frames of a mixed training page (seeded
// by seed and the frame's number) and cuts each; a frame whose grid does
// not fit it, or that vision misses or finds off its place, is skipped.
// The page must pass mixedStill's truth check, as its still does.
func cutMixedFrames(det *vision.Detector, digits ocr.Classifier, path string, per int, seed int64) ([]penSample, error) {
	still, pen, turns, err := mixedStill(det, digits, path)
	if err != nil {
		return nil, err
	}
	img, err := pipeline.ReadImage(path, 0)
	defer img.Close()
	if err != nil {
		return nil, err
	}
	var out []penSample
	for k := 0; k < per; k++ {
		rng := rand.New(rand.NewSource(seed + int64(k)))
		frame, want, err := cameraFrame(img, still.corners, 9, samplePenCamera(rng), rng)
		if err != nil {
			// A camera whose turned grid does not fit its frame: the
			// next frame draws another.
			frame.Close()
			continue
		}
		p := cutFrame(detectors{nine: det}, frame, want, still.truth, turns, photoCells{name: still.name})
		frame.Close()
		if p.cells == nil {
			continue
		}
		truth := penTruth(p.truth, pen.Turn(p.turns))
		for i, c := range p.cells {
			if inked(c) {
				out = append(out, penSample{X: penInput(c, p.turns), Y: truth[i], Page: fmt.Sprintf("%s#cam%d", still.name, k)})
			}
		}
	}
	return out, nil
}
