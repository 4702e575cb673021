package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sudokuar/sudokuar/kakuro"
	"github.com/sudokuar/sudokuar/store"
)

// The rules of a Kakuro session, beside Sudoku's (games.go) and under the
// same fair-play rules: entries are moves, one white cell per action,
// timed by the server; while a game is on and ranked no answer says which
// entries are wrong, nor counts the mistakes; check is an assist that
// unranks the game; the move (or hint) that completes the solution ends
// the game by the server's clock; a finish under the plausibility floor
// is flagged; only the player's cookie acts. Like games.go, nothing of
// HTTP: refusals are *playError values.

// kakuroSession is what the store keeps of a Kakuro game beside its puzzle
// and solution (as JSON in store.Game.State).
type kakuroSession struct {
	Entries    []int  `json:"entries"` // the player's digits, one per white cell in reading order, 0 = empty
	Hints      int    `json:"hints"`
	Mistakes   int    `json:"mistakes"` // wrong digits entered
	Name       string `json:"name,omitempty"`
	ElapsedMs  int64  `json:"elapsedMs,omitempty"` // set when the game ends
	Assisted   bool   `json:"assisted,omitempty"`  // check was used: unranked
	FloorMs    int64  `json:"floorMs,omitempty"`   // the plausibility floor
	FinishedAt int64  `json:"finishedAt,omitempty"`
	Flag       string `json:"flag,omitempty"` // why the finish is unranked
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
	Status    string       `json:"status"`
	Watching  bool         `json:"watching,omitempty"` // not the player's browser
	ElapsedMs int64        `json:"elapsedMs"`
	Hints     int          `json:"hints"`
	MaxHints  int          `json:"maxHints"`
	// Mistakes is shown once check was used, or the game is over.
	Mistakes *int `json:"mistakes,omitempty"`
	Assisted bool `json:"assisted,omitempty"`
	// Wrong lists white-cell numbers whose entry differs from the
	// solution: answered by check only.
	Wrong    []int         `json:"wrong,omitempty"`
	Hint     *kakuroHint   `json:"hint,omitempty"`
	Solution []int         `json:"solution,omitempty"` // once the game is over
	Flag     string        `json:"flag,omitempty"`     // once solved: why unranked
	NeedName bool          `json:"needName,omitempty"` // solved, waiting for a name
	Rank     int           `json:"rank,omitempty"`
	Result   *publicResult `json:"result,omitempty"`
}

// kakuroHint is one revealed digit.
type kakuroHint struct {
	Cell  int `json:"cell"` // white-cell number
	Digit int `json:"digit"`
}

// kakuroAction is the body of POST /api/kakuro/games/{id}/{action}.
// Entries is refused: a whole board at once is not a move.
type kakuroAction struct {
	Cell    *int   `json:"cell,omitempty"`
	Value   *int   `json:"value,omitempty"`
	Entries []int  `json:"entries,omitempty"`
	Name    string `json:"name,omitempty"`
}

// kakuroPlayed is one Kakuro game in memory while an action runs on it.
type kakuroPlayed struct {
	rec  store.Game
	s    kakuroSession
	sol  []int // the solution's digits, one per white cell
	over []int // set when the answer may show the solution
}

// kakuroActionNames lists the actions, for error messages.
const kakuroActionNames = "move, check, hint, name, solution"

// kakuroRule is one Kakuro action's change to a loaded game.
type kakuroRule func(p *kakuroPlayed, a kakuroAction, now time.Time) (extra func(*KakuroView), err error)

var kakuroRules = map[string]kakuroRule{
	"move": kakuroMove, "check": kakuroCheck, "hint": kakuroHintRule,
	"name": kakuroName, "submit": kakuroName, "solution": kakuroReveal,
}

// kakuroLoad reads Kakuro game id.
func (gs *games) kakuroLoad(ctx context.Context, id string) (*kakuroPlayed, error) {
	if !validID(id) {
		return nil, refuse(playNotFound, "no Kakuro game %q", id)
	}
	rec, err := gs.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && rec.Kind != store.KindKakuro {
		return nil, refuse(playNotFound, "no Kakuro game %q", id)
	}
	if err != nil {
		return nil, err
	}
	p := &kakuroPlayed{rec: rec}
	if err := json.Unmarshal(rec.State, &p.s); err != nil {
		return nil, fmt.Errorf("kakuro game %s: stored state: %w", id, err)
	}
	if p.sol, err = kakuroSolution(rec); err != nil {
		return nil, err
	}
	if len(p.s.Entries) != len(p.sol) {
		return nil, fmt.Errorf("kakuro game %s: %d entries for %d white cells", id, len(p.s.Entries), len(p.sol))
	}
	if rec.Status != store.StatusPlaying {
		p.over = p.sol
	}
	return p, nil
}

