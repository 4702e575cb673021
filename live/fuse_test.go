package live

import (
	"image"
	"image/color"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/internal/held"
	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// heldFrames renders photo as a webcam sees it held up (held.Frame: a
// 640×480 view of the photo filling 70% of its height, moved, turned and
// tilted as ../shared/tools/mkvideo moves a photo over 60 frames, at the
// frames at), each JPEG-compressed as a camera's video is. The caller
// closes the frames.
func heldFrames(t testing.TB, photo string, at []int) []gocv.Mat {
	t.Helper()
	return heldFramesAt(t, photo, 0.70, 1, at)
}

// heldFramesAt is heldFrames with the photo filling fill of the frame's
// height, moved as mkvideo moves its photo number pi.
func heldFramesAt(t testing.TB, photo string, fill float64, pi int, at []int) []gocv.Mat {
	t.Helper()
	img := gocv.IMRead(photo, gocv.IMReadColor)
	if img.Empty() {
		t.Fatalf("%s: not an image", photo)
	}
	defer img.Close()
	var out []gocv.Mat
	for _, f := range at {
		frame, _, err := held.Frame(img, 640, 480, fill, pi, f)
		if err != nil {
			t.Fatal(err)
		}
		buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, frame, []int{gocv.IMWriteJpegQuality, 90})
		frame.Close()
		if err != nil {
			t.Fatal(err)
		}
		dec, err := gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
		buf.Close()
		if err != nil || dec.Empty() {
			t.Fatalf("%s frame %d: JPEG round trip failed: %v", photo, f, err)
		}
		out = append(out, dec)
	}
	return out
}

// singleReader is a Recognizer without the canvas reading: the recogniser
// then reads each frame alone, as before fusion.
type singleReader struct{ p *pipeline.Pipeline }

func (r singleReader) ProcessPick(frame gocv.Mat, pick vision.Pick) pipeline.Result {
	return r.p.ProcessPick(frame, pick)
}
func (r singleReader) Close() error { return nil }

// recogniseEach hands frames to the recogniser one after another, each a
// routine recognition of the same page, and returns every view, one per
// frame.
func recogniseEach(rec Recognizer, frames []gocv.Mat) []view {
	jobs := make(chan job)
	views := make(chan view, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		recognise(rec, 5, jobs, views)
	}()
	var out []view
	for i, f := range frames {
		jobs <- job{frame: f.Clone(), index: 10 * i}
		out = append(out, <-views)
	}
	close(jobs)
	<-done
	return out
}

// recogniseAll hands frames to the recogniser one after another, each a
// routine recognition of the same page, and returns the last view.
func recogniseAll(rec Recognizer, frames []gocv.Mat) view {
	views := recogniseEach(rec, frames)
	return views[len(views)-1]
}

// TestFusedReading holds real photos of ../shared's others-train up to a
// 640×480 camera (the webcam framing: cells of 15 to 20 px) for six
// recognitions. Read one frame at a time, the frames misread or doubt
// different cells and the gate does not let the vote be shown solved;
// read from the mean of their aligned canvases as well, the page is, with
// the givens printed. (es2812-3, once here, is now shown solved from its
// frames' probabilities combined, Evidence.Sure: TestSmallCellsSureTogether;
// andreibrihac-2 is read from its frames alone since vision tells a grid
// line's remnants from a digit's ink: andreibrihac-9 took its place.)
func TestFusedReading(t *testing.T) {
	needModel(t)
	dir := testenv.Shared(t, "datasets/others-train")
	at := []int{5, 15, 25, 35, 45, 55}
	for _, name := range []string{"andreibrihac-1", "andreibrihac-9", "andreibrihac-16"} {
		t.Run(name, func(t *testing.T) {
			truth, err := sudoku.ReadDatFile(filepath.Join(dir, name+".dat"))
			if err != nil {
				t.Fatal(err)
			}
			frames := heldFrames(t, filepath.Join(dir, name+".jpg"), at)
			defer closeAll(frames)
			p := openPipeline(t)
			want := sudoku.CellString(truth.Cells)
			if v := recogniseAll(singleReader{p}, frames); v.verdict.Status == pipeline.StatusSolved {
				t.Fatalf("read frame by frame, the page is shown solved (givens right: %v): it does not test fusion", sudoku.CellString(v.puzzle.Cells) == want)
			}
			v := recogniseAll(p, frames)
			if got := sudoku.CellString(v.puzzle.Cells); v.verdict.Status != pipeline.StatusSolved || got != want {
				t.Errorf("fused: %s, givens %s, want solved %s (check %v)", v.verdict.Status, got, want, v.verdict.Check)
			}
		})
	}
}

