//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockSQLite takes an exclusive lock on db's lock file (db + ".lock") for
// as long as this server runs, and refuses if another process holds it:
// two servers on one SQLite file would each keep their own rooms and
// their own view of games in progress. Several nodes share PostgreSQL.
// The lock goes with the process, so a crash leaves nothing to clean. The
// database's folder is made first (the default one may not exist yet).
func lockSQLite(db string) (unlock func(), err error) {
	path := db + ".lock"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("locking the database: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("locking the database: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another sudokuar serve is using %s (it holds %s): one SQLite database serves one node; "+
				"to run several nodes, share a PostgreSQL database (--db postgres://…)", db, path)
		}
		return nil, fmt.Errorf("locking the database (%s): %w", path, err)
	}
	return func() { f.Close() }, nil
}
