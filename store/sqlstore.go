package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// sqlStore is the Store both databases share: every statement is written
// once, with ? parameters, and run through database/sql; its dialect
// holds what differs. SQLite and Postgres wrap it with their opening and
// closing.
type sqlStore struct {
	db *sql.DB
	d  dialect
}

// execer is what a *sql.DB and a *sql.Tx share for the statements that
// run in either.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func millis(t time.Time) int64 { return t.UnixMilli() }
func fromMillis(ms int64) time.Time {
	return time.UnixMilli(ms).UTC()
}

// nonNil keeps a nil state from becoming SQL NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Ping implements Store.
func (s *sqlStore) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// CreateGame implements Store.
func (s *sqlStore) CreateGame(ctx context.Context, g Game) error {
	if err := s.insertGame(ctx, s.db, g); err != nil {
		return fmt.Errorf("store: create game %s: %w", g.ID, err)
	}
	return nil
}

// insertGame adds g; a game with its id already there is ErrDuplicate.
func (s *sqlStore) insertGame(ctx context.Context, db execer, g Game) error {
	_, err := db.ExecContext(ctx, s.d.q(`INSERT INTO games
		(id, kind, player, size, level, puzzle, solution, state, status, created, updated)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		g.ID, g.Kind, g.Player, g.Size, g.Level, g.Puzzle, g.Solution, nonNil(g.State), g.Status, millis(g.Created), millis(g.Updated))
	if s.d.unique(err) {
		return ErrDuplicate
	}
	return err
}

// Game implements Store.
func (s *sqlStore) Game(ctx context.Context, id string) (Game, error) {
	var g Game
	var created, updated int64
	err := s.db.QueryRowContext(ctx, s.d.q(`SELECT id, kind, player, size, level, puzzle, solution, state, status, created, updated
		FROM games WHERE id = ?`), id).
		Scan(&g.ID, &g.Kind, &g.Player, &g.Size, &g.Level, &g.Puzzle, &g.Solution, &g.State, &g.Status, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("store: game %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Game{}, fmt.Errorf("store: game %q: %w", id, err)
	}
	g.Created, g.Updated = fromMillis(created), fromMillis(updated)
	return g, nil
}

// UpdateGame implements Store.
func (s *sqlStore) UpdateGame(ctx context.Context, g Game) error {
	return s.updateGame(ctx, s.db, g)
}

func (s *sqlStore) updateGame(ctx context.Context, db execer, g Game) error {
	query, args := `UPDATE games SET state = ?, status = ?, updated = ? WHERE id = ?`, []any{nonNil(g.State), g.Status, millis(g.Updated), g.ID}
	if !g.Base.IsZero() {
		if millis(g.Updated) <= millis(g.Base) {
			return fmt.Errorf("store: update game %s: Updated %v is not after Base %v", g.ID, g.Updated, g.Base)
		}
		query, args = query+` AND updated = ?`, append(args, millis(g.Base))
	}
	res, err := db.ExecContext(ctx, s.d.q(query), args...)
	if err != nil {
		return fmt.Errorf("store: update game %s: %w", g.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil || n > 0 {
		return nil
	}
	if !g.Base.IsZero() {
		var one int
		err := db.QueryRowContext(ctx, s.d.q(`SELECT 1 FROM games WHERE id = ?`), g.ID).Scan(&one)
		if err == nil {
			return fmt.Errorf("store: update game %q: %w", g.ID, ErrConflict)
		}
	}
	return fmt.Errorf("store: update game %q: %w", g.ID, ErrNotFound)
}

// inTx runs f in a transaction, committed when f returns nil.
func (s *sqlStore) inTx(ctx context.Context, what string, f func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	defer func() { _ = tx.Rollback() }() // after Commit it only reports sql.ErrTxDone
	if err := f(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	return nil
}

// FinishGame implements Store.
func (s *sqlStore) FinishGame(ctx context.Context, g Game, r Result) (Result, error) {
	err := s.inTx(ctx, "finish game "+g.ID, func(tx *sql.Tx) error {
		if err := s.updateGame(ctx, tx, g); err != nil {
			return err
		}
		r.GameID = g.ID
		var err error
		r, err = s.insertResult(ctx, tx, r)
		return err
	})
	if err != nil {
		return Result{}, err
	}
	return r, nil
}

// insertResult adds r (for r.GameID) and returns it with its ID.
func (s *sqlStore) insertResult(ctx context.Context, db execer, r Result) (Result, error) {
	r.Mode = mode(r.Mode)
	err := db.QueryRowContext(ctx, s.d.q(`INSERT INTO results
		(game_id, kind, size, level, player, name, millis, hints, mistakes, finished, mode, match_id, place, players, flag, daily)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		r.GameID, r.Kind, r.Size, r.Level, r.Player, r.Name, r.Millis, r.Hints, r.Mistakes, millis(r.Finished),
		r.Mode, r.Match, r.Placing, r.Players, r.Flag, r.Daily).Scan(&r.ID)
	if s.d.unique(err) {
		return Result{}, fmt.Errorf("store: result for game %s: %w", r.GameID, ErrDuplicate)
	}
	if err != nil {
		return Result{}, fmt.Errorf("store: result for game %s: %w", r.GameID, err)
	}
	return r, nil
}

// ExpireGames implements Expirer: abandoned games are forgotten. Match
// seats' games are "unfinished" or "solved", never expired.
func (s *sqlStore) ExpireGames(ctx context.Context, idle, unplayed time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, s.d.q(`DELETE FROM games
		WHERE status IN (?, ?, ?)
		AND (updated < ? OR (updated = created AND created < ?))
		AND id NOT IN (SELECT game_id FROM results)`),
		StatusPlaying, StatusRevealed, StatusLost, millis(idle), millis(unplayed))
	if err != nil {
		return 0, fmt.Errorf("store: expire games: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: expire games: %w", err)
	}
	return n, nil
}

