package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres is the Store for a server that outgrows one machine: several
// `sudokuar serve` nodes share one PostgreSQL database (see
// docs/scaling.md). It keeps the same tables as SQLite, written through a
// pgx connection pool with parameterised statements only.
type Postgres struct {
	pool *pgxpool.Pool
	url  string
}

// IsPostgresURL reports whether a --db value names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// OpenPostgres connects to the database at url (a postgres:// URL or a
// "host=… dbname=…" string; extra parameters such as search_path go to
// the server) and brings its schema up to date.
func OpenPostgres(ctx context.Context, url string) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password included: say less.
		return nil, errors.New("store: PostgreSQL: the connection string does not parse")
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: PostgreSQL %s: %w", safeURL(cfg), err)
	}
	p := &Postgres{pool: pool, url: url}
	mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := p.migrate(mctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: PostgreSQL %s: %w", safeURL(cfg), err)
	}
	return p, nil
}

// safeURL names a database without its password.
func safeURL(cfg *pgxpool.Config) string {
	c := cfg.ConnConfig
	return fmt.Sprintf("%s@%s:%d/%s", c.User, c.Host, c.Port, c.Database)
}

// URL is the connection string the store was opened with.
func (p *Postgres) URL() string { return p.url }

// pgMigrations are applied in order, once each; schema_version counts
// them. Append, never edit. They build the same tables as SQLite's
// migrations (times in Unix milliseconds there too).
var pgMigrations = []string{
	`CREATE TABLE games (
		id       TEXT PRIMARY KEY,
		kind     TEXT NOT NULL,
		player   TEXT NOT NULL,
		size     TEXT NOT NULL,
		level    TEXT NOT NULL,
		puzzle   TEXT NOT NULL,
		solution TEXT NOT NULL,
		state    BYTEA NOT NULL,
		status   TEXT NOT NULL,
		created  BIGINT NOT NULL,
		updated  BIGINT NOT NULL
	);
	CREATE INDEX games_player ON games(player, updated);
	CREATE TABLE results (
		id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		game_id  TEXT NOT NULL UNIQUE REFERENCES games(id),
		kind     TEXT NOT NULL,
		size     TEXT NOT NULL,
		level    TEXT NOT NULL,
		player   TEXT NOT NULL,
		name     TEXT NOT NULL,
		millis   BIGINT NOT NULL,
		hints    INTEGER NOT NULL,
		mistakes INTEGER NOT NULL,
		finished BIGINT NOT NULL
	);
	CREATE INDEX results_board ON results(kind, size, level, millis);
	CREATE INDEX results_player ON results(player, finished);`,
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
		started BIGINT NOT NULL,
		ended   BIGINT NOT NULL
	);
	CREATE TABLE match_seats (
		match_id TEXT NOT NULL REFERENCES matches(id),
		seat     INTEGER NOT NULL,
		game_id  TEXT NOT NULL REFERENCES games(id),
		player   TEXT NOT NULL,
		name     TEXT NOT NULL,
		place    INTEGER NOT NULL,
		millis   BIGINT NOT NULL,
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

// migrate brings the schema up to date. Several nodes may start at once:
// a transaction-scoped advisory lock lets one migrate while the others
// wait, then find nothing left to do.
func (p *Postgres) migrate(ctx context.Context) error {
	return pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7290431)`); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		var version int
		err := tx.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&version)
		if errors.Is(err, pgx.ErrNoRows) {
			if _, err := tx.Exec(ctx, `INSERT INTO schema_version VALUES (0)`); err != nil {
				return fmt.Errorf("migrate: %w", err)
			}
		} else if err != nil {
			return fmt.Errorf("migrate: read the schema version: %w", err)
		}
		if version > len(pgMigrations) {
			return fmt.Errorf("schema version %d is newer than this program knows (%d): use a newer sudokuar", version, len(pgMigrations))
		}
		for i := version; i < len(pgMigrations); i++ {
			if _, err := tx.Exec(ctx, pgMigrations[i]); err != nil {
				return fmt.Errorf("migrate to version %d: %w", i+1, err)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE schema_version SET version = $1`, len(pgMigrations)); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		return nil
	})
}

// Ping implements Store.
func (p *Postgres) Ping(ctx context.Context) error { return p.pool.Ping(ctx) }

// Close closes the pool (waiting for connections in use to be returned).
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// pgUnique reports a UNIQUE or PRIMARY KEY violation.
func pgUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// CreateGame implements Store.
func (p *Postgres) CreateGame(ctx context.Context, g Game) error {
	return insertGamePG(ctx, p.pool, g)
}

