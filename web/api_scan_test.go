package web

import (
	"bytes"
	"image"
	"image/jpeg"
	"math"
	"os"
	"testing"

	"golang.org/x/image/draw"
)

// TestAPIScanPhoto reads a real photo through /api/scan, as it is and
// enlarged to 4000 pixels (decoded reduced, at half size): both answers
// carry the right solution with the engine's rating and level, and the
// corners of the enlarged one, in its own pixels, are the first's scaled.
func TestAPIScanPhoto(t *testing.T) {
	a := newAPIServer(t, Config{})
	path, want := cameraPhoto(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	photo := decodeFile(t, path)
	pb := photo.Bounds()
	k := 4000 / float64(pb.Dx())
	big := image.NewRGBA(image.Rect(0, 0, 4000, int(float64(pb.Dy())*k)))
	draw.CatmullRom.Scale(big, big.Bounds(), photo, pb, draw.Src, nil)
	var bigJPEG bytes.Buffer
	if err := jpeg.Encode(&bigJPEG, big, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	corners := func(v map[string]any) [4][2]float64 {
		var c [4][2]float64
		cs, _ := v["corners"].([]any)
		for i := range min(4, len(cs)) {
			p, _ := cs[i].([]any)
			for j := range min(2, len(p)) {
				c[i][j], _ = p[j].(float64)
			}
		}
		return c
	}
	var first [4][2]float64
	for _, tc := range []struct {
		name  string
		data  []byte
		scale float64
	}{{"photo.jpg", data, 1}, {"big.jpg", bigJPEG.Bytes(), float64(big.Bounds().Dx()) / float64(pb.Dx())}} {
		ct, body := multipartBody(t, "photo", tc.name, tc.data)
		status, v := a.call("POST", "/api/scan", ct, body)
		if status != 200 || v["status"] != "solved" || v["solution"] != want {
			t.Fatalf("%s: %d status %v solution %v, want solved %s", tc.name, status, v["status"], v["solution"], want)
		}
		if r, _ := v["rating"].(float64); r <= 0 || v["level"] == nil || v["level"] == "" {
			t.Errorf("%s: rating %v level %v, want the engine's", tc.name, v["rating"], v["level"])
		}
		c := corners(v)
		if tc.scale == 1 {
			first = c
			continue
		}
		for i := range 4 {
			for j := range 2 {
				// The grid is found again on a resampled photo: a few
				// of the first photo's pixels either way.
				if d := math.Abs(c[i][j] - first[i][j]*tc.scale); d > 4*tc.scale {
					t.Errorf("%s: corner %d is %v, want about %v (the first photo's × %.2f)", tc.name, i, c[i], [2]float64{first[i][0] * tc.scale, first[i][1] * tc.scale}, tc.scale)
				}
			}
		}
	}
}
