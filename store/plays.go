package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The daily puzzles and the plays behind a player's statistics, in the
// shared sqlStore (both databases run these statements).

// Daily implements Store.
func (s *sqlStore) Daily(ctx context.Context, day, kind string) (Daily, error) {
	var d Daily
	var created int64
	err := s.db.QueryRowContext(ctx, s.d.q(`SELECT day, kind, size, level, puzzle, solution, info, created
		FROM dailies WHERE day = ? AND kind = ?`), day, kind).
		Scan(&d.Day, &d.Kind, &d.Size, &d.Level, &d.Puzzle, &d.Solution, &d.Info, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Daily{}, fmt.Errorf("store: daily %s %s: %w", kind, day, ErrNotFound)
	}
	if err != nil {
		return Daily{}, fmt.Errorf("store: daily %s %s: %w", kind, day, err)
	}
	d.Created = fromMillis(created)
	return d, nil
}

// SaveDaily implements Store: the first puzzle written for a day stays.
func (s *sqlStore) SaveDaily(ctx context.Context, d Daily) (Daily, error) {
	if d.Day == "" || d.Kind == "" || d.Puzzle == "" {
		return Daily{}, errors.New("store: a daily puzzle needs its day, kind and puzzle")
	}
	_, err := s.db.ExecContext(ctx, s.d.q(`INSERT INTO dailies (day, kind, size, level, puzzle, solution, info, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (day, kind) DO NOTHING`),
		d.Day, d.Kind, d.Size, d.Level, d.Puzzle, d.Solution, nonNil(d.Info), millis(d.Created))
	if err != nil {
		return Daily{}, fmt.Errorf("store: save daily %s %s: %w", d.Kind, d.Day, err)
	}
	return s.Daily(ctx, d.Day, d.Kind)
}

// RecordPlay implements Store: a play's end is written once, over a play
// still on.
func (s *sqlStore) RecordPlay(ctx context.Context, p Play) error {
	switch p.Outcome {
	case OutcomePlaying, OutcomeWon, OutcomeLost:
	default:
		return fmt.Errorf("store: play %s: outcome %q, want %s, %s or %s", p.GameID, p.Outcome, OutcomePlaying, OutcomeWon, OutcomeLost)
	}
	if p.GameID == "" || p.Player == "" {
		return errors.New("store: a play needs its game and player")
	}
	var ended int64
	if !p.Ended.IsZero() {
		ended = millis(p.Ended)
	}
	_, err := s.db.ExecContext(ctx, s.d.q(`INSERT INTO plays (game_id, player, kind, size, level, daily, outcome, millis, started, ended)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (game_id) DO UPDATE SET outcome = excluded.outcome, millis = excluded.millis, ended = excluded.ended
		WHERE plays.outcome = ?`),
		p.GameID, p.Player, p.Kind, p.Size, p.Level, p.Daily, p.Outcome, p.Millis, millis(p.Started), ended, OutcomePlaying)
	if err != nil {
		return fmt.Errorf("store: record play %s: %w", p.GameID, err)
	}
	return nil
}