// TestFuseRefusesMisaligned: canvases of one page (andreibrihac-1 held up
// to a webcam) are averaged with the newest when they align with it;
// a newest canvas that shows another page, or this page a cell off or
// turned (a lattice misfound), is read alone, never averaged into a blur
// of two.
func TestFuseRefusesMisaligned(t *testing.T) {
	needModel(t)
	dir := testenv.Shared(t, "datasets/others-train")
	p := openPipeline(t)
	canvases := func(name string, at []int) ([]gocv.Mat, vision.Grid) {
		frames := heldFrames(t, filepath.Join(dir, name+".jpg"), at)
		defer closeAll(frames)
		var out []gocv.Mat
		var g vision.Grid
		for i, f := range frames {
			res := p.Process(f)
			if len(res.Puzzle.Cells) == 0 {
				t.Fatalf("%s frame %d: %s", name, at[i], res.Status)
			}
			c := gocv.NewMat()
			if err := p.Canvas(f, res.Grid, &c); err != nil {
				t.Fatal(err)
			}
			out, g = append(out, c), res.Grid
		}
		return out, g
	}
	page, g := canvases("andreibrihac-1", []int{5, 15, 25, 35})
	defer closeAll(page)
	other, _ := canvases("andreibrihac-8", []int{35})
	defer closeAll(other)
	cs := float64(g.Side) / 9
	moved := func(src gocv.Mat, dx, dy, deg float64) gocv.Mat {
		c := float64(src.Cols()) / 2
		m := gocv.GetRotationMatrix2D(image.Point{X: int(c), Y: int(c)}, deg, 1)
		defer m.Close()
		m.SetDoubleAt(0, 2, m.GetDoubleAt(0, 2)+dx)
		m.SetDoubleAt(1, 2, m.GetDoubleAt(1, 2)+dy)
		out := gocv.NewMat()
		gocv.WarpAffineWithParams(src, &out, m, image.Pt(src.Cols(), src.Rows()), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
		return out
	}
	newest := page[3]
	for _, c := range []struct {
		name   string
		newest gocv.Mat
		want   int
	}{
		{"the same page", newest.Clone(), 4},
		{"the same page, its corners 1.5 px off", moved(newest, 2.5, -2, 0.5), 4},
		{"another page", other[0].Clone(), 1},
		{"this page a cell off", moved(newest, cs, 0, 0), 1},
		{"this page turned", moved(newest, 0, 0, 90), 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer c.newest.Close()
			fz := newFuser(fuseDepth, p)
			defer fz.Close()
			for _, m := range page[:3] {
				fz.add(m, 9)
			}
			fz.add(c.newest, 9)
			if _, k := fz.fuse(); k != c.want {
				t.Errorf("%d canvases averaged, want %d", k, c.want)
			}
		})
	}
}

// closeAll closes each Mat.
func closeAll(ms []gocv.Mat) {
	for _, m := range ms {
		m.Close()
	}
}

// BenchmarkFuse measures what fusing costs a recognition the gate held
// back: six canvases of a page held up to a webcam aligned with the
// newest and averaged (fuse), and the mean read (read), beside reading
// one of the frames whole (frame).
//
//	GOMAXPROCS=1 OPENCV_FOR_THREADS_NUM=1 go test -run '^$' -bench Fuse ./live
func BenchmarkFuse(b *testing.B) {
	needModel(b)
	dir := testenv.Shared(b, "datasets/others-train")
	frames := heldFrames(b, filepath.Join(dir, "andreibrihac-1.jpg"), []int{5, 15, 25, 35, 45, 55})
	defer closeAll(frames)
	p := openPipeline(b)
	fz := newFuser(fuseDepth, p)
	defer fz.Close()
	c := gocv.NewMat()
	defer c.Close()
	var g vision.Grid
	for _, f := range frames {
		res := p.Process(f)
		if len(res.Puzzle.Cells) == 0 || p.Canvas(f, res.Grid, &c) != nil {
			b.Fatalf("andreibrihac-1: %s", res.Status)
		}
		fz.add(c, 9)
		g = res.Grid
	}
	// CPU time of the process (GOMAXPROCS=1 and OPENCV_FOR_THREADS_NUM=1
	// make it the work's own), so a loaded machine does not inflate it.
	cpu := func(b *testing.B, f func()) {
		c0 := cputime.Process()
		for range b.N {
			f()
		}
		b.ReportMetric(float64(cputime.Process()-c0)/float64(b.N)/1e6, "cpu-ms/op")
	}
	b.Run("frame", func(b *testing.B) { cpu(b, func() { p.Process(frames[5]) }) })
	b.Run("fuse", func(b *testing.B) {
		cpu(b, func() {
			if _, k := fz.fuse(); k != len(frames) {
				b.Fatalf("%d canvases averaged, want %d", k, len(frames))
			}
		})
	})
	m, _ := fz.fuse()
	b.Run("read", func(b *testing.B) { cpu(b, func() { p.ReadCanvas(m, g, image.Pt(640, 480)) }) })
	// The ink print the recogniser takes of each grid it reads, and the
	// display loop of each frame (twice when the grid read is placed on
	// an outline of its own).
	ink := newPrinter()
	defer ink.Close()
	b.Run("print", func(b *testing.B) { cpu(b, func() { ink.print(frames[5], g, 9) }) })
}