const resultColumns = `id, game_id, kind, size, level, player, name, millis, hints, mistakes, finished, mode, match_id, place, players, flag, daily`

// Leaderboard implements Store: ranked results (flag "") only.
func (s *sqlStore) Leaderboard(ctx context.Context, b Board, limit int) ([]Result, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT `+resultColumns+` FROM results
		WHERE kind = ? AND size = ? AND level = ? AND mode = ? AND daily = ? AND flag = ''
		ORDER BY millis, hints, mistakes, finished, id LIMIT ?`),
		b.Kind, b.Size, b.Level, mode(b.Mode), b.Daily, limitOr(limit, 20))
	if err != nil {
		return nil, fmt.Errorf("store: leaderboard %v: %w", b, err)
	}
	return scanResults(rows)
}

// History implements Store.
func (s *sqlStore) History(ctx context.Context, player string, limit int) ([]Result, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT `+resultColumns+` FROM results
		WHERE player = ? ORDER BY finished DESC, id DESC LIMIT ?`), player, limitOr(limit, 50))
	if err != nil {
		return nil, fmt.Errorf("store: history: %w", err)
	}
	return scanResults(rows)
}

func scanResults(rows *sql.Rows) ([]Result, error) {
	defer rows.Close()
	var out []Result
	for rows.Next() {
		var r Result
		var finished int64
		if err := rows.Scan(&r.ID, &r.GameID, &r.Kind, &r.Size, &r.Level, &r.Player, &r.Name, &r.Millis, &r.Hints, &r.Mistakes, &finished,
			&r.Mode, &r.Match, &r.Placing, &r.Players, &r.Flag, &r.Daily); err != nil {
			return nil, fmt.Errorf("store: read results: %w", err)
		}
		r.Finished = fromMillis(finished)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read results: %w", err)
	}
	return out, nil
}

// SaveMatch implements Store.
func (s *sqlStore) SaveMatch(ctx context.Context, m Match) (Match, error) {
	if err := checkMatch(m); err != nil {
		return Match{}, err
	}
	m.Seats = append([]Seat(nil), m.Seats...)
	err := s.inTx(ctx, "save match "+m.ID, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO matches (id, mode, kind, size, level, puzzle, room, started, ended)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			m.ID, m.Mode, m.Kind, m.Size, m.Level, m.Puzzle, m.Room, millis(m.Started), millis(m.Ended))
		if s.d.unique(err) {
			return fmt.Errorf("store: save match %s: %w", m.ID, ErrDuplicate)
		}
		if err != nil {
			return fmt.Errorf("store: save match %s: %w", m.ID, err)
		}
		for i := range m.Seats {
			if err := s.insertSeat(ctx, tx, &m, i); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Match{}, err
	}
	return m, nil
}

