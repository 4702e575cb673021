// Command synth writes the project's synthetic Sudoku photos (package synth)
// with ground truth in the real photo dataset's formats; testdata/synth/
// README.md describes the files each mode writes.
//
//	synth --out DIR --count N --seed S --sizes 4,6,8,9,12,16 [--res 640x480,1280x720] [--system-fonts] [--fingers 0.3]
//	      [--beside sudoku,crossword,text] [--curl DEGREES]
//	synth video --out DIR --seed S
//	synth dim --out DIR [--level 0.35] [--side 1] [--noise 3] [--blur 0.7] [--shadow 0] [--glare 0] [--skip LIST | --only LIST] FOLDER...
//	synth cut --out DIR [--skip LIST | --only LIST] FOLDER...
//	synth fonts [--system-fonts]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/synth"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "synth:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "video" {
		return runVideo(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "dim" {
		return runDim(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "cut" {
		return runCut(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "fonts" {
		return runFonts(args[1:], stdout, stderr)
	}
	return runPhotos(args, stdout, stderr)
}

// resolution is one photo size.
type resolution struct{ w, h int }

func parseSizes(text string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(text, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("--sizes: %q is not a number", f)
		}
		if _, err := synth.ShapeFor(n); err != nil {
			return nil, fmt.Errorf("--sizes: %w", err)
		}
		out = append(out, n)
	}
	return out, nil
}

func parseResolutions(text string) ([]resolution, error) {
	var out []resolution
	for _, f := range strings.Split(text, ",") {
		var r resolution
		if _, err := fmt.Sscanf(strings.TrimSpace(f), "%dx%d", &r.w, &r.h); err != nil {
			return nil, fmt.Errorf("--res: %q is not WIDTHxHEIGHT", f)
		}
		out = append(out, r)
	}
	return out, nil
}

func runPhotos(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "folder to write the photos into (created if missing)")
	count := fs.Int("count", 12, "number of photos")
	seed := fs.Int64("seed", 1, "seed: the same seed and flags give the same files")
	sizesFlag := fs.String("sizes", "4,6,8,9,12,16", "grid sides, used in turn")
	resFlag := fs.String("res", "640x480", "photo sizes WxH, comma separated; each cycles through all grid sides")
	systemFonts := fs.Bool("system-fonts", false, "also use the Debian fonts under /usr/share/fonts (not reproducible elsewhere)")
	letters := fs.Bool("letters", false, "print 10..16 as A..G instead of two-digit numbers (same as --symbols letters)")
	symbols := fs.String("symbols", "numbers", "how values above 9 print: numbers (10..16), letters (A..G) or 0-F (every value v as the hex digit of v-1)")
	world := fs.Bool("world", false, "render with synth.WorldOptions: print weights, plain 1s, barred 7s, stains, strong glare, screens with moiré, smaller grids, lower JPEG quality (the training photos' look)")
	fingers := fs.Float64("fingers", 0, "chance (0..1) that a thumb covers a grid corner or edge")
	png := fs.Bool("png", false, "also write a lossless imageK.png of each photo (for viewing)")
	besideFlag := fs.String("beside", "nothing", "print beside each puzzle: nothing, sudoku, crossword, text, or a comma-separated list used in turn")
	curl := fs.Float64("curl", 0, "curl each page up to this angle in `degrees` at the grid's edge (0: flat)")
	workers := fs.Int("j", runtime.NumCPU(), "parallel workers (the files do not depend on it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("--out is required")
	}
	if *count < 1 {
		return fmt.Errorf("--count %d: want at least 1", *count)
	}
	sizes, err := parseSizes(*sizesFlag)
	if err != nil {
		return err
	}
	res, err := parseResolutions(*resFlag)
	if err != nil {
		return err
	}
	var besides []synth.Beside
	for _, f := range strings.Split(*besideFlag, ",") {
		b, err := synth.ParseBeside(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("--beside: %w", err)
		}
		besides = append(besides, b)
	}
	sym, err := sudoku.ParseSymbols(*symbols)
	if err != nil {
		return fmt.Errorf("--symbols: %w", err)
	}
	fonts, err := synth.Fonts(*systemFonts)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	jobs := make([]synth.Job, *count)
	for k := range jobs {
		n := sizes[k%len(sizes)]
		r := res[(k/len(sizes))%len(res)]
		opts := synth.DefaultOptions(r.w, r.h, *seed*1_000_003+int64(k+1))
		if *world {
			opts = synth.WorldOptions(r.w, r.h, *seed*1_000_003+int64(k+1))
		}
		opts.Fonts = fonts
		opts.Fingers = *fingers
		opts.Beside = besides[k%len(besides)]
		opts.MaxCurl = *curl
		opts.Symbols = sym
		if *letters {
			opts.Symbols = synth.Letters
		}
		jobs[k] = synth.Job{Name: fmt.Sprintf("image%d", k+1), Size: n, Options: opts, PNG: *png}
	}
	rows := make([]string, len(jobs))
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(1, *workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				rows[k], errs[k] = synth.WriteJob(*out, jobs[k])
			}
		}()
	}
	for k := range jobs {
		next <- k
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	csv := "\"filepath\",\"p1_x\",\"p1_y\",\"p2_x\",\"p2_y\",\"p3_x\",\"p3_y\",\"p4_x\",\"p4_y\"\n" + strings.Join(rows, "")
	if err := os.WriteFile(filepath.Join(*out, "outlines.csv"), []byte(csv), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d photos, their .dat files and outlines.csv to %s\n", len(jobs), *out)
	return nil
}

// runFonts lists the usable fonts as tab-separated name, family, licence
// and file, for attribution (the model card) and for choosing --system-fonts.
func runFonts(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth fonts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	systemFonts := fs.Bool("system-fonts", false, "also list the Debian fonts under /usr/share/fonts")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fonts, err := synth.Fonts(*systemFonts)
	if err != nil {
		return err
	}
	for _, f := range fonts {
		path := f.Path
		if path == "" {
			path = "(embedded)"
		}
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", f.Name, f.Family, f.Licence, path)
	}
	return nil
}
