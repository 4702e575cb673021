package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"gocv.io/x/gocv"
	"golang.org/x/term"

	"github.com/sudokuar/sudokuar/internal/wire"
	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// scanConfig is what the scan flags ask for.
type scanConfig struct {
	paths     []string
	recursive bool
	jobs      int
	out       string
	json      bool
	via       bool // --via: add the steps of vision.Analyze that read each grid to --json
	truth     bool
	backend   string
	pen       string  // --pen: a pen model file, "none", or "" for the embedded one
	maxMP     float64 // largest image to decode, in megapixels
	grid      int     // which grid to read when a photo holds several (1: the most Sudoku-like)
	progress  bool    // draw a progress bar (set when stderr is a terminal)
}

// scanFlags declares the scan flags on fs and returns the command.
func scanFlags(fs *flag.FlagSet) func(*env, []string) int {
	var c scanConfig
	fs.BoolVar(&c.recursive, "r", false, "look in sub-folders too")
	fs.IntVar(&c.jobs, "j", runtime.NumCPU(), "photos processed at once (workers)")
	fs.StringVar(&c.out, "out", "", "write each annotated image into this `folder` (created if missing; inputs are never overwritten)")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per image, one per line")
	fs.BoolVar(&c.via, "via", false, "with --json, add the steps of the grid search that read each grid (\"via\", for debugging)")
	fs.BoolVar(&c.truth, "truth", false, "score against the .dat ground truth next to each image (digit accuracy, exact grids, solved grids, misses), and the .pen truth of handwritten entries where there is one (entries read, false alarms)")
	fs.StringVar(&c.backend, "ocr-backend", pipeline.BackendGo, "digit network runtime: onnx-go or opencv")
	fs.StringVar(&c.pen, "pen", "", penUsage())
	fs.IntVar(&c.grid, "grid", 1, "when a photo holds several grids, read the `N`th most Sudoku-like (the output lists them)")
	fs.Float64Var(&c.maxMP, "max-megapixels", pipeline.DefaultMaxPixels/1e6, "refuse images with more `MP` than this (read from the header, before decoding)")
	return func(e *env, paths []string) int {
		if len(paths) == 0 {
			fmt.Fprintln(e.stderr, "sudokuar scan: name at least one image or folder")
			return exitUsage
		}
		if c.jobs < 1 {
			fmt.Fprintf(e.stderr, "sudokuar scan: -j %d: need at least 1 worker\n", c.jobs)
			return exitUsage
		}
		if c.grid < 1 {
			fmt.Fprintf(e.stderr, "sudokuar scan: --grid %d: grids are counted from 1\n", c.grid)
			return exitUsage
		}
		if c.maxMP <= 0 || c.maxMP > 1000 {
			fmt.Fprintf(e.stderr, "sudokuar scan: --max-megapixels %g: want more than 0 and at most 1000\n", c.maxMP)
			return exitUsage
		}
		if _, _, err := penModel(c.pen); err != nil {
			fmt.Fprintln(e.stderr, "sudokuar scan:", err)
			return exitUsage
		}
		c.paths = paths
		se, ok := e.stderr.(*os.File)
		c.progress = ok && term.IsTerminal(int(se.Fd()))
		failed, err := scan(c, e.stdout, e.stderr)
		if err != nil {
			fmt.Fprintln(e.stderr, "sudokuar scan:", err)
			return exitUsage
		}
		if failed > 0 {
			return exitFail
		}
		return exitOK
	}
}

// penUsage is the --pen flag's help, the same for scan and live.
func penUsage() string {
	def := "none"
	if pipeline.PenByDefault {
		def = "embedded"
	}
	return "the pen model that tells printed digits from handwriting (entries, notes): an ONNX `file`, embedded (models/pen.onnx, asking models/pen2.onnx where it is unsure), or none to read every digit as printed (default: " + def + ")"
}

// penModel reads the --pen flag: the model's bytes (nil: the embedded
// one), or none.
func penModel(flag string) (pen []byte, none bool, err error) {
	switch flag {
	case "":
		return nil, false, nil
	case "none":
		return nil, true, nil
	case "embedded":
		return nil, false, nil // nil: the embedded pair (ocr.DefaultPen)
	}
	data, err := os.ReadFile(flag)
	if err != nil {
		return nil, false, fmt.Errorf("--pen: %w", err)
	}
	return data, false, nil
}

