package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/solvers"
	"github.com/sudokuar/sudokuar/sudoku"
)

// parseLimits reads --limits, NAME=DURATION,...: a set's limit is set in
// sets, a solver's is returned.
func parseLimits(limits string, names []string, sets []benchSet) (map[string]time.Duration, error) {
	solverLimit := map[string]time.Duration{}
	for _, kv := range strings.Split(limits, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		name, val, _ := strings.Cut(kv, "=")
		name = strings.TrimSpace(name)
		d, err := time.ParseDuration(strings.TrimSpace(val))
		found := false
		if slices.Contains(names, name) {
			solverLimit[name], found = d, true
		}
		for i := range sets {
			if sets[i].name == name {
				sets[i].limit, found = d, true
			}
		}
		if err != nil || d <= 0 || !found {
			return nil, fmt.Errorf("%q: want NAME=DURATION for a set named on the command line or a solver compared", kv)
		}
	}
	return solverLimit, nil
}

func benchFlags(fs *flag.FlagSet) func(*env, []string) int {
	which := fs.String("solver", "all", "solvers to compare: all, or `NAMES` separated by commas ("+strings.Join(solvers.Names(), ", ")+")")
	timeout := fs.Duration("timeout", 10*time.Second, "time limit per puzzle; a solver that reaches it has failed that puzzle")
	limits := fs.String("limits", "", "other time limits, `NAME=DURATION,...`: NAME a set (a file's base name without .txt, e.g. zoo-16=2s) or a solver (cga=2s: at most that on every set)")
	jsonOut := fs.String("json", "", "also save every puzzle's time and outcome to `FILE` (rewritten after each solver, so a long run keeps what it did)")
	redraw := fs.String("redraw", "", "print the table and draw the chart of a run saved with --json `FILE` instead of solving")
	svg := fs.String("svg", "bench.svg", "write the chart of solve times to this `FILE` (empty: none)")
	seed := fs.Uint64("seed", 1, "seed of the stochastic solvers (each puzzle's search starts from it)")
	jobs := fs.Int("j", 1, "puzzles solved at once (more than 1 saves time but disturbs the times)")
	annealSet := fs.String("anneal", "", "anneal's parameters, `NAME=VALUE,...` (fields of solvers.AnnealParams, e.g. Focus=6,ChainFactor=0.02)")
	cgaSet := fs.String("cga", "", "cga's parameters, `NAME=VALUE,...` (fields of solvers.CGAParams, e.g. Population=200)")
	clock := fs.String("clock", "cpu", "what a puzzle's time is: cpu (CPU time of the solving thread, which other load on the machine barely changes) or wall")
	var peers []peer
	fs.Func("peer", "compare with another program, `NAME=CMD`: CMD reads puzzles on stdin (repeat the flag for several; --solver then defaults to dlx,bits; see docs/solvers.md)", func(spec string) error {
		p, err := parsePeer(spec)
		if err == nil {
			peers = append(peers, p)
		}
		return err
	})
	peerRuns := fs.Int("peer-runs", 3, "with --peer, whole-process runs of each program, taken in turn (the median is reported)")
	return func(e *env, args []string) int {
		if *redraw != "" {
			runs, err := loadRuns(*redraw)
			if err != nil {
				fmt.Fprintf(e.stderr, "sudokuar bench: --redraw: %v\n", err)
				return exitFail
			}
			printTable(e.stdout, runs)
			return writeChart(e, *svg, runs)
		}
		if len(args) == 0 {
			fmt.Fprintln(e.stderr, "sudokuar bench: name one or more puzzle files (one puzzle per line)")
			return exitUsage
		}
		if len(peers) > 0 && *which == "all" {
			*which = "dlx,bits"
		}
		names, err := pickSolvers(*which)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar bench: --solver: %v\n", err)
			return exitUsage
		}
		if *clock != "cpu" && *clock != "wall" {
			fmt.Fprintln(e.stderr, "sudokuar bench: --clock: want cpu or wall")
			return exitUsage
		}
		useCPU := *clock == "cpu" && cputime.Available
		opts := solvers.Options{Seed: *seed}
		if err := setParams(&opts.Anneal, *annealSet); err != nil {
			fmt.Fprintf(e.stderr, "sudokuar bench: --anneal: %v\n", err)
			return exitUsage
		}
		if err := setParams(&opts.CGA, *cgaSet); err != nil {
			fmt.Fprintf(e.stderr, "sudokuar bench: --cga: %v\n", err)
			return exitUsage
		}
		if *timeout <= 0 || *jobs < 1 {
			fmt.Fprintln(e.stderr, "sudokuar bench: --timeout and -j must be positive")
			return exitUsage
		}
		var sets []benchSet
		for _, path := range args {
			set, err := readBenchSet(path)
			if err != nil {
				fmt.Fprintf(e.stderr, "sudokuar bench: %v\n", err)
				return exitFail
			}
			set.limit = *timeout
			sets = append(sets, set)
		}
		if len(peers) > 0 {
			if *peerRuns < 1 {
				fmt.Fprintln(e.stderr, "sudokuar bench: --peer-runs must be positive")
				return exitUsage
			}
			return comparePeers(e, sets, names, peers, *peerRuns, selfSolve)
		}
		solverLimit, err := parseLimits(*limits, names, sets)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar bench: --limits: %v\n", err)
			return exitUsage
		}
		w := newTableWriter(e.stdout, sets)
		w.header()
		var runs []benchRun
		wrong := 0
		for _, set := range sets {
			for _, name := range names {
				limit := set.limit
				if l, ok := solverLimit[name]; ok {
					limit = min(limit, l)
				}
				r := runBench(set, name, limit, opts, *jobs, useCPU)
				runs = append(runs, r)
				wrong += r.fails[failWrong]
				w.row(r)
				if *jsonOut != "" {
					if err := saveRuns(*jsonOut, runs); err != nil {
						fmt.Fprintf(e.stderr, "sudokuar bench: --json: %v\n", err)
						return exitFail
					}
				}
			}
		}
		what := "wall-clock time"
		if useCPU {
			what = "CPU time of the solving thread"
		}
		var lims []string
		for _, set := range sets {
			lims = append(lims, fmt.Sprintf("%s %v", set.name, set.limit))
		}
		for name, l := range solverLimit {
			lims = append(lims, fmt.Sprintf("%s at most %v", name, l))
		}
		fmt.Fprintf(e.stdout, "\ntimes are the %s per puzzle, over all puzzles, a failure counting as the time spent on it (limits: %s)\n", what, strings.Join(lims, ", "))
		if code := writeChart(e, *svg, runs); code != exitOK {
			return code
		}
		if wrong > 0 {
			fmt.Fprintf(e.stderr, "sudokuar bench: %d grids broke a rule: a solver is wrong\n", wrong)
			return exitFail
		}
		return exitOK
	}
}

