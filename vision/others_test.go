package vision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// TestOthersPhotos measures corners and box shape on the real photos of
// ../shared/datasets/others-train (80 photos from five sources other than
// Wicht's; many curled pages).
func TestOthersPhotos(t *testing.T) {
	photos := loadSet(t, testenv.Shared(t, "datasets/others-train"))
	det := NewDetector(Options{})
	defer det.Close()
	debug := os.Getenv("VISION_DEBUG")
	var withCorner, cornerOK, shapeOK int
	for _, p := range photos {
		img, err := readImage(p.path)
		if err != nil {
			img.Close()
			t.Errorf("%s: %v", p.name, err)
			continue
		}
		g, cells, err := det.Analyze(img)
		if err != nil {
			t.Logf("%s: %v", p.name, err)
		}
		if p.hasCorner {
			withCorner++
			if e := cornerError(g.Corners, p.corners); e <= 0.03 {
				cornerOK++
			} else {
				t.Logf("%s: corner error %.1f%%", p.name, 100*e)
				if debug != "" {
					det.dumpQuads(filepath.Join(debug, "others_"+strings.TrimSuffix(p.name, ".jpg")+"_quad.png"), img, g.Corners, p.corners, true)
				}
			}
		}
		if g.Shape.N() == p.n && len(cells) == p.n*p.n && g.Shape.BoxRows == 3 {
			shapeOK++
		} else {
			t.Logf("%s: shape %v (conf %.2f)", p.name, g.Shape, g.ShapeConfidence)
		}
		img.Close()
	}
	t.Logf("others-train: corners within 3%% %d/%d, shape 3x3 %d/%d", cornerOK, withCorner, shapeOK, len(photos))
	// Floors at today's figures (the target is 98% of corners): the misses
	// are grids cut by the frame's edge (es2812-23, -47) and one corner of
	// a page curling to the gutter (es2812-55, 3.8%).
	// The floors are counts out of the set's 80 photos: a set that has
	// changed size must have its floors measured again.
	if len(photos) != 80 {
		t.Errorf("others-train has %d photos with truth, want 80 (the floors below are out of 80)", len(photos))
	}
	if cornerOK < 77 || shapeOK < 79 {
		t.Errorf("regression: corners %d/%d (floor 77), shape %d/%d (floor 79)", cornerOK, withCorner, shapeOK, len(photos))
	}
}
