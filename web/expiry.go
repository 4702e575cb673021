package web

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/store"
)

// expireEvery is how often abandoned games are looked for.
const expireEvery = time.Hour

// expirer deletes the games nobody plays any more (Config.ExpireAfter,
// ExpireUnplayedAfter), once at start and then every hour, so that a
// client starting games it never plays cannot fill the disk for good.
type expirer struct {
	ex             store.Expirer
	now            func() time.Time
	idle, unplayed time.Duration
	log            *slog.Logger
	cancel         context.CancelFunc
	done           chan struct{}
	stopOnce       sync.Once
}

// startExpiry starts the expirer, or returns nil when the store cannot
// expire games or expiry is off.
func startExpiry(cfg Config) *expirer {
	ex, ok := cfg.Store.(store.Expirer)
	if !ok || cfg.ExpireAfter < 0 {
		return nil
	}
	unplayed := cfg.ExpireUnplayedAfter
	if unplayed < 0 {
		unplayed = cfg.ExpireAfter
	}
	ctx, cancel := context.WithCancel(context.Background())
	e := &expirer{ex: ex, now: cfg.Now, idle: cfg.ExpireAfter, unplayed: unplayed, log: cfg.Log, cancel: cancel, done: make(chan struct{})}
	go e.loop(ctx)
	return e
}

func (e *expirer) loop(ctx context.Context) {
	defer close(e.done)
	tick := time.NewTicker(expireEvery)
	defer tick.Stop()
	for {
		e.run(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// run expires games once; it returns how many went.
func (e *expirer) run(ctx context.Context) int64 {
	now := e.now()
	n, err := e.ex.ExpireGames(ctx, now.Add(-e.idle), now.Add(-e.unplayed))
	switch {
	case err != nil && ctx.Err() == nil:
		e.log.Error("expire games", "err", err)
	case n > 0:
		e.log.Info("expired abandoned games", "games", n, "idle", e.idle.String(), "unplayed", e.unplayed.String())
	}
	return n
}

// stop ends the loop and waits for it; nil-safe.
func (e *expirer) stop() {
	if e == nil {
		return
	}
	e.stopOnce.Do(func() {
		e.cancel()
		<-e.done
	})
}
