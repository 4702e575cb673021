package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite is the embedded Store: one database file, written through
// database/sql with parameterised statements only.
type SQLite struct {
	db   *sql.DB
	path string
}

// DefaultPath is where `sudokuar serve` keeps its database when --db is
// not given: sudokuar/sudokuar.db in the user's data folder
// ($XDG_DATA_HOME or ~/.local/share on Linux, ~/Library/Application
// Support on macOS, %AppData% on Windows).
func DefaultPath() (string, error) {
	var dir string
	switch runtime.GOOS {
	case "windows", "darwin", "ios":
		d, err := os.UserConfigDir() // AppData, Application Support
		if err != nil {
			return "", err
		}
		dir = d
	default:
		if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
			dir = d
		} else {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("find the data folder: %w", err)
			}
			dir = filepath.Join(home, ".local", "share")
		}
	}
	return filepath.Join(dir, "sudokuar", "sudokuar.db"), nil
}

// OpenSQLite opens (creating it and its folder if needed) the database
// file at path and brings its schema up to date. WAL journaling lets pages
// read while a move is written; the busy timeout makes concurrent writers
// wait for each other instead of failing.
func OpenSQLite(path string) (*SQLite, error) {
	if path == "" {
		return nil, errors.New("store: no database path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("store: create the folder for %s: %w", path, err)
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	// Writers take the lock when their transaction starts, so two
	// read-then-write transactions never deadlock on the upgrade.
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &SQLite{db: db, path: path}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	return s, nil
}

// Path is the database file.
func (s *SQLite) Path() string { return s.path }

// migrations are applied in order, once each; user_version counts them.
// Append, never edit: a database in the field has run the earlier ones.
var migrations = []string{
	`CREATE TABLE games (
		id       TEXT PRIMARY KEY,
		kind     TEXT NOT NULL,
		player   TEXT NOT NULL,
		size     TEXT NOT NULL,
		level    TEXT NOT NULL,
		puzzle   TEXT NOT NULL,
		solution TEXT NOT NULL,
		state    BLOB NOT NULL,
		status   TEXT NOT NULL,
		created  INTEGER NOT NULL,
		updated  INTEGER NOT NULL
	);
	CREATE INDEX games_player ON games(player, updated);
	CREATE TABLE results (
		id       INTEGER PRIMARY KEY AUTOINCREMENT,
		game_id  TEXT NOT NULL UNIQUE REFERENCES games(id),
		kind     TEXT NOT NULL,
		size     TEXT NOT NULL,
		level    TEXT NOT NULL,
		player   TEXT NOT NULL,
		name     TEXT NOT NULL,
		millis   INTEGER NOT NULL,
		hints    INTEGER NOT NULL,
		mistakes INTEGER NOT NULL,
		finished INTEGER NOT NULL
	);
	CREATE INDEX results_board ON results(kind, size, level, millis);
	CREATE INDEX results_player ON results(player, finished);`,
	// 2: multiplayer matches (rooms), and the mode each result was played in.
	`ALTER TABLE results ADD COLUMN mode TEXT NOT NULL DEFAULT 'solo';
	ALTER TABLE results ADD COLUMN match_id TEXT NOT NULL DEFAULT '';
	ALTER TABLE results ADD COLUMN place INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE results ADD COLUMN players INTEGER NOT NULL DEFAULT 0;
	DROP INDEX results_board;
	CREATE INDEX results_board ON results(kind, size, level, mode, millis);
	CREATE TABLE matches (
		id      TEXT PRIMARY KEY,
		mode    TEXT NOT NULL,
		kind    TEXT NOT NULL,
		size    TEXT NOT NULL,
		level   TEXT NOT NULL,
		puzzle  TEXT NOT NULL,
		room    TEXT NOT NULL,
		started INTEGER NOT NULL,
		ended   INTEGER NOT NULL
	);
	CREATE TABLE match_seats (
		match_id TEXT NOT NULL REFERENCES matches(id),
		seat     INTEGER NOT NULL,
		game_id  TEXT NOT NULL REFERENCES games(id),
		player   TEXT NOT NULL,
		name     TEXT NOT NULL,
		place    INTEGER NOT NULL,
		millis   INTEGER NOT NULL,
		filled   INTEGER NOT NULL,
		mistakes INTEGER NOT NULL,
		hints    INTEGER NOT NULL,
		PRIMARY KEY (match_id, seat)
	);
	CREATE INDEX match_seats_player ON match_seats(player);`,
	// flag: why a result is unranked ("" = ranked); leaderboards read
	// ranked results only.
	`ALTER TABLE results ADD COLUMN flag TEXT NOT NULL DEFAULT '';
	DROP INDEX results_board;
	CREATE INDEX results_board ON results(kind, size, level, mode, flag, millis);`,
}

func (s *SQLite) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return fmt.Errorf("migrate: read the schema version: %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this program knows (%d): use a newer sudokuar", version, len(migrations))
	}
	for i := version; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("migrate to version %d: %w", i+1, err)
		}
	}
	// PRAGMA takes no parameters; the value is our own integer.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, len(migrations))); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return tx.Commit()
}