// insertSeat adds seat i of m: its game, its row, and its result when it
// placed; it sets the seat's GameID.
func (s *sqlStore) insertSeat(ctx context.Context, tx *sql.Tx, m *Match, i int) error {
	g := seatGame(*m, i)
	if err := s.insertGame(ctx, tx, g); err != nil {
		return fmt.Errorf("store: save match %s seat %d: %w", m.ID, i, err)
	}
	st := m.Seats[i]
	m.Seats[i].GameID = g.ID
	if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO match_seats
		(match_id, seat, game_id, player, name, place, millis, filled, mistakes, hints)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		m.ID, i, g.ID, st.Player, st.Name, st.Placing, st.Millis, st.Filled, st.Mistakes, st.Hints); err != nil {
		return fmt.Errorf("store: save match %s seat %d: %w", m.ID, i, err)
	}
	if st.Placing > 0 {
		if _, err := s.insertResult(ctx, tx, seatResult(*m, i)); err != nil {
			return err
		}
	}
	return nil
}

const matchColumns = `m.id, m.mode, m.kind, m.size, m.level, m.puzzle, m.room, m.started, m.ended`

// Match implements Store.
func (s *sqlStore) Match(ctx context.Context, id string) (Match, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT `+matchColumns+` FROM matches m WHERE m.id = ?`), id)
	if err != nil {
		return Match{}, fmt.Errorf("store: match %q: %w", id, err)
	}
	ms, err := s.scanMatches(ctx, rows, true)
	if err != nil {
		return Match{}, err
	}
	if len(ms) == 0 {
		return Match{}, fmt.Errorf("store: match %q: %w", id, ErrNotFound)
	}
	return ms[0], nil
}

// PlayerMatches implements Store.
func (s *sqlStore) PlayerMatches(ctx context.Context, player string, limit int) ([]Match, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT `+matchColumns+` FROM matches m
		WHERE m.id IN (SELECT match_id FROM match_seats WHERE player = ?)
		ORDER BY m.ended DESC, m.id LIMIT ?`), player, limitOr(limit, 20))
	if err != nil {
		return nil, fmt.Errorf("store: matches of a player: %w", err)
	}
	return s.scanMatches(ctx, rows, false)
}

// scanMatches reads match rows, then their seats (with the seats' states
// when withState).
func (s *sqlStore) scanMatches(ctx context.Context, rows *sql.Rows, withState bool) ([]Match, error) {
	out, err := readMatches(rows)
	if err != nil {
		return nil, fmt.Errorf("store: read matches: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	if err := s.readSeats(ctx, out, withState); err != nil {
		return nil, fmt.Errorf("store: read match seats: %w", err)
	}
	return out, nil
}

// readMatches reads the rows of matchColumns and closes them.
func readMatches(rows *sql.Rows) ([]Match, error) {
	defer rows.Close()
	var out []Match
	for rows.Next() {
		var m Match
		var started, ended int64
		if err := rows.Scan(&m.ID, &m.Mode, &m.Kind, &m.Size, &m.Level, &m.Puzzle, &m.Room, &started, &ended); err != nil {
			return nil, err
		}
		m.Started, m.Ended = fromMillis(started), fromMillis(ended)
		out = append(out, m)
	}
	return out, rows.Err()
}

// readSeats adds their seats to ms, in seat order.
func (s *sqlStore) readSeats(ctx context.Context, ms []Match, withState bool) error {
	index := make(map[string]int, len(ms))
	args := make([]any, len(ms))
	marks := make([]string, len(ms))
	for i, m := range ms {
		index[m.ID], args[i], marks[i] = i, m.ID, "?"
	}
	state := s.d.nullBlob
	if withState {
		state = "g.state"
	}
	seats, err := s.db.QueryContext(ctx, s.d.q(`SELECT s.match_id, s.game_id, s.player, s.name, s.place, s.millis, s.filled, s.mistakes, s.hints, `+state+`
		FROM match_seats s JOIN games g ON g.id = s.game_id
		WHERE s.match_id IN (`+strings.Join(marks, ", ")+`) ORDER BY s.match_id, s.seat`), args...)
	if err != nil {
		return err
	}
	defer seats.Close()
	for seats.Next() {
		var id string
		var st Seat
		if err := seats.Scan(&id, &st.GameID, &st.Player, &st.Name, &st.Placing, &st.Millis, &st.Filled, &st.Mistakes, &st.Hints, &st.State); err != nil {
			return err
		}
		m := &ms[index[id]]
		m.Seats = append(m.Seats, st)
	}
	return seats.Err()
}
