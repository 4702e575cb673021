package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var loadLineRE = regexp.MustCompile(`(?m)^players=(\d+) rooms=(\d+) moves=(\d+) lost=(\d+) misordered=(\d+) p50=([\d.]+)ms p99=([\d.]+)ms$`)
var quickLineRE = regexp.MustCompile(`(?m)^quick=(\d+) rooms=(\d+) median=(\d+)ms max=(\d+)ms$`)

// TestLoadgen runs `sudokuar loadgen` against a real `sudokuar serve` in
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

	var out, errOut strings.Builder
	code := run([]string{"loadgen", "--addr", url, "--players", "10", "--rooms", "3", "--duration", "3s", "--every", "100ms"},
		&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	t.Logf("loadgen:\n%s%s", out.String(), errOut.String())
	if code != exitOK {
		t.Fatalf("loadgen exited with %d", code)
	}
	m := loadLineRE.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no result line in:\n%s", out.String())
	}
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

	out.Reset()
	errOut.Reset()
	if code := run([]string{"loadgen", "--addr", url, "--quick", "8"}, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}); code != exitOK {
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
		if code := run(append([]string{"loadgen", "--addr", url}, args...), &env{stdin: strings.NewReader(""), stdout: &o, stderr: &e}); code != exitUsage || e.Len() == 0 {
			t.Errorf("loadgen %v: exit %d, stderr %q", args, code, e.String())
		}
	}
}
