package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// The daily puzzle and the player's statistics, over HTTP. The rules are
// package play's (the day, its level, what it allows); the puzzle and the
// plays are kept by the store; a game of the daily puzzle is a game like
// any other (games.go), its session marked with the day.

// dailyInfo is what the store keeps with a daily puzzle (store.Daily's
// Info): what the game needs that the grid does not say.
type dailyInfo struct {
	Rating float64 `json:"rating,omitempty"`
	Steps  int     `json:"steps,omitempty"`
}

// dailyShape is the daily puzzle's box shape.
var dailyShape = sudoku.Shape{BoxRows: 3, BoxCols: 3}

// dailyPuzzle returns day's puzzle, making it when no server has yet: one
// at a time in this process; the store keeps the first one written by any.
func (s *Server) dailyPuzzle(ctx context.Context, day string) (store.Daily, error) {
	d, err := s.store.Daily(ctx, day, store.KindSudoku)
	if !errors.Is(err, store.ErrNotFound) {
		return d, err
	}
	s.dailyMu.Lock()
	defer s.dailyMu.Unlock()
	if d, err := s.store.Daily(ctx, day, store.KindSudoku); !errors.Is(err, store.ErrNotFound) {
		return d, err // made while this request waited
	}
	level, err := play.DailyLevel(day)
	if err != nil {
		return store.Daily{}, err
	}
	gen, err := generate(ctx, dailyShape, level, uint64(play.DailySeed(day))<<1)
	if err != nil {
		return store.Daily{}, err
	}
	info, _ := json.Marshal(dailyInfo{Rating: gen.Rating, Steps: gen.Steps})
	return s.store.SaveDaily(ctx, store.Daily{
		Day: day, Kind: store.KindSudoku, Size: sizeName(dailyShape), Level: gen.Level,
		Puzzle: sudoku.CellString(gen.Puzzle.Cells), Solution: sudoku.CellString(gen.Solution.Cells),
		Info: info, Created: s.cfg.Now(),
	})
}

// dailyGame is the Generated of a stored daily puzzle.
func dailyGame(d store.Daily) (Generated, error) {
	p, err := sudoku.ParseCellGrid(dailyShape, d.Puzzle)
	if err != nil {
		return Generated{}, fmt.Errorf("daily %s: %w", d.Day, err)
	}
	sol, err := sudoku.ParseCellGrid(dailyShape, d.Solution)
	if err != nil {
		return Generated{}, fmt.Errorf("daily %s: %w", d.Day, err)
	}
	var info dailyInfo
	if len(d.Info) > 0 {
		if err := json.Unmarshal(d.Info, &info); err != nil {
			return Generated{}, fmt.Errorf("daily %s: stored info: %w", d.Day, err)
		}
	}
	return Generated{Puzzle: p, Solution: sol, Rating: info.Rating, Level: d.Level, Steps: info.Steps}, nil
}

