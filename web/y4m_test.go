package web

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"os"

	"golang.org/x/image/draw"
)

// writeY4M writes photo as a w×h, 30 fps, 4:2:0 YUV4MPEG2 file of n
// identical frames: what chromium's fake camera
// (--use-file-for-fake-video-capture) plays in a loop. The photo is
// scaled to fit and centred on grey, as a page held up to a camera.
func writeY4M(path string, photo image.Image, w, h, n int) error {
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(color.RGBA{110, 110, 110, 255}), image.Point{}, draw.Src)
	pb := photo.Bounds()
	k := min(float64(w)/float64(pb.Dx()), float64(h)/float64(pb.Dy()))
	dw, dh := int(float64(pb.Dx())*k), int(float64(pb.Dy())*k)
	dst := image.Rect((w-dw)/2, (h-dh)/2, (w-dw)/2+dw, (h-dh)/2+dh)
	draw.CatmullRom.Scale(canvas, dst, photo, pb, draw.Src, nil)

	// Full-range BT.601 (JPEG) conversion, chroma averaged over 2×2.
	y := make([]byte, w*h)
	cb := make([]byte, (w/2)*(h/2))
	cr := make([]byte, (w/2)*(h/2))
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			o := canvas.PixOffset(i, j)
			yy, _, _ := color.RGBToYCbCr(canvas.Pix[o], canvas.Pix[o+1], canvas.Pix[o+2])
			y[j*w+i] = yy
		}
	}
	for j := 0; j < h/2; j++ {
		for i := 0; i < w/2; i++ {
			var sb, sr int
			for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				o := canvas.PixOffset(2*i+d[0], 2*j+d[1])
				_, b, r := color.RGBToYCbCr(canvas.Pix[o], canvas.Pix[o+1], canvas.Pix[o+2])
				sb += int(b)
				sr += int(r)
			}
			cb[j*(w/2)+i], cr[j*(w/2)+i] = byte(sb/4), byte(sr/4)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	fmt.Fprintf(bw, "YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg\n", w, h)
	for range n {
		bw.WriteString("FRAME\n")
		bw.Write(y)
		bw.Write(cb)
		bw.Write(cr)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
