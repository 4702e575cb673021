package main

import (
	"os"
	"strings"
	"testing"
)

// TestCLIDoc fails when docs/cli.md is not what the command table and
// its flags generate; SUDOKUAR_UPDATE_DOCS=1 rewrites it.
func TestCLIDoc(t *testing.T) {
	const path = "../../docs/cli.md"
	var b strings.Builder
	markdown(&b)
	if os.Getenv("SUDOKUAR_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go generate ./cmd/sudokuar writes it)", err)
	}
	if string(have) != b.String() {
		t.Errorf("docs/cli.md differs from the command table and flags: run go generate ./cmd/sudokuar (or SUDOKUAR_UPDATE_DOCS=1 go test -run TestCLIDoc ./cmd/sudokuar)")
	}
}