// pgExec is what a pool and a transaction share.
type pgExec interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func insertGamePG(ctx context.Context, db pgExec, g Game) error {
	_, err := db.Exec(ctx, `INSERT INTO games
		(id, kind, player, size, level, puzzle, solution, state, status, created, updated)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		g.ID, g.Kind, g.Player, g.Size, g.Level, g.Puzzle, g.Solution, nonNil(g.State), g.Status, millis(g.Created), millis(g.Updated))
	if pgUnique(err) {
		return fmt.Errorf("store: create game %s: %w", g.ID, ErrDuplicate)
	}
	if err != nil {
		return fmt.Errorf("store: create game %s: %w", g.ID, err)
	}
	return nil
}

// nonNil keeps a nil state from becoming SQL NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Game implements Store.
func (p *Postgres) Game(ctx context.Context, id string) (Game, error) {
	var g Game
	var created, updated int64
	err := p.pool.QueryRow(ctx, `SELECT id, kind, player, size, level, puzzle, solution, state, status, created, updated
		FROM games WHERE id = $1`, id).
		Scan(&g.ID, &g.Kind, &g.Player, &g.Size, &g.Level, &g.Puzzle, &g.Solution, &g.State, &g.Status, &created, &updated)
	if errors.Is(err, pgx.ErrNoRows) {
		return Game{}, fmt.Errorf("store: game %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Game{}, fmt.Errorf("store: game %q: %w", id, err)
	}
	g.Created, g.Updated = fromMillis(created), fromMillis(updated)
	return g, nil
}

// UpdateGame implements Store.
func (p *Postgres) UpdateGame(ctx context.Context, g Game) error {
	return updateGamePG(ctx, p.pool, g)
}

func updateGamePG(ctx context.Context, db pgExec, g Game) error {
	tag, err := db.Exec(ctx, `UPDATE games SET state = $1, status = $2, updated = $3 WHERE id = $4`,
		nonNil(g.State), g.Status, millis(g.Updated), g.ID)
	if err != nil {
		return fmt.Errorf("store: update game %s: %w", g.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store: update game %q: %w", g.ID, ErrNotFound)
	}
	return nil
}

// ExpireGames implements Expirer, as SQLite does: a server on PostgreSQL
// forgets abandoned games too. Match seats' games are "unfinished" or
// "solved", never expired.
func (p *Postgres) ExpireGames(ctx context.Context, idle, unplayed time.Time) (int64, error) {
	tag, err := p.pool.Exec(ctx, `DELETE FROM games
		WHERE status IN ($1, $2)
		AND (updated < $3 OR (updated = created AND created < $4))
		AND id NOT IN (SELECT game_id FROM results)`,
		StatusPlaying, StatusRevealed, millis(idle), millis(unplayed))
	if err != nil {
		return 0, fmt.Errorf("store: expire games: %w", err)
	}
	return tag.RowsAffected(), nil
}

// FinishGame implements Store.
func (p *Postgres) FinishGame(ctx context.Context, g Game, r Result) (Result, error) {
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		if err := updateGamePG(ctx, tx, g); err != nil {
			return err
		}
		r.GameID = g.ID
		var err error
		r, err = insertResultPG(ctx, tx, r)
		return err
	})
	if err != nil {
		return Result{}, err
	}
	return r, nil
}

func insertResultPG(ctx context.Context, db pgExec, r Result) (Result, error) {
	r.Mode = mode(r.Mode)
	err := db.QueryRow(ctx, `INSERT INTO results
		(game_id, kind, size, level, player, name, millis, hints, mistakes, finished, mode, match_id, place, players, flag)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
		r.GameID, r.Kind, r.Size, r.Level, r.Player, r.Name, r.Millis, r.Hints, r.Mistakes, millis(r.Finished),
		r.Mode, r.Match, r.Placing, r.Players, r.Flag).Scan(&r.ID)
	if pgUnique(err) {
		return Result{}, fmt.Errorf("store: result for game %s: %w", r.GameID, ErrDuplicate)
	}
	if err != nil {
		return Result{}, fmt.Errorf("store: result for game %s: %w", r.GameID, err)
	}
	return r, nil
}