// kakuroGet returns Kakuro game id as viewer sees it.
func (gs *games) kakuroGet(ctx context.Context, id, viewer string) (KakuroView, error) {
	p, err := gs.kakuroLoad(ctx, id)
	if err != nil {
		return KakuroView{}, err
	}
	v, err := kakuroView(p.rec, p.s, gs.now())
	v.Watching = viewer != p.rec.Player
	if err == nil && p.rec.Status == store.StatusSolved && !v.Watching {
		v.Rank = gs.rankOf(ctx, p.rec, p.s.Flag, p.s.Name)
	}
	return v, err
}

// kakuroAct runs action on Kakuro game id for who and stores the result
// before it returns the new view.
func (gs *games) kakuroAct(ctx context.Context, id, action string, who actor, a kakuroAction) (KakuroView, error) {
	apply, ok := kakuroRules[action]
	if !ok {
		return KakuroView{}, refuse(playNotFound, "no Kakuro action %q: want %s", action, kakuroActionNames)
	}
	if a.Entries != nil {
		return KakuroView{}, refuse(playBad, "entries: send one cell per move ({\"cell\": n, \"value\": d}), not the whole board")
	}
	mu := gs.lock(id)
	mu.Lock()
	defer mu.Unlock()
	return retried(ctx, func() (KakuroView, error) { return gs.kakuroActOnce(ctx, id, action, who, a, apply) })
}

// kakuroActOnce is one try of kakuroAct (the game's lock held).
func (gs *games) kakuroActOnce(ctx context.Context, id, action string, who actor, a kakuroAction, apply kakuroRule) (KakuroView, error) {
	p, err := gs.kakuroLoad(ctx, id)
	if err != nil {
		return KakuroView{}, err
	}
	if who.Player != p.rec.Player {
		return KakuroView{}, refuse(playForbidden, "this game belongs to another browser: you can watch it, or start your own")
	}
	naming := (action == "name" || action == "submit") && p.rec.Status == store.StatusSolved && p.s.Name == ""
	if p.rec.Status != store.StatusPlaying && !naming {
		return KakuroView{}, refuse(playConflict, "this game is over (%s)", p.rec.Status)
	}
	now := gs.now()
	extra, err := apply(p, a, now)
	if err != nil {
		return KakuroView{}, err
	}
	if p.rec.Status == store.StatusSolved && p.s.Name == "" {
		p.s.Name = nameOr(a.Name, who.Name)
	}
	res, err := gs.kakuroSave(ctx, p, now)
	if err != nil {
		return KakuroView{}, err
	}
	v, err := kakuroView(p.rec, p.s, now)
	if err != nil {
		return KakuroView{}, err
	}
	if extra != nil {
		extra(&v)
	}
	if res != nil {
		pub := publicResults([]store.Result{*res})[0]
		v.Result = &pub
		v.Rank = gs.rankOf(ctx, p.rec, p.s.Flag, p.s.Name)
	}
	return v, nil
}

// kakuroSave stores p; a solved game with a name gets its result.
func (gs *games) kakuroSave(ctx context.Context, p *kakuroPlayed, now time.Time) (*store.Result, error) {
	return gs.write(ctx, &p.rec, p.s, now, p.s.Name != "", func() store.Result {
		return store.Result{
			GameID: p.rec.ID, Kind: store.KindKakuro, Size: p.rec.Size, Level: p.rec.Level, Player: p.rec.Player,
			Name: p.s.Name, Millis: p.s.ElapsedMs, Hints: p.s.Hints, Mistakes: p.s.Mistakes,
			Finished: time.UnixMilli(p.s.FinishedAt).UTC(), Flag: p.s.Flag,
		}
	})
}

// rankOf is a solved game's place on its leaderboard (0: unranked, or
// beyond the first 100).
func (gs *games) rankOf(ctx context.Context, rec store.Game, flag, name string) int {
	if flag != "" || name == "" {
		return 0
	}
	list, err := gs.store.Leaderboard(ctx, store.Board{Kind: rec.Kind, Size: rec.Size, Level: rec.Level}, 100)
	if err != nil {
		return 0
	}
	for k, r := range list {
		if r.GameID == rec.ID {
			return k + 1
		}
	}
	return 0
}

