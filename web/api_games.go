package web

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// newGameRequest is the body of POST /api/games: a size and level to
// generate, or a puzzle of the player's own (which must have exactly one
// solution).
type newGameRequest struct {
	Size   string `json:"size,omitempty"` // "9" or "9x9"
	Level  string `json:"level,omitempty"`
	Puzzle string `json:"puzzle,omitempty"`
	Box    string `json:"box,omitempty"`
	// ShowMistakes colours wrong digits from the start (an assist: the
	// game is unranked); MistakeLimit (1..play.MaxMistakeLimit) ends the
	// game at that many, and shows them.
	ShowMistakes bool `json:"showMistakes,omitempty"`
	MistakeLimit int  `json:"mistakeLimit,omitempty"`
	// Given is another name for Puzzle (a page's printed digits, as
	// /api/scan names them); Entries, beside it, are the digits the
	// player wrote on the paper (one a cell, '0' none): the game starts
	// with them on the board as the player's own moves (parseEntries).
	Given   string `json:"given,omitempty"`
	Entries string `json:"entries,omitempty"`
}

// apiGenerate: GET /api/generate?size=9&level=hard -> a new game's View.
// The solution stays on the server, tied to the game's id.
func (s *Server) apiGenerate(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	req := newGameRequest{Size: q.Get("size"), Level: q.Get("level")}
	if req.Size == "" {
		req.Size = "9"
	}
	if req.Level == "" {
		req.Level = "easy"
	}
	s.startGame(w, r, req)
}

// apiNewGame: POST /api/games {"size": "9", "level": "easy"} or
// {"puzzle": "..."} -> View.
func (s *Server) apiNewGame(w http.ResponseWriter, r *http.Request) {
	var req newGameRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.startGame(w, r, req)
}

