package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sudokuar/sudokuar/live"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// The calibration study (--calib): each photo of a video is recognised
// every Nth frame from the settle on and voted over as live votes. For
// every given of the vote it records, with the truth, each evidence the
// gate could use: frame (the frame's own confidence), support
// (live.Voter.Conf), mean (the mean probability of the voted value) and
// nb1..3 (the naive-Bayes posterior, live.Voter.Sure(ρ)); per recognition,
// whether the vote solves, is right, and what the gate does with it.

// calibDepth is how many readings the vote holds (live's default).
const calibDepth = 5

// calibRhos are the ρ of the naive-Bayes evidence the study reports.
var calibRhos = []float64{1, 2, 3}

// calibBuckets are the upper ends of the cell-size buckets, in the pixels
// cells are read from (pipeline.Result.CellPx), which --calib and --cells
// both report by.
var calibBuckets = []float64{12, 14, 17, 20, math.Inf(1)}

// bucketOf is the bucket of calibBuckets a cell of px pixels falls in.
func bucketOf(px float64) int {
	for b, hi := range calibBuckets {
		if px < hi {
			return b
		}
	}
	return len(calibBuckets) - 1
}

// bucketName names bucket b of calibBuckets.
func bucketName(b int) string {
	lo := 0.0
	if b > 0 {
		lo = calibBuckets[b-1]
	}
	if math.IsInf(calibBuckets[b], 1) {
		return fmt.Sprintf("≥%g px", lo)
	}
	return fmt.Sprintf("%g–%g px", lo, calibBuckets[b])
}

// cellRec is one given of a vote (or, for the frame evidence, of one
// frame's reading) with its evidence and whether it is right.
type cellRec struct {
	name   string // photo#frame rNcM read/true
	bucket int
	ev     map[string]float64
	right  bool
}

// pageRec is one recognition's vote that the rules solve.
type pageRec struct {
	name   string
	bucket int
	right  bool
	today  bool   // the gate releases it on the vote's support alone
	now    bool   // the gate releases it with live's Sure (ρ = 2) too
	photo  string // video: photo
	// minNB[k] is the least naive-Bayes evidence (ρ = calibRhos[k])
	// over the vote's givens and the cells in doubt.
	minNB []float64
	views int
}

// repeatRec counts, per bucket, frame readings of a cell and how often
// the same cell's reading in the next recognition of the page was wrong
// too: how far consecutive views are from independent.
type repeatRec struct {
	n, wrong, pairs, prevWrong, bothWrong int
}

type calib struct {
	cells   []cellRec
	frames  []cellRec
	pages   []pageRec
	repeats []repeatRec
}

var calibEvidence = []string{"frame", "support", "mean", "nb1", "nb2", "nb3"}

// calibrate runs the study over one video and adds to c.
func (c *calib) calibrate(video string, every int, within bool) error {
	if c.repeats == nil {
		c.repeats = make([]repeatRec, len(calibBuckets))
	}
	var seg *segState
	return readFrames(video, every, 0, within, func(sg segment, name string, r pipeline.Result, first bool, _ func() []vision.Cell) {
		if first {
			seg = newSegState(sg)
			seg.video = filepath.Base(video)
		}
		c.add(seg, name, r)
	})
}

// segState is the vote over one photo's frames.
type segState struct {
	video    string
	truth    sudoku.Grid
	solution string // the truth's solution ("" if it has none of its own)
	voter    *live.Voter
	probs    []pipeline.Result // the readings voted on, newest last
	last     []bool            // per cell, the previous frame reading was wrong (nil: none)
}

func newSegState(sg segment) *segState {
	st := &segState{truth: sg.truth, voter: live.NewVoter(calibDepth)}
	if v := pipeline.Judge(sg.truth); v.Status == pipeline.StatusSolved {
		st.solution = sudoku.CellString(v.Solution.Cells)
	}
	return st
}

