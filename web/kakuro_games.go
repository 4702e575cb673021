package web

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/kakuro"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/store"
)

// A Kakuro game, beside Sudoku's (games.go): how it is stored and shown,
// played with the same actions of package play, in white-cell numbers;
// one white cell per move, and its clock runs from the start. The board is package
// game's: the grid with its clue squares as walls and its runs as houses,
// so pencil marks, candidates, undo and redo follow Sudoku's rules.

// kakuroSession is what the store keeps of a Kakuro game beside its puzzle
// and solution (as JSON in store.Game.State): play.Session's fields and
// the board.
type kakuroSession struct {
	// Board is the board with its marks and moves. Entries, the digits
	// per white cell, is what games stored before it kept: read, then
	// left empty.
	Board   *game.Snapshot `json:"board,omitempty"`
	Entries []int          `json:"entries,omitempty"`
	play.Session
}

// KakuroView is a Kakuro game as the player sees it: never the solution,
// nor which entries are wrong, while the game is on and ranked.
type KakuroView struct {
	ID        string       `json:"id"`
	Size      string       `json:"size"` // the play area, "9x9"
	Level     string       `json:"level"`
	Rows      int          `json:"rows"` // the board, clue row and column included
	Cols      int          `json:"cols"`
	Cells     []kakuroCell `json:"cells"`
	Entries   []int        `json:"entries"`
	Marks     []game.Marks `json:"marks"` // pencil marks per white cell (bit d = d), empty cells only
	CanUndo   bool         `json:"canUndo"`
	CanRedo   bool         `json:"canRedo"`
	Status    string       `json:"status"`
	Watching  bool         `json:"watching,omitempty"` // not the player's browser
	ElapsedMs int64        `json:"elapsedMs"`
	Hints     int          `json:"hints"`
	MaxHints  int          `json:"maxHints"`
	// Mistakes is shown once check was used, or the game is over.
	Mistakes *int      `json:"mistakes,omitempty"`
	Assisted bool      `json:"assisted,omitempty"`
	Used     play.Used `json:"used,omitempty"`
	// Wrong lists white-cell numbers whose entry differs from the
	// solution: answered by check only.
	Wrong    []int         `json:"wrong,omitempty"`
	Hint     *play.Digit   `json:"hint,omitempty"`
	Solution []int         `json:"solution,omitempty"` // once the game is over
	Flag     string        `json:"flag,omitempty"`     // once solved: why unranked
	NeedName bool          `json:"needName,omitempty"` // solved, waiting for a name
	Rank     int           `json:"rank,omitempty"`
	Result   *publicResult `json:"result,omitempty"`
}

// kakuroAction is the body of POST /api/kakuro/games/{id}/{action}.
// Entries is refused: a whole board at once is not a move.
type kakuroAction struct {
	Cell    *int   `json:"cell,omitempty"`
	Value   *int   `json:"value,omitempty"`
	Entries []int  `json:"entries,omitempty"`
	Name    string `json:"name,omitempty"`
	// Clear (move): also take the digit out of the pencil marks of the
	// cells that share a run with it.
	Clear bool `json:"clear,omitempty"`
}

func (a kakuroAction) args() play.Args {
	return play.Args{Cell: a.Cell, Value: a.Value, Name: a.Name, Clear: a.Clear}
}

// kakuroPlayed is one Kakuro game in memory while an action runs on it.
type kakuroPlayed struct {
	rec    store.Game
	s      kakuroSession
	puzzle *kakuro.Board
	whites []int      // board index of each white cell, by its number
	gm     *game.Game // the board being played
	sol    []int      // the solution's digits, one per white cell
}

// kakuroActionNames lists the actions, for error messages.
const kakuroActionNames = "move, mark, undo, redo, candidates, check, hint, name, solution"

// kakuroRules are the Kakuro actions; a hint reveals one cell.
var kakuroRules = play.Rules{
	"move": play.Move, "mark": play.Mark, "undo": play.Undo, "redo": play.Redo,
	"candidates": play.FillCandidates, "check": play.CheckEntries, "hint": play.RevealCell,
	"name": play.Name, "submit": play.Submit, "solution": play.GiveUp,
}

