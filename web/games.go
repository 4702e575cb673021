package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// games plays single-player games: Sudoku's rules of a session (clock,
// hints, mistakes, assists, finishing; the fair-play rules are in
// docs/browser.md) over play.Solo, which loads, stores and ranks the
// games of every kind. Nothing of HTTP: refusals are *play.Error values.
type games struct {
	solo *play.Solo
	// floorPerStep sets the plausibility floor (play.DefaultFloorPerStep);
	// 0 means none.
	floorPerStep time.Duration
}

// session is what the store keeps of a Sudoku game beside its puzzle and
// solution (as JSON in store.Game.State): play.Session's fields and
// these.
type session struct {
	Box          [2]int        `json:"box"`
	Rating       float64       `json:"rating,omitempty"`
	Board        game.Snapshot `json:"board"`        // the board, its marks and its move list
	RunningSince int64         `json:"runningSince"` // unix ms the clock last started; 0 while paused
	// MistakeLimit (0: none) ends the game as lost when reached.
	MistakeLimit int `json:"mistakeLimit,omitempty"`
	// ShowErrors is the "show mistakes" assist (play.Session.Used lists
	// the assists used: the game is then unranked).
	ShowErrors bool   `json:"showErrors"`
	Paper      string `json:"paper,omitempty"` // the entries carried over from paper, '0' none
	// HintStages counts every stage of every hint shown (nudge, pattern,
	// answer); HintStage is the stage the open hint last showed (1 or 2),
	// 0 when no hint is open: its later stages are free until the next
	// move.
	HintStages int `json:"hintStages,omitempty"`
	HintStage  int `json:"hintStage,omitempty"`
	play.Session
}

// played is one game in memory while an action runs on it.
type played struct {
	rec      store.Game
	s        session
	gm       *game.Game // the board, restored from s.Board
	shape    sudoku.Shape
	puzzle   sudoku.Grid
	solution sudoku.Grid
}

// View is a game as the player sees it: never the solution, nor which
// entries are wrong, while the game is on and ranked.
type View struct {
	ID     string       `json:"id"`
	Size   int          `json:"size"`
	Box    [2]int       `json:"box"`
	Level  string       `json:"level"`
	Own    bool         `json:"own,omitempty"`   // the player's own puzzle: not ranked
	Paper  string       `json:"paper,omitempty"` // the entries it started with from paper ('0' none)
	Rating float64      `json:"rating,omitempty"`
	Puzzle string       `json:"puzzle"` // the givens, '0' for empty; "" while paused
	Cells  string       `json:"cells"`  // the grid now, givens included; "" while paused
	Marks  []game.Marks `json:"marks"`  // pencil marks per cell: bit v set = v
	Status string       `json:"status"` // playing, solved, revealed
	// Watching: the viewer is not the game's player and may only watch.
	Watching  bool  `json:"watching,omitempty"`
	ElapsedMs int64 `json:"elapsedMs"`
	Paused    bool  `json:"paused"`
	Hints     int   `json:"hints"`
	MaxHints  int   `json:"maxHints"`
	// HintStages counts the stages shown over all hints; HintStage is the
	// open hint's last stage shown (1, 2), until the next move.
	HintStages int `json:"hintStages"`
	HintStage  int `json:"hintStage,omitempty"`
	// Mistakes is shown while mistakes are shown or after a check, and
	// once the game is over; otherwise it would tell right from wrong.
	// MistakeLimit ends the game when reached (0: none).
	Mistakes     *int      `json:"mistakes,omitempty"`
	MistakeLimit int       `json:"mistakeLimit,omitempty"`
	ShowErrors   bool      `json:"showErrors"`
	Assisted     bool      `json:"assisted,omitempty"` // an assist was used: unranked
	Used         play.Used `json:"used,omitempty"`     // which
	// Daily is the daily puzzle's day; Replay, that it is not the
	// player's first game of it (unranked).
	Daily  string `json:"daily,omitempty"`
	Replay bool   `json:"replay,omitempty"`
	// Wrong lists entries that differ from the solution, only while
	// ShowErrors is on; Conflicts the cells that break a rule, always.
	Wrong     []int `json:"wrong"`
	Conflicts []int `json:"conflicts"`
	Filled    int   `json:"filled"`
	Total     int   `json:"total"`
	CanUndo   bool  `json:"canUndo"`
	CanRedo   bool  `json:"canRedo"`
	// Solution is set once the game is over (solved, revealed or lost;
	// a daily puzzle given up or lost, once its day is over).
	Solution string `json:"solution,omitempty"`
	// Once solved: Flag says why it is unranked ("" ranked), NeedName
	// that the result waits for a name (action "name"), Rank its place on
	// the leaderboard (0: not in its first 100, or unranked).
	Flag     string `json:"flag,omitempty"`
	NeedName bool   `json:"needName,omitempty"`
	Rank     int    `json:"rank,omitempty"`
	// Set by the action that asked for them.
	Hint    *logic.Advice `json:"hint,omitempty"`
	Checked []int         `json:"checked,omitempty"` // wrong entries found by check
	Result  *publicResult `json:"result,omitempty"`
}

