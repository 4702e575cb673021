package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/store/storetest"
)

func TestSQLite(t *testing.T) {
	storetest.Run(t, storetest.Open{
		New: func(t *testing.T) store.Store {
			s, err := store.OpenSQLite(filepath.Join(t.TempDir(), "sub", "test.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
		Reopen: func(t *testing.T, s store.Store) store.Store {
			path := s.(*store.SQLite).Path()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s2, err := store.OpenSQLite(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s2.Close() })
			return s2
		},
	})
}

func TestSQLiteBadPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A path under a regular file, and a file that is not a database.
	if _, err := store.OpenSQLite(filepath.Join(file, "x.db")); err == nil {
		t.Error("opened a database under a regular file")
	}
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte(strings.Repeat("garbage ", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := store.OpenSQLite(junk)
	if err == nil || !strings.Contains(err.Error(), "junk.db") {
		t.Errorf("junk file: got %v, want an error naming it", err)
	}
	if _, err := store.OpenSQLite(""); err == nil {
		t.Error("empty path accepted")
	}
}

func TestCleanName(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"  Ada ", "Ada", true},
		{"<script>alert(1)</script>", "<script>alert(1)</script>", true},
		{"Zoë 数独", "Zoë 数独", true},
		{"", "", false},
		{"   ", "", false},
		{strings.Repeat("x", store.MaxNameRunes), strings.Repeat("x", store.MaxNameRunes), true},
		{strings.Repeat("x", store.MaxNameRunes+1), "", false},
		{"a\nb", "", false},
		{"a\x00b", "", false},
		{"\xff", "", false},
		// What the hostile client of issue 19 sent: a right-to-left
		// override that makes "evil" read "live", other bidi controls,
		// zero-width-only names and a combining-mark flood.
		{"\u202eevil", "", false},
		{"ab\u2066cd\u2069", "", false},
		{"\u200b\u200b", "", false},
		{"\u200d", "", false},
		{"\ufeffAda", "", false},
		{"Z" + strings.Repeat("\u0336", 20), "", false},
		{"e\u0301\u0302\u0323", "e\u0301\u0302\u0323", true}, // ế with a dot: three marks, as Vietnamese writes
		{"\u05e9\u05c1\u05b8", "\u05e9\u05c1\u05b8", true},   // Hebrew shin with its dot and a vowel
		{"नमस्ते", "नमस्ते", true},                           // Devanagari: Mn vowel signs and virama
		{"\u20dd", "", false},                                // a lone enclosing circle: nothing visible to carry it
	} {
		got, err := store.CleanName(c.in)
		var ne *store.NameError
		if c.ok != (err == nil) || got != c.want || (err != nil && !errors.As(err, &ne)) {
			t.Errorf("CleanName(%q) = %q, %v", c.in, got, err)
		}
	}
}

func TestDefaultPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_DATA_HOME is the Linux rule")
	}
	t.Setenv("XDG_DATA_HOME", "/data/home")
	p, err := store.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if p != "/data/home/sudokuar/sudokuar.db" {
		t.Errorf("DefaultPath = %s", p)
	}
}
