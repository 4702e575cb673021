package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/solvers"
	"github.com/sudokuar/sudokuar/sudoku"
)

func solveFlags(fs *flag.FlagSet) func(*env, []string) int {
	count := fs.Bool("count", false, "print the number of solutions of each puzzle instead of a solution")
	limit := fs.Int("limit", 1000, "with --count, stop counting at this many solutions (0: no cap; an empty grid has billions)")
	box := fs.String("box", "", "box shape `RxC` for one-line puzzles whose length allows several (e.g. 3x2 for 6x6 with 3-row boxes)")
	format := fs.String("format", "auto", "input format: line (one puzzle per line), grid (\"m n\" grid file), dat (photo dataset), or auto (.dat by name, grid by its header, else line)")
	solverName := fs.String("solver", "dlx", "solver `NAME`: "+strings.Join(solvers.Names(), ", ")+" (see sudokuar bench)")
	timeout := fs.Duration("timeout", time.Minute, "give up on a puzzle after this long (0: never; the stochastic solvers anneal and cga may run forever on a puzzle with no solution)")
	seed := fs.Uint64("seed", 1, "seed of the stochastic solvers")
	return func(e *env, args []string) int {
		sv, err := solvers.New(*solverName, solvers.Options{Seed: *seed})
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar solve: --solver: %v\n", err)
			return exitUsage
		}
		counter, canCount := sv.(solvers.Counter)
		if *count && !canCount {
			fmt.Fprintf(e.stderr, "sudokuar solve: --count: solver %s cannot count solutions (%s can)\n", *solverName, strings.Join(counters(), ", "))
			return exitUsage
		}
		var shape *sudoku.Shape
		if *box != "" {
			s, err := sudoku.ParseShape(*box)
			if err != nil {
				fmt.Fprintf(e.stderr, "sudokuar solve: --box: %v\n", err)
				return exitUsage
			}
			shape = &s
		}
		if len(args) > 1 {
			fmt.Fprintln(e.stderr, "sudokuar solve: at most one input file")
			return exitUsage
		}
		name, in, err := openInput(e, args)
		if err != nil {
			fmt.Fprintf(e.stderr, "sudokuar solve: %v\n", err)
			return exitFail
		}
		defer in.Close()
		br := bufio.NewReaderSize(in, readBuf)
		// The format is told from the input's start; Peek does not consume it.
		head, err := br.Peek(readBuf)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			fmt.Fprintf(e.stderr, "sudokuar solve: read %s: %v\n", name, err)
			return exitFail
		}
		s := &solveCmd{e: e, name: name, count: *count, limit: *limit, shape: shape, solver: sv, counter: counter, timeout: *timeout}
		out := bufio.NewWriter(e.stdout)
		s.out = out
		switch f := detectFormat(*format, name, head); f {
		case "line":
			s.lines(br)
		case "grid", "dat":
			data, err := readWhole(br, name)
			if err != nil {
				fmt.Fprintf(e.stderr, "sudokuar solve: %v\n", err)
				return exitFail
			}
			if f == "grid" {
				g, fixed, err := sudoku.ReadGrid(bytes.NewReader(data))
				s.one(sudoku.Puzzle(g, fixed), err)
			} else {
				g, err := sudoku.ReadDat(bytes.NewReader(data))
				s.one(g, err)
			}
		default:
			fmt.Fprintf(e.stderr, "sudokuar solve: --format %q: want line, grid, dat or auto\n", f)
			return exitUsage
		}
		if err := out.Flush(); err != nil {
			fmt.Fprintf(e.stderr, "sudokuar solve: write: %v\n", err)
			return exitFail
		}
		if s.failed > 0 {
			fmt.Fprintf(e.stderr, "sudokuar solve: %d of %d puzzles failed\n", s.failed, s.total)
			return exitFail
		}
		return exitOK
	}
}

// Input limits. A puzzle line is at most 625 characters (25×25) plus a
// comment; a line beyond maxLine is reported and skipped without being
// kept in memory. Grid and .dat files are read whole, up to maxWhole.
const (
	readBuf  = 64 << 10
	maxLine  = 64 << 10
	maxWhole = 16 << 20
)

// openInput opens the named file, or stdin for none or "-", and returns
// its name for messages.
func openInput(e *env, args []string) (string, io.ReadCloser, error) {
	if len(args) == 0 || args[0] == "-" {
		return "stdin", io.NopCloser(e.stdin), nil
	}
	f, err := os.Open(args[0])
	if err != nil {
		return "", nil, err // *PathError names the file
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return "", nil, fmt.Errorf("%s is a folder, not a file of puzzles", args[0])
	}
	return args[0], f, nil
}

// readWhole reads a whole-file format (grid, .dat), refusing more than
// maxWhole bytes.
func readWhole(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxWhole+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > maxWhole {
		return nil, fmt.Errorf("%s: too large for a grid file (more than %d MB)", name, maxWhole>>20)
	}
	return data, nil
}