// gameOptions are a new game's choices beyond its puzzle: mistakes shown
// as they happen (an assist), a mistake limit (which needs them shown),
// and for the daily puzzle its day and whether the player played it
// before.
type gameOptions struct {
	ShowMistakes bool
	MistakeLimit int
	Daily        string
	Replay       bool
	// Entries (per cell, 0 none) are played as the player's moves before
	// the game starts: digits carried over from paper. They do not count
	// as mistakes (a wrong one is shown only when mistakes are shown or
	// checked), so a limit counts only what is played here.
	Entries []int
}

// newGame starts a game of puzzle (unique, with solution) for player.
func (gs *games) newGame(ctx context.Context, player string, gen Generated, opt gameOptions) (View, error) {
	now := gs.solo.Now()
	shape := gen.Puzzle.Shape
	fixed := make([]bool, len(gen.Puzzle.Cells))
	empty := 0
	for i, v := range gen.Puzzle.Cells {
		fixed[i] = v != 0
		if v == 0 {
			empty++
		}
	}
	gm, err := game.FromGrid(gen.Puzzle, fixed)
	if err != nil {
		return View{}, err
	}
	n := shape.N()
	for i, v := range opt.Entries {
		if v == 0 {
			continue
		}
		if _, err := gm.Set(i/n, i%n, v); err != nil {
			return View{}, fmt.Errorf("entries: %s: %w", sudoku.CellName(i, n), err)
		}
	}
	s := session{
		Box:          [2]int{shape.BoxRows, shape.BoxCols},
		Rating:       gen.Rating,
		Board:        gm.Snapshot(),
		RunningSince: now.UnixMilli(),
		MistakeLimit: opt.MistakeLimit,
		Session: play.Session{
			FloorMs: play.FloorMs(gs.floorPerStep, gen.Steps, empty, 1),
			Own:     gen.Own,
			Daily:   opt.Daily,
			Replay:  opt.Replay,
		},
	}
	if opt.Entries != nil {
		s.Paper = sudoku.CellString(opt.Entries)
	}
	if opt.ShowMistakes || opt.MistakeLimit > 0 {
		s.ShowErrors = true
		s.Use(play.ShowMistakes)
	}
	state, err := json.Marshal(s)
	if err != nil {
		return View{}, err
	}
	rec := store.Game{
		ID: newID(), Kind: store.KindSudoku, Player: player, Size: sizeName(shape), Level: gen.Level,
		Puzzle: sudoku.CellString(gen.Puzzle.Cells), Solution: sudoku.CellString(gen.Solution.Cells),
		State: state, Status: store.StatusPlaying, Created: now, Updated: now,
	}
	if err := gs.solo.Create(ctx, rec, &s.Session); err != nil {
		return View{}, err
	}
	p := &played{rec: rec, s: s, gm: gm, shape: shape, puzzle: gen.Puzzle, solution: gen.Solution}
	return p.view(now), nil
}

// leaked reports whether an assist that tells right from wrong is or was
// on: the mistakes counter may then show while playing.
func (s *session) leaked() bool { return s.ShowErrors || s.Used.Leaked() }