// Leaderboard implements Store.
func (p *Postgres) Leaderboard(ctx context.Context, b Board, limit int) ([]Result, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+resultColumns+` FROM results
		WHERE kind = $1 AND size = $2 AND level = $3 AND mode = $4 AND flag = ''
		ORDER BY millis, hints, mistakes, finished, id LIMIT $5`,
		b.Kind, b.Size, b.Level, mode(b.Mode), limitOr(limit, 20))
	if err != nil {
		return nil, fmt.Errorf("store: leaderboard %v: %w", b, err)
	}
	return scanResultsPG(rows)
}

// History implements Store.
func (p *Postgres) History(ctx context.Context, player string, limit int) ([]Result, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+resultColumns+` FROM results
		WHERE player = $1 ORDER BY finished DESC, id DESC LIMIT $2`, player, limitOr(limit, 50))
	if err != nil {
		return nil, fmt.Errorf("store: history: %w", err)
	}
	return scanResultsPG(rows)
}

func scanResultsPG(rows pgx.Rows) ([]Result, error) {
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
func (p *Postgres) SaveMatch(ctx context.Context, m Match) (Match, error) {
	if err := checkMatch(m); err != nil {
		return Match{}, err
	}
	m.Seats = append([]Seat(nil), m.Seats...)
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO matches (id, mode, kind, size, level, puzzle, room, started, ended)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			m.ID, m.Mode, m.Kind, m.Size, m.Level, m.Puzzle, m.Room, millis(m.Started), millis(m.Ended))
		if pgUnique(err) {
			return fmt.Errorf("store: save match %s: %w", m.ID, ErrDuplicate)
		}
		if err != nil {
			return fmt.Errorf("store: save match %s: %w", m.ID, err)
		}
		for i := range m.Seats {
			g := seatGame(m, i)
			if err := insertGamePG(ctx, tx, g); err != nil {
				return fmt.Errorf("store: save match %s seat %d: %w", m.ID, i, err)
			}
			st := m.Seats[i]
			m.Seats[i].GameID = g.ID
			if _, err := tx.Exec(ctx, `INSERT INTO match_seats
				(match_id, seat, game_id, player, name, place, millis, filled, mistakes, hints)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
				m.ID, i, g.ID, st.Player, st.Name, st.Placing, st.Millis, st.Filled, st.Mistakes, st.Hints); err != nil {
				return fmt.Errorf("store: save match %s seat %d: %w", m.ID, i, err)
			}
			if st.Placing > 0 {
				if _, err := insertResultPG(ctx, tx, seatResult(m, i)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return Match{}, err
	}
	return m, nil
}

// Match implements Store.
func (p *Postgres) Match(ctx context.Context, id string) (Match, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+matchColumns+` FROM matches m WHERE m.id = $1`, id)
	if err != nil {
		return Match{}, fmt.Errorf("store: match %q: %w", id, err)
	}
	ms, err := p.scanMatches(ctx, rows, true)
	if err != nil {
		return Match{}, err
	}
	if len(ms) == 0 {
		return Match{}, fmt.Errorf("store: match %q: %w", id, ErrNotFound)
	}
	return ms[0], nil
}

// PlayerMatches implements Store.
func (p *Postgres) PlayerMatches(ctx context.Context, player string, limit int) ([]Match, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+matchColumns+` FROM matches m
		WHERE m.id IN (SELECT match_id FROM match_seats WHERE player = $1)
		ORDER BY m.ended DESC, m.id LIMIT $2`, player, limitOr(limit, 20))
	if err != nil {
		return nil, fmt.Errorf("store: matches of a player: %w", err)
	}
	return p.scanMatches(ctx, rows, false)
}

func (p *Postgres) scanMatches(ctx context.Context, rows pgx.Rows, withState bool) ([]Match, error) {
	var out []Match
	index := map[string]int{}
	var ids []string
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
			ids = append(ids, m.ID)
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
	state := "NULL::bytea"
	if withState {
		state = "g.state"
	}
	seats, err := p.pool.Query(ctx, `SELECT s.match_id, s.game_id, s.player, s.name, s.place, s.millis, s.filled, s.mistakes, s.hints, `+state+`
		FROM match_seats s JOIN games g ON g.id = s.game_id
		WHERE s.match_id = ANY($1) ORDER BY s.match_id, s.seat`, ids)
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
		out[index[id]].Seats = append(out[index[id]].Seats, st)
	}
	if err := seats.Err(); err != nil {
		return nil, fmt.Errorf("store: read match seats: %w", err)
	}
	return out, nil
}