// readLine reads the next line of r, without its line ending, into buf.
// chars is the line's length in characters (UTF-8 sequences); a line
// longer than max characters is read to its end but not kept (text is
// then incomplete). err is io.EOF once the input is done (with the last
// line, if it has no newline, still returned).
func readLine(r *bufio.Reader, buf []byte, max int) (text []byte, chars int, err error) {
	text = buf[:0]
	for {
		chunk, err := r.ReadSlice('\n')
		for _, b := range chunk {
			if b&0xC0 != 0x80 { // not a UTF-8 continuation byte
				chars++
			}
		}
		if len(text)+len(chunk) <= 4*max+2 { // UTF-8 takes up to 4 bytes a character, plus "\r\n"
			text = append(text, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		// Drop the line ending from both the text and the count.
		if n := len(chunk); n > 0 && chunk[n-1] == '\n' {
			chars--
			text = bytes.TrimSuffix(text, []byte{'\n'})
			if len(text) > 0 && text[len(text)-1] == '\r' {
				chars--
				text = text[:len(text)-1]
			}
		}
		return text, chars, err
	}
}

// detectFormat resolves "auto": a .dat name, or a first line of two
// numbers (the grid file header), else one puzzle per line.
func detectFormat(format, name string, head []byte) string {
	if format != "auto" {
		return format
	}
	if strings.HasSuffix(strings.ToLower(name), ".dat") {
		return "dat"
	}
	for _, line := range strings.Split(string(head), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 2 {
			_, err1 := strconv.Atoi(f[0])
			_, err2 := strconv.Atoi(strings.TrimSuffix(f[1], "."))
			if err1 == nil && err2 == nil {
				return "grid"
			}
		}
		break
	}
	return "line"
}

// solveCmd holds the state of one solve run.
type solveCmd struct {
	e       *env
	out     *bufio.Writer
	name    string
	count   bool
	limit   int
	shape   *sudoku.Shape
	solver  solvers.Solver  // reused for every puzzle
	counter solvers.Counter // the same solver, when it can count
	timeout time.Duration   // per puzzle; 0: none
	total   int
	failed  int
}

// lines solves one puzzle per line, skipping blank and '#' lines. A line
// too long to be a puzzle is reported with its length, and the next line
// is read as usual.
func (s *solveCmd) lines(r *bufio.Reader) {
	var buf []byte
	for line := 1; ; line++ {
		b, chars, err := readLine(r, buf, maxLine)
		buf = b
		if err != nil && err != io.EOF {
			s.total++
			s.fail(line, fmt.Errorf("read: %w", err))
			return
		}
		if err == io.EOF && chars == 0 {
			return
		}
		if chars > maxLine {
			s.total++
			s.fail(line, fmt.Errorf("too long (%d characters; at most %d)", chars, maxLine))
		} else {
			s.line(line, strings.TrimSpace(string(b)))
		}
		if err == io.EOF {
			return
		}
	}
}

// line solves the puzzle on line number n, unless it is blank or a comment.
func (s *solveCmd) line(n int, text string) {
	if text == "" || text[0] == '#' {
		return
	}
	s.total++
	g, err := sudoku.ParseLine(text, s.shape)
	if err != nil {
		var pe *sudoku.ParseError
		if errors.As(err, &pe) {
			pe.Line = n
		}
		s.fail(n, err)
		return
	}
	if err := s.solve(g); err != nil {
		s.fail(n, err)
	}
}

// one solves a puzzle read from a whole-file format.
func (s *solveCmd) one(g sudoku.Grid, err error) {
	s.total++
	if err == nil {
		err = s.solve(g)
	}
	if err != nil {
		var pe *sudoku.ParseError
		if errors.As(err, &pe) && pe.Line > 0 {
			s.fail(pe.Line, err)
			return
		}
		s.fail(0, err)
	}
}

// solve prints g's solution (or solution count) on its own line.
func (s *solveCmd) solve(g sudoku.Grid) error {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if s.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
	}
	defer cancel()
	if s.count {
		n, err := s.counter.Count(ctx, g, s.limit)
		if err != nil {
			return err
		}
		if c := sudoku.Validate(g); len(c) > 0 {
			return &sudoku.ConflictError{Conflicts: c}
		}
		fmt.Fprintln(s.out, n)
		return nil
	}
	res, err := s.solver.Solve(ctx, g)
	if err != nil {
		return err
	}
	s.out.WriteString(res.Solution.String())
	s.out.WriteByte('\n')
	return nil
}

// counters returns the names of the solvers that can count solutions.
func counters() []string {
	var out []string
	for _, name := range solvers.Names() {
		if sv, err := solvers.New(name, solvers.Options{}); err == nil {
			if _, ok := sv.(solvers.Counter); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

func (s *solveCmd) fail(line int, err error) {
	s.failed++
	// Keep stdout and stderr in order when both go to a terminal.
	s.out.Flush()
	var pe *sudoku.ParseError
	if errors.As(err, &pe) {
		pe.Line = 0 // the prefix below names it
	}
	if line > 0 {
		fmt.Fprintf(s.e.stderr, "%s:%d: %v\n", s.name, line, err)
	} else {
		fmt.Fprintf(s.e.stderr, "%s: %v\n", s.name, err)
	}
}