// pickSolvers resolves --solver.
func pickSolvers(which string) ([]string, error) {
	if which == "all" {
		return solvers.Names(), nil
	}
	var out []string
	for _, name := range strings.Split(which, ",") {
		name = strings.TrimSpace(name)
		if _, err := solvers.New(name, solvers.Options{}); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, nil
}

// benchSet is a file of puzzles.
type benchSet struct {
	name    string // the file's base name without .txt
	puzzles []sudoku.Grid
	limit   time.Duration // per puzzle
}

// readBenchSet reads one-line puzzles; a bad line is an error naming it.
func readBenchSet(path string) (benchSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return benchSet{}, err
	}
	defer f.Close()
	set := benchSet{name: strings.TrimSuffix(filepath.Base(path), ".txt")}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		g, err := sudoku.ParseLine(text, nil)
		if err != nil {
			return benchSet{}, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		set.puzzles = append(set.puzzles, g)
	}
	if err := sc.Err(); err != nil {
		return benchSet{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(set.puzzles) == 0 {
		return benchSet{}, fmt.Errorf("%s: no puzzles", path)
	}
	return set, nil
}

// Why a puzzle failed.
const (
	failTimeout = "out of time"
	failStuck   = "stuck"
	failNone    = "no solution"
	failShape   = "shape not supported"
	failOther   = "error"
	failWrong   = "WRONG GRID"
)

// benchRun is one solver over one set.
type benchRun struct {
	set, solver string
	limit       time.Duration
	times       []time.Duration // per puzzle, in file order
	ok          []bool
	fails       map[string]int
}

func (r benchRun) solved() int {
	n := 0
	for _, ok := range r.ok {
		if ok {
			n++
		}
	}
	return n
}

// quantile returns the q-quantile (nearest rank) of all the times.
func (r benchRun) quantile(q float64) time.Duration {
	return quantile(r.times, q)
}

func quantile(ts []time.Duration, q float64) time.Duration {
	if len(ts) == 0 {
		return 0
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	k := int(q*float64(len(s))+0.5) - 1
	return s[min(len(s)-1, max(0, k))]
}

func (r benchRun) whyFailed() string {
	var parts []string
	for _, k := range []string{failTimeout, failStuck, failNone, failShape, failOther, failWrong} {
		if n := r.fails[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	return strings.Join(parts, ", ")
}

// runBench solves every puzzle of set with the named solver, jobs at a
// time, each under its own time limit: of CPU time of the solving thread
// with useCPU (a watcher cancels the solve when it is spent; the wall
// clock stops a solve at 20 times the limit whatever happens), else of
// wall-clock time.
func runBench(set benchSet, name string, timeout time.Duration, opts solvers.Options, jobs int, useCPU bool) benchRun {
	r := benchRun{set: set.name, solver: name, limit: timeout, times: make([]time.Duration, len(set.puzzles)), ok: make([]bool, len(set.puzzles)), fails: map[string]int{}}
	why := make([]string, len(set.puzzles))
	var wg sync.WaitGroup
	next := make(chan int)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One solver per worker, reused as an application would (dlx
			// builds its matrix once); a stochastic solver starts every
			// puzzle from the seed, so results do not depend on -j.
			sv, _ := solvers.New(name, opts)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			now := func() time.Duration { return time.Duration(time.Now().UnixNano()) }
			if useCPU {
				now = cputime.ThreadClock()
			}
			for i := range next {
				g := set.puzzles[i]
				var ctx context.Context
				var cancel context.CancelFunc
				done := make(chan struct{})
				start := now()
				if useCPU {
					ctx, cancel = context.WithTimeout(context.Background(), 20*timeout)
					go func() {
						tick := time.NewTicker(2 * time.Millisecond)
						defer tick.Stop()
						for {
							select {
							case <-done:
								return
							case <-tick.C:
								if now()-start >= timeout {
									cancel()
									return
								}
							}
						}
					}()
				} else {
					ctx, cancel = context.WithTimeout(context.Background(), timeout)
				}
				res, err := sv.Solve(ctx, g)
				r.times[i] = now() - start
				close(done)
				cancel()
				why[i] = classify(g, res, err)
				r.ok[i] = why[i] == ""
			}
		}()
	}
	for i := range set.puzzles {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, w := range why {
		if w != "" {
			r.fails[w]++
		}
	}
	return r
}

// classify returns why a solve failed, or "" when it returned a grid that
// keeps every rule and given.
func classify(g sudoku.Grid, res solvers.Result, err error) string {
	var te *solvers.TimeoutError
	switch {
	case err == nil:
		if solvers.Check(g, res.Solution) != nil {
			return failWrong
		}
		return ""
	case errors.As(err, &te), errors.Is(err, context.DeadlineExceeded):
		return failTimeout
	case errors.Is(err, solvers.ErrStuck):
		return failStuck
	case errors.Is(err, sudoku.ErrNoSolution):
		return failNone
	case errors.Is(err, solvers.ErrShape):
		return failShape
	}
	return failOther
}

// fmtDur prints a duration with three significant digits in the unit that
// suits it.
func fmtDur(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return trim3(float64(d)/float64(time.Microsecond)) + "µs"
	case d < time.Second:
		return trim3(float64(d)/float64(time.Millisecond)) + "ms"
	}
	return trim3(d.Seconds()) + "s"
}

// trim3 formats x (>= 1) with three significant digits.
func trim3(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// setParams sets the fields of the struct *p named in spec
// ("Name=value,..."): numbers, and booleans as true/false or 1/0.
func setParams(p any, spec string) error {
	v := reflect.ValueOf(p).Elem()
	for _, kv := range strings.Split(spec, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		name, val, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%q: want NAME=VALUE", kv)
		}
		f := v.FieldByName(strings.TrimSpace(name))
		if !f.IsValid() || !f.CanSet() {
			var names []string
			for i := range v.NumField() {
				names = append(names, v.Type().Field(i).Name)
			}
			return fmt.Errorf("no parameter %q (have %s)", name, strings.Join(names, ", "))
		}
		val = strings.TrimSpace(val)
		var err error
		switch f.Kind() {
		case reflect.Bool:
			var b bool
			b, err = strconv.ParseBool(val)
			f.SetBool(b)
		case reflect.Int:
			var n int64
			n, err = strconv.ParseInt(val, 10, 64)
			f.SetInt(n)
		case reflect.Float64:
			var x float64
			x, err = strconv.ParseFloat(val, 64)
			f.SetFloat(x)
		default:
			err = fmt.Errorf("cannot set a %v", f.Kind())
		}
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	return nil
}

// tableWriter prints the bench table one row at a time, so that a long
// run shows its progress; the set column is as wide as the longest name.
type tableWriter struct {
	out  io.Writer
	setW int
}

func newTableWriter(out io.Writer, sets []benchSet) tableWriter {
	w := tableWriter{out: out, setW: len("set")}
	for _, s := range sets {
		w.setW = max(w.setW, len(s.name))
	}
	return w
}

func (w tableWriter) line(cols ...string) {
	fmt.Fprintf(w.out, "%-*s  %-9s  %9s  %6s  %8s  %8s  %8s  %s\n", w.setW, cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7])
}

func (w tableWriter) header() {
	w.line("set", "solver", "solved", "failed", "median", "p90", "max", "why failed")
}

func (w tableWriter) row(r benchRun) {
	w.line(r.set, r.solver, fmt.Sprintf("%d/%d", r.solved(), len(r.times)), fmt.Sprint(len(r.times)-r.solved()),
		fmtDur(r.quantile(0.5)), fmtDur(r.quantile(0.9)), fmtDur(r.quantile(1)), r.whyFailed())
}

// printTable prints a saved run's table.
func printTable(out io.Writer, runs []benchRun) {
	w := tableWriter{out: out, setW: len("set")}
	for _, r := range runs {
		w.setW = max(w.setW, len(r.set))
	}
	w.header()
	for _, r := range runs {
		w.row(r)
	}
}

// writeChart writes the SVG chart of runs to path (nothing for "").
func writeChart(e *env, path string, runs []benchRun) int {
	if path == "" {
		return exitOK
	}
	if err := os.WriteFile(path, []byte(benchSVG(runs)), 0o644); err != nil {
		fmt.Fprintf(e.stderr, "sudokuar bench: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(e.stdout, "chart: %s\n", path)
	return exitOK
}

// savedRun is benchRun as --json writes it.
type savedRun struct {
	Set     string         `json:"set"`
	Solver  string         `json:"solver"`
	LimitNs int64          `json:"limit_ns"`
	TimesNs []int64        `json:"times_ns"`
	Solved  []bool         `json:"solved"`
	Fails   map[string]int `json:"fails"`
}

func saveRuns(path string, runs []benchRun) error {
	out := make([]savedRun, len(runs))
	for i, r := range runs {
		s := savedRun{Set: r.set, Solver: r.solver, LimitNs: int64(r.limit), Solved: r.ok, Fails: r.fails}
		for _, t := range r.times {
			s.TimesNs = append(s.TimesNs, int64(t))
		}
		out[i] = s
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func loadRuns(path string) ([]benchRun, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var saved []savedRun
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var runs []benchRun
	for i, s := range saved {
		if len(s.TimesNs) == 0 || len(s.TimesNs) != len(s.Solved) || s.LimitNs <= 0 {
			return nil, fmt.Errorf("%s: run %d (%s on %s) is incomplete", path, i+1, s.Solver, s.Set)
		}
		r := benchRun{set: s.Set, solver: s.Solver, limit: time.Duration(s.LimitNs), ok: s.Solved, fails: s.Fails}
		for _, t := range s.TimesNs {
			r.times = append(r.times, time.Duration(t))
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no runs", path)
	}
	return runs, nil
}
