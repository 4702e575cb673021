package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

// rateFlags declares `sudokuar rate`: rate puzzles on the Sudoku Explainer
// scale, one output line per input line.
func rateFlags(fs *flag.FlagSet) func(*env, []string) int {
	asJSON := fs.Bool("json", false, "print one JSON object per puzzle")
	jobs := fs.Int("j", 1, "puzzles rated at once (workers); output stays in input order")
	against := fs.String("against", "", "compare with the ratings in `FILE` (PUZZLE RATING per line) and print the calibration figures instead of one line per puzzle")
	box := fs.String("box", "", "box shape `RxC` for one-line puzzles whose length allows several")
	timeout := fs.Duration("timeout", 0, "give up on a puzzle after this long (0: never)")
	check := fs.Bool("check", false, "soundness sweep: also solve each puzzle in hint order and check every step of both paths against the DLX solution; an unsound step fails the puzzle")
	return func(e *env, args []string) int {
		var shape *sudoku.Shape
		if *box != "" {
			s, err := sudoku.ParseShape(*box)
			if err != nil {
				fmt.Fprintf(e.stderr, "sudokuar rate: --box: %v\n", err)
				return exitUsage
			}
			shape = &s
		}
		if len(args) > 1 {
			fmt.Fprintln(e.stderr, "sudokuar rate: at most one input file")
			return exitUsage
		}
		if *jobs < 1 {
			fmt.Fprintf(e.stderr, "sudokuar rate: -j %d: need at least 1 worker\n", *jobs)
			return exitUsage
		}
		var truth map[string]float64
		if *against != "" {
			var err error
			if truth, err = readTruth(*against); err != nil {
				fmt.Fprintf(e.stderr, "sudokuar rate: --against: %v\n", err)
				return exitFail
			}
			if len(args) == 0 {
				args = []string{*against} // rate the truth file itself
			}
		}
		name, in, err := openInput(e, args)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar rate: %v\n", err)
			return exitFail
		}
		items := readPuzzleLines(bufio.NewReaderSize(in, readBuf), shape)
		in.Close()
		rateAll(items, *jobs, *timeout, *check)
		out := bufio.NewWriter(e.stdout)
		defer out.Flush()
		failed := 0
		enc := json.NewEncoder(out)
		for _, it := range items {
			if it.err != nil {
				failed++
				out.Flush()
				fmt.Fprintf(e.stderr, "%s:%d: %v\n", name, it.line, it.err)
				if *asJSON && truth == nil {
					if err := enc.Encode(rateJSON{Line: it.line, Puzzle: it.text, Error: it.err.Error()}); err != nil {
						fmt.Fprintf(e.stderr, "sudokuar rate: %v\n", err)
						return exitFail
					}
				}
				continue
			}
			if truth != nil {
				continue
			}
			if *asJSON {
				if err := enc.Encode(rateJSON{Line: it.line, Puzzle: it.grid.String(), SE: it.rating.SE, EP: it.rating.EP, ED: it.rating.ED, Level: it.rating.Level.String(),
					Hardest: it.rating.Hardest, Steps: len(it.rating.Steps), Ms: float64(it.cpu) / 1e6}); err != nil {
					fmt.Fprintf(e.stderr, "sudokuar rate: %v\n", err)
					return exitFail
				}
				continue
			}
			fmt.Fprintf(out, "%s %.1f %s %s\n", it.grid, it.rating.SE, it.rating.Level, it.rating.Hardest)
		}
		if truth != nil {
			calibrationReport(out, *against, truth, items, *jobs)
		}
		if *check {
			steps := 0
			for _, it := range items {
				steps += it.checked
			}
			out.Flush()
			fmt.Fprintf(e.stderr, "sudokuar rate: checked %d steps of %d puzzles against the DLX solution (rating and hint order); %d failed (unrated or unsound)\n", steps, len(items)-failed, failed)
		}
		if failed > 0 {
			out.Flush()
			fmt.Fprintf(e.stderr, "sudokuar rate: %d of %d puzzles not rated\n", failed, len(items))
			return exitFail
		}
		return exitOK
	}
}

// rateJSON is one line of `rate --json`.
type rateJSON struct {
	Line    int     `json:"line"`
	Puzzle  string  `json:"puzzle"`
	SE      float64 `json:"se,omitempty"`
	EP      float64 `json:"ep,omitempty"` // hardest step up to the first that settles a cell
	ED      float64 `json:"ed,omitempty"` // rating of the first step
	Level   string  `json:"level,omitempty"`
	Hardest string  `json:"hardest,omitempty"`
	Steps   int     `json:"steps,omitempty"`
	Ms      float64 `json:"ms,omitempty"`
	Error   string  `json:"error,omitempty"`
}