// Ping implements Store.
func (s *SQLite) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Close closes the database (after a WAL checkpoint, so the file alone is
// a complete copy).
func (s *SQLite) Close() error {
	_, _ = s.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	return s.db.Close()
}

func millis(t time.Time) int64 { return t.UnixMilli() }
func fromMillis(ms int64) time.Time {
	return time.UnixMilli(ms).UTC()
}

// CreateGame implements Store.
func (s *SQLite) CreateGame(ctx context.Context, g Game) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO games
		(id, kind, player, size, level, puzzle, solution, state, status, created, updated)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Kind, g.Player, g.Size, g.Level, g.Puzzle, g.Solution, g.State, g.Status, millis(g.Created), millis(g.Updated))
	if isConstraint(err) {
		return fmt.Errorf("store: create game %s: %w", g.ID, ErrDuplicate)
	}
	if err != nil {
		return fmt.Errorf("store: create game %s: %w", g.ID, err)
	}
	return nil
}

// Game implements Store.
func (s *SQLite) Game(ctx context.Context, id string) (Game, error) {
	var g Game
	var created, updated int64
	err := s.db.QueryRowContext(ctx, `SELECT id, kind, player, size, level, puzzle, solution, state, status, created, updated
		FROM games WHERE id = ?`, id).
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
func (s *SQLite) UpdateGame(ctx context.Context, g Game) error {
	return updateGame(ctx, s.db, g)
}

// execer is what updateGame needs of a *sql.DB or a *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func updateGame(ctx context.Context, db execer, g Game) error {
	res, err := db.ExecContext(ctx, `UPDATE games SET state = ?, status = ?, updated = ? WHERE id = ?`,
		g.State, g.Status, millis(g.Updated), g.ID)
	if err != nil {
		return fmt.Errorf("store: update game %s: %w", g.ID, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: update game %q: %w", g.ID, ErrNotFound)
	}
	return nil
}

// FinishGame implements Store.
func (s *SQLite) FinishGame(ctx context.Context, g Game, r Result) (Result, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Result{}, fmt.Errorf("store: finish game %s: %w", g.ID, err)
	}
	defer tx.Rollback()
	if err := updateGame(ctx, tx, g); err != nil {
		return Result{}, err
	}
	r.GameID = g.ID
	if r, err = insertResult(ctx, tx, r); err != nil {
		return Result{}, err
	}
	if err := tx.Commit(); err != nil {
		return Result{}, fmt.Errorf("store: finish game %s: %w", g.ID, err)
	}
	return r, nil
}