// kakuroMove writes one digit (0 clears) in one white cell.
func kakuroMove(p *kakuroPlayed, a kakuroAction, now time.Time) (func(*KakuroView), error) {
	if a.Cell == nil || a.Value == nil {
		return nil, refuse(playBad, "move needs \"cell\" (white cell 0..%d) and \"value\" (0..9)", len(p.sol)-1)
	}
	c, d := *a.Cell, *a.Value
	if c < 0 || c >= len(p.sol) {
		return nil, refuse(playBad, "cell %d: want a white cell 0..%d", c, len(p.sol)-1)
	}
	if d < 0 || d > 9 {
		return nil, refuse(playBad, "value %d: want 0 (empty) to 9", d)
	}
	if p.s.Entries[c] == d {
		return nil, nil // no change, no second mistake
	}
	p.s.Entries[c] = d
	if d != 0 && d != p.sol[c] {
		p.s.Mistakes++
	}
	p.finishIfSolved(now)
	return nil, nil
}

// kakuroCheck lists the wrong entries: an assist, so the game is unranked.
func kakuroCheck(p *kakuroPlayed, _ kakuroAction, _ time.Time) (func(*KakuroView), error) {
	p.s.Assisted = true
	wrong := p.wrong()
	return func(v *KakuroView) { v.Wrong = wrong }, nil
}

// kakuroHintRule reveals one cell: a wrong one first, else the first
// empty one. It counts as one of kakuroMaxHints.
func kakuroHintRule(p *kakuroPlayed, _ kakuroAction, now time.Time) (func(*KakuroView), error) {
	if p.s.Hints >= kakuroMaxHints {
		return nil, refuse(playConflict, "no hints left: %d used", p.s.Hints)
	}
	c := -1
	if ws := p.wrong(); len(ws) > 0 {
		c = ws[0]
	} else if k := slices.Index(p.s.Entries, 0); k >= 0 {
		c = k
	}
	if c < 0 {
		return nil, refuse(playConflict, "every cell is filled and right")
	}
	p.s.Hints++
	p.s.Entries[c] = p.sol[c]
	p.finishIfSolved(now)
	h := kakuroHint{Cell: c, Digit: p.sol[c]}
	return func(v *KakuroView) { v.Hint = &h }, nil
}

// kakuroName names a solved game, which records its result.
func kakuroName(p *kakuroPlayed, a kakuroAction, _ time.Time) (func(*KakuroView), error) {
	if p.rec.Status != store.StatusSolved {
		return nil, refuse(playConflict, "the game is not finished yet: it ends with the last right digit")
	}
	name, err := store.CleanName(a.Name)
	if err != nil {
		return nil, refuse(playBad, "%v", err)
	}
	p.s.Name = name
	return nil, nil
}

// kakuroReveal ends the game unranked and shows the solution.
func kakuroReveal(p *kakuroPlayed, _ kakuroAction, now time.Time) (func(*KakuroView), error) {
	p.s.ElapsedMs = now.Sub(p.rec.Created).Milliseconds()
	p.rec.Status = store.StatusRevealed
	p.over = p.sol
	return nil, nil
}

func (p *kakuroPlayed) wrong() []int { return wrongCells(p.s.Entries, p.sol) }

// finishIfSolved ends the game when the entries are the solution.
func (p *kakuroPlayed) finishIfSolved(now time.Time) {
	if !slices.Equal(p.s.Entries, p.sol) {
		return
	}
	p.rec.Status = store.StatusSolved
	p.over = p.sol
	p.s.ElapsedMs = now.Sub(p.rec.Created).Milliseconds()
	p.s.FinishedAt = now.UnixMilli()
	p.s.Flag = finishFlag(false, p.s.Assisted, p.s.ElapsedMs, p.s.FloorMs)
}

// kakuroView builds what the page sees of rec; the solution and the
// mistakes only once the game is over (the mistakes also once assisted).
func kakuroView(rec store.Game, sess kakuroSession, now time.Time) (KakuroView, error) {
	b, err := kakuro.ParseString(rec.Puzzle)
	if err != nil {
		return KakuroView{}, fmt.Errorf("kakuro game %s: stored puzzle: %w", rec.ID, err)
	}
	v := KakuroView{
		ID: rec.ID, Size: rec.Size, Level: rec.Level, Rows: b.Rows, Cols: b.Cols,
		Entries: sess.Entries, Status: rec.Status, Hints: sess.Hints, MaxHints: kakuroMaxHints, Assisted: sess.Assisted,
	}
	for _, c := range b.Cells {
		v.Cells = append(v.Cells, kakuroCell{White: c.White, Down: c.Down, Across: c.Across})
	}
	over := rec.Status != store.StatusPlaying
	if over || sess.Assisted {
		m := sess.Mistakes
		v.Mistakes = &m
	}
	v.ElapsedMs = sess.ElapsedMs
	if !over {
		v.ElapsedMs = now.Sub(rec.Created).Milliseconds()
		return v, nil
	}
	if v.Solution, err = kakuroSolution(rec); err != nil {
		return KakuroView{}, err
	}
	v.Flag, v.NeedName = sess.Flag, rec.Status == store.StatusSolved && sess.Name == ""
	return v, nil
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
