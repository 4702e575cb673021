package rooms

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// TestBackToBackCreates: connections that send creates back to back,
// never waiting for the room, are in one room each at most, and once
// they close (and their seats have waited Reconnect) no room is left.
// Before, a create sent before the previous room had seated the socket
// left that room open for good (19,928 rooms from 40 sockets in 42 s).
func TestBackToBackCreates(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.CreateBurst, c.CreateRate = 1000, 60_000 })
	var conns []*client
	for k := range 20 {
		conns = append(conns, h.connect(fmt.Sprint("p", k)))
	}
	create, _ := json.Marshal(In{T: "create", Mode: Race})
	for range 10 {
		for _, c := range conns {
			c.conn.Receive(create)
		}
	}
	deadline := time.Now().Add(eventTimeout)
	for h.hub.Stats().Rooms > len(conns) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := h.hub.Stats().Rooms; n > len(conns) {
		t.Errorf("%d rooms open for %d connections that each created 10", n, len(conns))
	}
	for _, c := range conns {
		c.conn.Close()
	}
	// A room hears of a closed connection on its own goroutine; a seat
	// dropped after one clock jump would wait for the next, so the clock
	// keeps moving until every room has closed (or eventTimeout has passed).
	deadline = time.Now().Add(eventTimeout)
	for h.hub.Stats().Rooms > 0 && time.Now().Before(deadline) {
		h.clock.Advance(h.hub.cfg.Reconnect + time.Second)
		time.Sleep(10 * time.Millisecond)
	}
	if n := h.hub.Stats().Rooms; n > 0 {
		h.hub.mu.Lock()
		for code, r := range h.hub.rooms {
			t.Logf("room %s left: %+v", code, *r.info.Load())
		}
		h.hub.mu.Unlock()
		t.Errorf("%d rooms left after every connection closed", n)
	}
}
