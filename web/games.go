package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// games plays single-player games of both kinds over play.Solo, which
// loads, stores and ranks them, with play's actions (the fair-play rules
// are in docs/browser.md). What is here is each kind's own: how a Sudoku
// game is stored and shown, its clock and its engine hints (Kakuro's in
// kakuro_games.go). Nothing of HTTP: refusals are *play.Error values.
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
	Board        game.Snapshot `json:"board"`           // the board, its marks and its move list
	RunningSince int64         `json:"runningSince"`    // unix ms the clock last started; 0 while paused
	Paper        string        `json:"paper,omitempty"` // the entries carried over from paper, '0' none
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
		Session: play.Session{
			FloorMs:      play.FloorMs(gs.floorPerStep, gen.Steps, empty, 1),
			Own:          gen.Own,
			Daily:        opt.Daily,
			Replay:       opt.Replay,
			MistakeLimit: opt.MistakeLimit,
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

// Record, Session, Board, State and Allow make a played a play.Game;
// Cells, Answer, Stop and Start a play.Played.
func (p *played) Record() *store.Game    { return &p.rec }
func (p *played) Session() *play.Session { return &p.s.Session }
func (p *played) Board() *game.Game      { return p.gm }
func (p *played) State() any {
	p.s.Board = p.gm.Snapshot()
	return p.s
}
func (p *played) Answer(cell int) int { return p.solution.Cells[cell] }

// Cells are the board's squares, row by row.
func (p *played) Cells() play.Cells {
	n := p.shape.N()
	return play.Squares(n, func(cell int) bool { return p.gm.Fixed(cell/n, cell%n) })
}

// Stop stops the clock, and Start starts it: a paused game's clock stands.
func (p *played) Stop(now time.Time) {
	if p.s.RunningSince != 0 {
		p.s.ElapsedMs += now.UnixMilli() - p.s.RunningSince
		p.s.RunningSince = 0
	}
}

func (p *played) Start(now time.Time) {
	if p.s.RunningSince == 0 {
		p.s.RunningSince = now.UnixMilli()
	}
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

// stored reads stored game id of kind (what names it in a refusal).
func (gs *games) stored(ctx context.Context, id, kind, what string) (store.Game, error) {
	if !validID(id) {
		return store.Game{}, play.Refuse(play.NotFound, "no %s %q", what, id)
	}
	rec, err := gs.solo.Store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && rec.Kind != kind {
		return store.Game{}, play.Refuse(play.NotFound, "no %s %q (a game left untouched for a month, or never played for a day, is deleted)", what, id)
	}
	return rec, err
}

// seenBy says whether viewer watches g (another's game) and, for its
// player, a solved game's place on its leaderboard.
func (gs *games) seenBy(ctx context.Context, g play.Game, viewer string) (watching bool, rank int) {
	rec := g.Record()
	if viewer != rec.Player {
		return true, 0
	}
	if rec.Status == store.StatusSolved {
		rank = gs.solo.Rank(ctx, *rec, g.Session())
	}
	return false, rank
}

// recorded is the result an action recorded as the page shows it, and
// its rank; nil and 0 for none.
func recorded(r *store.Result, rank int) (*publicResult, int) {
	if r == nil {
		return nil, 0
	}
	pub := publicResults([]store.Result{*r})[0]
	return &pub, rank
}

// load reads game id. A game that is not there is a play.NotFound; a
// stored state that does not decode is an internal error, never a panic.
func (gs *games) load(ctx context.Context, id string) (*played, error) {
	rec, err := gs.stored(ctx, id, store.KindSudoku, "game")
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
	v.Watching, v.Rank = gs.seenBy(ctx, p, viewer)
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

func (a Action) args() play.Args {
	return play.Args{Cell: a.Cell, Value: a.Value, On: a.On, Name: a.Name, Clear: a.Clear}
}

// actions lists the names act accepts, for error messages.
const actionNames = "move, mark, undo, redo, pause, resume, errors, hint, check, candidates, submit, name, solution"

// hinter finds a hint for the grid cur of puzzle: the engine, behind the
// server's work gates.
type hinter func(ctx context.Context, puzzle, cur sudoku.Grid) (logic.Advice, error)

// rules are the actions act runs under the game's lock (hint runs apart:
// it calls the engine, which never runs under a lock).
var rules = play.Rules{
	"move": play.Move, "mark": play.Mark, "undo": play.Undo, "redo": play.Redo,
	"pause": play.Pause, "resume": play.Resume, "errors": play.ToggleMistakes, "check": play.CheckEntries,
	"candidates": play.FillCandidates, "submit": play.Submit, "name": play.Name, "solution": play.GiveUp,
}

// act runs the action name for who on game id and stores the result
// before it returns the new view. engine answers hints.
func (gs *games) act(ctx context.Context, id, name string, who play.Actor, a Action, engine hinter) (View, error) {
	if name == "hint" {
		return gs.hint(ctx, id, who, a.Stage, engine)
	}
	rule, ok := rules[name]
	if !ok {
		return View{}, play.Refuse(play.NotFound, "no action %q (want one of: %s)", name, actionNames)
	}
	return gs.run(ctx, play.Request{ID: id, Action: name, Who: who, Name: a.Name}, rule, a.args())
}

// run applies rule to the game req names and returns the new view.
func (gs *games) run(ctx context.Context, req play.Request, rule play.Rule, a play.Args) (View, error) {
	d, found, err := play.Run(ctx, gs.solo, req, gs.load, rule, a)
	if err != nil {
		return View{}, err
	}
	v := d.Game.view(d.Now)
	v.Checked = found.Checked
	v.Result, v.Rank = recorded(d.Result, d.Rank)
	return v, nil
}

// hint answers stage (0 or 1: a new hint; 2: its pattern; 3: its answer,
// played as moves) of a hint outside the game's lock: under the lock it
// checks the game and counts the stage (play.OpenHint), then asks
// engine, which the caller has admitted through the work gates. Stages 2
// and 3 are for the hint still open: the grid has not changed since, so
// the engine finds the same step. Stage 3 then plays the answer under
// the lock, if the board is still the one the engine saw.
func (gs *games) hint(ctx context.Context, id string, who play.Actor, stage int, engine hinter) (View, error) {
	if stage == 0 {
		stage = 1
	}
	if stage < 1 || stage > 3 {
		return View{}, play.Refuse(play.Bad, "hint stage %d: want 1 (nudge), 2 (pattern) or 3 (answer)", stage)
	}
	req := play.Request{ID: id, Action: "hint", Who: who}
	d, err := play.Act(ctx, gs.solo, req, gs.load, func(p *played, _ time.Time) error { return play.OpenHint(p, stage) })
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
		answer := func(g play.Played, _ play.Args, now time.Time) (play.Found, error) {
			return play.Found{}, play.PlayAdvice(g, seen.Cells, step, now)
		}
		if v, err = gs.run(ctx, req, answer, play.Args{}); err != nil {
			return View{}, err
		}
	}
	v.Hint = &step
	return v, nil
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
	if over || p.s.Leaked() {
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
		v.Wrong = play.WrongEntries(p)
	}
	return v
}