// kakuroLayout is a Kakuro board as package game plays it: the whole
// grid, each run a house, each white cell's domain the digits of the
// sums its runs can make.
func kakuroLayout(b *kakuro.Board) game.Layout {
	l := game.Layout{Rows: b.Rows, Cols: b.Cols, Max: 9, Domain: make([]game.Marks, len(b.Cells))}
	all := game.Marks(0x3FE) // 1..9
	for _, i := range b.Whites() {
		l.Domain[i] = all
	}
	inRun := map[int]bool{}
	for _, r := range b.Runs() {
		l.Houses = append(l.Houses, r.Cells)
		for _, c := range r.Cells {
			inRun[c] = true
		}
		var fit game.Marks
		if r.Sum == 0 {
			fit = all
		}
		for _, combo := range kakuro.Combinations(len(r.Cells), r.Sum) {
			for _, d := range combo {
				fit |= 1 << d
			}
		}
		for _, c := range r.Cells {
			l.Domain[c] &= fit
		}
	}
	for _, i := range b.Whites() {
		if !inRun[i] { // a white cell no clue constrains is still played
			l.Houses = append(l.Houses, []int{i})
		}
	}
	return l
}

// newKakuro starts a game of puzzle (with its solution) for player.
func (gs *games) newKakuro(ctx context.Context, player string, puzzle, sol *kakuro.Board, size, level string) (KakuroView, error) {
	now := gs.solo.Now()
	whites := len(puzzle.Whites())
	gm, err := game.NewLayout(kakuroLayout(puzzle))
	if err != nil {
		return KakuroView{}, err
	}
	snap := gm.Snapshot()
	sess := kakuroSession{Board: &snap, Session: play.Session{FloorMs: play.FloorMs(gs.floorPerStep, 0, whites, 1)}}
	state, err := json.Marshal(sess)
	if err != nil {
		return KakuroView{}, err
	}
	rec := store.Game{
		ID: newID(), Kind: store.KindKakuro, Player: player, Size: size,
		Level: level, Puzzle: puzzle.String(), Solution: sol.String(), State: state,
		Status: store.StatusPlaying, Created: now, Updated: now,
	}
	if err := gs.solo.Create(ctx, rec, &sess.Session); err != nil {
		return KakuroView{}, err
	}
	p, err := kakuroOf(rec)
	if err != nil {
		return KakuroView{}, err
	}
	return p.view(now), nil
}

// kakuroLoad reads Kakuro game id.
func (gs *games) kakuroLoad(ctx context.Context, id string) (*kakuroPlayed, error) {
	rec, err := gs.stored(ctx, id, store.KindKakuro, "Kakuro game")
	if err != nil {
		return nil, err
	}
	return kakuroOf(rec)
}

// kakuroOf rebuilds a stored Kakuro game; nothing stored is trusted (the
// board must fit the puzzle's layout).
func kakuroOf(rec store.Game) (*kakuroPlayed, error) {
	p := &kakuroPlayed{rec: rec}
	if err := json.Unmarshal(rec.State, &p.s); err != nil {
		return nil, fmt.Errorf("kakuro game %s: stored state: %w", rec.ID, err)
	}
	var err error
	if p.puzzle, err = kakuro.ParseString(rec.Puzzle); err != nil {
		return nil, fmt.Errorf("kakuro game %s: stored puzzle: %w", rec.ID, err)
	}
	p.whites = p.puzzle.Whites()
	if p.sol, err = kakuroSolution(rec); err != nil {
		return nil, err
	}
	if len(p.sol) != len(p.whites) {
		return nil, fmt.Errorf("kakuro game %s: %d solution digits for %d white cells", rec.ID, len(p.sol), len(p.whites))
	}
	if p.s.Assisted && len(p.s.Used) == 0 {
		p.s.Used = play.Used{play.Check} // stored before the list: the only assist then
	}
	l := kakuroLayout(p.puzzle)
	if p.s.Board != nil {
		if p.gm, err = game.RestoreLayout(l, *p.s.Board); err != nil {
			return nil, fmt.Errorf("kakuro game %s: stored board: %w", rec.ID, err)
		}
		return p, nil
	}
	// A game stored before the board: its digits, without history.
	if len(p.s.Entries) != len(p.whites) {
		return nil, fmt.Errorf("kakuro game %s: %d entries for %d white cells", rec.ID, len(p.s.Entries), len(p.whites))
	}
	if p.gm, err = game.NewLayout(l); err != nil {
		return nil, err
	}
	values := make([]int, len(p.puzzle.Cells))
	for k, i := range p.whites {
		values[i] = p.s.Entries[k]
	}
	if err := p.gm.Start(values, nil); err != nil {
		return nil, fmt.Errorf("kakuro game %s: stored entries: %w", rec.ID, err)
	}
	p.s.Entries = nil
	return p, nil
}

// Answer and Cells make a kakuroPlayed a play.Played, in white-cell
// numbers.
func (p *kakuroPlayed) Answer(k int) int { return p.sol[k] }
func (p *kakuroPlayed) Cells() play.Cells {
	cols := p.puzzle.Cols
	return play.Cells{N: len(p.whites), Max: 9, Noun: "white cell", Square: func(k int) (int, int) { return p.whites[k] / cols, p.whites[k] % cols }}
}

