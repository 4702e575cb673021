package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// schema is the one list of migrations both databases run, in order, once
// each. Append, never edit: a database in the field has run the earlier
// ones. Times are Unix milliseconds. The types that differ between the
// two are written as {placeholders} that each dialect fills in (see
// dialect.types): {int64} a 64-bit integer column, {blob} bytes, {id} an
// auto-numbered primary key.
var schema = []string{
	`CREATE TABLE games (
		id       TEXT PRIMARY KEY,
		kind     TEXT NOT NULL,
		player   TEXT NOT NULL,
		size     TEXT NOT NULL,
		level    TEXT NOT NULL,
		puzzle   TEXT NOT NULL,
		solution TEXT NOT NULL,
		state    {blob} NOT NULL,
		status   TEXT NOT NULL,
		created  {int64} NOT NULL,
		updated  {int64} NOT NULL
	);
	CREATE INDEX games_player ON games(player, updated);
	CREATE TABLE results (
		id       {id},
		game_id  TEXT NOT NULL UNIQUE REFERENCES games(id),
		kind     TEXT NOT NULL,
		size     TEXT NOT NULL,
		level    TEXT NOT NULL,
		player   TEXT NOT NULL,
		name     TEXT NOT NULL,
		millis   {int64} NOT NULL,
		hints    INTEGER NOT NULL,
		mistakes INTEGER NOT NULL,
		finished {int64} NOT NULL
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
		started {int64} NOT NULL,
		ended   {int64} NOT NULL
	);
	CREATE TABLE match_seats (
		match_id TEXT NOT NULL REFERENCES matches(id),
		seat     INTEGER NOT NULL,
		game_id  TEXT NOT NULL REFERENCES games(id),
		player   TEXT NOT NULL,
		name     TEXT NOT NULL,
		place    INTEGER NOT NULL,
		millis   {int64} NOT NULL,
		filled   INTEGER NOT NULL,
		mistakes INTEGER NOT NULL,
		hints    INTEGER NOT NULL,
		PRIMARY KEY (match_id, seat)
	);
	CREATE INDEX match_seats_player ON match_seats(player);`,
	// 3: flag: why a result is unranked ("" = ranked); leaderboards read
	// ranked results only.
	`ALTER TABLE results ADD COLUMN flag TEXT NOT NULL DEFAULT '';
	DROP INDEX results_board;
	CREATE INDEX results_board ON results(kind, size, level, mode, flag, millis);`,
	// 4: the daily puzzles, their results' own boards, and every game a
	// player starts, for their statistics.
	`ALTER TABLE results ADD COLUMN daily TEXT NOT NULL DEFAULT '';
	DROP INDEX results_board;
	CREATE INDEX results_board ON results(kind, size, level, mode, daily, flag, millis);
	CREATE TABLE dailies (
		day      TEXT NOT NULL,
		kind     TEXT NOT NULL,
		size     TEXT NOT NULL,
		level    TEXT NOT NULL,
		puzzle   TEXT NOT NULL,
		solution TEXT NOT NULL,
		info     {blob} NOT NULL,
		created  {int64} NOT NULL,
		PRIMARY KEY (day, kind)
	);
	CREATE TABLE plays (
		game_id TEXT PRIMARY KEY,
		player  TEXT NOT NULL,
		kind    TEXT NOT NULL,
		size    TEXT NOT NULL,
		level   TEXT NOT NULL,
		daily   TEXT NOT NULL,
		outcome TEXT NOT NULL,
		millis  {int64} NOT NULL,
		started {int64} NOT NULL,
		ended   {int64} NOT NULL
	);
	CREATE INDEX plays_player ON plays(player, ended);
	CREATE INDEX plays_daily ON plays(player, daily);`,
}

// dialect is all that differs between SQLite and PostgreSQL for the
// shared query code of sqlStore: the column types of the schema, how a
// statement's parameters are written, what a unique-key violation looks
// like, a NULL of the state's type, and where the schema version is kept.
type dialect struct {
	name string
	// types fills in the schema's {placeholders}.
	types map[string]string
	// numbered: parameters are $1, $2, ... (PostgreSQL) rather than ?.
	numbered bool
	// nullBlob is a NULL that reads as the state column's type.
	nullBlob string
	// unique reports a UNIQUE or PRIMARY KEY violation.
	unique func(error) bool
	// version reads the schema version inside the migration's transaction
	// (taking whatever lock the database needs); setVersion records it.
	version    func(ctx context.Context, tx *sql.Tx) (int, error)
	setVersion func(ctx context.Context, tx *sql.Tx, v int) error
}

// migration returns schema step i in d's types.
func (d dialect) migration(i int) string {
	s := schema[i]
	for k, v := range d.types {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return s
}

// q writes a statement's ? parameters the way d wants them. The shared
// statements hold no ? inside a string literal.
func (d dialect) q(query string) string {
	if !d.numbered {
		return query
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// migrate brings db's schema up to date in one transaction.
func (d dialect) migrate(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer func() { _ = tx.Rollback() }() // after Commit it only reports sql.ErrTxDone
	version, err := d.version(ctx, tx)
	if err != nil {
		return fmt.Errorf("migrate: read the schema version: %w", err)
	}
	if version > len(schema) {
		return fmt.Errorf("schema version %d is newer than this program knows (%d): use a newer sudokuar", version, len(schema))
	}
	for i := version; i < len(schema); i++ {
		if _, err := tx.ExecContext(ctx, d.migration(i)); err != nil {
			return fmt.Errorf("migrate to version %d: %w", i+1, err)
		}
	}
	if err := d.setVersion(ctx, tx, len(schema)); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return tx.Commit()
}