// Record, Session, Board, State and Allow make a played a play.Game.
func (p *played) Record() *store.Game    { return &p.rec }
func (p *played) Session() *play.Session { return &p.s.Session }
func (p *played) Board() *game.Game      { return p.gm }
func (p *played) State() any {
	p.s.Board = p.gm.Snapshot()
	return p.s
}

// Allow refuses on a paused game the actions that need the board: its
// clock is stopped.
func (p *played) Allow(name string) error {
	switch name {
	case "pause", "resume", "errors", "solution", "submit", "name":
	default:
		if p.s.RunningSince == 0 {
			return play.Refuse(play.Conflict, "the game is paused: resume it first")
		}
	}
	return nil
}

// load reads game id. A game that is not there is a playNotFound; a stored
// state that does not decode is an internal error, never a panic.
func (gs *games) load(ctx context.Context, id string) (*played, error) {
	if !validID(id) {
		return nil, play.Refuse(play.NotFound, "no game %q", id)
	}
	rec, err := gs.solo.Store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && rec.Kind != store.KindSudoku {
		return nil, play.Refuse(play.NotFound, "no game %q (a game left untouched for a month, or never played for a day, is deleted)", id)
	}
	if err != nil {
		return nil, err
	}
	p := &played{rec: rec}
	if err := json.Unmarshal(rec.State, &p.s); err != nil {
		return nil, fmt.Errorf("game %s: stored state: %w", id, err)
	}
	// Games stored before the assist existed had mistakes shown from the
	// start: they count as assisted.
	p.s.Assisted = p.s.Assisted || p.s.ShowErrors
	if p.s.Assisted && len(p.s.Used) == 0 && !p.s.Own {
		p.s.Used = play.Used{play.ShowMistakes} // stored before the list: shown mistakes or a check
	}
	p.shape = sudoku.Shape{BoxRows: p.s.Box[0], BoxCols: p.s.Box[1]}
	if p.gm, err = game.Restore(p.s.Board); err != nil {
		return nil, fmt.Errorf("game %s: stored state: %w", id, err)
	}
	if p.gm.Shape() != p.shape {
		return nil, fmt.Errorf("game %s: stored board is %v, the game %v", id, p.gm.Shape(), p.shape)
	}
	if p.puzzle, err = sudoku.ParseCellGrid(p.shape, rec.Puzzle); err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	if p.solution, err = sudoku.ParseCellGrid(p.shape, rec.Solution); err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	return p, nil
}

// get returns game id as viewer sees it: its player, or a watcher.
func (gs *games) get(ctx context.Context, id, viewer string) (View, error) {
	p, err := gs.load(ctx, id)
	if err != nil {
		return View{}, err
	}
	v := p.view(gs.solo.Now())
	v.Watching = viewer != p.rec.Player
	if v.Status == store.StatusSolved && !v.Watching {
		v.Rank = gs.solo.Rank(ctx, p.rec, &p.s.Session)
	}
	return v, nil
}

// Action is one thing a player does to a game; the fields used depend on
// the action's name (see act).
type Action struct {
	Cell  *int   `json:"cell,omitempty"`
	Value *int   `json:"value,omitempty"`
	On    *bool  `json:"on,omitempty"`
	Name  string `json:"name,omitempty"`
	// Clear (move): also take the value out of the peers' pencil marks.
	Clear bool `json:"clear,omitempty"`
	// Stage (hint): 1 (default) a new hint, counted against play.MaxHints; 2
	// its pattern, 3 its answer played, both only for the hint still open.
	Stage int `json:"stage,omitempty"`
}

// actions lists the names act accepts, for error messages.
const actionNames = "move, mark, undo, redo, pause, resume, errors, hint, check, candidates, submit, name, solution"

// hinter finds a hint for the grid cur of puzzle: the engine, behind the
// server's work gates.
type hinter func(ctx context.Context, puzzle, cur sudoku.Grid) (logic.Advice, error)

