package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// TestSQLiteMigrateFromV1 opens a database written before rooms existed
// (schema version 1, one solo result) and checks the result is still on
// the solo leaderboard after the upgrade, and matches can be saved.
func TestSQLiteMigrateFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		sqliteDialect.migration(0),
		`INSERT INTO games VALUES ('g1', 'sudoku', 'p1', '9x9', 'easy', 'p', 's', x'7b7d', 'solved', 1, 2)`,
		`INSERT INTO results (game_id, kind, size, level, player, name, millis, hints, mistakes, finished)
			VALUES ('g1', 'sudoku', '9x9', 'easy', 'p1', 'Old', 61000, 1, 0, 2)`,
		`PRAGMA user_version = 1`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	b, err := s.Leaderboard(ctx, Board{Kind: KindSudoku, Size: "9x9", Level: "easy"}, 0)
	if err != nil || len(b) != 1 || b[0].Name != "Old" || b[0].Mode != ModeSolo {
		t.Fatalf("solo leaderboard after the upgrade: %+v, %v", b, err)
	}
	m := Match{ID: "m", Mode: ModeRace, Kind: KindSudoku, Size: "9x9", Level: "easy", Seats: []Seat{{Player: "p1", Name: "Old", Placing: 1, Millis: 5}}}
	if _, err := s.SaveMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	var v int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != len(schema) {
		t.Errorf("user_version %d, %v", v, err)
	}
}
