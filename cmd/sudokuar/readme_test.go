package main

import (
	"bufio"
	"crypto/tls"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// quickStart is one command of the README's quick starts, run as written
// by sh in a scratch folder that holds the project's testdata/ and
// console/ (so the README's paths work) with the built sudokuar on PATH.
type quickStart struct {
	cmd     string // exactly as in the README (continuation lines joined)
	stdin   string // what a person types
	want    string // a regexp that stdout+stderr must match
	mayFail bool   // it may fail here as it should (no camera on the machine)
	// serve: a server, run on a free loopback port instead of the one
	// written (a later --addr wins), asked for this path, then stopped.
	serve string
	extra string // flags appended here to bound the run (a webcam's frames)
	setup func(t *testing.T, dir string)
}

// quickStarts holds every command of the README's quick starts; the test
// fails when the README has one that is missing here, or this has one the
// README lost. Adding a quick start is one line here.
var quickStarts = []quickStart{
	{cmd: "sudokuar live", extra: "--frames 30", want: "no camera found.*try --video|frames in", mayFail: true},
	{cmd: "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 365 -keyout key.pem -out cert.pem -subj /CN=sudokuar -addext \"subjectAltName=IP:192.168.1.20\"", want: ""},
	{cmd: "sudokuar serve --addr 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem", serve: "/camera", want: "https://"},
	{cmd: "sudokuar scan testdata/synth/", want: `36 images in .*: 33 solved`},
	{cmd: "sudokuar scan --out solved/ testdata/synth/", want: `33 solved`},
	{cmd: "sudokuar scan --json testdata/synth/image10.jpg", want: `"status":"solved"`},
	// page.jpg stands for the reader's own photo: a shipped photo here.
	{cmd: "sudokuar scan page.jpg", want: `page.jpg: solved`, setup: copyFile("testdata/synth/image10.jpg", "page.jpg")},
	{cmd: "sudokuar serve", serve: "/", want: "http://127.0.0.1"},
	{cmd: "sudokuar serve --addr 0.0.0.0:8080", serve: "/rooms", want: "http://127.0.0.1"},
	{cmd: "sudokuar console", stdin: "solve console/testdata/puzzles/small.txt\nhint 2 1\nset 2 1 2\nprint_board\nundo\nexit\n", want: `Hint: set cell to 2(.|\n)*Undo 2,1: from 2 to _`},
	{cmd: "sudokuar kakuro generate --size 9 --level medium > k.txt", want: ""},
	{cmd: "sudokuar kakuro solve k.txt", want: `^10 10\n`},
	{cmd: "sudokuar kakuro rate k.txt", want: `k.txt: medium`},
	{cmd: "sudokuar rate testdata/puzzles/demo.txt", want: `(?m)^\S+ \d+\.\d (easy|medium|hard|expert|extreme) `},
	{cmd: "sudokuar explain 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", want: `(?m)^1\. `},
	{cmd: "sudokuar hint 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", want: `r\dc\d`},
	{cmd: "sudokuar generate --level hard --count 3", want: `^(\S{81}\n){3}$`},
}

// TestReadmeQuickStarts runs every command of the README's quick starts as
// written, in order in one folder (a later command may read what an
// earlier one wrote), and checks the README and the table name the same
// commands.
func TestReadmeQuickStarts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program and runs servers")
	}
	readme, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	inReadme := quickStartCommands(string(readme))
	listed := map[string]bool{}
	for _, q := range quickStarts {
		listed[q.cmd] = true
		if !inReadme[q.cmd] {
			t.Errorf("the table runs %q, which the README's quick starts no longer show", q.cmd)
		}
	}
	for c := range inReadme {
		if !listed[c] {
			t.Errorf("the README's quick starts show %q, which this test does not run: add it to quickStarts", c)
		}
	}
	if t.Failed() {
		return
	}
	bin := buildSudokuar(t)
	dir := t.TempDir()
	for _, name := range []string{"testdata", "console"} {
		if err := os.Symlink(filepath.Join(testenv.RepoRoot(), name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+dir, "XDG_DATA_HOME="+filepath.Join(dir, "data"), "DISPLAY=", "WAYLAND_DISPLAY=")
	for _, q := range quickStarts {
		ok := t.Run(q.cmd, func(t *testing.T) {
			if strings.HasPrefix(q.cmd, "openssl ") {
				if _, err := exec.LookPath("openssl"); err != nil {
					t.Skip("openssl is not installed")
				}
			}
			if q.setup != nil {
				q.setup(t, dir)
			}
			if q.serve != "" {
				runServe(t, q, dir, env)
				return
			}
			line := q.cmd
			if q.extra != "" {
				line += " " + q.extra
			}
			cmd := exec.Command("sh", "-c", line)
			cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(q.stdin)
			out, err := cmd.CombinedOutput()
			if err != nil && !q.mayFail {
				t.Fatalf("%v\n%s", err, out)
			}
			if !regexp.MustCompile(q.want).Match(out) {
				t.Errorf("output does not match %q:\n%s", q.want, out)
			}
		})
		if !ok {
			return // later commands may need this one's files
		}
	}
}

// runServe starts a server quick start on a free loopback port, fetches
// q.serve from the address it prints and stops it with SIGTERM.
func runServe(t *testing.T, q quickStart, dir string, env []string) {
	cmd := exec.Command("sh", "-c", "exec "+q.cmd+" --addr 127.0.0.1:0")
	cmd.Dir, cmd.Env = dir, env
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	var stderr syncBuffer
	cmd.Stdout, cmd.Stderr = pw, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	urls := make(chan string, 1)
	go func() {
		urlRE, wantRE := regexp.MustCompile(`https?://127\.0\.0\.1:\d+`), regexp.MustCompile(q.want)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if u := urlRE.FindString(sc.Text()); u != "" && wantRE.MatchString(sc.Text()) {
				urls <- u
				break
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	var u string
	select {
	case u = <-urls:
	case err := <-exited:
		t.Fatalf("%s exited before serving (%v): %s", q.cmd, err, stderr.String())
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("%s printed no address matching %q: %s", q.cmd, q.want, stderr.String())
	}
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	if res, err := c.Get(u + q.serve); err != nil {
		t.Error(err)
	} else {
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "<html") {
			t.Errorf("GET %s%s: %d %.200s", u, q.serve, res.StatusCode, body)
		}
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("%s after SIGTERM: %v\n%s", q.cmd, err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Errorf("%s did not stop within 30 s of SIGTERM", q.cmd)
	}
}

// copyFile is a setup that copies a file of the project into the scratch
// folder under another name.
func copyFile(from, to string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// quickStartCommands returns the commands of the README's "Quick starts"
// section: the lines of its indented code blocks, continuation lines
// joined.
func quickStartCommands(readme string) map[string]bool {
	cmds := map[string]bool{}
	in := false
	pending := ""
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "## ") {
			in = line == "## Quick starts"
			continue
		}
		if !in || !strings.HasPrefix(line, "    ") {
			continue
		}
		text := strings.TrimSpace(line)
		if i := strings.Index(text, "  #"); i >= 0 { // a comment after the command
			text = strings.TrimSpace(text[:i])
		}
		if strings.HasSuffix(text, `\`) {
			pending += strings.TrimSpace(strings.TrimSuffix(text, `\`)) + " "
			continue
		}
		cmds[pending+text] = true
		pending = ""
	}
	return cmds
}