// rule is one action's change to a loaded game; extra, when not nil,
// adds what the action found to the answer.
type rule func(p *played, a Action, now time.Time) (extra func(*View), err error)

// rules are the actions act runs under the game's lock (hint runs apart:
// it calls the engine, which never runs under a lock).
var rules = map[string]rule{
	"move": ruleMove, "mark": ruleMark, "undo": ruleUndo, "redo": ruleRedo,
	"pause": rulePause, "resume": ruleResume, "errors": ruleErrors, "check": ruleCheck,
	"candidates": ruleCandidates, "submit": ruleSubmit, "name": ruleName, "solution": ruleSolution,
}

// act runs the action name for who on game id and stores the result
// before it returns the new view. engine answers hints.
func (gs *games) act(ctx context.Context, id, name string, who play.Actor, a Action, engine hinter) (View, error) {
	if name == "hint" {
		return gs.hint(ctx, id, who, a.Stage, engine)
	}
	apply, ok := rules[name]
	if !ok {
		return View{}, play.Refuse(play.NotFound, "no action %q (want one of: %s)", name, actionNames)
	}
	return gs.run(ctx, id, name, who, a, apply)
}

// run applies the rule of action name for who on game id (play.Act) and
// returns the new view.
func (gs *games) run(ctx context.Context, id, name string, who play.Actor, a Action, apply rule) (View, error) {
	var extra func(*View)
	d, err := play.Act(ctx, gs.solo, play.Request{ID: id, Action: name, Who: who, Name: a.Name}, gs.load, func(p *played, now time.Time) error {
		var err error
		extra, err = apply(p, a, now)
		return err
	})
	if err != nil {
		return View{}, err
	}
	p := d.Game
	v := p.view(d.Now)
	if extra != nil {
		extra(&v)
	}
	if d.Result != nil {
		pub := publicResults([]store.Result{*d.Result})[0]
		v.Result = &pub
		v.Rank = gs.solo.Rank(ctx, p.rec, &p.s.Session)
	}
	return v, nil
}

// cellOf checks an action's cell and value and returns the cell's row
// and column.
func (p *played) cellOf(name string, a Action) (cell, r, c, v int, err error) {
	n := p.shape.N()
	if a.Cell == nil || a.Value == nil {
		return 0, 0, 0, 0, play.Refuse(play.Bad, "%s needs \"cell\" (0..%d) and \"value\"", name, n*n-1)
	}
	cell, v = *a.Cell, *a.Value
	if cell < 0 || cell >= n*n {
		return 0, 0, 0, 0, play.Refuse(play.Bad, "cell %d is off the board (0..%d)", cell, n*n-1)
	}
	r, c = cell/n, cell%n
	if p.gm.Fixed(r, c) {
		return 0, 0, 0, 0, play.Refuse(play.Conflict, "r%dc%d is a given and cannot change", r+1, c+1)
	}
	return cell, r, c, v, nil
}

func ruleMove(p *played, a Action, now time.Time) (func(*View), error) {
	cell, r, c, v, err := p.cellOf("move", a)
	if err != nil {
		return nil, err
	}
	p.s.HintStage = 0
	if p.gm.Value(r, c) == v {
		return nil, nil // the digit is already there: no move, no second mistake
	}
	if a.Clear && v != 0 {
		_, err = p.gm.Place(r, c, v)
	} else {
		_, err = p.gm.Set(r, c, v)
	}
	if err != nil {
		return nil, play.GameError(err)
	}
	p.s.Next(cell, false)
	if v != 0 && v != p.solution.Cells[cell] {
		p.wrote(cell, now)
	}
	if slices.Equal(p.gm.Grid().Cells, p.solution.Cells) {
		p.finish(now)
	}
	return nil, nil
}

// wrote counts a wrong digit written in cell; at the game's mistake
// limit the game is lost.
func (p *played) wrote(cell int, now time.Time) {
	p.s.SetTally(p.s.Tally().Wrote(cell, p.s.ShowErrors))
	if p.s.ShowErrors && play.Lost(p.s.Tally(), p.s.MistakeLimit) {
		p.stopClock(now)
		p.rec.Status = store.StatusLost
	}
}

