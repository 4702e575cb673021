package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"net/http"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// MaxHints is how many hints one game allows.
const MaxHints = 5

// games plays single-player games: it knows the rules of a session (the
// clock, hints, mistakes, checking, submitting) and nothing of HTTP. Every
// action loads the game from the store, changes it and writes it back
// before it answers, so a reload or a restart never loses a move.
type games struct {
	store store.Store
	now   func() time.Time
	locks [64]sync.Mutex // actions on one game run one at a time
	seed  maphash.Seed
	once  sync.Once
}

// session is what the store keeps of a game beside its puzzle and
// solution (as JSON in store.Game.State).
type session struct {
	Box          [2]int        `json:"box"`
	Rating       float64       `json:"rating,omitempty"`
	Board        game.Snapshot `json:"board"`        // the board, its marks and its move list
	ElapsedMs    int64         `json:"elapsedMs"`    // play time up to RunningSince
	RunningSince int64         `json:"runningSince"` // unix ms the clock last started; 0 while paused
	Hints        int           `json:"hints"`
	Mistakes     int           `json:"mistakes"`
	ShowErrors   bool          `json:"showErrors"`
	Name         string        `json:"name,omitempty"` // who submitted it
	Own          bool          `json:"own,omitempty"`  // the player's own puzzle: unranked
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

// View is a game as the player sees it: never the solution while the game
// is on.
type View struct {
	ID         string       `json:"id"`
	Size       int          `json:"size"`
	Box        [2]int       `json:"box"`
	Level      string       `json:"level"`
	Own        bool         `json:"own,omitempty"` // the player's own puzzle: not ranked
	Rating     float64      `json:"rating,omitempty"`
	Puzzle     string       `json:"puzzle"` // the givens, '0' for empty
	Cells      string       `json:"cells"`  // the grid now, givens included
	Marks      []game.Marks `json:"marks"`  // pencil marks per cell: bit v set = v
	Status     string       `json:"status"` // playing, solved, revealed
	ElapsedMs  int64        `json:"elapsedMs"`
	Paused     bool         `json:"paused"`
	Hints      int          `json:"hints"`
	MaxHints   int          `json:"maxHints"`
	Mistakes   int          `json:"mistakes"`
	ShowErrors bool         `json:"showErrors"`
	// Wrong lists entries that differ from the solution and Conflicts the
	// cells that break a rule; both only while ShowErrors is on.
	Wrong     []int `json:"wrong"`
	Conflicts []int `json:"conflicts"`
	Filled    int   `json:"filled"`
	Total     int   `json:"total"`
	CanUndo   bool  `json:"canUndo"`
	CanRedo   bool  `json:"canRedo"`
	// Solution is set once the game is over (solved or revealed).
	Solution string `json:"solution,omitempty"`
	// Set by the action that asked for them.
	Hint    *Step         `json:"hint,omitempty"`
	Checked []int         `json:"checked,omitempty"` // wrong entries found by check or submit
	Result  *publicResult `json:"result,omitempty"`
}

// newGame starts a game of puzzle (unique, with solution) for player.
func (gs *games) newGame(ctx context.Context, player string, gen Generated) (View, error) {
	now := gs.now()
	shape := gen.Puzzle.Shape
	fixed := make([]bool, len(gen.Puzzle.Cells))
	for i, v := range gen.Puzzle.Cells {
		fixed[i] = v != 0
	}
	gm, err := game.FromGrid(gen.Puzzle, fixed)
	if err != nil {
		return View{}, err
	}
	s := session{
		Box:          [2]int{shape.BoxRows, shape.BoxCols},
		Rating:       gen.Rating,
		Board:        gm.Snapshot(),
		RunningSince: now.UnixMilli(),
		ShowErrors:   true,
		Own:          gen.Own,
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
	if err := gs.store.CreateGame(ctx, rec); err != nil {
		return View{}, err
	}
	p := &played{rec: rec, s: s, gm: gm, shape: shape, puzzle: gen.Puzzle, solution: gen.Solution}
	return p.view(now), nil
}

func (gs *games) lock(id string) *sync.Mutex {
	gs.once.Do(func() { gs.seed = maphash.MakeSeed() })
	return &gs.locks[maphash.String(gs.seed, id)%uint64(len(gs.locks))]
}

// load reads game id. A game that is not there is a 404; a stored state
// that does not decode is an internal error (logged), never a panic.
func (gs *games) load(ctx context.Context, id string) (*played, error) {
	if !validID(id) {
		return nil, errorf(http.StatusNotFound, "no game %q", id)
	}
	rec, err := gs.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(http.StatusNotFound, "no game %q (a game left untouched for a month, or never played for a day, is deleted)", id)
	}
	if err != nil {
		return nil, err
	}
	p := &played{rec: rec}
	if err := json.Unmarshal(rec.State, &p.s); err != nil {
		return nil, fmt.Errorf("game %s: stored state: %w", id, err)
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

// get returns game id as its player sees it.
func (gs *games) get(ctx context.Context, id string) (View, error) {
	p, err := gs.load(ctx, id)
	if err != nil {
		return View{}, err
	}
	return p.view(gs.now()), nil
}

// Action is one thing a player does to a game; the fields used depend on
// the action's name (see act).
type Action struct {
	Cell  *int   `json:"cell,omitempty"`
	Value *int   `json:"value,omitempty"`
	On    *bool  `json:"on,omitempty"`
	Name  string `json:"name,omitempty"`
}

// actions lists the names act accepts, for error messages.
const actionNames = "move, mark, undo, redo, pause, resume, errors, hint, check, submit, solution"

// act runs the action name on game id and stores the result before it
// returns the new view.
func (gs *games) act(ctx context.Context, id, name string, a Action) (View, error) {
	mu := gs.lock(id)
	mu.Lock()
	defer mu.Unlock()
	p, err := gs.load(ctx, id)
	if err != nil {
		return View{}, err
	}
	now := gs.now()
	var extra func(*View)
	var finish *store.Result
	if p.rec.Status != store.StatusPlaying {
		return View{}, errorf(http.StatusConflict, "the game is over (%s)", p.rec.Status)
	}
	paused := p.s.RunningSince == 0
	switch name {
	case "pause", "resume", "errors", "solution", "submit":
	default:
		if paused {
			return View{}, errorf(http.StatusConflict, "the game is paused: resume it first")
		}
	}
	gm := p.gm
	switch name {
	case "move", "mark":
		if a.Cell == nil || a.Value == nil {
			return View{}, errorf(http.StatusBadRequest, "%s needs \"cell\" (0..%d) and \"value\"", name, p.shape.N()*p.shape.N()-1)
		}
		n := p.shape.N()
		cell, v := *a.Cell, *a.Value
		if cell < 0 || cell >= n*n {
			return View{}, errorf(http.StatusBadRequest, "cell %d is off the board (0..%d)", cell, n*n-1)
		}
		r, c := cell/n, cell%n
		switch {
		case gm.Fixed(r, c):
			err = game.ErrFixed
		case name == "mark":
			_, err = gm.ToggleMark(r, c, v)
		case gm.Value(r, c) == v:
			// The digit is already there: no move, no second mistake.
		default:
			if _, err = gm.Set(r, c, v); err == nil && v != 0 && v != p.solution.Cells[cell] {
				p.s.Mistakes++
			}
		}
		if errors.Is(err, game.ErrFixed) {
			return View{}, errorf(http.StatusConflict, "r%dc%d is a given and cannot change", r+1, c+1)
		}
	case "undo":
		_, err = gm.Undo()
	case "redo":
		_, err = gm.Redo()
	case "pause":
		if !paused {
			p.s.ElapsedMs += now.UnixMilli() - p.s.RunningSince
			p.s.RunningSince = 0
		}
	case "resume":
		if paused {
			p.s.RunningSince = now.UnixMilli()
		}
	case "errors":
		if a.On == nil {
			return View{}, errorf(http.StatusBadRequest, "errors needs \"on\": true or false")
		}
		p.s.ShowErrors = *a.On
	case "hint":
		if p.s.Hints >= MaxHints {
			return View{}, errorf(http.StatusConflict, "no hints left: all %d used", MaxHints)
		}
		step, herr := hint(ctx, p.puzzle, gm.Grid())
		if herr != nil {
			return View{}, errorf(http.StatusConflict, "no hint: %v", herr)
		}
		p.s.Hints++
		extra = func(v *View) { v.Hint = &step }
	case "check":
		wrong := p.wrongEntries()
		extra = func(v *View) { v.Checked = wrong }
	case "submit":
		if empty := p.empty(); empty > 0 {
			return View{}, errorf(http.StatusConflict, "%d cells are still empty", empty)
		}
		if wrong := p.wrongEntries(); len(wrong) > 0 {
			extra = func(v *View) { v.Checked = wrong }
			break
		}
		nm, nerr := store.CleanName(a.Name)
		if nerr != nil {
			return View{}, errorf(http.StatusBadRequest, "%v", nerr)
		}
		p.stopClock(now)
		p.s.Name = nm
		p.rec.Status = store.StatusSolved
		finish = &store.Result{
			Kind: p.rec.Kind, Size: p.rec.Size, Level: p.rec.Level, Player: p.rec.Player, Name: nm,
			Millis: p.s.ElapsedMs, Hints: p.s.Hints, Mistakes: p.s.Mistakes, Finished: now,
		}
		if p.s.Own {
			finish.Level = "" // unranked: on no leaderboard, in the history as "own"
		}
	case "solution":
		p.stopClock(now)
		p.rec.Status = store.StatusRevealed
	default:
		return View{}, errorf(http.StatusNotFound, "no action %q (want one of: %s)", name, actionNames)
	}
	var re *game.RangeError
	switch {
	case errors.As(err, &re):
		return View{}, errorf(http.StatusBadRequest, "%s %d is not %d..%d", re.What, re.Value, re.Min, re.Max)
	case errors.Is(err, game.ErrNoUndo):
		return View{}, errorf(http.StatusConflict, "nothing to undo")
	case errors.Is(err, game.ErrNoRedo):
		return View{}, errorf(http.StatusConflict, "nothing to redo")
	case err != nil:
		return View{}, err
	}
	p.s.Board = gm.Snapshot()
	if p.rec.State, err = json.Marshal(p.s); err != nil {
		return View{}, err
	}
	p.rec.Updated = now
	if finish != nil {
		r, err := gs.store.FinishGame(ctx, p.rec, *finish)
		if err != nil {
			return View{}, err
		}
		pub := publicResults([]store.Result{r})[0]
		extra = func(v *View) { v.Result = &pub }
	} else if err := gs.store.UpdateGame(ctx, p.rec); err != nil {
		return View{}, err
	}
	v := p.view(now)
	if extra != nil {
		extra(&v)
	}
	return v, nil
}

func (p *played) stopClock(now time.Time) {
	if p.s.RunningSince != 0 {
		p.s.ElapsedMs += now.UnixMilli() - p.s.RunningSince
		p.s.RunningSince = 0
	}
}

func (p *played) empty() int { return p.gm.EmptyCells() }

// wrongEntries lists the filled cells whose digit is not the solution's.
func (p *played) wrongEntries() []int {
	wrong := []int{}
	for i, v := range p.gm.Grid().Cells {
		if v != 0 && v != p.solution.Cells[i] {
			wrong = append(wrong, i)
		}
	}
	return wrong
}

func (p *played) view(now time.Time) View {
	gm := p.gm
	n := p.shape.N()
	cells := gm.Grid()
	marks := make([]game.Marks, n*n)
	for i := range marks {
		if cells.Cells[i] == 0 { // marks show in empty cells only
			marks[i] = gm.Marks(i/n, i%n)
		}
	}
	v := View{
		ID: p.rec.ID, Size: n, Box: p.s.Box, Level: p.rec.Level, Rating: p.s.Rating, Own: p.s.Own,
		Puzzle: p.rec.Puzzle, Cells: sudoku.CellString(cells.Cells),
		Marks: marks, Status: p.rec.Status, ElapsedMs: p.s.ElapsedMs, Paused: p.s.RunningSince == 0,
		Hints: p.s.Hints, MaxHints: MaxHints, Mistakes: p.s.Mistakes, ShowErrors: p.s.ShowErrors,
		Wrong: []int{}, Conflicts: []int{}, Total: n * n, Filled: n*n - gm.EmptyCells(),
		CanUndo: gm.CanUndo(), CanRedo: gm.CanRedo(),
	}
	if p.s.RunningSince != 0 {
		v.ElapsedMs += now.UnixMilli() - p.s.RunningSince
	}
	if p.s.ShowErrors && p.rec.Status == store.StatusPlaying {
		v.Wrong = p.wrongEntries()
		for i := range n * n {
			if gm.Conflict(i/n, i%n) {
				v.Conflicts = append(v.Conflicts, i)
			}
		}
	}
	if p.rec.Status != store.StatusPlaying {
		v.Solution = p.rec.Solution
	}
	return v
}