func (s *Server) startGame(w http.ResponseWriter, r *http.Request, req newGameRequest) {
	if err := play.CheckLimit(req.MistakeLimit); err != nil {
		s.writeError(w, r, errorf(http.StatusBadRequest, "%v", err))
		return
	}
	done, err := s.admit(r, s.guards.games, s.guards.work)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer done()
	switch {
	case req.Given != "" && req.Puzzle != "" && req.Given != req.Puzzle:
		s.writeError(w, r, errorf(http.StatusBadRequest, "given and puzzle differ: send the givens in one of them"))
		return
	case req.Given != "":
		req.Puzzle = req.Given
	}
	if req.Entries != "" && strings.TrimSpace(req.Puzzle) == "" {
		s.writeError(w, r, errorf(http.StatusBadRequest, "entries: send the page's givens beside them in \"given\""))
		return
	}
	var gen Generated
	var entries []int
	if strings.TrimSpace(req.Puzzle) != "" {
		g, err := parsePuzzle(req.Puzzle, req.Box)
		if err != nil {
			s.writeError(w, r, errorf(http.StatusBadRequest, "puzzle: %v", err))
			return
		}
		a, err := analyze(r.Context(), g, true)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if a.Status != pipeline.StatusSolved.String() {
			msg := a.Status
			if a.Reason != "" {
				msg += ": " + a.Reason
			}
			s.writeError(w, r, errorf(http.StatusUnprocessableEntity, "this puzzle cannot be played: %s", msg))
			return
		}
		sol, err := sudoku.Solve(g)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if req.Entries != "" {
			if entries, err = parseEntries(req.Entries, g); err != nil {
				s.writeError(w, r, errorf(http.StatusBadRequest, "%v", err))
				return
			}
			if solvedBy(g, sol, entries) {
				s.writeError(w, r, errorf(http.StatusUnprocessableEntity, "entries: every cell is filled and right: this page is already solved"))
				return
			}
		}
		gen = Generated{Puzzle: g, Solution: sol, Rating: a.Rating, Level: a.Level, Own: true}
	} else {
		shape, err := shapeForSize(req.Size)
		if err != nil {
			s.writeError(w, r, errorf(http.StatusBadRequest, "%v", err))
			return
		}
		if !validLevel(req.Level) {
			s.writeError(w, r, errorf(http.StatusBadRequest, "level %q: want one of %s", req.Level, strings.Join(levels, ", ")))
			return
		}
		if gen, err = generate(r.Context(), shape, req.Level, newSeed()); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	v, err := s.games.newGame(r.Context(), s.player(w, r), gen, gameOptions{ShowMistakes: req.ShowMistakes, MistakeLimit: req.MistakeLimit, Entries: entries})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

// apiGame: GET /api/games/{id} -> View; a browser that is not the
// game's player gets it with "watching" set (a shared link watches).
func (s *Server) apiGame(w http.ResponseWriter, r *http.Request) { serveGame(s, w, r, s.games.get) }

// serveGame answers a GET of a game of any kind with the view get gives
// the request's browser.
func serveGame[V any](s *Server, w http.ResponseWriter, r *http.Request, get func(ctx context.Context, id, viewer string) (V, error)) {
	v, err := get(r.Context(), r.PathValue("id"), playerOf(r))
	if err != nil {
		s.writeError(w, r, playStatus(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// playStatus turns a *play.Error into the API's error with its status;
// other errors pass through.
func playStatus(err error) error {
	var pe *play.Error
	if !errors.As(err, &pe) {
		return err
	}
	status := map[play.ErrorKind]int{play.Bad: http.StatusBadRequest, play.NotFound: http.StatusNotFound,
		play.Forbidden: http.StatusForbidden, play.Conflict: http.StatusConflict}[pe.Kind]
	return errorf(status, "%s", pe.Msg)
}

// nameCookie remembers the name a player last finished a game under, so
// the next finish needs no typing (the page keeps it in localStorage too).
const nameCookie = "sudokuar_name"

// playerOf is the request's player id, "" without a valid cookie (never
// a new one: a stranger acting on a game owns nothing).
func playerOf(r *http.Request) string {
	if c, err := r.Cookie(playerCookie); err == nil && validID(c.Value) {
		return c.Value
	}
	return ""
}

// rememberedName is the name in the request's name cookie, "" if none.
func rememberedName(r *http.Request) string {
	c, err := r.Cookie(nameCookie)
	if err != nil {
		return ""
	}
	n, err := url.QueryUnescape(c.Value)
	if err != nil {
		return ""
	}
	if n, err = store.CleanName(n); err != nil {
		return ""
	}
	return n
}

// requireJSON refuses a request whose body is not declared
// application/json: a cross-site form can post text/plain or form
// encodings without asking, never JSON.
func requireJSON(r *http.Request) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return errorf(http.StatusUnsupportedMediaType, "send the action as application/json (got %q)", r.Header.Get("Content-Type"))
	}
	return nil
}

// apiGameAction: POST /api/games/{id}/{action} with the action's fields
// (see Action) as application/json -> View. Only the game's player (its
// cookie) may act. The body may be empty for actions without fields.
func (s *Server) apiGameAction(w http.ResponseWriter, r *http.Request) {
	serveAction(s, w, r, func(ctx context.Context, id, action string, who play.Actor, a Action) (View, error) {
		if action == "hint" {
			// Every hint that reaches the engine goes through its gates
			// (per address and server-wide) and is counted, failed ones
			// included.
			release, err := s.admit(r, s.guards.engine, s.guards.work)
			if err != nil {
				return View{}, err
			}
			defer release()
		}
		return s.games.act(ctx, id, action, who, a, hint)
	})
}

// finished is a game's view after an action: the name its result was
// recorded under by that action, "" if none.
type finished interface{ recordedName() string }

func (v View) recordedName() string       { return v.Result.nameOf() }
func (v KakuroView) recordedName() string { return v.Result.nameOf() }

// serveAction answers a POST of an action on a game of any kind: the
// body (application/json; empty for an action without fields) decoded
// as an A, act run for the request's player, and a result recorded under
// a name remembers that name in the browser.
func serveAction[A any, V finished](s *Server, w http.ResponseWriter, r *http.Request, act func(ctx context.Context, id, action string, who play.Actor, a A) (V, error)) {
	if err := requireJSON(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	var a A
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err != nil {
		s.writeError(w, r, jsonError(err))
		return
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := decodeJSONFrom(bytes.NewReader(body), &a); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	who := play.Actor{Player: playerOf(r), Name: rememberedName(r)}
	v, err := act(r.Context(), r.PathValue("id"), r.PathValue("action"), who, a)
	if err != nil {
		s.writeError(w, r, playStatus(err))
		return
	}
	if name := v.recordedName(); name != "" {
		s.rememberName(w, name)
	}
	writeJSON(w, http.StatusOK, v)
}

// rememberName sets the name cookie.
func (s *Server) rememberName(w http.ResponseWriter, name string) {
	http.SetCookie(w, &http.Cookie{
		Name: nameCookie, Value: url.QueryEscape(name), Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, Secure: s.cfg.Secure, SameSite: http.SameSiteLaxMode,
	})
}

// apiLeaderboard: GET /api/leaderboard?size=9&level=easy[&mode=race][&limit=20]
// -> [Result], fastest first (mode: solo, the default, race or coop);
// GET /api/leaderboard?daily=2025-03-01 -> that day's daily puzzle's.
func (s *Server) apiLeaderboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Has("daily") {
		s.apiDailyLeaderboard(w, r)
		return
	}
	shape, err := shapeForSize(q.Get("size"))
	if err != nil {
		s.writeError(w, r, errorf(http.StatusBadRequest, "%v", err))
		return
	}
	level := q.Get("level")
	if !validLevel(level) {
		s.writeError(w, r, errorf(http.StatusBadRequest, "level %q: want one of %s", level, strings.Join(levels, ", ")))
		return
	}
	limit, err := queryLimit(q.Get("limit"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	mode, err := modeParam(q.Get("mode"))
	if err != nil {
		s.writeError(w, r, errorf(http.StatusBadRequest, "%v", err))
		return
	}
	list, err := s.store.Leaderboard(r.Context(), store.Board{Kind: store.KindSudoku, Size: sizeName(shape), Level: level, Mode: mode}, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, publicResults(list))
}

// apiHistory: GET /api/history -> this browser's results, newest first.
func (s *Server) apiHistory(w http.ResponseWriter, r *http.Request) {
	limit, err := queryLimit(r.URL.Query().Get("limit"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c, cerr := r.Cookie(playerCookie)
	if cerr != nil || !validID(c.Value) {
		writeJSON(w, http.StatusOK, []publicResult{})
		return
	}
	list, err := s.store.History(r.Context(), c.Value, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, publicResults(list))
}

func queryLimit(text string) (int, error) {
	if text == "" {
		return 20, nil
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > 100 {
		return 0, errorf(http.StatusBadRequest, "limit %q: want 1..100", text)
	}
	return n, nil
}

// nameOf is the result's name, "" for none.
func (p *publicResult) nameOf() string {
	if p == nil {
		return ""
	}
	return p.Name
}

// publicResult is a Result without the player's browser id.
type publicResult struct {
	Name     string `json:"name"`
	Size     string `json:"size"`
	Level    string `json:"level"`
	Millis   int64  `json:"ms"`
	Time     string `json:"time"`
	Hints    int    `json:"hints"`
	Mistakes int    `json:"mistakes"`
	Finished string `json:"finished"`
	Mode     string `json:"mode"`
	Place    int    `json:"place,omitempty"`   // multiplayer: where they finished
	Players  int    `json:"players,omitempty"` // multiplayer: how many played
	Flag     string `json:"flag,omitempty"`    // why it is unranked: own, assists, replay, too fast
	Daily    string `json:"daily,omitempty"`   // the daily puzzle's day
}

func publicResults(list []store.Result) []publicResult {
	out := []publicResult{}
	for _, r := range list {
		out = append(out, publicResult{
			Name: r.Name, Size: r.Size, Level: r.Level, Millis: r.Millis, Time: formatMillis(r.Millis),
			Hints: r.Hints, Mistakes: r.Mistakes, Finished: r.Finished.Format("2006-01-02T15:04:05Z07:00"),
			Mode: r.Mode, Place: r.Placing, Players: r.Players, Flag: r.Flag, Daily: r.Daily,
		})
	}
	return out
}
