package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/kakuro"
	"github.com/sudokuar/sudokuar/store"
)

// Kakuro in the web app, the HTTP side: /kakuro plays generated puzzles
// (never the published test puzzles) by play area and level, a digit a
// move, to the Kakuro leaderboard; /kakuro/solve solves a typed one. The
// puzzle's rules are package kakuro's, a session's kakuro_games.go's.

// kakuroSizes are the play areas (white area without the clue row and
// column) offered, with the hardest level each gets in the time a player
// waits (see kakuroGenerateTimeout; docs/performance.md has the generator's times).
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
	// kakuroMaxText bounds a typed puzzle: a 40x40 board of "45\45" tokens.
	kakuroMaxText = 40 * 40 * 7
	// kakuroMaxNodes caps the solver's search on a typed board.
	kakuroMaxNodes = 2_000_000
)

// kakuroCell is one board square as the page draws it.
type kakuroCell struct {
	White  bool `json:"w,omitempty"`
	Down   int  `json:"d,omitempty"`
	Across int  `json:"a,omitempty"`
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

// kakuroPageData is the play page's data: the choices, and whether the
// page plays a game (then the chooser is not drawn at all).
type kakuroPageData struct {
	Sizes  []int
	Levels []kakuroLevelChoice
	Game   bool
}

type kakuroLevelChoice struct{ Name, Note string }

func (s *Server) kakuroPage(w http.ResponseWriter, r *http.Request) {
	s.player(w, r)
	d := kakuroPageData{Game: r.PathValue("id") != ""}
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
	// A solver's own clock may end the search at the deadline a moment
	// before ctx's timer does: its deadline error is as much out of time.
	switch {
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, kakuro.ErrGiveUp):
		s.writeError(w, r, errorf(http.StatusServiceUnavailable, "no %v %dx%d Kakuro found in time: try again", lv, n, n))
		return
	case err != nil:
		s.writeError(w, r, fmt.Errorf("generate kakuro %dx%d %v: %w", n, n, lv, err))
		return
	}
	v, err := s.games.newKakuro(r.Context(), s.player(w, r), sol.Blank(), sol, fmt.Sprintf("%dx%d", n, n), rating.Level.String())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

// apiKakuroGame: GET /api/kakuro/games/{id} -> KakuroView; another
// browser than the player's watches.
func (s *Server) apiKakuroGame(w http.ResponseWriter, r *http.Request) {
	serveGame(s, w, r, s.games.kakuroGet)
}

// apiKakuroAction: POST /api/kakuro/games/{id}/{action} as
// application/json, by the game's player only: move {"cell", "value"}
// (one white cell; "clear" takes the digit from its runs' pencil marks),
// mark {"cell", "value"}, undo, redo, candidates, check, hint, name
// {"name"} (of a finished game) or solution. See kakuroRules.
func (s *Server) apiKakuroAction(w http.ResponseWriter, r *http.Request) {
	serveAction(s, w, r, s.games.kakuroAct)
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
