// Package journaltest checks that a rooms.Journal keeps its promises.
// Every implementation (rooms.MemJournal, cluster.Journal on PostgreSQL)
// runs the same Run from its own tests: records written only under the
// room's epoch, snapshots replacing the entries they cover, drops, and a
// takeover that exactly one of several racing nodes wins.
package journaltest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/rooms"
)

// Env is a journal under test and the nodes' heartbeats it sees.
type Env struct {
	// New returns an empty journal for one subtest.
	New func(t *testing.T) rooms.Journal
	// Beat sets node's last heartbeat ago in the past, in j.
	Beat func(t *testing.T, j rooms.Journal, node string, ago time.Duration)
}

// Run runs every check against journals made by e.
func Run(t *testing.T, e Env) {
	t.Run("ClaimRace", func(t *testing.T) { claimRace(t, e) })
	t.Run("SnapshotsAndDrops", func(t *testing.T) { snapshotsAndDrops(t, e) })
	t.Run("LiveOwnerKept", func(t *testing.T) { liveOwnerKept(t, e) })
}

func write(t *testing.T, j rooms.Journal, node string, recs ...rooms.Record) map[string]bool {
	t.Helper()
	ref, err := j.Write(context.Background(), node, recs)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func load(t *testing.T, j rooms.Journal, code string) string {
	t.Helper()
	snap, entries, err := j.Load(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	s := fmt.Sprintf("%s:", snap)
	for _, e := range entries {
		s += " " + string(e)
	}
	return s
}

// claimRace: eight live nodes race to claim dead A's room, 20 times: one
// wins each time (epoch 2, the 10 s away reported), A's records are
// refused after it, the winner's are taken, and Load gives the snapshot
// with the entries after it.
func claimRace(t *testing.T, e Env) {
	j := e.New(t)
	ctx := context.Background()
	e.Beat(t, j, "A", 10*time.Second)
	for g := range 8 {
		e.Beat(t, j, fmt.Sprintf("N%d", g), 0)
	}
	for k := range 20 {
		code := fmt.Sprintf("RACE%02d", k)
		if ref := write(t, j, "A",
			rooms.Record{Code: code, Epoch: 1, Seq: 1, Kind: rooms.RecSnapshot, Open: true, Data: []byte("s1")},
			rooms.Record{Code: code, Epoch: 1, Seq: 2, Kind: rooms.RecEntry, Data: []byte("e2")}); ref[code] {
			t.Fatal("A's first records refused")
		}
		var wins atomic.Int32
		var mu sync.Mutex
		var winner string
		var won rooms.Claimed
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				node := fmt.Sprintf("N%d", g)
				c, ok, err := j.Claim(ctx, code, node)
				if err != nil {
					t.Error(err)
				}
				if ok {
					wins.Add(1)
					mu.Lock()
					winner, won = node, c
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("room %s: %d winners", code, wins.Load())
		}
		if won.Epoch != 2 || won.Away < 9*time.Second || won.Away > time.Minute {
			t.Errorf("the claim: %+v", won)
		}
		if ref := write(t, j, "A", rooms.Record{Code: code, Epoch: 1, Seq: 3, Kind: rooms.RecEntry, Data: []byte("zombie")}); !ref[code] {
			t.Fatal("the old owner wrote after the takeover")
		}
		if ref := write(t, j, winner, rooms.Record{Code: code, Epoch: 2, Seq: 3, Kind: rooms.RecEntry, Data: []byte("e3")}); ref[code] {
			t.Fatal("the winner's record refused")
		}
		if got := load(t, j, code); got != "s1: e2 e3" {
			t.Fatalf("loaded %q", got)
		}
	}
}

// snapshotsAndDrops: a snapshot replaces the entries it covers, a batch's
// later snapshot its earlier records, a drop forgets the room.
func snapshotsAndDrops(t *testing.T, e Env) {
	j := e.New(t)
	e.Beat(t, j, "A", 0)
	write(t, j, "A",
		rooms.Record{Code: "SNAP01", Epoch: 1, Seq: 1, Kind: rooms.RecSnapshot, Open: true, Data: []byte("s1")},
		rooms.Record{Code: "SNAP01", Epoch: 1, Seq: 2, Kind: rooms.RecEntry, Data: []byte("e2")})
	write(t, j, "A",
		rooms.Record{Code: "SNAP01", Epoch: 1, Seq: 3, Kind: rooms.RecSnapshot, Data: []byte("s3")},
		rooms.Record{Code: "SNAP01", Epoch: 1, Seq: 4, Kind: rooms.RecEntry, Data: []byte("e4")})
	if got := load(t, j, "SNAP01"); got != "s3: e4" {
		t.Errorf("after a second snapshot: %q", got)
	}
	write(t, j, "A", rooms.Record{Code: "SNAP01", Epoch: 1, Seq: 5, Kind: rooms.RecDrop})
	if got := load(t, j, "SNAP01"); got != ":" {
		t.Errorf("after a drop: %q", got)
	}
	if ref := write(t, j, "B", rooms.Record{Code: "NOROOM", Epoch: 1, Seq: 1, Kind: rooms.RecEntry, Data: []byte("x")}); !ref["NOROOM"] {
		t.Error("a record for a room nobody opened was written")
	}
}

// liveOwnerKept: a live owner's room is not claimable; once it hands its
// rooms over, it is, with little time away.
func liveOwnerKept(t *testing.T, e Env) {
	j := e.New(t)
	ctx := context.Background()
	e.Beat(t, j, "A", 0)
	e.Beat(t, j, "B", 0)
	write(t, j, "A", rooms.Record{Code: "LIVE01", Epoch: 1, Seq: 1, Kind: rooms.RecSnapshot, Open: true, Data: []byte("s1")})
	if _, ok, err := j.Claim(ctx, "LIVE01", "B"); ok || err != nil {
		t.Fatalf("a live owner's room claimed: %v %v", ok, err)
	}
	if _, ok, _ := j.Claim(ctx, "NOSUCH", "B"); ok {
		t.Fatal("a code nobody holds claimed")
	}
	if err := j.Hand(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	c, ok, err := j.Claim(ctx, "LIVE01", "B")
	if !ok || err != nil || c.Epoch != 2 || c.Away > 5*time.Second {
		t.Fatalf("claim after the handover: %+v %v %v", c, ok, err)
	}
}
