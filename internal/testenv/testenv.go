// Package testenv finds the data that tests share but the repository does
// not ship: the ../shared folder beside the project (real photos, benchmark
// puzzles). Tests call it and skip cleanly on a fresh clone without it.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

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
// when the file or folder is absent.
func Shared(tb testing.TB, rel string) string {
	tb.Helper()
	p := SharedPath(rel)
	if p == "" {
		tb.Skipf("../shared/%s not found (it is not part of the repository); skipping", rel)
	}
	return p
}
