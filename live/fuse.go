package live

import (
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// CanvasReader is what a Recognizer also does for the session to fuse
// frames: give a frame's rectified view of a grid it found there, and
// read a grid from such a view. With it the recogniser reads the mean of
// the latest views of one page when the frames alone leave the gate in
// doubt. *pipeline.Pipeline is one.
type CanvasReader interface {
	Canvas(frame gocv.Mat, g vision.Grid, dst *gocv.Mat) error
	ReadCanvas(canvas gocv.Mat, g vision.Grid, frame image.Point) pipeline.Result
}

// fuser averages one page's canvases over the latest recognitions, so a cell
// one frame misread (noise, blur, JPEG) is read from their mean. Residual
// misalignment is found by optical flow at the lattice's crossings and
// undone by a homography; a canvas still unlike the newest (another page, a
// misread lattice, a blur) is left out, as misaligned views average into
// wrong digits. It owns its Mats (Close them).
type fuser struct {
	depth int
	cr    CanvasReader // makes and reads the canvases (nil: no fusion)
	side  int          // the canvases' side (0: none held)
	n     int          // the grid's side in cells
	cans  []gocv.Mat
	// now says the newest canvas is of the frame recognised last.
	now bool
	// frame is the size of the frame the newest canvas was taken from.
	frame image.Point
	// scratch
	canvas                   gocv.Mat
	aligned, acc, f32, fused gocv.Mat
	pts, nxt, status, errs   gocv.Mat
	crit                     gocv.TermCriteria
}

const (
	// fuseDepth is how many canvases (recognitions) a fused reading
	// averages at most.
	fuseDepth = 6
	// fuseAlike is the correlation of the cells' insides (lines left out)
	// that an aligned canvas must reach with the newest to be averaged
	// with it: views of one page moving in a webcam's frame measure 0.87
	// to 0.94 once aligned.
	fuseAlike = 0.8
	// fuseMaxShift is the largest displacement, in cells, the flow may
	// find at a crossing: further is another lattice, not a corner off.
	fuseMaxShift = 0.3
	// fuseMinPoints is how many of the lattice's crossings must be
	// followed and agree with the homography fitted to them.
	fuseMinPoints = 12
)

// newFuser returns a fuser of depth canvases made and read by cr (nil:
// it never fuses).
func newFuser(depth int, cr CanvasReader) *fuser {
	return &fuser{depth: depth, cr: cr, canvas: gocv.NewMat(), aligned: gocv.NewMat(), acc: gocv.NewMat(), f32: gocv.NewMat(), fused: gocv.NewMat(),
		pts: gocv.NewMat(), nxt: gocv.NewMat(), status: gocv.NewMat(), errs: gocv.NewMat(),
		crit: gocv.NewTermCriteria(gocv.Count+gocv.EPS, 20, 0.03)}
}

// Close releases the Mats.
func (f *fuser) Close() {
	f.reset()
	for _, m := range []*gocv.Mat{&f.canvas, &f.aligned, &f.acc, &f.f32, &f.fused, &f.pts, &f.nxt, &f.status, &f.errs} {
		m.Close()
	}
}

// reset forgets every canvas.
func (f *fuser) reset() {
	for i := range f.cans {
		f.cans[i].Close()
	}
	f.cans = f.cans[:0]
	f.side, f.n, f.now = 0, 0, false
}

// restart forgets every canvas but the frame's recognised last: another
// page, or another grid, starts with it.
func (f *fuser) restart() {
	if !f.now {
		f.reset()
		return
	}
	if len(f.cans) < 2 {
		return
	}
	last := len(f.cans) - 1
	for i := range last {
		f.cans[i].Close()
	}
	f.cans[0] = f.cans[last]
	f.cans = f.cans[:1]
}

// take keeps frame's canvas of the grid res read in it, when res read a
// puzzle there.
func (f *fuser) take(frame gocv.Mat, res pipeline.Result) {
	f.now = false
	if f.cr == nil || len(res.Puzzle.Cells) == 0 || f.cr.Canvas(frame, res.Grid, &f.canvas) != nil {
		return
	}
	f.add(f.canvas, res.Puzzle.N())
	f.now, f.frame = true, image.Pt(frame.Cols(), frame.Rows())
}

// recheck re-judges voted givens the gate's rule on the cells held back
// (StatusCheck, StatusTooSmall) though the rules solve them: it reads the mean of the latest views (g: the grid of the newest)
// and, when that reading agrees with the vote, counts its confidence too
// (fusedEvidence) under the same gate; otherwise ev.Conf and verdict stand.
// It also returns the mean's reading when fusion was tried (else nil).
func (f *fuser) recheck(voted sudoku.Grid, rules, verdict pipeline.Verdict, ev pipeline.Evidence, g vision.Grid) ([]float64, pipeline.Verdict, *Reading) {
	held := verdict.Status == pipeline.StatusCheck || verdict.Status == pipeline.StatusTooSmall
	if rules.Status != pipeline.StatusSolved || !held || !f.now {
		return ev.Conf, verdict, nil
	}
	m, k := f.fuse()
	if k < 2 {
		return ev.Conf, verdict, &Reading{Views: k}
	}
	fused := f.cr.ReadCanvas(m, g, f.frame)
	read := &Reading{Given: sudoku.CellString(fused.Puzzle.Cells), Status: fused.Status, Views: k}
	if fused.Turns != 0 || read.Given != sudoku.CellString(voted.Cells) {
		return ev.Conf, verdict, read
	}
	ev.Conf, ev.Doubt = fusedEvidence(ev.Conf, ev.Doubt, fused)
	return ev.Conf, pipeline.Gate(voted, rules, ev), read
}

// add keeps a copy of the canvas of the newest reading (an n×n grid),
// forgetting the oldest beyond the fuser's depth, and those of another
// size.
func (f *fuser) add(canvas gocv.Mat, n int) {
	side := canvas.Cols()
	if side != f.side || n != f.n || canvas.Rows() != side {
		f.reset()
		f.side, f.n = side, n
		f.crossings()
	}
	if len(f.cans) == f.depth {
		f.cans[0].Close()
		copy(f.cans, f.cans[1:])
		f.cans = f.cans[:f.depth-1]
	}
	f.cans = append(f.cans, canvas.Clone())
}

// fuse returns the mean of the newest canvas and the held ones that
// align with it, and how many canvases that mean holds (1: the newest
// alone, or none held: 0). The Mat returned belongs to the fuser and
// holds until the next fuse.
func (f *fuser) fuse() (gocv.Mat, int) {
	if len(f.cans) == 0 {
		return f.fused, 0
	}
	newest := f.cans[len(f.cans)-1]
	newest.ConvertTo(&f.acc, gocv.MatTypeCV32F)
	k := 1
	for _, old := range f.cans[:len(f.cans)-1] {
		if !f.align(newest, old) || interiorCorrelation(newest, f.aligned, f.n) < fuseAlike {
			continue
		}
		f.aligned.ConvertTo(&f.f32, gocv.MatTypeCV32F)
		gocv.Add(f.acc, f.f32, &f.acc)
		k++
	}
	f.acc.ConvertToWithParams(&f.fused, gocv.MatTypeCV8U, float32(1/float64(k)), 0)
	return f.fused, k
}

// crossings puts into f.pts the crossings of the n×n lattice on a
// canvas of the fuser's side, where align follows the flow.
func (f *fuser) crossings() {
	side, m := f.side, f.n+1
	cs := float64(side) / float64(f.n)
	f.pts.Close()
	f.pts = gocv.NewMatWithSize(m*m, 1, gocv.MatTypeCV32FC2)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			f.pts.SetFloatAt(i*m+j, 0, float32(math.Min(float64(j)*cs, float64(side-1))))
			f.pts.SetFloatAt(i*m+j, 1, float32(math.Min(float64(i)*cs, float64(side-1))))
		}
	}
}

