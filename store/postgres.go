package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// Postgres is the Store for a server that outgrows one machine: several
// `sudokuar serve` nodes share one PostgreSQL database (see
// docs/scaling.md). It keeps the same tables as SQLite and runs the same
// statements (the shared sqlStore, in PostgreSQL's dialect), through
// database/sql over a pgx connection pool, parameterised only.
type Postgres struct {
	*sqlStore
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
	db := stdlib.OpenDBFromPool(pool)
	p := &Postgres{sqlStore: &sqlStore{db: db, d: postgresDialect}, pool: pool, url: url}
	mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := p.d.migrate(mctx, db); err != nil {
		db.Close()
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

// postgresDialect is PostgreSQL's part of the shared store: $n
// parameters, BIGINT and BYTEA columns, an identity column for results,
// and the schema version in a table of its own. Several nodes may start
// at once: a transaction-scoped advisory lock lets one migrate while the
// others wait, then find nothing left to do.
var postgresDialect = dialect{
	name:     "postgres",
	types:    map[string]string{"int64": "BIGINT", "blob": "BYTEA", "id": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"},
	numbered: true,
	nullBlob: "NULL::bytea",
	unique:   pgUnique,
	version: func(ctx context.Context, tx *sql.Tx) (int, error) {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7290431)`); err != nil {
			return 0, fmt.Errorf("lock: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
			return 0, err
		}
		var v int
		err := tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			_, err = tx.ExecContext(ctx, `INSERT INTO schema_version VALUES (0)`)
		}
		return v, err
	},
	setVersion: func(ctx context.Context, tx *sql.Tx, v int) error {
		_, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = $1`, v)
		return err
	},
}

// Ping implements Store.
func (p *Postgres) Ping(ctx context.Context) error { return p.pool.Ping(ctx) }

// Close closes the pool (waiting for connections in use to be returned).
func (p *Postgres) Close() error {
	err := p.db.Close()
	p.pool.Close()
	return err
}

// pgUnique reports a UNIQUE or PRIMARY KEY violation.
func pgUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}
