// Package pgtest gives tests a throwaway PostgreSQL schema.
//
// In: the server that `make test-pg` (scripts/test-pg.sh) starts and
// points SUDOKUAR_PG_URL at. Out: the connection string of a fresh schema,
// dropped when the test ends, in the form the variable has (a postgres://
// URL or "host=… port=…" pairs), or a skip saying how to run the test when
// the variable is unset. URL turns pairs into a postgres:// URL, the only
// form `sudokuar serve --db` takes.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sudokuar/sudokuar/store"
)

// Env names the variable that points the PostgreSQL tests at a server.
const Env = "SUDOKUAR_PG_URL"

// Server returns the test server's connection string (the variable
// Env), or skips t saying how to run it.
func Server(t testing.TB) string {
	t.Helper()
	base := os.Getenv(Env)
	if base == "" {
		t.Skipf("%s is not set: `make test-pg` runs this against a throwaway PostgreSQL", Env)
	}
	return base
}

// Schema makes a schema named prefix_RANDOM on the test server and
// returns the connection string that uses it; the schema is dropped
// after t.
func Schema(t testing.TB, prefix string) string {
	t.Helper()
	base := Server(t)
	ctx := context.Background()
	admin, err := pgxpool.New(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	schema := prefix + "_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
		admin.Close()
	})
	return withParam(base, "search_path", schema)
}

// withParam adds key=value to a connection string in either form.
func withParam(conn, key, value string) string {
	if !store.IsPostgresURL(conn) {
		return conn + " " + key + "=" + value
	}
	u, err := url.Parse(conn)
	if err != nil {
		return conn
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

// URL returns conn as a postgres:// URL: a URL as it is, key=value pairs
// (as test-pg.sh sets them: host is the socket folder) as query
// parameters of postgres:///DBNAME.
func URL(conn string) string {
	if store.IsPostgresURL(conn) {
		return conn
	}
	q := url.Values{}
	db := "postgres"
	for _, kv := range strings.Fields(conn) {
		k, v, _ := strings.Cut(kv, "=")
		if k == "dbname" {
			db = v
		} else {
			q.Set(k, v)
		}
	}
	return "postgres:///" + db + "?" + q.Encode()
}