// scanItem is one image's outcome, kept in input order.
type scanItem struct {
	res      pipeline.Result
	loadErr  bool
	writeErr error
	outFile  string
	rating   *logic.Rating // the solved puzzle's rating (nil when not solved or not rated)
}

// scanJSON is one line of scan --json: the pipeline's result in its wire
// form plus, for a solved puzzle, its rating on the Sudoku Explainer
// scale and its level.
type scanJSON struct {
	wire.Result
	Rating  *float64 `json:"rating,omitempty"`
	Level   string   `json:"level,omitempty"`
	Hardest string   `json:"hardest,omitempty"`
	Via     []string `json:"via,omitempty"` // with --via
}

// rateTimeout bounds the rating of one scanned puzzle.
const rateTimeout = 20 * time.Second

// rateScanned rates a solved puzzle; nil if it cannot be rated in time.
func rateScanned(r pipeline.Result) *logic.Rating {
	if !r.IsSolved() {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), rateTimeout)
	defer cancel()
	rt, err := logic.RateContext(ctx, r.Puzzle)
	if err != nil {
		return nil
	}
	rt.Steps = nil
	return &rt
}

// scan runs the whole command; it returns how many files failed to load.
// Errors are those that stop the scan before it starts.
func scan(c scanConfig, stdout, stderr io.Writer) (int, error) {
	files, err := pipeline.ImageFiles(c.paths, c.recursive)
	if err != nil {
		return 0, err
	}
	var outNames []string
	if c.out != "" {
		if err := checkOutDir(c.out); err != nil {
			return 0, err
		}
		outNames = outputNames(files, c.out)
	}
	var truths, pens []sudoku.Grid
	var truthErr []error
	if c.truth {
		truths, pens, truthErr = readTruths(files)
	}
	workers := min(c.jobs, len(files))
	pipes := make([]*pipeline.Pipeline, workers)
	pen, none, err := penModel(c.pen)
	if err != nil {
		return 0, err
	}
	for w := range pipes {
		p, err := pipeline.New(pipeline.Options{Backend: c.backend, Pen: pen, NoPen: none})
		if err != nil {
			for _, q := range pipes[:w] {
				q.Close()
			}
			return 0, err
		}
		pipes[w] = p
	}

	items := make([]scanItem, len(files))
	done := make(chan int, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for _, p := range pipes {
		wg.Add(1)
		go func(p *pipeline.Pipeline) {
			defer wg.Done()
			defer p.Close()
			for i := range next {
				out := ""
				if outNames != nil {
					out = outNames[i]
				}
				items[i] = scanOne(p, files[i], out, int64(c.maxMP*1e6), vision.Pick{Rank: c.grid - 1})
				items[i].rating = rateScanned(items[i].res)
				done <- i
			}
		}(p)
	}
	go func() {
		for i := range files {
			next <- i
		}
		close(next)
	}()
	go func() {
		wg.Wait()
		close(done)
	}()

	// Print in input order as results come in, whatever order workers
	// finish in, so output is the same for any -j.
	start := time.Now()
	bar := newProgressBar(stderr, c.progress, len(files))
	ready := make([]bool, len(files))
	printed, failed, solved := 0, 0, 0
	var tally pipeline.Tally
	enc := json.NewEncoder(stdout)
	for i := range done {
		ready[i] = true
		bar.Describe(filepath.Base(files[i]))
		for printed < len(files) && ready[printed] {
			it := items[printed]
			bar.Clear()
			if it.loadErr {
				failed++
				fmt.Fprintf(stderr, "%s: %s\n", files[printed], it.res.Error)
			}
			if it.writeErr != nil {
				fmt.Fprintf(stderr, "%s: %v\n", files[printed], it.writeErr)
			}
			if it.res.IsSolved() {
				solved++
			}
			if c.json {
				js := scanJSON{Result: wire.FromResult(it.res)}
				if c.via {
					js.Via = it.res.Grid.Via
				}
				if it.rating != nil {
					se := it.rating.SE
					js.Rating, js.Level, js.Hardest = &se, it.rating.Level.String(), it.rating.Hardest
				}
				if err := enc.Encode(js); err != nil {
					return failed, fmt.Errorf("write JSON: %w", err)
				}
			} else if !it.loadErr {
				fmt.Fprintln(stdout, describe(it))
			}
			if c.truth && !it.loadErr {
				if truthErr[printed] != nil {
					fmt.Fprintf(stderr, "%v (not scored)\n", truthErr[printed])
				} else {
					tally.Add(files[printed], it.res, truths[printed])
					if pens[printed].Cells != nil {
						tally.AddPen(it.res, truths[printed], pens[printed])
					}
				}
			}
			printed++
			bar.Add(1)
		}
	}
	bar.Finish()
	bar.Clear()
	// Keep stdout to one JSON object per line when --json asks for it.
	w := stdout
	if c.json {
		w = stderr
	}
	fmt.Fprintf(w, "%d images in %.1f s: %d solved, %d not solved, %d could not be loaded\n",
		len(files), time.Since(start).Seconds(), solved, len(files)-solved-failed, failed)
	if c.truth {
		tally.Report(w)
	}
	return failed, nil
}

// readTruths reads the truth of each file: its printed givens (.dat) and,
// where there is one, its handwritten entries (.pen; Cells nil when none).
func readTruths(files []string) (truths, pens []sudoku.Grid, errs []error) {
	truths, pens, errs = make([]sudoku.Grid, len(files)), make([]sudoku.Grid, len(files)), make([]error, len(files))
	for i, f := range files {
		truths[i], errs[i] = pipeline.ReadTruth(f)
		if errs[i] == nil {
			pens[i], _, errs[i] = pipeline.ReadPenTruth(f)
		}
	}
	return truths, pens, errs
}

// scanOne loads, recognises and (with out set) annotates one image of at
// most maxPixels pixels, reading the grid pick chooses.
func scanOne(p *pipeline.Pipeline, file, out string, maxPixels int64, pick vision.Pick) scanItem {
	img, err := pipeline.ReadImage(file, maxPixels)
	defer img.Close()
	if err != nil {
		msg := err.Error()
		var big *pipeline.TooLargeError
		if errors.As(err, &big) {
			mp := int64(big.Width) * int64(big.Height)
			msg += fmt.Sprintf("; --max-megapixels %d reads it", (mp+999_999)/1_000_000)
		}
		return scanItem{loadErr: true, res: pipeline.Result{File: file, Status: pipeline.StatusLoadError, Error: msg}}
	}
	r := p.ProcessPick(img, pick)
	r.File = file
	it := scanItem{res: r}
	if out != "" {
		it.writeErr = writeAnnotated(img, r, out)
		if it.writeErr == nil {
			it.outFile = out
		}
	}
	return it
}

// writeAnnotated draws r on (a copy of) img and writes it to path.
func writeAnnotated(img gocv.Mat, r pipeline.Result, path string) error {
	canvas := img.Clone()
	defer canvas.Close()
	if err := pipeline.Draw(&canvas, r.Grid, r.Found, r.Picture(true)); err != nil {
		return fmt.Errorf("annotate: %w", err)
	}
	if !gocv.IMWrite(path, canvas) {
		return fmt.Errorf("write %s: OpenCV could not write it", path)
	}
	return nil
}

// describe is the one-line human summary of an image.
func describe(it scanItem) string {
	r := it.res
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", r.File, r.Status)
	if r.Found && r.Grid.Shape.BoxRows > 0 {
		n := r.Grid.Shape.N()
		if given := r.Given(); given != "" {
			fmt.Fprintf(&b, " (%dx%d, %d givens)", n, n, len(given)-strings.Count(given, "0"))
		} else {
			fmt.Fprintf(&b, " (%dx%d)", n, n)
		}
	}
	if len(r.Conflicts) > 0 {
		fmt.Fprintf(&b, ", conflicting cells %s", cellNames(r.Conflicts, r.Grid.Shape.N()))
	}
	if len(r.Check) > 0 {
		// Say which cells and why, so the user knows what to look at.
		fmt.Fprintf(&b, ", %s", pipeline.CheckMessage(r.CheckCells(), r.Grid.Shape.N()))
		for _, c := range r.Check {
			fmt.Fprintf(&b, " [%s: %s]", c.Name, c.Reason)
		}
	}
	if it.rating != nil {
		fmt.Fprintf(&b, ", rated %.1f (%s)", it.rating.SE, it.rating.Level)
	}
	fmt.Fprintf(&b, " in %.0f ms", r.Ms)
	if it.outFile != "" {
		fmt.Fprintf(&b, " -> %s", it.outFile)
	}
	if r.Status == pipeline.StatusUnread && r.Error != "" {
		fmt.Fprintf(&b, " (%s)", r.Error)
	}
	if r.Progress != "" {
		b.WriteString("\n  " + describeEntries(r))
	}
	if len(r.Grids) > 1 {
		read := 0
		for i, g := range r.Grids {
			if g.Read {
				read = i + 1
			}
		}
		others := "--grid 2 reads the other"
		if len(r.Grids) > 2 {
			others = fmt.Sprintf("--grid 2..%d reads another", len(r.Grids))
		}
		if read == 1 {
			fmt.Fprintf(&b, "\n  note: %d grids in this photo; read grid 1, the most Sudoku-like (%s)", len(r.Grids), others)
		} else {
			fmt.Fprintf(&b, "\n  note: %d grids in this photo; read grid %d (--grid 1 reads the most Sudoku-like)", len(r.Grids), read)
		}
	}
	return b.String()
}

// describeEntries says in words what the player wrote on the page: the
// counts, then the wrong and clashing entries, the cells to check and the
// notes, by cell name.
func describeEntries(r pipeline.Result) string {
	n := r.Grid.Shape.N()
	var b strings.Builder
	if r.PageSolved() {
		b.WriteString("entries: solved, every cell filled in and right")
	} else {
		b.WriteString("entries: " + r.Progress)
	}
	if len(r.Mistakes) > 0 {
		fmt.Fprintf(&b, "; wrong %s", cellNames(r.Mistakes, n))
	}
	if len(r.Clashes) > 0 {
		fmt.Fprintf(&b, "; clashing %s", cellNames(r.Clashes, n))
	}
	// The reasons when a few cells are to check; past that, the names.
	if len(r.EntryCheck) > 0 && len(r.EntryCheck) <= 4 {
		for _, c := range r.EntryCheck {
			fmt.Fprintf(&b, "; check %s (%s)", c.Name, c.Reason)
		}
	} else if len(r.EntryCheck) > 0 {
		cells := make([]int, len(r.EntryCheck))
		for i, c := range r.EntryCheck {
			cells[i] = c.Cell
		}
		fmt.Fprintf(&b, "; %s (not read surely enough to judge)", pipeline.CheckMessage(cells, n))
	}
	if len(r.Notes) > 0 {
		fmt.Fprintf(&b, "; notes in %s", cellNames(r.Notes, n))
	}
	if r.Entries != "" && !r.IsSolved() && len(r.Mistakes) == 0 && strings.Trim(r.Entries, "0") != "" {
		b.WriteString("; entries not checked: the givens are not solved surely")
	}
	return b.String()
}

// cellNames writes cells as r1c2 names.
func cellNames(cells []int, n int) string {
	if n == 0 {
		return ""
	}
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = sudoku.CellName(c, n)
	}
	return strings.Join(parts, " ")
}

