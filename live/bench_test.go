package live

import (
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/vision"
)

// BenchmarkDemoHeadless plays the whole 1280×720 demo video as fast as it
// goes, headless, with the overlay drawn on every frame and recognition in
// the background, and reports the display rate: the average, and the rate
// over the slowest stretch of 30 consecutive frames (what "sustained" means
// here: recognitions, puzzle changes and the empty stretch included).
//
//	go test ./live -run '^$' -bench DemoHeadless -benchtime 1x -count 5
func BenchmarkDemoHeadless(b *testing.B) {
	needModel(b)
	d := loadDemo(b)
	var frames, recs int
	var secs float64
	worst := 0.0 // the slowest stretch of 30 consecutive frames, in seconds
	for b.Loop() {
		src, err := OpenVideo(d.video)
		if err != nil {
			b.Fatal(err)
		}
		var shown []FrameInfo
		sum, err := Run(src, nil, Options{OnFrame: func(f FrameInfo) { shown = append(shown, f) }})
		src.Close()
		if err != nil {
			b.Fatal(err)
		}
		frames += sum.Frames
		recs += sum.Recognitions
		secs += sum.Elapsed.Seconds()
		for i := 30; i < len(shown); i++ {
			worst = max(worst, shown[i].Shown.Sub(shown[i-30].Shown).Seconds())
		}
	}
	b.ReportMetric(float64(frames)/secs, "fps")
	b.ReportMetric(30/worst, "fps-worst-30-frames")
	b.ReportMetric(secs*1000/float64(frames), "ms/frame")
	b.ReportMetric(float64(recs)/float64(b.N), "recognitions/run")
}

// BenchmarkDemoLatency plays the demo video in real time (30 fps, as a
// window would) and measures, for each of its three puzzle entries (the
// start, the swap, the return), the time from the entry frame being shown
// to the first frame shown with that puzzle's right solution. It reports
// the median and the worst over all runs.
//
//	go test ./live -run '^$' -bench DemoLatency -benchtime 1x -count 3
func BenchmarkDemoLatency(b *testing.B) {
	needModel(b)
	d := loadDemo(b)
	var all []float64
	missed := 0
	for b.Loop() {
		src, err := OpenVideo(d.video)
		if err != nil {
			b.Fatal(err)
		}
		var frames []FrameInfo
		_, err = Run(src, nil, Options{Paced: true, OnFrame: func(f FrameInfo) { frames = append(frames, f) }})
		src.Close()
		if err != nil {
			b.Fatal(err)
		}
		lat := d.latencies(frames)
		b.Logf("entries at frames %v: solution on screen after %.0f ms", d.entries(), lat)
		missed += len(d.entries()) - len(lat)
		all = append(all, lat...)
	}
	worst := 0.0
	for _, l := range all {
		worst = max(worst, l)
	}
	b.ReportMetric(median(all), "ms-median-latency")
	b.ReportMetric(worst, "ms-worst-latency")
	b.ReportMetric(float64(missed), "entries-never-solved")
}

// BenchmarkProcess720p times one full recognition (vision, OCR, solve) of a
// demo frame: the work the background goroutine does every 10th frame.
//
//	go test ./live -run '^$' -bench Process720p -count 5
func BenchmarkProcess720p(b *testing.B) {
	needModel(b)
	d := loadDemo(b)
	src, err := OpenVideo(d.video)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	frame := readFrame(b, src, 60)
	defer frame.Close()
	p := openPipeline(b)
	for b.Loop() {
		if r := p.Process(frame); r.Status != pipeline.StatusSolved {
			b.Fatalf("frame 60: %s (%s)", r.Status, r.Error)
		}
	}
}

// BenchmarkDemoFrames times the vision steps on the demo video's own
// frames (1280×720, every 3rd of its first 300: the page moving, tilting,
// leaving and coming back) rather than on one still: Locate, which the
// display loop runs on every frame to follow the grid, and Analyze, which
// recognition runs every 10th.
//
//	OPENCV_FOR_THREADS_NUM=1 go test ./live -run '^$' -bench DemoFrames -count 3
func BenchmarkDemoFrames(b *testing.B) {
	d := loadDemo(b)
	src, err := OpenVideo(d.video)
	if err != nil {
		b.Fatal(err)
	}
	var frames []gocv.Mat
	defer func() {
		for _, f := range frames {
			f.Close()
		}
	}()
	m := gocv.NewMat()
	for i := 0; i < 300 && src.Read(&m); i++ {
		if i%3 == 0 {
			frames = append(frames, m.Clone())
		}
	}
	m.Close()
	src.Close()
	if len(frames) == 0 {
		b.Fatalf("%s: no frames", d.video)
	}
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	b.Run("Locate", func(b *testing.B) {
		i := 0
		for b.Loop() {
			det.Locate(frames[i%len(frames)])
			i++
		}
	})
	b.Run("Analyze", func(b *testing.B) {
		i := 0
		for b.Loop() {
			det.Analyze(frames[i%len(frames)])
			i++
		}
	})
}