// align puts into f.aligned the canvas src resampled onto ref's lattice:
// the flow from ref to src at the crossings of the n×n lattice (f.pts), fitted
// with a homography. It reports false when too few crossings follow.
func (f *fuser) align(ref, src gocv.Mat) bool {
	side, n := f.side, f.n
	cs := float64(side) / float64(n)
	m := n + 1
	win := max(7, int(cs*0.66)) | 1
	gocv.CalcOpticalFlowPyrLKWithParams(ref, src, f.pts, f.nxt, &f.status, &f.errs, image.Pt(win, win), 2, f.crit, 0, 1e-4)
	if f.nxt.Rows() != m*m || f.status.Rows() != m*m {
		return false
	}
	var from, to []gocv.Point2f
	for k := 0; k < m*m; k++ {
		if f.status.GetUCharAt(k, 0) == 0 {
			continue
		}
		p := gocv.Point2f{X: f.pts.GetFloatAt(k, 0), Y: f.pts.GetFloatAt(k, 1)}
		q := gocv.Point2f{X: f.nxt.GetFloatAt(k, 0), Y: f.nxt.GetFloatAt(k, 1)}
		d := math.Hypot(float64(q.X-p.X), float64(q.Y-p.Y))
		if math.IsNaN(d) || d > fuseMaxShift*cs {
			continue
		}
		from, to = append(from, p), append(to, q)
	}
	h, ok := fitHomography(from, to, 1.5, fuseMinPoints)
	if !ok {
		return false
	}
	defer h.Close()
	// h maps ref's canvas to src's: sample src through it.
	gocv.WarpPerspectiveWithParams(src, &f.aligned, h, image.Pt(side, side),
		gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderReplicate, color.RGBA{})
	return true
}

