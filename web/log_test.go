package web

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// testLogger sends the server's log to the test log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(&tlogHandler{t: t, level: slog.LevelInfo})
}

type tlogHandler struct {
	t     testing.TB
	level slog.Level
	mu    sync.Mutex
}

func (h *tlogHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }
func (h *tlogHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString("server: " + r.Level.String() + " " + r.Message)
	r.Attrs(func(a slog.Attr) bool { b.WriteString(" " + a.String()); return true })
	h.mu.Lock()
	defer h.mu.Unlock()
	defer func() { recover() }() // a log line after the test ended
	h.t.Log(b.String())
	return nil
}
func (h *tlogHandler) WithAttrs(as []slog.Attr) slog.Handler { return h }
func (h *tlogHandler) WithGroup(string) slog.Handler         { return h }
