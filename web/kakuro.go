package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/kakuro"
	"github.com/sudokuar/sudokuar/store"
)

// Kakuro in the web app: a play page (/kakuro) that asks for a generated
// puzzle by play area and level, times the player, colours wrong entries,
// gives hints and takes a submission for the Kakuro leaderboard; and a
// page (/kakuro/solve) to type in a newspaper Kakuro and solve it. Every
// puzzle offered for play comes from package kakuro's generator (the
// published test puzzles are never served). The rules, solving, rating
// and generating are package kakuro's; this file only keeps sessions in
// the store, like games.go does for Sudoku.

// kakuroSizes are the play areas (white area without the clue row and
// column) offered, with the hardest level each gets in the time a player
// waits (see kakuroGenerateTimeout and the README's generator figures).
var kakuroSizes = []struct {
	N   int
	Max kakuro.Level
}{{5, kakuro.Hard}, {7, kakuro.Hard}, {9, kakuro.Hard}, {12, kakuro.Hard}}

// kakuroLevels are the levels the play page offers.
var kakuroLevels = []kakuro.Level{kakuro.Easy, kakuro.Medium, kakuro.Hard}

// kakuroLevelNotes say what each level needs.
var kakuroLevelNotes = map[kakuro.Level]string{
	kakuro.Easy:   "sum combinations",
	kakuro.Medium: "whole runs",
	kakuro.Hard:   "cross-run reasoning",
}

// Limits of a Kakuro session.
const (
	kakuroGenerateTimeout = 20 * time.Second
	kakuroSolveTimeout    = 5 * time.Second
	kakuroMaxHints        = 5
	// kakuroMaxText bounds a typed puzzle: a 40x40 board of "45\45" tokens.
	kakuroMaxText = 40 * 40 * 7
	// kakuroMaxNodes caps the solver's search on a typed board.
	kakuroMaxNodes = 2_000_000
)

// kakuroSession is what the store keeps of a Kakuro game beside its puzzle
// and solution (as JSON in store.Game.State).
type kakuroSession struct {
	Entries   []int  `json:"entries"` // the player's digits, one per white cell in reading order, 0 = empty
	Hints     int    `json:"hints"`
	Mistakes  int    `json:"mistakes"` // wrong cells found by check or a refused submit
	Name      string `json:"name,omitempty"`
	ElapsedMs int64  `json:"elapsedMs,omitempty"` // set when the game ends
}

// kakuroCell is one board square as the page draws it.
type kakuroCell struct {
	White  bool `json:"w,omitempty"`
	Down   int  `json:"d,omitempty"`
	Across int  `json:"a,omitempty"`
}

// KakuroView is a Kakuro game as the player sees it: never the solution
// while the game is on.
type KakuroView struct {
	ID        string       `json:"id"`
	Size      string       `json:"size"` // the play area, "9x9"
	Level     string       `json:"level"`
	Rows      int          `json:"rows"` // the board, clue row and column included
	Cols      int          `json:"cols"`
	Cells     []kakuroCell `json:"cells"`
	Entries   []int        `json:"entries"`
	Status    string       `json:"status"`
	ElapsedMs int64        `json:"elapsedMs"`
	Hints     int          `json:"hints"`
	MaxHints  int          `json:"maxHints"`
	Mistakes  int          `json:"mistakes"`
	// Wrong lists white-cell numbers whose entry differs from the
	// solution: answered by check, hint and a refused submit.
	Wrong    []int         `json:"wrong,omitempty"`
	Hint     *kakuroHint   `json:"hint,omitempty"`
	Solution []int         `json:"solution,omitempty"` // once the game is over
	Result   *publicResult `json:"result,omitempty"`
}

// kakuroHint is one revealed digit.
type kakuroHint struct {
	Cell  int `json:"cell"` // white-cell number
	Digit int `json:"digit"`
}

// kakuroAction is the body of POST /api/kakuro/games/{id}/{action}.
type kakuroAction struct {
	Entries []int  `json:"entries"`
	Name    string `json:"name,omitempty"`
}

func (s *Server) kakuroRoutes() {
	m := s.mux
	m.HandleFunc("GET /kakuro", s.kakuroPage)
	m.HandleFunc("GET /kakuro/solve", s.page("kakuro-solve"))
	m.HandleFunc("GET /kakuro/{id}", s.kakuroPage)
	m.HandleFunc("POST /api/kakuro/games", s.apiKakuroNew)
	m.HandleFunc("GET /api/kakuro/games/{id}", s.apiKakuroGame)
	m.HandleFunc("POST /api/kakuro/games/{id}/{action}", s.apiKakuroAction)
	m.HandleFunc("GET /api/kakuro/leaderboard", s.apiKakuroLeaderboard)
	m.HandleFunc("POST /api/kakuro/solve", s.apiKakuroSolve)
}