func (c *calib) add(st *segState, name string, r pipeline.Result) {
	if len(r.Puzzle.Cells) != len(st.truth.Cells) || r.Puzzle.Shape != st.truth.Shape {
		st.last = nil
		return
	}
	b := bucketOf(r.CellPx)
	// The frame's own reading.
	wrong := make([]bool, len(r.Puzzle.Cells))
	for i, v := range r.Puzzle.Cells {
		wrong[i] = v != st.truth.Cells[i]
		if v != 0 && len(r.Conf) == len(r.Puzzle.Cells) {
			c.frames = append(c.frames, cellRec{bucket: b, ev: map[string]float64{"frame": r.Conf[i]}, right: !wrong[i]})
		}
		rp := &c.repeats[b]
		if v != 0 || st.truth.Cells[i] != 0 {
			rp.n++
			if wrong[i] {
				rp.wrong++
			}
			if st.last != nil {
				rp.pairs++
				if st.last[i] {
					rp.prevWrong++
					if wrong[i] {
						rp.bothWrong++
					}
				}
			}
		}
	}
	st.last = wrong
	solvable := r.Status == pipeline.StatusSolved || r.Status == pipeline.StatusCheck
	voted, fresh := st.voter.Add(r.Puzzle, r.Conf, r.Prob, r.CheckCells(), solvable)
	if fresh {
		st.probs = st.probs[:0]
	}
	st.probs = append(st.probs, r)
	if len(st.probs) > calibDepth {
		st.probs = st.probs[1:]
	}
	support := st.voter.Conf()
	nb := make([][]float64, len(calibRhos))
	for k, rho := range calibRhos {
		nb[k] = st.voter.Sure(rho)
	}
	doubt := st.voter.Check()
	if slices.Equal(voted.Cells, r.Puzzle.Cells) {
		doubt = append(doubt, r.CheckCells()...)
	}
	for i, v := range voted.Cells {
		if v == 0 {
			continue
		}
		ev := map[string]float64{"support": support[i], "mean": meanProb(st.probs, i, v)}
		for k := range calibRhos {
			ev[fmt.Sprintf("nb%d", k+1)] = nb[k][i]
		}
		n := voted.N()
		c.cells = append(c.cells, cellRec{name: fmt.Sprintf("%s r%dc%d %d/%d", name, i/n+1, i%n+1, v, st.truth.Cells[i]), bucket: b, ev: ev, right: v == st.truth.Cells[i]})
	}
	rules := pipeline.Judge(voted)
	if rules.Status != pipeline.StatusSolved {
		return
	}
	right := slices.Equal(voted.Cells, st.truth.Cells) || (st.solution != "" && sudoku.CellString(rules.Solution.Cells) == st.solution)
	today := pipeline.Gate(voted, rules, pipeline.Evidence{Conf: support, Doubt: doubt, CellPx: r.CellPx}).Status == pipeline.StatusSolved
	now := pipeline.Gate(voted, rules, pipeline.Evidence{Conf: support, Doubt: doubt, CellPx: r.CellPx, Sure: st.voter.Sure(2)}).Status == pipeline.StatusSolved
	pg := pageRec{name: name, photo: st.video + ": " + strings.SplitN(name, "#", 2)[0], bucket: b, right: right, today: today, now: now, views: st.voter.Len()}
	for k := range calibRhos {
		m := 1.0
		for i, v := range voted.Cells {
			if v != 0 || slices.Contains(doubt, i) {
				m = min(m, nb[k][i])
			}
		}
		pg.minNB = append(pg.minNB, m)
	}
	c.pages = append(c.pages, pg)
}

// meanProb is the mean probability the readings give value v of cell i.
func meanProb(rs []pipeline.Result, i, v int) float64 {
	sum := 0.0
	for _, r := range rs {
		switch {
		case len(r.Prob) == len(r.Puzzle.Cells) && v < len(r.Prob[i]):
			sum += float64(r.Prob[i][v])
		case r.Puzzle.Cells[i] == v && len(r.Conf) == len(r.Puzzle.Cells):
			sum += r.Conf[i]
		}
	}
	return sum / float64(len(rs))
}

// calibThresholds are the evidence levels the tables count at.
var calibThresholds = []float64{0.5, 0.9, 0.99, 0.999, 0.9999}

// report prints the tables.
func (c *calib) report(w io.Writer) {
	c.reportCells(w)
	c.reportViews(w)
	c.reportPages(w)
	c.reportPhotos(w)
	c.reportWrong(w)
}

// reportCells prints each evidence's reliability per cell size.
func (c *calib) reportCells(w io.Writer) {
	fmt.Fprintln(w, "Cells: wrong/total of the givens whose evidence is at least the level, per cell size (the pixels cells are read from)")
	fmt.Fprintf(w, "%-10s %-8s", "cells", "evidence")
	for _, t := range calibThresholds {
		fmt.Fprintf(w, " %14s", fmt.Sprintf("≥%g", t))
	}
	fmt.Fprintln(w)
	for b := range calibBuckets {
		for _, name := range calibEvidence {
			recs := c.cells
			if name == "frame" {
				recs = c.frames
			}
			fmt.Fprintf(w, "%-10s %-8s", bucketName(b), name)
			for _, t := range calibThresholds {
				n, bad := 0, 0
				for _, r := range recs {
					if r.bucket == b && r.ev[name] >= t {
						n++
						if !r.right {
							bad++
						}
					}
				}
				fmt.Fprintf(w, " %14s", fmt.Sprintf("%d/%d", bad, n))
			}
			fmt.Fprintln(w)
		}
	}
}

