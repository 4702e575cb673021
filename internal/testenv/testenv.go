// Package testenv finds the data tests need: the ../shared folder beside the
// project (real photos, benchmark puzzles; not shipped) and the committed
// files under the project's root (the model, synthetic photos, the video).
//
// In: a path relative to ../shared or to the root. Out: its absolute path;
// when absent, a skip (../shared) or a failure (a committed file, whose
// loss must never turn a test green). SUDOKUAR_REQUIRE_SHARED=1 (CI) makes
// a missing ../shared file fail too.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// RequireEnv is the environment variable under which a missing ../shared
// file fails a test instead of skipping it.
const RequireEnv = "SUDOKUAR_REQUIRE_SHARED"

// RequireShared reports whether SUDOKUAR_REQUIRE_SHARED=1 is set: tests
// that fall back to other data when ../shared is absent check it too.
func RequireShared() bool { return os.Getenv(RequireEnv) == "1" }

// RepoRoot returns the project's root: the nearest folder at or above the
// working directory that holds go.mod. It returns "" when there is none.
func RepoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// SharedPath returns the path of rel inside ../shared (beside the project
// root), or "" when it does not exist. SUDOKUAR_SHARED overrides the folder.
func SharedPath(rel string) string {
	base := os.Getenv("SUDOKUAR_SHARED")
	if base == "" {
		root := RepoRoot()
		if root == "" {
			return ""
		}
		base = filepath.Join(root, "..", "shared")
	}
	p := filepath.Join(base, rel)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// Shared is SharedPath for tests and benchmarks: it skips tb with a message
// when the file or folder is absent, or fails it under
// SUDOKUAR_REQUIRE_SHARED=1.
func Shared(tb testing.TB, rel string) string {
	tb.Helper()
	p := SharedPath(rel)
	if p == "" {
		Missing(tb, "../shared/"+rel+" not found (it is not part of the repository)")
	}
	return p
}

// Missing ends tb because some of ../shared's data it needs is absent
// (why says what): a skip, or a failure under SUDOKUAR_REQUIRE_SHARED=1.
// Tests that find a ../shared file missing on their own (an empty folder,
// a set with no puzzles) call it rather than tb.Skip.
func Missing(tb testing.TB, why string) {
	tb.Helper()
	if RequireShared() {
		tb.Fatalf("%s, and %s=1 is set", why, RequireEnv)
	}
	tb.Skipf("%s; skipping", why)
}

// Committed returns the absolute path of rel, a file or folder committed
// to the repository (relative to its root). It fails tb when rel is
// absent or an empty file: a lost file must fail the tests that read it,
// not skip them.
func Committed(tb testing.TB, rel string) string {
	tb.Helper()
	root := RepoRoot()
	if root == "" {
		tb.Fatalf("no go.mod at or above the working directory: cannot find %s", rel)
	}
	p := filepath.Join(root, rel)
	fi, err := os.Stat(p)
	if err != nil {
		tb.Fatalf("%s is committed to the repository but absent: %v", rel, err)
	}
	if !fi.IsDir() && fi.Size() == 0 {
		tb.Fatalf("%s is committed to the repository but empty", rel)
	}
	return p
}