// kakuroPageData is the play page's data: the choices.
type kakuroPageData struct {
	Sizes  []int
	Levels []kakuroLevelChoice
}

type kakuroLevelChoice struct{ Name, Note string }

func (s *Server) kakuroPage(w http.ResponseWriter, r *http.Request) {
	s.player(w, r)
	d := kakuroPageData{}
	for _, z := range kakuroSizes {
		d.Sizes = append(d.Sizes, z.N)
	}
	for _, l := range kakuroLevels {
		d.Levels = append(d.Levels, kakuroLevelChoice{l.String(), kakuroLevelNotes[l]})
	}
	s.render(w, r, http.StatusOK, "kakuro", d)
}

// parseKakuroChoice checks a size ("9" or "9x9") and level against what
// the page offers.
func parseKakuroChoice(size, level string) (int, kakuro.Level, error) {
	var n int
	if _, err := fmt.Sscanf(size, "%d", &n); err != nil || (size != fmt.Sprint(n) && size != fmt.Sprintf("%dx%d", n, n)) {
		return 0, 0, errorf(http.StatusBadRequest, "size %q: want one of %s", size, kakuroSizeList())
	}
	lv, err := kakuro.ParseLevel(level)
	if err != nil {
		return 0, 0, errorf(http.StatusBadRequest, "level %q: want easy, medium or hard", level)
	}
	for _, z := range kakuroSizes {
		if z.N == n {
			if lv > z.Max {
				return 0, 0, errorf(http.StatusBadRequest, "no %v Kakuro at %dx%d: the hardest there is %v", lv, n, n, z.Max)
			}
			return n, lv, nil
		}
	}
	return 0, 0, errorf(http.StatusBadRequest, "size %q: want one of %s", size, kakuroSizeList())
}

func kakuroSizeList() string {
	var out []string
	for _, z := range kakuroSizes {
		out = append(out, fmt.Sprint(z.N))
	}
	return strings.Join(out, ", ")
}

// apiKakuroNew: POST /api/kakuro/games {"size": "9", "level": "medium"}
// -> KakuroView of a new generated puzzle.
func (s *Server) apiKakuroNew(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Size  string `json:"size"`
		Level string `json:"level"`
	}
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	n, lv, err := parseKakuroChoice(req.Size, req.Level)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// Generating is the costliest thing a client can ask for: the same
	// rate limit and work gate as a new Sudoku game.
	done, err := s.admit(r, s.guards.games, s.guards.work)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer done()
	ctx, cancel := context.WithTimeout(r.Context(), kakuroGenerateTimeout)
	defer cancel()
	sol, rating, err := kakuro.GenerateContext(ctx, kakuro.GenerateOptions{Rows: n, Cols: n, Level: lv, Seed: newSeed()})
	switch {
	case ctx.Err() != nil || errors.Is(err, kakuro.ErrGiveUp):
		s.writeError(w, r, errorf(http.StatusServiceUnavailable, "no %v %dx%d Kakuro found in time: try again", lv, n, n))
		return
	case err != nil:
		s.writeError(w, r, fmt.Errorf("generate kakuro %dx%d %v: %w", n, n, lv, err))
		return
	}
	puzzle := sol.Blank()
	sess := kakuroSession{Entries: make([]int, len(puzzle.Whites()))}
	state, err := json.Marshal(sess)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	now := s.cfg.Now()
	rec := store.Game{
		ID: newID(), Kind: store.KindKakuro, Player: s.player(w, r), Size: fmt.Sprintf("%dx%d", n, n),
		Level: rating.Level.String(), Puzzle: puzzle.String(), Solution: sol.String(), State: state,
		Status: store.StatusPlaying, Created: now, Updated: now,
	}
	if err := s.store.CreateGame(r.Context(), rec); err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.kakuroView(rec, sess, nil)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

// loadKakuro reads game id and its session from the store.
func (s *Server) loadKakuro(ctx context.Context, id string) (store.Game, kakuroSession, error) {
	var sess kakuroSession
	if !validID(id) {
		return store.Game{}, sess, errorf(http.StatusNotFound, "no Kakuro game %q", id)
	}
	rec, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && rec.Kind != store.KindKakuro {
		return store.Game{}, sess, errorf(http.StatusNotFound, "no Kakuro game %q", id)
	}
	if err != nil {
		return store.Game{}, sess, err
	}
	if err := json.Unmarshal(rec.State, &sess); err != nil {
		return store.Game{}, sess, fmt.Errorf("kakuro game %s: stored state: %w", id, err)
	}
	return rec, sess, nil
}

