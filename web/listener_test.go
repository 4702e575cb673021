package web

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
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
	deadline := time.Now().Add(eventTimeout)
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

// TestLimitListenerExempt: a trusted balancer's connections are not
// capped per address (it carries every client's), anyone else's are.
func TestLimitListenerExempt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		exempt string
		want   int // connections served of 5 from 127.0.0.1
	}{
		{"balancer", "127.0.0.1/32", 5},
		{"another address", "10.0.0.0/8", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })}
			go hs.Serve(LimitListener(raw, 2, netip.MustParsePrefix(tc.exempt)))
			defer hs.Close()
			served := 0
			for range 5 {
				c, err := net.Dial("tcp", raw.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				c.SetDeadline(time.Now().Add(5 * time.Second))
				io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
				buf := make([]byte, 64)
				if n, err := c.Read(buf); err == nil && n > 0 {
					served++
				}
			}
			if served != tc.want {
				t.Errorf("%d of 5 connections served, want %d", served, tc.want)
			}
		})
	}
}

// TestClientOfProxy: X-Forwarded-For names the client only when a
// trusted proxy sent the request, and then by its last entry (the one
// the proxy appended; earlier ones are the client's own word).
func TestClientOfProxy(t *testing.T) {
	s := &Server{cfg: Config{Proxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.5/32")}}}
	for _, tc := range []struct {
		remote string
		xff    []string
		want   string
	}{
		{"10.0.0.5:4000", []string{"203.0.113.7"}, "203.0.113.7"},
		{"10.0.0.5:4000", []string{"1.2.3.4, 203.0.113.7"}, "203.0.113.7"},
		{"10.0.0.5:4000", []string{"1.2.3.4", "203.0.113.8"}, "203.0.113.8"},
		{"10.0.0.5:4000", []string{"2001:db8:1:2:3::9"}, "2001:db8:1:2::/64"},
		{"10.0.0.5:4000", []string{"not an address"}, "10.0.0.5"},
		{"10.0.0.5:4000", nil, "10.0.0.5"},
		{"198.51.100.1:4000", []string{"203.0.113.7"}, "198.51.100.1"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := s.clientOf(r).addr; got != tc.want {
			t.Errorf("from %s with X-Forwarded-For %q: client %q, want %q", tc.remote, tc.xff, got, tc.want)
		}
	}
}