// reportViews prints how often a misread repeats in the next view.
func (c *calib) reportViews(w io.Writer) {
	fmt.Fprintln(w, "\nViews: how often a frame's reading of a cell (given or truly a digit) is wrong, and how often it is wrong")
	fmt.Fprintln(w, "again in the page's next recognition when it was wrong before (independent views: the same)")
	for b, rp := range c.repeats {
		if rp.n == 0 || rp.pairs == 0 {
			continue
		}
		fmt.Fprintf(w, "%-10s P(wrong) %.4f (%d/%d)  P(wrong | wrong before) %.3f (%d/%d)\n", bucketName(b),
			float64(rp.wrong)/float64(rp.n), rp.wrong, rp.n, ratio(rp.bothWrong, rp.prevWrong), rp.bothWrong, rp.prevWrong)
	}
}

// reportPages prints, per cell size, the solved votes and what each
// threshold of the naive-Bayes evidence would add to today's releases.
func (c *calib) reportPages(w io.Writer) {
	fmt.Fprintln(w, "\nPages: recognitions whose vote the rules solve, right/wrong; what the gate does today; and what")
	fmt.Fprintln(w, "'release when the least naive-Bayes evidence over the givens and doubted cells is at least T' would")
	fmt.Fprintln(w, "add to today's releases (right+/wrong+)")
	for b := range calibBuckets {
		var right, wrong, todayR, todayW int
		for _, pg := range c.pages {
			if pg.bucket != b {
				continue
			}
			switch {
			case pg.right && pg.today:
				right++
				todayR++
			case pg.right:
				right++
			case pg.today:
				wrong++
				todayW++
			default:
				wrong++
			}
		}
		if right+wrong == 0 {
			continue
		}
		fmt.Fprintf(w, "%-10s solved votes right %d wrong %d; released today right %d wrong %d\n", bucketName(b), right, wrong, todayR, todayW)
		for k, rho := range calibRhos {
			fmt.Fprintf(w, "%-10s   nb ρ=%g:", "", rho)
			for _, t := range []float64{0.99, 0.999, 0.9999, 0.99999} {
				addR, addW := 0, 0
				var names []string
				for _, pg := range c.pages {
					if pg.bucket != b || pg.today || pg.minNB[k] < t {
						continue
					}
					if pg.right {
						addR++
					} else {
						addW++
						names = append(names, pg.name)
					}
				}
				fmt.Fprintf(w, "  T=%g +%d/+%d", t, addR, addW)
				if len(names) > 0 && len(names) <= 3 {
					fmt.Fprintf(w, " %v", names)
				}
			}
			fmt.Fprintln(w)
		}
	}
}

// reportPhotos prints, per video, the photos the gate releases today and
// with live's Sure.
func (c *calib) reportPhotos(w io.Writer) {
	fmt.Fprintln(w, "\nPhotos whose vote the gate releases at some recognition, right and wrong: on the support alone (today)")
	fmt.Fprintln(w, "and with live's evidence of the frames together (Evidence.Sure, ρ = 2); per video")
	type tally struct{ today, todayW, now, nowW int }
	byVideo := map[string]*tally{}
	var videos []string
	seen := map[string]bool{}
	for _, want := range []bool{true, false} {
		for _, pg := range c.pages {
			video := strings.SplitN(pg.photo, ": ", 2)[0]
			if byVideo[video] == nil {
				byVideo[video] = &tally{}
				videos = append(videos, video)
			}
			t := byVideo[video]
			for k, on := range map[string]bool{"today": pg.today, "now": pg.now} {
				key := fmt.Sprint(k, want, pg.photo)
				if !on || seen[key] || pg.right != want {
					continue
				}
				seen[key] = true
				switch {
				case k == "today" && want:
					t.today++
				case k == "today":
					t.todayW++
				case want:
					t.now++
				default:
					t.nowW++
				}
			}
		}
	}
	for _, v := range videos {
		t := byVideo[v]
		fmt.Fprintf(w, "  %-28s today %d right, %d wrong; with Sure %d right, %d wrong\n", v, t.today, t.todayW, t.now, t.nowW)
	}
}

// reportWrong lists the wrong givens the evidence is surest of and the
// wrong solved votes.
func (c *calib) reportWrong(w io.Writer) {
	fmt.Fprintln(w, "\nWrong givens of votes with naive-Bayes evidence (ρ=2) at least 0.999 (photo#frame cell read/true: nb1 nb2 nb3 support):")
	for _, r := range c.cells {
		if !r.right && r.ev["nb2"] >= 0.999 {
			fmt.Fprintf(w, "  %s %s: %.5f %.5f %.5f %.3f\n", r.name, bucketName(r.bucket), r.ev["nb1"], r.ev["nb2"], r.ev["nb3"], r.ev["support"])
		}
	}
	fmt.Fprintln(w, "\nWrong solved votes (least nb evidence at ρ=1,2,3; views; released today):")
	for _, pg := range c.pages {
		if !pg.right {
			fmt.Fprintf(w, "  %s %s %.6f %.6f %.6f views %d today %v\n", pg.name, bucketName(pg.bucket), pg.minNB[0], pg.minNB[1], pg.minNB[2], pg.views, pg.today)
		}
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