// insertResult adds r (for r.GameID) inside tx and returns it with its ID.
func insertResult(ctx context.Context, tx *sql.Tx, r Result) (Result, error) {
	r.Mode = mode(r.Mode)
	res, err := tx.ExecContext(ctx, `INSERT INTO results
		(game_id, kind, size, level, player, name, millis, hints, mistakes, finished, mode, match_id, place, players, flag)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.GameID, r.Kind, r.Size, r.Level, r.Player, r.Name, r.Millis, r.Hints, r.Mistakes, millis(r.Finished),
		r.Mode, r.Match, r.Placing, r.Players, r.Flag)
	if isConstraint(err) {
		return Result{}, fmt.Errorf("store: result for game %s: %w", r.GameID, ErrDuplicate)
	}
	if err != nil {
		return Result{}, fmt.Errorf("store: result for game %s: %w", r.GameID, err)
	}
	if r.ID, err = res.LastInsertId(); err != nil {
		return Result{}, fmt.Errorf("store: result for game %s: %w", r.GameID, err)
	}
	return r, nil
}

// ExpireGames implements Expirer.
func (s *SQLite) ExpireGames(ctx context.Context, idle, unplayed time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM games
		WHERE status IN (?, ?)
		AND (updated < ? OR (updated = created AND created < ?))
		AND id NOT IN (SELECT game_id FROM results)`,
		StatusPlaying, StatusRevealed, millis(idle), millis(unplayed))
	if err != nil {
		return 0, fmt.Errorf("store: expire games: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: expire games: %w", err)
	}
	return n, nil
}

const resultColumns = `id, game_id, kind, size, level, player, name, millis, hints, mistakes, finished, mode, match_id, place, players, flag`

// Leaderboard implements Store.
func (s *SQLite) Leaderboard(ctx context.Context, b Board, limit int) ([]Result, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+resultColumns+` FROM results
		WHERE kind = ? AND size = ? AND level = ? AND mode = ? AND flag = ''
		ORDER BY millis, hints, mistakes, finished, id LIMIT ?`,
		b.Kind, b.Size, b.Level, mode(b.Mode), limitOr(limit, 20))
	if err != nil {
		return nil, fmt.Errorf("store: leaderboard %v: %w", b, err)
	}
	return scanResults(rows)
}

