package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sudokuar/sudokuar/internal/pgtest"
	"github.com/sudokuar/sudokuar/store"
)

// syncBuffer is a strings.Builder safe to read while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var urlRE = regexp.MustCompile(`https?://127\.0\.0\.1:\d+`)

// startServe runs `sudokuar serve args...` in this process and returns its
// URL and a channel with its exit status.
func startServe(t *testing.T, args ...string) (string, <-chan int, *syncBuffer) {
	t.Helper()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut})
	}()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if u := urlRE.FindString(out.String()); u != "" {
			return u, done, errOut
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d: %s%s", code, out, errOut)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("serve printed no URL: %s%s", out, errOut)
	return "", nil, nil
}

func postJSON(t *testing.T, c *http.Client, url, body string) map[string]any {
	t.Helper()
	res, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v map[string]any
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode >= 300 {
		t.Fatalf("POST %s: %d %v %v", url, res.StatusCode, v, err)
	}
	return v
}

// TestServeSIGTERM starts the server, plays a move, sends the process
// SIGTERM and checks that the server stops cleanly with the move saved.
func TestServeSIGTERM(t *testing.T) {
	db := filepath.Join(t.TempDir(), "serve.db")
	url, done, errOut := startServe(t, "--db", db)
	// One browser: its cookie owns the game it starts.
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	g := postJSON(t, c, url+"/api/games", `{"puzzle":"`+wikiPuzzle+`"}`)
	id := g["id"].(string)
	postJSON(t, c, url+"/api/games/"+id+"/move", `{"cell":2,"value":4}`)

	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("serve exited with %d after SIGTERM: %s", code, errOut)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop within 15 s of SIGTERM")
	}
	// A clean close leaves the database file complete: no WAL to replay.
	if fi, err := os.Stat(db + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("the WAL still holds %d bytes after a clean shutdown", fi.Size())
	}
	st, err := store.OpenSQLite(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec, err := st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Board struct{ Values []int }
	}
	if err := json.Unmarshal(rec.State, &s); err != nil || len(s.Board.Values) != 81 || s.Board.Values[2] != 4 {
		t.Errorf("after SIGTERM the saved game is %s (%v)", rec.State, err)
	}
}

// TestServeTLS serves HTTPS from a self-signed certificate, as for a phone
// on the network, and checks that cookies are then marked Secure.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	url, done, _ := startServe(t, "--db", filepath.Join(dir, "tls.db"), "--tls-cert", cert, "--tls-key", key)
	if !strings.HasPrefix(url, "https://") {
		t.Fatalf("URL %s is not https", url)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	res, err := c.Get(url + "/play")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var secure bool
	for _, ck := range res.Cookies() {
		secure = secure || ck.Secure && ck.HttpOnly
	}
	if res.StatusCode != 200 || !secure {
		t.Errorf("GET /play over TLS: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	if code := <-done; code != exitOK {
		t.Errorf("exit %d after SIGINT", code)
	}
}

func TestServeBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"serve", "--tls-cert", "x.pem"}, exitUsage, "go together"},
		{[]string{"serve", "extra"}, exitUsage, "unexpected argument"},
		{[]string{"serve", "--db", dir, "--addr", "127.0.0.1:0"}, exitFail, dir},
		{[]string{"serve", "--db", filepath.Join(dir, "a.db"), "--tls-cert", "/no/cert", "--tls-key", "/no/key"}, exitFail, "certificate"},
		{[]string{"serve", "--db", filepath.Join(dir, "b.db"), "--addr", "256.0.0.1:99999"}, exitFail, "listen"},
	} {
		code, _, errOut := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.err) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.err)
		}
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T, dir string) (string, string) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sudokuar test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return cert, key
}

// TestParseProxies reads --proxy values: addresses, prefixes, lists, and
// refuses what is neither.
func TestParseProxies(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // the prefixes, or "error"
	}{
		{"127.0.0.1", "[127.0.0.1/32]"},
		{"10.0.0.0/8, 192.168.1.7", "[10.0.0.0/8 192.168.1.7/32]"},
		{"10.1.2.3/8", "[10.0.0.0/8]"},
		{"::1", "[::1/128]"},
		{"::ffff:10.0.0.1", "[10.0.0.1/32]"},
		{"haproxy", "error"},
		{"10.0.0.1,", "error"},
	} {
		ps, err := parseProxies(tc.in)
		got := fmt.Sprint(ps)
		if err != nil {
			got = "error"
		}
		if got != tc.want {
			t.Errorf("parseProxies(%q) = %s (%v), want %s", tc.in, got, err, tc.want)
		}
	}
}

// TestServeSQLiteOneNode: a second server on the same SQLite file is
// refused, with a message saying why and what to use instead; once the
// first has stopped, the file is free again.
func TestServeSQLiteOneNode(t *testing.T) {
	db := filepath.Join(t.TempDir(), "one.db")
	_, done, _ := startServe(t, "--db", db)
	code, _, errOut := runCLI(t, "", "serve", "--addr", "127.0.0.1:0", "--db", db)
	if code != exitFail || !strings.Contains(errOut, "another sudokuar serve is using") || !strings.Contains(errOut, "postgres://") {
		t.Errorf("a second node on one SQLite file: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "", "serve", "--addr", "127.0.0.1:0", "--db", db, "--node", "b")
	if code != exitUsage || !strings.Contains(errOut, "PostgreSQL") {
		t.Errorf("--node with SQLite: exit %d, %q", code, errOut)
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d after SIGINT", code)
	}
	_, done, _ = startServe(t, "--db", db)
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	if code := <-done; code != exitOK {
		t.Errorf("the restarted server: exit %d after SIGINT", code)
	}
}

// TestServeNewFolder: a first run, whose database folder does not exist
// yet (the default one in a fresh account), starts.
func TestServeNewFolder(t *testing.T) {
	db := filepath.Join(t.TempDir(), "not", "yet", "sudokuar.db")
	_, done, _ := startServe(t, "--db", db)
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d after SIGINT", code)
	}
}

// TestPostgresServeNodes: two nodes on one PostgreSQL (`make test-pg`),
// each named; a third taking a live node's name is refused; the node
// list in the database has both with their URLs.
func TestPostgresServeNodes(t *testing.T) {
	url := pgtest.URL(pgtest.Schema(t, "serve"))
	_, doneA, _ := startServe(t, "--db", url, "--node", "a")
	_, doneB, _ := startServe(t, "--db", url, "--node", "b", "--url", "http://lb.example:8080")
	code, _, errOut := runCLI(t, "", "serve", "--addr", "127.0.0.1:0", "--db", url, "--node", "a")
	if code != exitFail || !strings.Contains(errOut, `node named "a"`) {
		t.Errorf("a second node named a: exit %d, %q", code, errOut)
	}
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var nodes []string
	rows, _ := pool.Query(context.Background(), `SELECT name || ' ' || url FROM nodes ORDER BY name`)
	nodes, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(nodes) != 2 || !strings.HasPrefix(nodes[0], "a http://127.0.0.1:") || nodes[1] != "b http://lb.example:8080" {
		t.Errorf("nodes: %q %v", nodes, err)
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	for _, done := range []<-chan int{doneA, doneB} {
		if code := <-done; code != exitOK {
			t.Errorf("exit %d after SIGINT", code)
		}
	}
}