// checkOutDir makes sure dir exists (creating it) and takes files, so an
// unwritable --out fails before any work is done.
func checkOutDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".sudokuar-write-test-*")
	if err != nil {
		return fmt.Errorf("--out %s: cannot write there: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// outputNames picks, for each input, the annotated image's name in dir:
// the input's name with ".solved" before its extension (PNG for formats
// OpenCV may not write back). Names never equal an input file and never
// collide with each other.
func outputNames(files []string, dir string) []string {
	inputs := map[string]bool{}
	for _, f := range files {
		if a, err := filepath.Abs(f); err == nil {
			inputs[a] = true
		}
	}
	used := map[string]bool{}
	names := make([]string, len(files))
	for i, f := range files {
		ext := strings.ToLower(filepath.Ext(f))
		switch ext {
		case ".jpg", ".jpeg", ".png":
		default:
			ext = ".png"
		}
		stem := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)) + ".solved"
		name := filepath.Join(dir, stem+ext)
		for k := 2; ; k++ {
			a, _ := filepath.Abs(name)
			if !used[a] && !inputs[a] {
				used[a] = true
				break
			}
			name = filepath.Join(dir, fmt.Sprintf("%s-%d%s", stem, k, ext))
		}
		names[i] = name
	}
	return names
}

// newProgressBar returns the bar scan draws on w (stderr) while it works:
// images done of total, rate, time left and the image last finished. It
// draws nothing unless on (w is a terminal), so pipes and files stay clean.
func newProgressBar(w io.Writer, on bool, total int) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(on),
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("photos"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetTheme(progressbar.Theme{Saucer: "#", SaucerPadding: ".", BarStart: "[", BarEnd: "]"}),
	)
}
