package console

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/solvers"
	"github.com/sudokuar/sudokuar/sudoku"
)

// Each command below runs after Execute has checked that it is available
// in the mode and has its parameters; it checks the rest in the
// specification's order.

// solve X: start a puzzle in Solve mode from file X.
func (s *Session) solve(args []string) {
	if g := s.load(args[0], true, msgSolveOpen); g != nil {
		s.game, s.mode = g, Solve
		s.printBoard()
	}
}

// edit [X]: start editing file X, or an empty 9×9 board.
func (s *Session) edit(args []string) {
	var g *game.Game
	if len(args) == 0 {
		g, _ = game.New(sudoku.Shape{BoxRows: 3, BoxCols: 3})
	} else if g = s.load(args[0], false, msgEditOpen); g == nil {
		return
	}
	s.game, s.mode = g, Edit
	s.printBoard()
}

// mark_errors X: show conflicts (1) or not (0) in Solve mode.
func (s *Session) markErrorsCmd(args []string) {
	switch v, ok := number(args[0]); {
	case ok && v == 0:
		s.markErrors = false
	case ok && v == 1:
		s.markErrors = true
	default:
		s.out.WriteString(msgMarkValue)
	}
}

// set X Y Z: put Z in column X, row Y.
func (s *Session) set(args []string) {
	n := s.game.N()
	x, okX := number(args[0])
	y, okY := number(args[1])
	z, okZ := number(args[2])
	if !okX || !okY || !okZ || x < 1 || x > n || y < 1 || y > n || z < 0 || z > n {
		fmt.Fprintf(s.out, msgRange, 0, n)
		return
	}
	if _, err := s.game.Set(y-1, x-1, z); err != nil {
		if errors.Is(err, game.ErrFixed) {
			s.out.WriteString(msgFixed)
		}
		return
	}
	s.printBoard()
	if s.mode == Solve && s.game.Full() {
		if s.game.Erroneous() {
			s.out.WriteString(msgSolvedBad)
			return
		}
		s.out.WriteString(msgSolvedGood)
		s.mode, s.game = Init, nil
	}
}

// validate: is the board solvable?
func (s *Session) validate([]string) {
	ctx, done := s.long()
	defer done()
	ok, err := s.game.Solvable(ctx, s.cfg.Solver)
	switch {
	case errors.Is(err, game.ErrErroneous):
		s.out.WriteString(msgErroneous)
	case s.interrupted(err, "validation"):
	case err != nil:
		fmt.Fprintf(s.out, "Error: solver failed: %v\n", err)
	case ok:
		s.out.WriteString(msgValidOK)
	default:
		s.out.WriteString(msgValidFail)
	}
}

// generate X Y: fill X random cells, solve, keep Y.
func (s *Session) generate(args []string) {
	e := s.game.EmptyCells()
	x, okX := number(args[0])
	y, okY := number(args[1])
	if !okX || !okY {
		fmt.Fprintf(s.out, msgRange, 0, e)
		return
	}
	ctx, done := s.long()
	defer done()
	_, err := s.game.Generate(ctx, s.cfg.Solver, s.cfg.Rand, x, y)
	var re *game.RangeError
	switch {
	case errors.As(err, &re):
		fmt.Fprintf(s.out, msgRange, 0, e)
	case errors.Is(err, game.ErrNotEmpty):
		s.out.WriteString(msgNotEmpty)
	case errors.Is(err, game.ErrGeneratorFailed):
		s.out.WriteString(msgGenFailed)
	case s.interrupted(err, "generation"):
	case err != nil:
		fmt.Fprintf(s.out, "Error: %v\n", err)
	default:
		s.printBoard()
	}
}

// cellValue writes a value for the undo and redo lines: '_' for empty.
func cellValue(v int) string {
	if v == 0 {
		return "_"
	}
	return fmt.Sprint(v)
}

// undo: take back the current move.
func (s *Session) undo([]string) {
	m, err := s.game.Undo()
	if err != nil {
		s.out.WriteString(msgNoUndo)
		return
	}
	s.printBoard()
	for _, c := range m.Changes {
		if m.Kind != game.KindMarks {
			fmt.Fprintf(s.out, msgUndo, c.Col+1, c.Row+1, cellValue(c.To), cellValue(c.From))
		}
	}
}