// apiDailyStart: POST /api/daily -> the View of today's daily puzzle for
// this browser: the game it has on (200), or a new one (201; ranked when
// it is the browser's first of the day, a replay after).
func (s *Server) apiDailyStart(w http.ResponseWriter, r *http.Request) {
	if err := requireJSON(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	var req struct{} // nothing to choose: the day is the server's
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	player := s.player(w, r)
	day := play.Day(s.cfg.Now())
	plays, err := s.store.DailyPlays(r.Context(), player, day)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for i := len(plays) - 1; i >= 0; i-- {
		if plays[i].Outcome != store.OutcomePlaying {
			continue
		}
		v, err := s.games.get(r.Context(), plays[i].GameID, player)
		if err == nil && v.Status == store.StatusPlaying {
			writeJSON(w, http.StatusOK, v)
			return
		}
	}
	// A new game: generating the day's puzzle is the costliest thing this
	// can ask, behind the same gates as a new game.
	done, err := s.admit(r, s.guards.games, s.guards.work)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer done()
	d, err := s.dailyPuzzle(r.Context(), day)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	gen, err := dailyGame(d)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.games.newGame(r.Context(), player, gen, gameOptions{Daily: day, Replay: len(plays) > 0})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

// dailyAbout is GET /api/daily's answer: today's puzzle as the pages
// announce it (never its grid: that comes with a game).
type dailyAbout struct {
	Day    string `json:"day"`
	Size   int    `json:"size"`
	Level  string `json:"level"`
	Played bool   `json:"played"` // this browser started it
	Solved bool   `json:"solved"` // and solved it
	Next   int64  `json:"nextMs"` // ms until tomorrow's
}

// apiDaily: GET /api/daily -> dailyAbout of today's puzzle.
func (s *Server) apiDaily(w http.ResponseWriter, r *http.Request) {
	now := s.cfg.Now()
	day := play.Day(now)
	level, err := play.DailyLevel(day)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a := dailyAbout{Day: day, Size: play.DailySize, Level: level}
	if d, err := s.store.Daily(r.Context(), day, store.KindSudoku); err == nil {
		a.Level = d.Level
	}
	if p := playerOf(r); p != "" {
		if plays, err := s.store.DailyPlays(r.Context(), p, day); err == nil {
			for _, pl := range plays {
				a.Played = true
				a.Solved = a.Solved || pl.Outcome == store.OutcomeWon
			}
		}
	}
	t, _ := play.ParseDay(day)
	a.Next = t.Add(24 * time.Hour).Sub(now).Milliseconds()
	writeJSON(w, http.StatusOK, a)
}

// dailyBoard names day's leaderboard ("today" is today), or says why not.
func (s *Server) dailyBoard(ctx context.Context, day string) (store.Board, error) {
	if day == "today" || day == "" {
		day = play.Day(s.cfg.Now())
	}
	if _, err := play.ParseDay(day); err != nil {
		return store.Board{}, errorf(http.StatusBadRequest, "%v", err)
	}
	b := store.Board{Kind: store.KindSudoku, Size: sizeName(dailyShape), Daily: day}
	d, err := s.store.Daily(ctx, day, store.KindSudoku)
	switch {
	case err == nil:
		b.Level = d.Level
	case errors.Is(err, store.ErrNotFound):
		b.Level, _ = play.DailyLevel(day) // not made yet: nobody on it
	default:
		return store.Board{}, err
	}
	return b, nil
}

// apiDailyLeaderboard: GET /api/leaderboard?daily=DAY (or today) ->
// [Result] of that day's puzzle, fastest first.
func (s *Server) apiDailyLeaderboard(w http.ResponseWriter, r *http.Request) {
	limit, err := queryLimit(r.URL.Query().Get("limit"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, err := s.dailyBoard(r.Context(), r.URL.Query().Get("daily"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	list, err := s.store.Leaderboard(r.Context(), b, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, publicResults(list))
}

// statBoard is one board of a player's statistics as the pages show it.
type statBoard struct {
	Kind    string `json:"kind"`
	Size    string `json:"size"`
	Level   string `json:"level"`
	Started int    `json:"started"`
	Won     int    `json:"won"`
	Lost    int    `json:"lost"`
	WinRate int    `json:"winRate"` // percent of the games started
	Best    string `json:"best,omitempty"`
	Average string `json:"average,omitempty"`
	BestMs  int64  `json:"bestMs,omitempty"`
	AvgMs   int64  `json:"averageMs,omitempty"`
	Streak  int    `json:"streak"`
	Longest int    `json:"bestStreak"`
}

// statsView is a player's statistics as GET /api/stats answers them.
type statsView struct {
	Started         int         `json:"started"`
	Won             int         `json:"won"`
	WinRate         int         `json:"winRate"`
	Streak          int         `json:"streak"`
	BestStreak      int         `json:"bestStreak"`
	DailySolved     int         `json:"dailySolved"`
	DailyStreak     int         `json:"dailyStreak"`
	BestDailyStreak int         `json:"bestDailyStreak"`
	Boards          []statBoard `json:"boards"`
}

// playerStats reads the statistics of the request's browser (none
// without a cookie).
func (s *Server) playerStats(r *http.Request) (statsView, error) {
	v := statsView{Boards: []statBoard{}}
	player := playerOf(r)
	if player == "" {
		return v, nil
	}
	st, err := s.store.PlayerStats(r.Context(), player, s.cfg.Now())
	if err != nil {
		return v, err
	}
	v.Streak, v.BestStreak = st.Streak, st.BestStreak
	v.DailySolved, v.DailyStreak, v.BestDailyStreak = st.DailySolved, st.DailyStreak, st.BestDailyStreak
	for _, b := range st.Boards {
		sb := statBoard{Kind: b.Kind, Size: b.Size, Level: b.Level, Started: b.Started, Won: b.Won, Lost: b.Lost,
			Streak: b.Streak, Longest: b.BestStreak, WinRate: percent(b.Won, b.Started)}
		if b.Won > 0 {
			sb.BestMs, sb.AvgMs = b.BestMillis, b.TotalMillis/int64(b.Won)
			sb.Best, sb.Average = formatMillis(sb.BestMs), formatMillis(sb.AvgMs)
		}
		v.Started += b.Started
		v.Won += b.Won
		v.Boards = append(v.Boards, sb)
	}
	v.WinRate = percent(v.Won, v.Started)
	return v, nil
}

func percent(a, b int) int {
	if b == 0 {
		return 0
	}
	return (100*a + b/2) / b
}

// apiStats: GET /api/stats -> this browser's statistics.
func (s *Server) apiStats(w http.ResponseWriter, r *http.Request) {
	v, err := s.playerStats(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// statsPage: GET /stats, the statistics as a page.
func (s *Server) statsPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.playerStats(r)
	status := http.StatusOK
	if err != nil {
		s.log.Error("statistics", "err", err)
		status = http.StatusInternalServerError
	}
	s.render(w, r, status, "stats", v)
}