// interiorCorrelation is the correlation of two 8-bit canvases of an n×n
// grid over the insides of its cells (the middle 70% of each, where the
// digits are: the lattice, alike on every page, is left out); 0 when
// either is flat there.
func interiorCorrelation(a, b gocv.Mat, n int) float64 {
	pa, err1 := a.DataPtrUint8()
	pb, err2 := b.DataPtrUint8()
	side := a.Cols()
	if err1 != nil || err2 != nil || len(pa) != len(pb) || len(pa) != side*a.Rows() || n <= 0 {
		return 0
	}
	cs := float64(side) / float64(n)
	inside := make([]bool, side)
	for v := range inside {
		t := math.Mod(float64(v), cs) / cs
		inside[v] = t >= 0.15 && t <= 0.85
	}
	var sa, sb, saa, sbb, sab, cnt float64
	for y := 0; y < side; y++ {
		if !inside[y] {
			continue
		}
		for x := 0; x < side; x++ {
			if !inside[x] {
				continue
			}
			u, v := float64(pa[y*side+x]), float64(pb[y*side+x])
			sa += u
			sb += v
			saa += u * u
			sbb += v * v
			sab += u * v
			cnt++
		}
	}
	if cnt == 0 {
		return 0
	}
	ma, mb := sa/cnt, sb/cnt
	va, vb := saa/cnt-ma*ma, sbb/cnt-mb*mb
	if va <= 0 || vb <= 0 {
		return 0
	}
	return (sab/cnt - ma*mb) / math.Sqrt(va*vb)
}

// fusedEvidence is the evidence for the gate when the fused reading of
// the page agrees with the vote: per cell the surer of the vote's support
// (conf) and the fused reading's confidence; of the cells the vote or the
// latest frame doubt (doubt) those the fused reading is less sure of than
// the gate asks of small cells, and the cells the fused reading doubts
// itself.
func fusedEvidence(conf []float64, doubt []int, fused pipeline.Result) ([]float64, []int) {
	if len(conf) != len(fused.Conf) {
		return conf, doubt
	}
	out := make([]float64, len(conf))
	for i := range conf {
		out[i] = math.Max(conf[i], fused.Conf[i])
	}
	var d []int
	for _, c := range doubt {
		if c >= 0 && c < len(fused.Conf) && fused.Conf[c] < pipeline.SmallCellSure {
			d = append(d, c)
		}
	}
	return out, append(d, fused.CheckCells()...)
}