func ruleMark(p *played, a Action, _ time.Time) (func(*View), error) {
	_, r, c, v, err := p.cellOf("mark", a)
	if err != nil {
		return nil, err
	}
	p.s.HintStage = 0
	if _, err = p.gm.ToggleMark(r, c, v); err != nil {
		return nil, play.GameError(err)
	}
	p.s.Next(-1, false)
	return nil, nil
}

func ruleUndo(p *played, _ Action, _ time.Time) (func(*View), error) {
	p.s.HintStage = 0
	if _, err := p.gm.Undo(); err != nil {
		return nil, play.GameError(err)
	}
	p.s.Next(-1, true)
	return nil, nil
}

func ruleRedo(p *played, _ Action, now time.Time) (func(*View), error) {
	p.s.HintStage = 0
	m, err := p.gm.Redo()
	if err != nil {
		return nil, play.GameError(err)
	}
	p.s.Next(-1, false)
	n := p.shape.N()
	for _, c := range m.Changes {
		if i := c.Row*n + c.Col; c.To != c.From && c.To != 0 && c.To != p.solution.Cells[i] && p.rec.Status == store.StatusPlaying {
			p.wrote(i, now) // a wrong digit typed again
		}
	}
	if p.rec.Status == store.StatusPlaying && slices.Equal(p.gm.Grid().Cells, p.solution.Cells) {
		p.finish(now)
	}
	return nil, nil
}

// ruleCandidates pencils in every digit each empty cell can still take:
// an assist (it saves the player the work), so the game is unranked. It
// applies the rules to the board as it is and tells nothing of the
// solution, so the daily puzzle offers it too.
func ruleCandidates(p *played, _ Action, _ time.Time) (func(*View), error) {
	p.s.HintStage = 0
	p.gm.Candidates()
	p.s.Next(-1, false)
	p.s.Use(play.Candidates)
	return nil, nil
}

// dailyAllows refuses on the daily puzzle, while its day lasts, an assist
// that tells right from wrong.
func (p *played) dailyAllows(a play.Assist, now time.Time) error {
	if p.s.Daily == "" {
		return nil
	}
	if err := play.DailyAllows(a, p.s.Daily, now); err != nil {
		return play.Refuse(play.Conflict, "%v", err)
	}
	return nil
}

func rulePause(p *played, _ Action, now time.Time) (func(*View), error) {
	p.stopClock(now)
	return nil, nil
}

func ruleResume(p *played, _ Action, now time.Time) (func(*View), error) {
	if p.s.RunningSince == 0 {
		p.s.RunningSince = now.UnixMilli()
	}
	return nil, nil
}

// ruleErrors turns the "show mistakes" assist on or off; on makes the
// game unranked.
func ruleErrors(p *played, a Action, now time.Time) (func(*View), error) {
	if a.On == nil {
		return nil, play.Refuse(play.Bad, "errors needs \"on\": true or false")
	}
	if *a.On {
		if err := p.dailyAllows(play.ShowMistakes, now); err != nil {
			return nil, err
		}
		p.s.SetTally(p.s.Tally().Settled()) // a slip is no longer hidden
		p.s.Use(play.ShowMistakes)
	} else if p.s.MistakeLimit > 0 {
		return nil, play.Refuse(play.Conflict, "a game with a mistake limit shows its mistakes to the end")
	}
	p.s.ShowErrors = *a.On
	return nil, nil
}

// ruleCheck lists the wrong entries: an assist, so the game is unranked.
func ruleCheck(p *played, _ Action, now time.Time) (func(*View), error) {
	if err := p.dailyAllows(play.Check, now); err != nil {
		return nil, err
	}
	p.s.Next(-1, false)
	p.s.Use(play.Check)
	wrong := p.wrongEntries()
	return func(v *View) { v.Checked = wrong }, nil
}

