package web

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestLimitListener opens more connections from one address than the
// bound: the extra one is closed at once, the others serve, and closing
// one makes room again.
func TestLimitListener(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := LimitListener(raw, 3)
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })}
	go hs.Serve(ln)
	defer hs.Close()
	addr := raw.Addr().String()

	// served reports whether c answers a request (keep-alive: the
	// connection stays open afterwards).
	served := func(c net.Conn) bool {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			return false
		}
		buf := make([]byte, 512)
		n, err := c.Read(buf)
		return err == nil && n > 0 && string(buf[:len("HTTP/1.1 200")]) == "HTTP/1.1 200"
	}
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	var held []net.Conn
	for i := range 3 {
		c := dial()
		defer c.Close()
		if !served(c) {
			t.Fatalf("connection %d within the bound was not served", i+1)
		}
		held = append(held, c)
	}
	extra := dial()
	defer extra.Close()
	if served(extra) {
		t.Fatal("a fourth connection from the same address was served; want it closed")
	}
	held[0].Close()
	// The server notices the close when its read on that connection
	// fails; give it a moment.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := dial()
		ok := served(c)
		c.Close()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("after closing a connection, a new one is still refused")
		}
		time.Sleep(50 * time.Millisecond)
	}
	for i, c := range held[1:] {
		if !served(c) {
			t.Errorf("kept connection %d stopped serving", i+2)
		}
	}
}
