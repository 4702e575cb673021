package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestCameraDropFlood plays a client that makes the server drop frame
// after frame, faster than the notices can be written, and never reads
// what it is told: the notices waiting stay bounded and the server closes
// that connection instead of piling them up in memory, and says why.
func TestCameraDropFlood(t *testing.T) {
	result := make(chan *cameraConn, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c := &cameraConn{conn: conn, ctx: ctx, cancel: cancel}
		deadline := time.Now().Add(20 * time.Second)
		for seq := uint32(1); time.Now().Before(deadline); seq++ {
			c.drop(seq)
			c.mu.Lock()
			done := c.flooded != ""
			c.mu.Unlock()
			if done {
				break
			}
		}
		cancel() // let the notices still waiting go
		c.sends.Wait()
		result <- c
	}))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseNow()
	// Read nothing until the server has given up on us.
	c := <-result
	if c.flooded == "" {
		t.Fatalf("the server never closed a client that does not read (%d drops, %d notices waiting)", c.dropped, c.dropsOut)
	}
	if c.dropsOut > maxDropsOut {
		t.Errorf("%d drop notices were waiting at once, want at most %d", c.dropsOut, maxDropsOut)
	}
	t.Logf("closed after %d drops: %s", c.dropped, c.flooded)
}