// ruleSubmit is what the last correct digit does on its own; it stays
// for clients that ask, and names a finished game. It never says which
// entries are wrong.
func ruleSubmit(p *played, a Action, now time.Time) (func(*View), error) {
	if p.rec.Status == store.StatusSolved {
		return ruleName(p, a, now)
	}
	if empty := p.gm.EmptyCells(); empty > 0 {
		return nil, play.Refuse(play.Conflict, "not solved yet: %d cells are still empty", empty)
	}
	if !slices.Equal(p.gm.Grid().Cells, p.solution.Cells) {
		return nil, play.Refuse(play.Conflict, "every cell is filled but the grid is not the solution (Check or Show mistakes find where, and make the game unranked)")
	}
	p.finish(now)
	return nil, nil
}

// ruleName names a solved game, which records its result.
func ruleName(p *played, a Action, _ time.Time) (func(*View), error) {
	if p.rec.Status != store.StatusSolved {
		return nil, play.Refuse(play.Conflict, "the game is not finished yet")
	}
	nm, err := store.CleanName(a.Name)
	if err != nil {
		return nil, play.Refuse(play.Bad, "%v", err)
	}
	p.s.Name = nm
	return nil, nil
}

// ruleSolution ends the game and shows the solution; on the daily
// puzzle the solution waits for the day's end (the game ends all the
// same: the player gave up).
func ruleSolution(p *played, _ Action, now time.Time) (func(*View), error) {
	p.stopClock(now)
	p.s.SetTally(p.s.Tally().Settled())
	p.rec.Status = store.StatusRevealed
	return nil, nil
}

// finish ends a game whose board is the solution, by the server's clock,
// and says whether its result is ranked.
func (p *played) finish(now time.Time) {
	p.stopClock(now)
	p.rec.Status = store.StatusSolved
	p.s.ShowErrors = false
	p.s.Finish(now, p.s.ElapsedMs)
}

// hint answers stage (0 or 1: a new hint; 2: its pattern; 3: its answer,
// played as moves) of a hint outside the game's lock: under the lock it
// checks the game and counts the hint (stage 1, so a failed one counts
// too) and the stage, then asks engine, which the caller has admitted
// through the work gates. Stages 2 and 3 are for the hint still open: the
// grid has not changed since, so the engine finds the same step. Stage 3
// then plays the answer under the lock, if the board is still the one
// the engine saw.
func (gs *games) hint(ctx context.Context, id string, who play.Actor, stage int, engine hinter) (View, error) {
	if stage == 0 {
		stage = 1
	}
	if stage < 1 || stage > 3 {
		return View{}, play.Refuse(play.Bad, "hint stage %d: want 1 (nudge), 2 (pattern) or 3 (answer)", stage)
	}
	d, err := play.Act(ctx, gs.solo, play.Request{ID: id, Action: "hint", Who: who}, gs.load, func(p *played, _ time.Time) error {
		if stage > 1 && p.s.HintStage == 0 {
			return play.Refuse(play.Conflict, "no hint open: ask for a new one")
		}
		if stage == 1 {
			if err := p.s.TakeHint(); err != nil {
				return err
			}
			p.s.Next(-1, false)
		}
		p.s.HintStages++
		p.s.HintStage = stage % 3 // the answer closes it
		return nil
	})
	if err != nil {
		return View{}, err
	}
	p := d.Game
	v := p.view(d.Now)
	seen := p.gm.Grid()
	step, err := engine(ctx, p.puzzle, seen)
	if err != nil {
		if ctx.Err() != nil {
			return View{}, err
		}
		return View{}, play.Refuse(play.Conflict, "no hint (it still counts): %v", err)
	}
	if stage == 3 {
		if v, err = gs.playAdvice(ctx, id, who, seen, step); err != nil {
			return View{}, err
		}
	}
	v.Hint = &step
	return v, nil
}