// Stop sets the play time: a Kakuro game's clock runs from its start,
// without a pause, so Start has nothing to do.
func (p *kakuroPlayed) Stop(now time.Time) { p.s.ElapsedMs = now.Sub(p.rec.Created).Milliseconds() }
func (p *kakuroPlayed) Start(time.Time)    {}

// Record, Session, Board, State and Allow make a kakuroPlayed a play.Game;
// Kakuro has no rule of its own on when an action may run.
func (p *kakuroPlayed) Record() *store.Game    { return &p.rec }
func (p *kakuroPlayed) Session() *play.Session { return &p.s.Session }
func (p *kakuroPlayed) Board() *game.Game      { return p.gm }
func (p *kakuroPlayed) Allow(string) error     { return nil }
func (p *kakuroPlayed) State() any {
	snap := p.gm.Snapshot()
	p.s.Board = &snap
	return p.s
}

// kakuroGet returns Kakuro game id as viewer sees it.
func (gs *games) kakuroGet(ctx context.Context, id, viewer string) (KakuroView, error) {
	p, err := gs.kakuroLoad(ctx, id)
	if err != nil {
		return KakuroView{}, err
	}
	v := p.view(gs.solo.Now())
	v.Watching, v.Rank = gs.seenBy(ctx, p, viewer)
	return v, nil
}

// kakuroAct runs action on Kakuro game id for who and stores the result
// before it returns the new view.
func (gs *games) kakuroAct(ctx context.Context, id, action string, who play.Actor, a kakuroAction) (KakuroView, error) {
	rule, ok := kakuroRules[action]
	if !ok {
		return KakuroView{}, play.Refuse(play.NotFound, "no Kakuro action %q: want %s", action, kakuroActionNames)
	}
	if a.Entries != nil {
		return KakuroView{}, play.Refuse(play.Bad, "entries: send one cell per move ({\"cell\": n, \"value\": d}), not the whole board")
	}
	d, found, err := play.Run(ctx, gs.solo, play.Request{ID: id, Action: action, Who: who, Name: a.Name}, gs.kakuroLoad, rule, a.args())
	if err != nil {
		return KakuroView{}, err
	}
	v := d.Game.view(d.Now)
	v.Wrong, v.Hint = found.Checked, found.Revealed
	v.Result, v.Rank = recorded(d.Result, d.Rank)
	return v, nil
}

// view is what the page sees of the game: the solution and the mistakes
// only once the game is over (the mistakes also once checked).
func (p *kakuroPlayed) view(now time.Time) KakuroView {
	sess := p.s
	v := KakuroView{
		ID: p.rec.ID, Size: p.rec.Size, Level: p.rec.Level, Rows: p.puzzle.Rows, Cols: p.puzzle.Cols,
		Entries: play.Entries(p), Marks: make([]game.Marks, len(p.whites)), Status: p.rec.Status,
		Hints: sess.Hints, MaxHints: play.MaxHints, Assisted: sess.Assisted, Used: sess.Used,
		CanUndo: p.gm.CanUndo(), CanRedo: p.gm.CanRedo(),
	}
	for _, c := range p.puzzle.Cells {
		v.Cells = append(v.Cells, kakuroCell{White: c.White, Down: c.Down, Across: c.Across})
	}
	over := p.rec.Status != store.StatusPlaying
	for k, i := range p.whites {
		if r, c := i/p.puzzle.Cols, i%p.puzzle.Cols; !over && p.gm.Value(r, c) == 0 {
			v.Marks[k] = p.gm.Marks(r, c)
		}
	}
	if over || sess.Used.Leaked() {
		m := sess.Tally().Total()
		v.Mistakes = &m
	}
	v.ElapsedMs = sess.ElapsedMs
	if !over {
		v.ElapsedMs = now.Sub(p.rec.Created).Milliseconds()
		return v
	}
	v.Solution = p.sol
	v.Flag, v.NeedName = sess.Flag, p.rec.Status == store.StatusSolved && sess.Name == ""
	return v
}

// kakuroSolution returns the solution's digits of rec, one per white cell.
func kakuroSolution(rec store.Game) ([]int, error) {
	b, err := kakuro.ParseString(rec.Solution)
	if err != nil {
		return nil, fmt.Errorf("kakuro game %s: stored solution: %w", rec.ID, err)
	}
	var out []int
	for _, i := range b.Whites() {
		out = append(out, b.Cells[i].Digit)
	}
	return out, nil
}
