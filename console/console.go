// Package console is the console Sudoku game of the course project's
// specification, exactly as written: modes Init, Edit and Solve, its
// commands, messages to the byte, its order of checks and its board print.
//
// In: command lines. Out: the specified text on one io.Writer. Rules are
// package game's; validate, hint, generate and the Edit-mode save ask a
// solvers.Solver (ILP in the program). docs/browser.md lists the points
// the specification leaves open and how they were decided.
package console

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/solvers"
	"github.com/sudokuar/sudokuar/sudoku"
)

// Mode is the game's mode.
type Mode int

// The modes: the game starts in Init; solve enters Solve, edit enters Edit.
const (
	Init Mode = iota
	Edit
	Solve
)

func (m Mode) String() string {
	switch m {
	case Init:
		return "Init"
	case Edit:
		return "Edit"
	case Solve:
		return "Solve"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// MaxLine is the longest command line accepted, in bytes without the line
// end; a longer line is an invalid command.
const MaxLine = 256

// The specification's messages.
const (
	msgTitle          = "Sudoku\n------\n"
	msgPrompt         = "Enter your command:\n"
	msgInvalid        = "ERROR: invalid command\n"
	msgSolveOpen      = "Error: File doesn't exist or cannot be opened\n"
	msgEditOpen       = "Error: File cannot be opened\n"
	msgMarkValue      = "Error: the value should be 0 or 1\n"
	msgRange          = "Error: value not in range %d-%d\n"
	msgFixed          = "Error: cell is fixed\n"
	msgErroneous      = "Error: board contains erroneous values\n"
	msgSolvedBad      = "Puzzle solution erroneous\n"
	msgSolvedGood     = "Puzzle solved successfully\n"
	msgValidOK        = "Validation passed: board is solvable\n"
	msgValidFail      = "Validation failed: board is unsolvable\n"
	msgNotEmpty       = "Error: board is not empty\n"
	msgGenFailed      = "Error: puzzle generator failed\n"
	msgNoUndo         = "Error: no moves to undo\n"
	msgNoRedo         = "Error: no moves to redo\n"
	msgUndo           = "Undo %d,%d: from %s to %s\n"
	msgRedo           = "Redo %d,%d: from %s to %s\n"
	msgSaveInvalid    = "Error: board validation failed\n"
	msgSaveFile       = "Error: File cannot be created or modified\n"
	msgSaved          = "Saved to: %s\n"
	msgHintFilled     = "Error: cell already contains a value\n"
	msgHintUnsolvable = "Error: board is unsolvable\n"
	msgHint           = "Hint: set cell to %d\n"
	msgCount          = "Number of solutions: %d\n"
	msgCountGood      = "This is a good board!\n"
	msgCountMore      = "The puzzle has more than 1 solution, try to edit it further\n"
	msgAutofill       = "Cell <%d,%d> set to %d\n"
	msgReset          = "Board reset\n"
	msgExit           = "Exiting...\n"
)

// Config is what a Session needs from outside.
type Config struct {
	// Solver answers validate, hint, generate and the check before saving
	// in Edit mode; nil means the specification's ILP (GLPK).
	Solver solvers.Solver
	// Rand drives generate; nil seeds one from the clock.
	Rand *rand.Rand
	// Progress, when not nil, receives a line about every ProgressEvery
	// (default 3 s) while num_solutions counts. The program points it at
	// standard error when that is a terminal, so standard output stays
	// exactly as specified.
	Progress      io.Writer
	ProgressEvery time.Duration
}

// Session is one run of the game: its mode, the "mark errors" setting and
// the board being played. Run and Execute are for one goroutine; Interrupt
// may be called from any.
type Session struct {
	out        *bufio.Writer
	cfg        Config
	mode       Mode
	markErrors bool
	game       *game.Game

	mu     sync.Mutex
	cancel context.CancelFunc // of the long command running, or nil
}

// New returns a session in Init mode writing to out.
func New(out io.Writer, cfg Config) *Session {
	if cfg.Rand == nil {
		t := uint64(time.Now().UnixNano())
		cfg.Rand = rand.New(rand.NewPCG(t, t>>32|1))
	}
	if cfg.Solver == nil {
		cfg.Solver = solvers.NewILP()
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = 3 * time.Second
	}
	return &Session{out: bufio.NewWriter(out), cfg: cfg, markErrors: true}
}

// Mode returns the current mode.
func (s *Session) Mode() Mode { return s.mode }

// Game returns the board being played (nil in Init mode).
func (s *Session) Game() *game.Game { return s.game }

// Run plays the game: it prints the title, then a prompt before every line
// it reads from in, and executes the line. It returns after exit or at the
// end of the input (which acts as exit), with the first error writing the
// output or reading the input (other than the end), if any.
func (s *Session) Run(in io.Reader) error {
	br := bufio.NewReader(in)
	s.out.WriteString(msgTitle)
	for {
		s.out.WriteString(msgPrompt)
		if err := s.out.Flush(); err != nil {
			return err
		}
		line, tooLong, err := readLine(br)
		if err != nil {
			s.Execute("exit")
			if errors.Is(err, io.EOF) {
				return s.out.Flush()
			}
			s.out.Flush()
			return err
		}
		if tooLong {
			s.out.WriteString(msgInvalid)
			continue
		}
		if s.Execute(line) {
			return s.out.Flush()
		}
	}
}

// readLine returns the next line without its line end ("\n" or "\r\n"),
// reporting whether it is longer than MaxLine (then the line itself is not
// kept: it may be any length). A last line without a line end counts; at
// the end of the input the error is io.EOF.
func readLine(br *bufio.Reader) (string, bool, error) {
	var keep []byte
	total, endsNL := 0, false
	for {
		chunk, err := br.ReadSlice('\n')
		total += len(chunk)
		if room := MaxLine + 2 - len(keep); room > 0 {
			keep = append(keep, chunk[:min(room, len(chunk))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == nil {
			endsNL = true
			break
		}
		if errors.Is(err, io.EOF) && total > 0 {
			break
		}
		return "", false, err
	}
	length := total
	if endsNL {
		length--
	}
	if length > MaxLine+1 { // too long even if it ends with '\r'
		return "", true, nil
	}
	line := keep[:length] // the whole line fits in keep
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	if len(line) > MaxLine {
		return "", true, nil
	}
	return string(line), false, nil
}

// isSpace reports whether b separates words on a command line (C's
// isspace).
func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}

// command is one entry of the command table.
type command struct {
	name  string
	modes []Mode // where it is available
	args  int    // parameters it needs (more are ignored)
	run   func(s *Session, args []string)
}

// commands is the specification's command list, in its order.
var commands = []command{
	{"solve", []Mode{Init, Edit, Solve}, 1, (*Session).solve},
	{"edit", []Mode{Init, Edit, Solve}, 0, (*Session).edit},
	{"mark_errors", []Mode{Solve}, 1, (*Session).markErrorsCmd},
	{"print_board", []Mode{Edit, Solve}, 0, func(s *Session, _ []string) { s.printBoard() }},
	{"set", []Mode{Edit, Solve}, 3, (*Session).set},
	{"validate", []Mode{Edit, Solve}, 0, (*Session).validate},
	{"generate", []Mode{Edit}, 2, (*Session).generate},
	{"undo", []Mode{Edit, Solve}, 0, (*Session).undo},
	{"redo", []Mode{Edit, Solve}, 0, (*Session).redo},
	{"save", []Mode{Edit, Solve}, 1, (*Session).save},
	{"hint", []Mode{Solve}, 2, (*Session).hint},
	{"num_solutions", []Mode{Edit, Solve}, 0, (*Session).numSolutions},
	{"autofill", []Mode{Solve}, 0, (*Session).autofill},
	{"reset", []Mode{Edit, Solve}, 0, (*Session).reset},
	{"exit", []Mode{Init, Edit, Solve}, 0, nil},
}

// Execute runs one command line (without its line end) and reports whether
// it was exit. A blank line does nothing; an unknown command, one not
// available in the current mode or one missing parameters prints
// "ERROR: invalid command". Execute does not check the line's length (Run
// does).
func (s *Session) Execute(line string) bool {
	defer s.out.Flush()
	words := strings.FieldsFunc(line, isSpace)
	if len(words) == 0 {
		return false
	}
	for _, c := range commands {
		if c.name != words[0] {
			continue
		}
		available := false
		for _, m := range c.modes {
			available = available || m == s.mode
		}
		if !available || len(words)-1 < c.args {
			s.out.WriteString(msgInvalid)
			return false
		}
		if c.run == nil { // exit
			s.out.WriteString(msgExit)
			return true
		}
		c.run(s, words[1:])
		return false
	}
	s.out.WriteString(msgInvalid)
	return false
}

// Interrupt stops the long command running (num_solutions, validate, hint,
// generate, save in Edit mode) and reports whether there was one. Safe to
// call from another goroutine, e.g. on SIGINT.
func (s *Session) Interrupt() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel == nil {
		return false
	}
	s.cancel()
	return true
}

// long starts a command that Interrupt may stop; call the returned
// function when it is done.
func (s *Session) long() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
	}
}

// interrupted reports whether err is the end of an interrupted command,
// and if so says so.
func (s *Session) interrupted(err error, what string) bool {
	if !errors.Is(err, context.Canceled) {
		return false
	}
	fmt.Fprintf(s.out, "Interrupted: %s stopped, nothing changed\n", what)
	return true
}

// number parses a command parameter as a decimal integer; ok is false for
// anything else, including numbers too large for an int.
func number(word string) (int, bool) {
	v, err := strconv.Atoi(word)
	return v, err == nil
}

// open opens a puzzle file for reading. Directories and named pipes are
// refused as files that cannot be opened (a pipe would block the game).
func open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() || st.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0 {
		return nil, fmt.Errorf("%s is not a file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// load reads the puzzle at path for the solve and edit commands. On any
// error it prints the message and returns nil, leaving the game as it was.
func (s *Session) load(path string, keepFixed bool, openMsg string) *game.Game {
	f, err := open(path)
	if err != nil {
		s.out.WriteString(openMsg)
		return nil
	}
	defer f.Close()
	g, err := game.Read(f, keepFixed)
	if err != nil {
		fmt.Fprintf(s.out, "Error: %s: %s\n", path, reason(err))
		return nil
	}
	return g
}

// reason says in one line why a file is not a puzzle.
func reason(err error) string {
	var pe *sudoku.ParseError
	if errors.As(err, &pe) {
		var b strings.Builder
		if pe.Line > 0 {
			fmt.Fprintf(&b, "line %d", pe.Line)
			if pe.Col > 0 {
				fmt.Fprintf(&b, ", field %d", pe.Col)
			}
			b.WriteString(": ")
		}
		b.WriteString(pe.Reason)
		return b.String()
	}
	var pathErr *os.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err.Error()
	}
	return strings.ReplaceAll(err.Error(), "\n", " ")
}