// History implements Store.
func (s *SQLite) History(ctx context.Context, player string, limit int) ([]Result, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+resultColumns+` FROM results
		WHERE player = ? ORDER BY finished DESC, id DESC LIMIT ?`, player, limitOr(limit, 50))
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
			&r.Mode, &r.Match, &r.Placing, &r.Players, &r.Flag); err != nil {
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
func (s *SQLite) SaveMatch(ctx context.Context, m Match) (Match, error) {
	if err := checkMatch(m); err != nil {
		return Match{}, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Match{}, fmt.Errorf("store: save match %s: %w", m.ID, err)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO matches (id, mode, kind, size, level, puzzle, room, started, ended)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.ID, m.Mode, m.Kind, m.Size, m.Level, m.Puzzle, m.Room, millis(m.Started), millis(m.Ended))
	if isConstraint(err) {
		return Match{}, fmt.Errorf("store: save match %s: %w", m.ID, ErrDuplicate)
	}
	if err != nil {
		return Match{}, fmt.Errorf("store: save match %s: %w", m.ID, err)
	}
	m.Seats = append([]Seat(nil), m.Seats...)
	for i := range m.Seats {
		g := seatGame(m, i)
		_, err := tx.ExecContext(ctx, `INSERT INTO games
			(id, kind, player, size, level, puzzle, solution, state, status, created, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ID, g.Kind, g.Player, g.Size, g.Level, g.Puzzle, g.Solution, g.State, g.Status, millis(g.Created), millis(g.Updated))
		if isConstraint(err) {
			return Match{}, fmt.Errorf("store: save match %s seat %d: %w", m.ID, i, ErrDuplicate)
		}
		if err != nil {
			return Match{}, fmt.Errorf("store: save match %s seat %d: %w", m.ID, i, err)
		}
		st := m.Seats[i]
		m.Seats[i].GameID = g.ID
		if _, err := tx.ExecContext(ctx, `INSERT INTO match_seats
			(match_id, seat, game_id, player, name, place, millis, filled, mistakes, hints)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, i, g.ID, st.Player, st.Name, st.Placing, st.Millis, st.Filled, st.Mistakes, st.Hints); err != nil {
			return Match{}, fmt.Errorf("store: save match %s seat %d: %w", m.ID, i, err)
		}
		if st.Placing > 0 {
			if _, err := insertResult(ctx, tx, seatResult(m, i)); err != nil {
				return Match{}, err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return Match{}, fmt.Errorf("store: save match %s: %w", m.ID, err)
	}
	return m, nil
}

const matchColumns = `m.id, m.mode, m.kind, m.size, m.level, m.puzzle, m.room, m.started, m.ended`

// Match implements Store.
func (s *SQLite) Match(ctx context.Context, id string) (Match, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+matchColumns+` FROM matches m WHERE m.id = ?`, id)
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
func (s *SQLite) PlayerMatches(ctx context.Context, player string, limit int) ([]Match, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+matchColumns+` FROM matches m
		WHERE m.id IN (SELECT match_id FROM match_seats WHERE player = ?)
		ORDER BY m.ended DESC, m.id LIMIT ?`, player, limitOr(limit, 20))
	if err != nil {
		return nil, fmt.Errorf("store: matches of a player: %w", err)
	}
	return s.scanMatches(ctx, rows, false)
}

// scanMatches reads match rows, then their seats (with the seats' states
// when withState).
func (s *SQLite) scanMatches(ctx context.Context, rows *sql.Rows, withState bool) ([]Match, error) {
	var out []Match
	index := map[string]int{}
	err := func() error {
		defer rows.Close()
		for rows.Next() {
			var m Match
			var started, ended int64
			if err := rows.Scan(&m.ID, &m.Mode, &m.Kind, &m.Size, &m.Level, &m.Puzzle, &m.Room, &started, &ended); err != nil {
				return err
			}
			m.Started, m.Ended = fromMillis(started), fromMillis(ended)
			index[m.ID] = len(out)
			out = append(out, m)
		}
		return rows.Err()
	}()
	if err != nil {
		return nil, fmt.Errorf("store: read matches: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	args := make([]any, len(out))
	marks := make([]string, len(out))
	for i, m := range out {
		args[i], marks[i] = m.ID, "?"
	}
	state := "NULL"
	if withState {
		state = "g.state"
	}
	seats, err := s.db.QueryContext(ctx, `SELECT s.match_id, s.game_id, s.player, s.name, s.place, s.millis, s.filled, s.mistakes, s.hints, `+state+`
		FROM match_seats s JOIN games g ON g.id = s.game_id
		WHERE s.match_id IN (`+strings.Join(marks, ", ")+`) ORDER BY s.match_id, s.seat`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: read match seats: %w", err)
	}
	defer seats.Close()
	for seats.Next() {
		var id string
		var st Seat
		if err := seats.Scan(&id, &st.GameID, &st.Player, &st.Name, &st.Placing, &st.Millis, &st.Filled, &st.Mistakes, &st.Hints, &st.State); err != nil {
			return nil, fmt.Errorf("store: read match seats: %w", err)
		}
		m := &out[index[id]]
		m.Seats = append(m.Seats, st)
	}
	if err := seats.Err(); err != nil {
		return nil, fmt.Errorf("store: read match seats: %w", err)
	}
	return out, nil
}

// isConstraint reports a UNIQUE or PRIMARY KEY violation.
func isConstraint(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code()
		return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || c&0xff == sqlite3.SQLITE_CONSTRAINT
	}
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}
