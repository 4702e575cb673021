package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

// FuzzRead feeds the file loader anything: it returns a game or a
// *sudoku.ParseError, never panics, and a game it returns is written back
// in the canonical format and read again to the same board.
func FuzzRead(f *testing.F) {
	f.Add(smallFile, true)
	f.Add("3 3\n"+strings.Repeat("0 ", 81), false)
	f.Add("1 1\n1.", true)
	f.Add("0 0\n", true)
	f.Add("2 2\n1. 1. 0 0 0 0 0 0 0 0 0 0 0 0 0 0", true)
	f.Fuzz(func(t *testing.T, text string, keepFixed bool) {
		g, err := Read(strings.NewReader(text), keepFixed)
		if err != nil {
			var pe *sudoku.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Read(%q): error %v is not a *sudoku.ParseError", text, err)
			}
			return
		}
		var b bytes.Buffer
		if err := g.Write(&b, false); err != nil {
			t.Fatal(err)
		}
		h, err := Read(&b, true)
		if err != nil || !h.Grid().Equal(g.Grid()) {
			t.Fatalf("round trip of %q: %v", text, err)
		}
	})
}

// FuzzRestore feeds Restore any JSON: it never panics, and a game it
// accepts snapshots back to an equivalent snapshot.
func FuzzRestore(f *testing.F) {
	g, _ := Read(strings.NewReader(smallFile), true)
	g.Set(0, 1, 2)
	g.ToggleMark(1, 0, 3)
	g.Undo()
	good, _ := json.Marshal(g.Snapshot())
	f.Add(good)
	f.Add([]byte(`{"boxRows":1,"boxCols":1,"values":[0],"fixed":[false]}`))
	f.Add([]byte(`{"boxRows":2,"boxCols":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Snapshot
		if json.Unmarshal(data, &s) != nil {
			return
		}
		g, err := Restore(s)
		if err != nil {
			return
		}
		again, err := Restore(g.Snapshot())
		if err != nil {
			t.Fatalf("snapshot of a restored game refused: %v", err)
		}
		if !again.Grid().Equal(g.Grid()) {
			t.Fatal("restore of a snapshot changed the board")
		}
		for g.CanUndo() {
			if _, err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