// redo: make the next undone move again.
func (s *Session) redo([]string) {
	m, err := s.game.Redo()
	if err != nil {
		s.out.WriteString(msgNoRedo)
		return
	}
	s.printBoard()
	for _, c := range m.Changes {
		if m.Kind != game.KindMarks {
			fmt.Fprintf(s.out, msgRedo, c.Col+1, c.Row+1, cellValue(c.From), cellValue(c.To))
		}
	}
}

// save X: write the board to file X; in Edit mode only a board that keeps
// the rules and has a solution, every value fixed.
func (s *Session) save(args []string) {
	path := args[0]
	if s.mode == Edit {
		if s.game.Erroneous() {
			s.out.WriteString(msgErroneous)
			return
		}
		ctx, done := s.long()
		ok, err := s.game.Solvable(ctx, s.cfg.Solver)
		done()
		if s.interrupted(err, "validation before saving") {
			return
		}
		if err != nil || !ok {
			s.out.WriteString(msgSaveInvalid)
			return
		}
	}
	var b bytes.Buffer
	if err := s.game.Write(&b, s.mode == Edit); err != nil {
		s.out.WriteString(msgSaveFile)
		return
	}
	if err := writeFile(path, b.Bytes()); err != nil {
		s.out.WriteString(msgSaveFile)
		return
	}
	fmt.Fprintf(s.out, msgSaved, path)
}

// writeFile creates or replaces the file at path with data. Directories,
// pipes and devices other than regular files are refused, so that saving
// never blocks or writes into something that is not a file.
func writeFile(path string, data []byte) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// hint X Y: the value of column X, row Y in a solution.
func (s *Session) hint(args []string) {
	n := s.game.N()
	x, okX := number(args[0])
	y, okY := number(args[1])
	if !okX || !okY || x < 1 || x > n || y < 1 || y > n {
		fmt.Fprintf(s.out, msgRange, 1, n)
		return
	}
	ctx, done := s.long()
	defer done()
	v, err := s.game.Hint(ctx, s.cfg.Solver, y-1, x-1)
	switch {
	case errors.Is(err, game.ErrErroneous):
		s.out.WriteString(msgErroneous)
	case errors.Is(err, game.ErrFixed):
		s.out.WriteString(msgFixed)
	case errors.Is(err, game.ErrFilled):
		s.out.WriteString(msgHintFilled)
	case errors.Is(err, game.ErrUnsolvable):
		s.out.WriteString(msgHintUnsolvable)
	case s.interrupted(err, "hint"):
	case err != nil:
		fmt.Fprintf(s.out, "Error: solver failed: %v\n", err)
	default:
		fmt.Fprintf(s.out, msgHint, v)
	}
}

// num_solutions: count every solution with the explicit-stack backtracker.
func (s *Session) numSolutions([]string) {
	ctx, done := s.long()
	defer done()
	var progress func(solvers.CountProgress)
	if w := s.cfg.Progress; w != nil {
		next := s.cfg.ProgressEvery
		progress = func(p solvers.CountProgress) {
			if p.Elapsed >= next {
				next = p.Elapsed + s.cfg.ProgressEvery
				fmt.Fprintf(w, "num_solutions: %d solutions so far after %v (Ctrl-C stops)\n", p.Solutions, p.Elapsed.Round(time.Second))
			}
		}
	}
	n, err := s.game.CountSolutions(ctx, 0, progress)
	switch {
	case errors.Is(err, game.ErrErroneous):
		s.out.WriteString(msgErroneous)
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(s.out, "Interrupted: counting stopped after %d solutions; the board may have more\n", n)
	case err != nil:
		fmt.Fprintf(s.out, "Error: %v\n", err)
	default:
		fmt.Fprintf(s.out, msgCount, n)
		if n == 1 {
			s.out.WriteString(msgCountGood)
		} else {
			s.out.WriteString(msgCountMore)
		}
	}
}

// autofill: fill every cell that has one legal value.
func (s *Session) autofill([]string) {
	m, err := s.game.Autofill()
	if err != nil {
		s.out.WriteString(msgErroneous)
		return
	}
	for _, c := range m.Changes {
		fmt.Fprintf(s.out, msgAutofill, c.Col+1, c.Row+1, c.To)
	}
	s.printBoard()
}

// reset: undo every move and clear the list.
func (s *Session) reset([]string) {
	s.game.Reset()
	s.out.WriteString(msgReset)
}