// playAdvice plays a hint's answer on game id, under its lock, if the
// board is still seen: a wrong entry is erased, a placement placed (taking
// it from its peers' marks; the last one finishes the game), an
// elimination taken from the pencil marks that hold it.
func (gs *games) playAdvice(ctx context.Context, id string, who play.Actor, seen sudoku.Grid, adv logic.Advice) (View, error) {
	return gs.run(ctx, id, "hint", who, Action{}, func(p *played, _ Action, now time.Time) (func(*View), error) {
		if !slices.Equal(p.gm.Grid().Cells, seen.Cells) {
			return nil, play.Refuse(play.Conflict, "the board changed while the hint was found: ask again")
		}
		n := p.shape.N()
		for _, w := range adv.Wrong {
			if _, err := p.gm.Set(w/n, w%n, 0); err != nil {
				return nil, play.GameError(err)
			}
		}
		for _, c := range adv.Placements {
			if _, err := p.gm.Place(c.Cell/n, c.Cell%n, c.Digit); err != nil {
				return nil, play.GameError(err)
			}
		}
		for _, c := range adv.Eliminations {
			if m := p.gm.Marks(c.Cell/n, c.Cell%n); m.Has(c.Digit) && p.gm.Value(c.Cell/n, c.Cell%n) == 0 {
				if _, err := p.gm.SetMarks(c.Cell/n, c.Cell%n, m&^(1<<c.Digit)); err != nil {
					return nil, play.GameError(err)
				}
			}
		}
		if slices.Equal(p.gm.Grid().Cells, p.solution.Cells) {
			p.finish(now)
		}
		return nil, nil
	})
}

func (p *played) stopClock(now time.Time) {
	if p.s.RunningSince != 0 {
		p.s.ElapsedMs += now.UnixMilli() - p.s.RunningSince
		p.s.RunningSince = 0
	}
}

// wrongEntries lists the filled cells whose digit is not the solution's.
func (p *played) wrongEntries() []int {
	return play.Wrong(play.Entries{Now: p.gm.Grid().Cells, Solution: p.solution.Cells})
}

func (p *played) view(now time.Time) View {
	gm := p.gm
	n := p.shape.N()
	cells := gm.Grid()
	over := p.rec.Status != store.StatusPlaying
	v := View{
		ID: p.rec.ID, Size: n, Box: p.s.Box, Level: p.rec.Level, Rating: p.s.Rating, Own: p.s.Own, Paper: p.s.Paper,
		Puzzle: p.rec.Puzzle, Cells: sudoku.CellString(cells.Cells),
		Status: p.rec.Status, ElapsedMs: p.s.ElapsedMs, Paused: p.s.RunningSince == 0,
		Hints: p.s.Hints, MaxHints: play.MaxHints, HintStages: p.s.HintStages, HintStage: p.s.HintStage, ShowErrors: p.s.ShowErrors, Assisted: p.s.Assisted,
		Used: p.s.Used, MistakeLimit: p.s.MistakeLimit, Daily: p.s.Daily, Replay: p.s.Replay,
		Wrong: []int{}, Conflicts: []int{}, Total: n * n, Filled: n*n - gm.EmptyCells(),
		CanUndo: gm.CanUndo(), CanRedo: gm.CanRedo(),
	}
	if p.s.RunningSince != 0 {
		v.ElapsedMs += now.UnixMilli() - p.s.RunningSince
	}
	if over || p.s.leaked() {
		m := p.s.Tally().Total()
		v.Mistakes = &m
	}
	if over {
		if p.s.Daily == "" || play.DailySolutionShown(p.s.Daily, now, p.rec.Status == store.StatusSolved) {
			v.Solution = p.rec.Solution
		}
		v.Flag, v.NeedName = p.s.Flag, p.rec.Status == store.StatusSolved && p.s.Name == ""
		v.Marks = []game.Marks{}
		return v
	}
	if v.Paused {
		// A paused game hides its board: the clock is stopped, so
		// nobody may study the puzzle meanwhile.
		v.Puzzle, v.Cells, v.Marks = "", "", []game.Marks{}
		return v
	}
	v.Marks = make([]game.Marks, n*n)
	for i := range v.Marks {
		if cells.Cells[i] == 0 { // marks show in empty cells only
			v.Marks[i] = gm.Marks(i/n, i%n)
		}
		if gm.Conflict(i/n, i%n) {
			v.Conflicts = append(v.Conflicts, i)
		}
	}
	if p.s.ShowErrors {
		v.Wrong = p.wrongEntries()
	}
	return v
}
