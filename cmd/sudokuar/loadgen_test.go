package main

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/rooms"
)

var loadLineRE = regexp.MustCompile(`(?m)^players=(\d+) rooms=(\d+) moves=(\d+) lost=(\d+) misordered=(\d+) reconnected=(\d+) resumed=(\d+) p50=([\d.]+)ms p99=([\d.]+)ms$`)
var quickLineRE = regexp.MustCompile(`(?m)^quick=(\d+) rooms=(\d+) median=(\d+)ms max=(\d+)ms$`)

// TestLoadgen runs `sudokuar dev loadgen` against a real `sudokuar serve` in
// this process, small: 10 players in 3 rooms (race and co-op) moving every
// 100 ms for 3 s, then 8 players asking for a quick match (two full rooms at once). Every move is
// answered, in order, and every board ends as the server's; the last
// lines have the documented form. Bad flags are refused before any
// connection.
func TestLoadgen(t *testing.T) {
	url, done, _ := startServe(t, "--db", filepath.Join(t.TempDir(), "load.db"))
	defer func() {
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("serve exited with %d", code)
			}
		case <-time.After(20 * time.Second):
			t.Error("serve did not stop")
		}
	}()

	out, errOut := &syncBuffer{}, &syncBuffer{}
	m := runLoadgen(t, out, errOut, "--addr", url, "--players", "10", "--rooms", "3", "--duration", "3s", "--every", "100ms")
	moves, _ := strconv.Atoi(m[3])
	if m[1] != "10" || m[2] != "3" || moves < 100 || m[4] != "0" || m[5] != "0" {
		t.Errorf("result: %s (want 10 players, 3 rooms, >= 100 moves, none lost or misordered)", m[0])
	}
	if !strings.Contains(out.String(), "from 1 loopback addresses (127.0.0.2)") {
		t.Errorf("the players did not connect from 127.0.0.2")
	}
	if !strings.Contains(out.String(), "server while playing: CPU") {
		t.Errorf("no server CPU and memory line")
	}

	out, errOut = &syncBuffer{}, &syncBuffer{}
	if code := run([]string{"dev", "loadgen", "--addr", url, "--quick", "8"}, &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut}); code != exitOK {
		t.Fatalf("loadgen --quick exited with %d: %s%s", code, out.String(), errOut.String())
	}
	q := quickLineRE.FindStringSubmatch(out.String())
	if q == nil {
		t.Fatalf("no quick-match line in:\n%s", out.String())
	}
	if q[1] != "8" || q[2] != "2" {
		t.Errorf("quick result: %s", q[0])
	}
	t.Logf("quick: %s", q[0])

	for _, args := range [][]string{
		{"--addr", "ftp://x"}, {"--players", "20", "--rooms", "4"}, {"--players", "2", "--rooms", "3"},
		{"--mode", "chess"}, {"--every", "0s"}, {"--quick", "5", "--kinds", "9"}, {"--sources", "300"}, {"extra"},
	} {
		var o, e strings.Builder
		if code := run(append([]string{"dev", "loadgen", "--addr", url}, args...), &env{stdin: strings.NewReader(""), stdout: &o, stderr: &e}); code != exitUsage || e.Len() == 0 {
			t.Errorf("loadgen %v: exit %d, stderr %q", args, code, e.String())
		}
	}
}

// runLoadgen runs `sudokuar loadgen args...` in this process, writing to
// out and errOut (which the caller may watch meanwhile), logs what it
// said, and returns the summary line's fields (loadLineRE's submatches);
// it fails t when loadgen fails or prints no summary.
func runLoadgen(t *testing.T, out, errOut *syncBuffer, args ...string) []string {
	t.Helper()
	code := run(append([]string{"dev", "loadgen"}, args...), &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut})
	t.Logf("loadgen:\n%s%s", out, errOut)
	if code != exitOK {
		t.Fatalf("loadgen exited with %d", code)
	}
	m := loadLineRE.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no result line in:\n%s", out)
	}
	return m
}

// cutProxy forwards TCP connections to a server and can cut them all at
// once, as a node's crash or a network failure cuts players' sockets.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	cuts   int
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
	return p
}

func (p *cutProxy) url() string { return "http://" + p.ln.Addr().String() }

// cut closes every connection open now.
func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.cuts++
}

