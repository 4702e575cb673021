package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

// withEntries returns classic's entries string: the solution's digit at
// the cells in right, wrong digits at the cells in wrong (cell: digit).
func withEntries(right []int, wrong map[int]int) string {
	b := []byte(strings.Repeat("0", 81))
	for _, i := range right {
		b[i] = classicSolution[i]
	}
	for i, v := range wrong {
		b[i] = byte('0' + v)
	}
	return string(b)
}

// TestAPIGameEntries carries a paper game over: the entries are on the
// board as moves the player can undo, a wrong one is hidden until a check
// finds it, does not count toward the mistake limit, and bad entries get
// errors naming the field and cell.
func TestAPIGameEntries(t *testing.T) {
	a := newAPIServer(t, Config{Limits: Limits{Off: true}}) // many new games from one client
	// r1c3 (cell 2) right, r1c4 (cell 3) wrong: 5 where the solution has 6.
	entries := withEntries([]int{2, 5, 6}, map[int]int{3: 5})
	s, v := a.post("/api/games", fmt.Sprintf(`{"given":%q,"entries":%q,"mistakeLimit":1}`, classic, entries))
	if s != 201 {
		t.Fatalf("new game from paper: %d %v", s, v)
	}
	id := v["id"].(string)
	if v["puzzle"] != classic || v["own"] != true || v["status"] != "playing" {
		t.Errorf("puzzle %v own %v status %v: want the printed givens, an own game, playing", v["puzzle"], v["own"], v["status"])
	}
	cells := v["cells"].(string)
	for i := range cells {
		want := classic[i]
		if entries[i] != '0' {
			want = entries[i]
		}
		if cells[i] != want {
			t.Errorf("cell %s shows %c, want %c", sudoku.CellName(i, 9), cells[i], want)
		}
	}
	if v["paper"] != entries {
		t.Errorf("paper %v, want the entries %s", v["paper"], entries)
	}
	if v["canUndo"] != true {
		t.Errorf("the entries cannot be undone: %v", v["canUndo"])
	}
	// With a limit of 1 mistakes are shown, yet the wrong paper entry
	// has not lost the game.
	if fmt.Sprint(v["wrong"]) != "[3]" || fmt.Sprint(v["mistakes"]) != "0" {
		t.Errorf("wrong %v mistakes %v: want [3] shown and 0 counted", v["wrong"], v["mistakes"])
	}
	// Undo takes back the last entry (r1c7) as it would a typed move.
	s, v = a.post("/api/games/"+id+"/undo", ``)
	if s != 200 || v["cells"].(string)[6] != '0' || v["cells"].(string)[5] != classicSolution[5] {
		t.Errorf("undo: %d cells %v, want r1c7 emptied and r1c6 kept", s, v["cells"])
	}

	// Without mistakes shown nothing tells the wrong entry until a check.
	s, v = a.post("/api/games", fmt.Sprintf(`{"given":%q,"entries":%q}`, classic, entries))
	if s != 201 || fmt.Sprint(v["wrong"]) != "[]" || v["mistakes"] != nil || v["solution"] != nil {
		t.Fatalf("hidden: %d wrong %v mistakes %v solution %v", s, v["wrong"], v["mistakes"], v["solution"])
	}
	id = v["id"].(string)
	s, v = a.post("/api/games/"+id+"/check", ``)
	if s != 200 || fmt.Sprint(v["checked"]) != "[3]" {
		t.Errorf("check: %d checked %v, want [3]", s, v["checked"])
	}
	// A clash is taken as the player wrote it and shown as a conflict:
	// r1c3 = 3 clashes with the given 3 of r1c2.
	s, v = a.post("/api/games", fmt.Sprintf(`{"given":%q,"entries":%q}`, classic, withEntries(nil, map[int]int{2: 3})))
	if s != 201 || !strings.Contains(fmt.Sprint(v["conflicts"]), "2") {
		t.Errorf("clash: %d conflicts %v, want r1c3 among them", s, v["conflicts"])
	}

	full := withEntries(nil, nil)
	b := []byte(full)
	for i := range b {
		if classic[i] == '0' {
			b[i] = classicSolution[i]
		}
	}
	g := func(given, entries string) string { return fmt.Sprintf(`{"given":%q,"entries":%q}`, given, entries) }
	runCases(t, a, []apiCase{
		{name: "short", path: "/api/games", body: g(classic, "123"), status: 400, errHas: "entries: 3 characters, want 81"},
		{name: "letter", path: "/api/games", body: g(classic, "00x"+strings.Repeat("0", 78)), status: 400, errHas: `entries: r1c3 holds 'x'`},
		{name: "above nine", path: "/api/games", body: g(classic, "00A"+strings.Repeat("0", 78)), status: 400, errHas: "entries: r1c3 holds 10, above 9"},
		{name: "on a given", path: "/api/games", body: g(classic, "4"+strings.Repeat("0", 80)), status: 400, errHas: "entries: r1c1 holds 4 but is a given (5)"},
		{name: "huge", path: "/api/games", body: g(classic, strings.Repeat("0", maxPuzzleText+1)), status: 400, errHas: "entries:"},
		{name: "no givens", path: "/api/games", body: `{"entries":"` + strings.Repeat("0", 81) + `"}`, status: 400, errHas: `entries: send the page's givens`},
		{name: "given and puzzle differ", path: "/api/games", body: fmt.Sprintf(`{"given":%q,"puzzle":%q}`, classic, strings.Repeat("0", 81)), status: 400, errHas: "given and puzzle differ"},
		{name: "already solved", path: "/api/games", body: g(classic, string(b)), status: 422, errHas: "already solved"},
		{name: "no entries", path: "/api/games", body: g(classic, strings.Repeat("0", 81)), status: 201},
	})
}

// FuzzParseEntries: any entries text is refused with an error naming the
// field, or read as values 0..9 on empty cells only; never a panic.
func FuzzParseEntries(f *testing.F) {
	puzzle, err := sudoku.ParseCellGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3}, classic)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{"", strings.Repeat("0", 81), withEntries([]int{2, 3}, nil), withEntries(nil, map[int]int{3: 5}),
		"5" + strings.Repeat("0", 80), strings.Repeat(".", 81), strings.Repeat("0", 80) + "Z", strings.Repeat("0", 80) + "é"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := parseEntries(text, puzzle)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "entries: ") {
				t.Errorf("error %q does not name the field", err)
			}
			return
		}
		if len(got) != 81 {
			t.Fatalf("%d values", len(got))
		}
		for i, v := range got {
			if v < 0 || v > 9 || (v != 0 && puzzle.Cells[i] != 0) {
				t.Errorf("%s: entry %d on given %d", sudoku.CellName(i, 9), v, puzzle.Cells[i])
			}
		}
	})
}
