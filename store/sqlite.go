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
// database/sql with parameterised statements only (the shared sqlStore,
// in SQLite's dialect).
type SQLite struct {
	*sqlStore
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
	s := &SQLite{sqlStore: &sqlStore{db: db, d: sqliteDialect}, path: path}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.d.migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	return s, nil
}

// Path is the database file.
func (s *SQLite) Path() string { return s.path }

// sqliteDialect is SQLite's part of the shared store: ? parameters,
// INTEGER and BLOB columns, and the schema version in PRAGMA user_version.
var sqliteDialect = dialect{
	name:     "sqlite",
	types:    map[string]string{"int64": "INTEGER", "blob": "BLOB", "id": "INTEGER PRIMARY KEY AUTOINCREMENT"},
	nullBlob: "NULL",
	unique:   isConstraint,
	version: func(ctx context.Context, tx *sql.Tx) (int, error) {
		var v int
		err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v)
		return v, err
	},
	setVersion: func(ctx context.Context, tx *sql.Tx, v int) error {
		// PRAGMA takes no parameters; the value is our own integer.
		_, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, v))
		return err
	},
}

// Close closes the database (after a WAL checkpoint, so the file alone is
// a complete copy).
func (s *SQLite) Close() error {
	_, _ = s.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	return s.db.Close()
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
