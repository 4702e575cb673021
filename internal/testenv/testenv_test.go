package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCommitted finds a committed file and returns its absolute path.
func TestCommitted(t *testing.T) {
	p := Committed(t, "go.mod")
	if !strings.HasSuffix(p, "/go.mod") || !strings.HasPrefix(p, "/") {
		t.Errorf("Committed(go.mod) = %q", p)
	}
}

// TestMissingAndRequire runs the helper tests below in a child process,
// which is how a test's skip or failure can be observed: a missing
// committed file fails, a missing ../shared file skips, and fails under
// SUDOKUAR_REQUIRE_SHARED=1.
func TestMissingAndRequire(t *testing.T) {
	for _, c := range []struct {
		name, run, require string
		fail               bool
		want               string
	}{
		{"committed file absent", "TestHelperCommitted", "", true, "committed to the repository but absent"},
		{"shared absent", "TestHelperShared", "", false, "--- SKIP"},
		{"shared absent, required", "TestHelperShared", "1", true, RequireEnv + "=1 is set"},
		{"shared absent, required off", "TestHelperShared", "0", false, "--- SKIP"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^"+c.run+"$", "-test.v")
			cmd.Env = append(os.Environ(), "TESTENV_CHILD=1", RequireEnv+"="+c.require)
			out, err := cmd.CombinedOutput()
			if failed := err != nil; failed != c.fail {
				t.Errorf("failed = %v, want %v:\n%s", failed, c.fail, out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, out)
			}
		})
	}
}

func TestHelperCommitted(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") != "1" {
		t.Skip("only runs as the child of TestMissingAndRequire")
	}
	Committed(t, "testdata/no-such-file")
}

func TestHelperShared(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") != "1" {
		t.Skip("only runs as the child of TestMissingAndRequire")
	}
	Shared(t, "no/such/file")
}