// DailyPlays implements Store.
func (s *sqlStore) DailyPlays(ctx context.Context, player, day string) ([]Play, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT game_id, player, kind, size, level, daily, outcome, millis, started, ended
		FROM plays WHERE player = ? AND daily = ? ORDER BY started, game_id LIMIT 1000`), player, day)
	if err != nil {
		return nil, fmt.Errorf("store: daily plays: %w", err)
	}
	defer rows.Close()
	var out []Play
	for rows.Next() {
		var p Play
		var started, ended int64
		if err := rows.Scan(&p.GameID, &p.Player, &p.Kind, &p.Size, &p.Level, &p.Daily, &p.Outcome, &p.Millis, &started, &ended); err != nil {
			return nil, fmt.Errorf("store: daily plays: %w", err)
		}
		p.Started = fromMillis(started)
		if ended != 0 {
			p.Ended = fromMillis(ended)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PlayerStats implements Store.
func (s *sqlStore) PlayerStats(ctx context.Context, player string, now time.Time) (Stats, error) {
	var st Stats
	if err := s.boardStats(ctx, player, &st); err != nil {
		return Stats{}, fmt.Errorf("store: statistics: %w", err)
	}
	if err := s.streaks(ctx, player, &st); err != nil {
		return Stats{}, fmt.Errorf("store: statistics: %w", err)
	}
	if err := s.dailyStreaks(ctx, player, now, &st); err != nil {
		return Stats{}, fmt.Errorf("store: statistics: %w", err)
	}
	return st, nil
}

// boardStats sums up the plays of each board.
func (s *sqlStore) boardStats(ctx context.Context, player string, st *Stats) error {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT kind, size, level, COUNT(*),
		SUM(CASE WHEN outcome = ? THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = ? THEN 1 ELSE 0 END),
		MIN(CASE WHEN outcome = ? THEN millis END), CAST(SUM(CASE WHEN outcome = ? THEN millis ELSE 0 END) AS BIGINT)
		FROM plays WHERE player = ? GROUP BY kind, size, level ORDER BY kind, size, level`),
		OutcomeWon, OutcomeLost, OutcomeWon, OutcomeWon, player)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var b Stat
		var best sql.NullInt64
		if err := rows.Scan(&b.Kind, &b.Size, &b.Level, &b.Started, &b.Won, &b.Lost, &best, &b.TotalMillis); err != nil {
			return err
		}
		b.BestMillis = best.Int64
		st.Boards = append(st.Boards, b)
	}
	return rows.Err()
}

// streaks finds the runs of games won, on each board and over all, in the
// player's latest MaxStreakPlays ended games.
func (s *sqlStore) streaks(ctx context.Context, player string, st *Stats) error {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT kind, size, level, outcome FROM plays
		WHERE player = ? AND outcome <> ? ORDER BY ended DESC, game_id DESC LIMIT ?`), player, OutcomePlaying, MaxStreakPlays)
	if err != nil {
		return err
	}
	defer rows.Close()
	type ended struct {
		board [3]string
		won   bool
	}
	var list []ended
	for rows.Next() {
		var e ended
		var outcome string
		if err := rows.Scan(&e.board[0], &e.board[1], &e.board[2], &outcome); err != nil {
			return err
		}
		e.won = outcome == OutcomeWon
		list = append(list, e)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	run := map[[3]string]*Stat{}
	for i := range st.Boards {
		b := &st.Boards[i]
		run[[3]string{b.Kind, b.Size, b.Level}] = b
	}
	for i := len(list) - 1; i >= 0; i-- { // oldest first
		e := list[i]
		st.Streak, st.BestStreak = step(st.Streak, st.BestStreak, e.won)
		if b := run[e.board]; b != nil {
			b.Streak, b.BestStreak = step(b.Streak, b.BestStreak, e.won)
		}
	}
	return nil
}

// step moves a streak on by one game.
func step(streak, best int, won bool) (int, int) {
	if !won {
		return 0, best
	}
	return streak + 1, max(best, streak+1)
}

// dailyStreaks counts the days whose puzzle the player solved and their
// runs: the current one ends today or yesterday.
func (s *sqlStore) dailyStreaks(ctx context.Context, player string, now time.Time, st *Stats) error {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT DISTINCT daily FROM plays
		WHERE player = ? AND daily <> '' AND outcome = ? ORDER BY daily LIMIT ?`), player, OutcomeWon, MaxStreakPlays)
	if err != nil {
		return err
	}
	defer rows.Close()
	var prev time.Time
	run := 0
	for rows.Next() {
		var day string
		if err := rows.Scan(&day); err != nil {
			return err
		}
		t, err := time.Parse(time.DateOnly, day)
		if err != nil {
			continue // not a day this store wrote
		}
		st.DailySolved++
		if !prev.IsZero() && t.Sub(prev) == 24*time.Hour {
			run++
		} else {
			run = 1
		}
		st.BestDailyStreak = max(st.BestDailyStreak, run)
		prev = t
	}
	if err := rows.Err(); err != nil {
		return err
	}
	today, _ := time.Parse(time.DateOnly, now.UTC().Format(time.DateOnly))
	if !prev.IsZero() && (prev.Equal(today) || prev.Equal(today.Add(-24*time.Hour))) {
		st.DailyStreak = run
	}
	return nil
}
