package store_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sudokuar/sudokuar/internal/pgtest"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/store/storetest"
)

// TestPostgres runs the shared store suite, each subtest in a schema of
// its own, dropped afterwards.
func TestPostgres(t *testing.T) {
	ctx := context.Background()
	open := func(t *testing.T, conn string) *store.Postgres {
		s, err := store.OpenPostgres(ctx, conn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	storetest.Run(t, storetest.Open{
		New: func(t *testing.T) store.Store {
			return open(t, pgtest.Schema(t, "t"))
		},
		Reopen: func(t *testing.T, s store.Store) store.Store {
			conn := s.(*store.Postgres).URL()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return open(t, conn)
		},
	})

	// Two nodes starting at once on an empty database: one migrates, the
	// other waits for it and finds the schema done.
	t.Run("ConcurrentMigrations", func(t *testing.T) {
		conn := pgtest.Schema(t, "t")
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				s, err := store.OpenPostgres(ctx, conn)
				if err == nil {
					err = s.Ping(ctx)
					s.Close()
				}
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
}

// TestPostgresBadURL needs no server: a connection string that does not
// parse, and a server that is not there, are clear errors that never
// print the password.
func TestPostgresBadURL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := store.OpenPostgres(ctx, "postgres://u:secret@[::1")
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("bad URL: %v", err)
	}
	_, err = store.OpenPostgres(ctx, "postgres://u:secret@127.0.0.1:1/db?connect_timeout=2")
	if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "127.0.0.1") {
		t.Errorf("no server: %v", err)
	}
	if !store.IsPostgresURL("postgresql://x/y") || store.IsPostgresURL("/tmp/x.db") {
		t.Error("IsPostgresURL")
	}
}

// TestPostgresNotify measures what docs/scaling.md builds matchmaking and
// presence across nodes on: PostgreSQL's LISTEN/NOTIFY. One connection
// listens, another notifies 1,000 times; every notification must arrive,
// in order, and the round trip is logged (p50, p99).
func TestPostgresNotify(t *testing.T) {
	base := pgtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	listener, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close(ctx)
	sender, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close(ctx)
	if _, err := listener.Exec(ctx, `LISTEN sudokuar_test`); err != nil {
		t.Fatal(err)
	}
	const n = 1000
	var lat []time.Duration
	for i := range n {
		t0 := time.Now()
		if _, err := sender.Exec(ctx, `SELECT pg_notify('sudokuar_test', $1)`, fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
		note, err := listener.WaitForNotification(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if note.Payload != fmt.Sprint(i) {
			t.Fatalf("notification %d carried %q", i, note.Payload)
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	t.Logf("NOTIFY -> LISTEN round trip over a unix socket, %d in order: p50 %v, p99 %v, max %v",
		n, lat[n/2], lat[n*99/100], lat[n-1])
}