// rateItem is one input puzzle and what rating it gave.
type rateItem struct {
	line   int
	text   string
	grid   sudoku.Grid
	rating logic.Rating
	cpu    time.Duration // thread CPU time (wall time where unavailable)
	err    error
	// checked counts the steps checked against the solution (--check).
	checked int
}

// checkItem checks every step of the item's rating, and of its solution in
// hint order, against the solution the DLX solver finds: the soundness
// sweep. It counts the checked steps in it.checked.
func checkItem(it *rateItem, timeout time.Duration) error {
	sol, err := sudoku.Solve(it.grid)
	if err != nil {
		return fmt.Errorf("DLX: %w", err)
	}
	if err := logic.CheckSteps(it.grid, it.rating.Steps, sol); err != nil {
		return fmt.Errorf("unsound (rating order): %w", err)
	}
	ctx, cancel := context.Background(), func() {}
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	_, steps, err := logic.SolveSteps(ctx, it.grid)
	if err != nil {
		return fmt.Errorf("hint order: %w", err)
	}
	if err := logic.CheckSteps(it.grid, steps, sol); err != nil {
		return fmt.Errorf("unsound (hint order): %w", err)
	}
	it.checked = len(it.rating.Steps) + len(steps)
	return nil
}

// readPuzzleLines reads one puzzle per line, skipping blank and '#' lines;
// anything after the puzzle on a line (such as a rating) is ignored. A
// line too long to be a puzzle becomes an item with its error, as solve
// reports it, and is not kept.
func readPuzzleLines(r *bufio.Reader, shape *sudoku.Shape) []*rateItem {
	var items []*rateItem
	var buf []byte
	for line := 1; ; line++ {
		b, chars, err := readLine(r, buf, maxLine)
		buf = b
		if err != nil && err != io.EOF {
			return append(items, &rateItem{line: line, err: fmt.Errorf("read: %w", err)})
		}
		if err == io.EOF && chars == 0 {
			return items
		}
		if chars > maxLine {
			items = append(items, &rateItem{line: line, err: fmt.Errorf("too long (%d characters; at most %d)", chars, maxLine)})
		} else if it := puzzleItem(line, strings.TrimSpace(string(b)), shape); it != nil {
			items = append(items, it)
		}
		if err == io.EOF {
			return items
		}
	}
}

// puzzleItem parses the puzzle at the start of line number n, or returns
// nil for a blank or '#' line.
func puzzleItem(n int, text string, shape *sudoku.Shape) *rateItem {
	if text == "" || text[0] == '#' {
		return nil
	}
	first := strings.Fields(text)[0]
	it := &rateItem{line: n, text: first}
	g, err := sudoku.ParseLine(first, shape)
	if err != nil {
		var pe *sudoku.ParseError
		if errors.As(err, &pe) {
			pe.Line = 0 // the file:line prefix names it
		}
		it.err = err
	}
	it.grid = g
	return it
}

// rateAll rates the items with jobs workers; with check set it also runs
// the soundness check (checkItem) on each.
func rateAll(items []*rateItem, jobs int, timeout time.Duration, check bool) {
	next := make(chan *rateItem)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread() // for per-puzzle thread CPU time
			defer runtime.UnlockOSThread()
			threadCPU := cputime.ThreadClock()
			for it := range next {
				ctx, cancel := context.Background(), func() {}
				if timeout > 0 {
					ctx, cancel = context.WithTimeout(ctx, timeout)
				}
				t0 := threadCPU()
				it.rating, it.err = logic.RateContext(ctx, it.grid)
				it.cpu = threadCPU() - t0
				cancel()
				if errors.Is(it.err, context.DeadlineExceeded) {
					it.err = fmt.Errorf("not rated within %v", timeout)
				}
				if check && it.err == nil {
					it.err = checkItem(it, timeout)
				}
				it.rating.Steps = nil // keep memory flat on big files
			}
		}()
	}
	for _, it := range items {
		if it.err == nil {
			next <- it
		}
	}
	close(next)
	wg.Wait()
}

// readTruth reads `PUZZLE RATING ...` lines.
func readTruth(path string) (map[string]float64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: rating %q: %v", path, i+1, f[1], err)
		}
		g, err := sudoku.ParseLine(f[0], nil)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		out[g.String()] = v
	}
	return out, nil
}

