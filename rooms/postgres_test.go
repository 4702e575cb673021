package rooms

import (
	"context"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/pgtest"
	"github.com/sudokuar/sudokuar/store"
)

// TestPostgresCoopSaved plays a co-op game to the end with PostgreSQL as
// the store (`make test-pg` provides one): the match and both results are
// there, as a second node reading the same database would see them.
func TestPostgresCoopSaved(t *testing.T) {
	conn := pgtest.Schema(t, "rooms")
	ctx := context.Background()
	pg, err := store.OpenPostgres(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()

	h := newHarness(t, func(c *Config) { c.Store = pg })
	a, bb := h.connect("pa"), h.connect("pb")
	_, states := startCoop(t, h, a, bb)
	sol := solve(t, states[0])
	h.clock.Advance(10 * time.Minute) // a plausible time: ranked
	for k, i := range emptyCells(states[0].Puzzle) {
		[]*client{a, bb}[k%2].send(In{T: "move", Cell: ptr(i), Value: ptr(sol[i])})
	}
	a.expect("over", nil)
	waitFor(t, "the match stored", func() bool { return h.hub.Stats().Matches == 1 })
	ms, err := pg.PlayerMatches(ctx, "pb", 0)
	if err != nil || len(ms) != 1 || ms[0].Mode != store.ModeCoop || len(ms[0].Seats) != 2 || ms[0].Seats[0].Placing != 1 {
		t.Fatalf("matches in PostgreSQL: %+v, %v", ms, err)
	}
	board, err := pg.Leaderboard(ctx, store.Board{Kind: store.KindSudoku, Size: "9x9", Level: "easy", Mode: store.ModeCoop}, 0)
	if err != nil || len(board) != 2 {
		t.Errorf("co-op leaderboard in PostgreSQL: %+v, %v", board, err)
	}
}