// kakuroView builds what the page sees of rec; the solution only once the
// game is over.
func (s *Server) kakuroView(rec store.Game, sess kakuroSession, sol []int) (KakuroView, error) {
	b, err := kakuro.ParseString(rec.Puzzle)
	if err != nil {
		return KakuroView{}, fmt.Errorf("kakuro game %s: stored puzzle: %w", rec.ID, err)
	}
	v := KakuroView{
		ID: rec.ID, Size: rec.Size, Level: rec.Level, Rows: b.Rows, Cols: b.Cols,
		Entries: sess.Entries, Status: rec.Status, Hints: sess.Hints, MaxHints: kakuroMaxHints, Mistakes: sess.Mistakes,
	}
	for _, c := range b.Cells {
		v.Cells = append(v.Cells, kakuroCell{White: c.White, Down: c.Down, Across: c.Across})
	}
	v.ElapsedMs = sess.ElapsedMs
	if rec.Status == store.StatusPlaying {
		v.ElapsedMs = s.cfg.Now().Sub(rec.Created).Milliseconds()
	} else {
		v.Solution = sol
	}
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

// apiKakuroGame: GET /api/kakuro/games/{id} -> KakuroView.
func (s *Server) apiKakuroGame(w http.ResponseWriter, r *http.Request) {
	rec, sess, err := s.loadKakuro(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var sol []int
	if rec.Status != store.StatusPlaying {
		if sol, err = kakuroSolution(rec); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	v, err := s.kakuroView(rec, sess, sol)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// apiKakuroAction: POST /api/kakuro/games/{id}/{action} with
// {"entries": [...], "name": "..."}: save (keep the entries), check (list
// the wrong ones), hint (reveal one cell: a wrong one first), submit (end
// the game on the leaderboard when every entry is right, else list the
// wrong ones) or solution (end the game unranked and show the solution).
func (s *Server) apiKakuroAction(w http.ResponseWriter, r *http.Request) {
	var a kakuroAction
	if err := decodeJSON(r, &a); err != nil {
		s.writeError(w, r, err)
		return
	}
	id, action := r.PathValue("id"), r.PathValue("action")
	switch action {
	case "save", "check", "hint", "submit", "solution":
	default:
		s.writeError(w, r, errorf(http.StatusNotFound, "no Kakuro action %q: want save, check, hint, submit or solution", action))
		return
	}
	// One action at a time per game, as games.go does for Sudoku.
	mu := s.games.lock(id)
	mu.Lock()
	defer mu.Unlock()
	rec, sess, err := s.loadKakuro(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sol, err := kakuroSolution(rec)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if rec.Status != store.StatusPlaying {
		s.writeError(w, r, errorf(http.StatusConflict, "this game is over (%s)", rec.Status))
		return
	}
	if a.Entries != nil {
		if len(a.Entries) != len(sol) {
			s.writeError(w, r, errorf(http.StatusBadRequest, "entries: %d values for %d white cells", len(a.Entries), len(sol)))
			return
		}
		for i, d := range a.Entries {
			if d < 0 || d > 9 {
				s.writeError(w, r, errorf(http.StatusBadRequest, "entries: cell %d holds %d: want 0 (empty) to 9", i, d))
				return
			}
		}
		sess.Entries = a.Entries
	}
	wrong := func() []int {
		out := []int{}
		for i, d := range sess.Entries {
			if d != 0 && d != sol[i] {
				out = append(out, i)
			}
		}
		return out
	}
	now := s.cfg.Now()
	var vw []int
	var hint *kakuroHint
	var result *publicResult
	var over []int
	switch action {
	case "check":
		vw = wrong()
		sess.Mistakes += len(vw)
	case "hint":
		if sess.Hints >= kakuroMaxHints {
			s.writeError(w, r, errorf(http.StatusConflict, "no hints left: %d used", sess.Hints))
			return
		}
		c := -1
		if ws := wrong(); len(ws) > 0 {
			c = ws[0]
		} else {
			for i, d := range sess.Entries {
				if d == 0 {
					c = i
					break
				}
			}
		}
		if c < 0 {
			s.writeError(w, r, errorf(http.StatusConflict, "every cell is filled and right: submit it"))
			return
		}
		sess.Hints++
		sess.Entries[c] = sol[c]
		hint = &kakuroHint{Cell: c, Digit: sol[c]}
	case "submit":
		vw = wrong()
		empty := 0
		for _, d := range sess.Entries {
			if d == 0 {
				empty++
			}
		}
		if len(vw) > 0 || empty > 0 {
			sess.Mistakes += len(vw)
			break
		}
		name, err := store.CleanName(a.Name)
		if err != nil {
			s.writeError(w, r, errorf(http.StatusBadRequest, "%v", err))
			return
		}
		sess.Name, sess.ElapsedMs = name, now.Sub(rec.Created).Milliseconds()
		rec.Status, over = store.StatusSolved, sol
	case "solution":
		sess.ElapsedMs = now.Sub(rec.Created).Milliseconds()
		rec.Status, over = store.StatusRevealed, sol
	}
	if rec.State, err = json.Marshal(sess); err != nil {
		s.writeError(w, r, err)
		return
	}
	rec.Updated = now
	if rec.Status == store.StatusSolved {
		res, err := s.store.FinishGame(r.Context(), rec, store.Result{
			GameID: rec.ID, Kind: store.KindKakuro, Size: rec.Size, Level: rec.Level, Player: rec.Player,
			Name: sess.Name, Millis: sess.ElapsedMs, Hints: sess.Hints, Mistakes: sess.Mistakes, Finished: now,
		})
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		result = &publicResults([]store.Result{res})[0]
	} else if err := s.store.UpdateGame(r.Context(), rec); err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.kakuroView(rec, sess, over)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v.Wrong, v.Hint, v.Result = vw, hint, result
	writeJSON(w, http.StatusOK, v)
}

// apiKakuroLeaderboard: GET /api/kakuro/leaderboard?size=9&level=easy ->
// [Result], fastest first.
func (s *Server) apiKakuroLeaderboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	n, lv, err := parseKakuroChoice(q.Get("size"), q.Get("level"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	limit, err := queryLimit(q.Get("limit"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	list, err := s.store.Leaderboard(r.Context(), store.Board{Kind: store.KindKakuro, Size: fmt.Sprintf("%dx%d", n, n), Level: lv.String()}, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, publicResults(list))
}

// kakuroSolveAnswer is what POST /api/kakuro/solve returns.
type kakuroSolveAnswer struct {
	Solution string  `json:"solution"` // the board in the text format, solved
	Level    string  `json:"level,omitempty"`
	Millis   float64 `json:"ms"`
}

// apiKakuroSolve: POST /api/kakuro/solve {"puzzle": "R C\n..."} -> the
// solved board, or an error naming the line and cell, an unsolvable or a
// non-unique puzzle.
func (s *Server) apiKakuroSolve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Puzzle string `json:"puzzle"`
	}
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(req.Puzzle) > kakuroMaxText {
		s.writeError(w, r, errorf(http.StatusRequestEntityTooLarge, "puzzle: longer than %d characters", kakuroMaxText))
		return
	}
	b, err := kakuro.ParseString(req.Puzzle)
	if err != nil {
		s.writeError(w, r, errorf(http.StatusBadRequest, "%v", err))
		return
	}
	if b.Rows > 41 || b.Cols > 41 {
		s.writeError(w, r, errorf(http.StatusBadRequest, "board %dx%d: at most 41x41 (a 40x40 play area)", b.Rows, b.Cols))
		return
	}
	release, err := s.admit(r, s.guards.engine, s.guards.work)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	type answer struct {
		sol *kakuro.Board
		err error
	}
	start := time.Now()
	done := make(chan answer, 1)
	go func() {
		// The node cap ends the search of a hostile board (published ones
		// need 0 to 2 nodes), so no goroutine outlives its request by long.
		s, err := kakuro.NewSolver(b)
		if err != nil {
			done <- answer{nil, err}
			return
		}
		s.MaxNodes = kakuroMaxNodes
		res := s.Count(2)
		switch {
		case res.Count == 1 && !res.Stopped:
			done <- answer{res.Solutions[0], nil}
		case res.Count >= 2:
			done <- answer{nil, &kakuro.MultipleError{First: res.Solutions[0], Second: res.Solutions[1]}}
		case res.Stopped:
			done <- answer{nil, fmt.Errorf("no answer after %d search nodes: too open to solve here", res.Nodes)}
		default:
			done <- answer{nil, kakuro.ErrNoSolution}
		}
	}()
	var a answer
	select {
	case a = <-done:
	case <-time.After(kakuroSolveTimeout):
		s.writeError(w, r, errorf(http.StatusServiceUnavailable, "no answer in %v", kakuroSolveTimeout))
		return
	case <-r.Context().Done():
		return
	}
	elapsed := time.Since(start)
	if a.err != nil {
		s.writeError(w, r, errorf(http.StatusUnprocessableEntity, "%v", a.err))
		return
	}
	ans := kakuroSolveAnswer{Solution: a.sol.String(), Millis: float64(elapsed.Microseconds()) / 1000}
	if rt, err := kakuro.Rate(b); err == nil {
		ans.Level = rt.Level.String()
	}
	writeJSON(w, http.StatusOK, ans)
}