// calibrationReport prints how our ratings agree with the truth file's:
// Spearman's rank correlation, agreement within one of five quantile bands
// (as ../shared/tools/score_rating.py computes them), the share rated
// within ±0.2 and ±0.1, and the CPU time per truth band.
func calibrationReport(w io.Writer, truthName string, truth map[string]float64, items []*rateItem, jobs int) {
	var ours, theirs []float64
	var times []time.Duration
	var bands []float64
	var total time.Duration
	for _, it := range items {
		if it.err != nil {
			continue
		}
		t, ok := truth[it.grid.String()]
		if !ok {
			continue
		}
		ours = append(ours, it.rating.SE)
		theirs = append(theirs, t)
		times = append(times, it.cpu)
		bands = append(bands, t)
		total += it.cpu
	}
	n := len(ours)
	fmt.Fprintf(w, "truth file      : %s (%d puzzles)\n", truthName, len(truth))
	fmt.Fprintf(w, "matched         : %d\n", n)
	if n < 3 {
		fmt.Fprintln(w, "too few matched puzzles to score")
		return
	}
	within := func(d float64) float64 {
		k := 0
		for i := range ours {
			if math.Abs(ours[i]-theirs[i]) <= d+1e-9 {
				k++
			}
		}
		return float64(k) / float64(n)
	}
	qo, qt := quantileBands(ours), quantileBands(theirs)
	w1, ex := 0, 0
	for i := range qo {
		if d := qo[i] - qt[i]; d >= -1 && d <= 1 {
			w1++
		}
		if qo[i] == qt[i] {
			ex++
		}
	}
	fmt.Fprintf(w, "spearman_rho    : %.4f\n", spearman(ours, theirs))
	fmt.Fprintf(w, "band_within1    : %.4f   (5 bands, quintiles of each side)\n", float64(w1)/float64(n))
	fmt.Fprintf(w, "band_exact      : %.4f\n", float64(ex)/float64(n))
	fmt.Fprintf(w, "within_0.2      : %.4f\n", within(0.2))
	fmt.Fprintf(w, "within_0.1      : %.4f\n", within(0.1))
	fmt.Fprintf(w, "exact           : %.4f\n", within(0))
	sorted := append([]time.Duration(nil), times...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	fmt.Fprintf(w, "cpu_total       : %.2f s (%d worker(s); thread CPU time)\n", total.Seconds(), jobs)
	fmt.Fprintf(w, "cpu_per_puzzle  : median %s, p99 %s, max %s\n", ms(durPct(sorted, 50)), ms(durPct(sorted, 99)), ms(sorted[len(sorted)-1]))
	// Per SE band of the truth.
	type band struct {
		lo, hi float64
		ts     []time.Duration
	}
	bandsOf := []*band{{1, 2, nil}, {2, 3, nil}, {3, 4, nil}, {4, 5, nil}, {5, 6, nil}, {6, 7, nil}, {7, 8, nil}, {8, 9, nil}, {9, 12, nil}}
	for i, t := range bands {
		for _, b := range bandsOf {
			if t >= b.lo && t < b.hi {
				b.ts = append(b.ts, times[i])
			}
		}
	}
	fmt.Fprintln(w, "SE band     puzzles   median      p99      max")
	for _, b := range bandsOf {
		if len(b.ts) == 0 {
			continue
		}
		sort.Slice(b.ts, func(i, j int) bool { return b.ts[i] < b.ts[j] })
		fmt.Fprintf(w, "%4.1f-%-4.1f  %7d %8s %8s %8s\n", b.lo, b.hi, len(b.ts), ms(durPct(b.ts, 50)), ms(durPct(b.ts, 99)), ms(b.ts[len(b.ts)-1]))
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/1e6) }

// durPct returns the p-th percentile of sorted durations (nearest rank).
func durPct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	if i < 1 {
		i = 1
	}
	if i > len(sorted) {
		i = len(sorted)
	}
	return sorted[i-1]
}

// avgRanks returns 1-based ranks, ties sharing their mean rank.
func avgRanks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}

func spearman(a, b []float64) float64 {
	ra, rb := avgRanks(a), avgRanks(b)
	n := float64(len(a))
	var ma, mb float64
	for i := range ra {
		ma += ra[i]
		mb += rb[i]
	}
	ma /= n
	mb /= n
	var sab, saa, sbb float64
	for i := range ra {
		sab += (ra[i] - ma) * (rb[i] - mb)
		saa += (ra[i] - ma) * (ra[i] - ma)
		sbb += (rb[i] - mb) * (rb[i] - mb)
	}
	if saa == 0 || sbb == 0 {
		return math.NaN()
	}
	return sab / math.Sqrt(saa*sbb)
}

// quantileBands maps values to 5 bands by rank, as score_rating.py does.
func quantileBands(xs []float64) []int {
	r := avgRanks(xs)
	out := make([]int, len(xs))
	n := float64(len(xs))
	for i, v := range r {
		b := int(5 * (v - 0.5) / n)
		if b > 4 {
			b = 4
		}
		out[i] = b
	}
	return out
}