// TestLoadgenReconnect cuts every player's socket in the middle of the
// game (a proxy between loadgen and one `serve` closes them all): each
// player reconnects, joins its room again (the seat waits 60 s for its
// player) and checks the board holds every move the server had
// acknowledged. Nothing is lost or misordered, every player comes back,
// and the drop shows in the summary.
func TestLoadgenReconnect(t *testing.T) {
	srvURL, done, _ := startServe(t, "--db", filepath.Join(t.TempDir(), "load.db"))
	defer func() {
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("serve did not stop")
		}
	}()
	proxy := newCutProxy(t, strings.TrimPrefix(srvURL, "http://"))
	out, errOut := &syncBuffer{}, &syncBuffer{}
	go func() { // 1 s into the game (it runs 5 s)
		for !strings.Contains(out.String(), "rooms playing after") {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(time.Second)
		proxy.cut()
	}()
	m := runLoadgen(t, out, errOut, "--addr", proxy.url(), "--players", "8", "--rooms", "2", "--mode", "mixed",
		"--duration", "5s", "--every", "100ms", "--sources", "0")
	reconnected, _ := strconv.Atoi(m[6])
	resumed, _ := strconv.Atoi(m[7])
	if m[4] != "0" || m[5] != "0" || reconnected < 8 || resumed < 8 {
		t.Errorf("result: %s (want none lost or misordered, all 8 players reconnected and resumed)", m[0])
	}
	if !strings.Contains(out.String(), "0 players never came back") {
		t.Errorf("a player did not come back")
	}
}

// TestResumeCheck: the check after a return to the room finds acked
// moves missing from the state, and only those.
func TestResumeCheck(t *testing.T) {
	st := func(v int64, cells string) rooms.State {
		return rooms.State{Phase: rooms.PhasePlaying, Board: &rooms.BoardView{V: v, Cells: cells}}
	}
	for _, tc := range []struct {
		name     string
		mode     string
		board    string
		v        int64
		inflight []int                  // cells of moves in flight at the drop
		seen     map[int64]rooms.Change // co-op: versions other players saw
		state    rooms.State
		want     int
	}{
		{"race same", rooms.Race, "1200", 2, nil, nil, st(2, "1200"), 0},
		{"race version back", rooms.Race, "1200", 2, nil, nil, st(1, "1000"), 1},
		{"race cell lost", rooms.Race, "1230", 3, nil, nil, st(3, "1200"), 1},
		{"race in flight taken", rooms.Race, "1200", 2, []int{3}, nil, st(3, "1204"), 0},
		{"race other cell", rooms.Race, "1200", 2, []int{3}, nil, st(3, "1240"), 1},
		{"coop others moved", rooms.Coop, "1200", 2, nil, map[int64]rooms.Change{3: {Cell: 2, Value: 3}}, st(3, "1230"), 0},
		{"coop unseen version", rooms.Coop, "1200", 2, nil, nil, st(3, "1230"), 0},
		{"coop version back", rooms.Coop, "1230", 3, nil, nil, st(1, "1000"), 2},
		{"coop cell lost", rooms.Coop, "1230", 3, nil, nil, st(3, "1200"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &lgPlayer{mode: tc.mode, board: []byte(tc.board), v: tc.v, inflight: map[int64]lgSent{}}
			for i, c := range tc.inflight {
				p.inflight[int64(i+1)] = lgSent{cell: c}
			}
			if tc.mode == rooms.Coop {
				p.room = newLgRoom()
				for v, ch := range tc.seen {
					p.room.note(v, []rooms.Change{ch})
				}
			}
			if got := p.missing(tc.state); got != tc.want {
				t.Errorf("missing = %d, want %d", got, tc.want)
			}
		})
	}
	r := newLgRoom()
	first := r.note(4, []rooms.Change{{Cell: 1, Value: 2}})
	again := r.note(4, []rooms.Change{{Cell: 1, Value: 2}}) // another player saw the same
	if !first || !again {
		t.Error("the same version seen twice counted as lost")
	}
	if r.note(4, []rooms.Change{{Cell: 7, Value: 2}}) {
		t.Error("a version numbered twice with another move not counted as lost")
	}
	if r.lose(2, 5) != 2 { // 4 is counted already
		t.Error("lost versions counted twice")
	}
}
