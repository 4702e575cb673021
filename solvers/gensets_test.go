package solvers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

// zooSets are the generated puzzle sets of the README's solver zoo, in
// testdata/puzzles: the same seeds give the same files.
var zooSets = []struct {
	file  string
	shape sudoku.Shape
	level logic.Level
	first int64
	count int
	why   string
}{
	{"zoo-easy.txt", sudoku.Shape{BoxRows: 3, BoxCols: 3}, logic.Easy, 1, 200, "reported"},
	{"zoo-hard.txt", sudoku.Shape{BoxRows: 3, BoxCols: 3}, logic.Hard, 1001, 200, "reported"},
	{"zoo-hard-tune.txt", sudoku.Shape{BoxRows: 3, BoxCols: 3}, logic.Hard, 5001, 100, "for tuning anneal and cga; never reported"},
	{"zoo-16.txt", sudoku.Shape{BoxRows: 4, BoxCols: 4}, logic.Medium, 1, 50, "reported"},
}

// TestWriteZooSets writes the sets when SUDOKUAR_WRITE_SETS is set:
//
//	SUDOKUAR_WRITE_SETS=1 go test -run TestWriteZooSets -timeout 0 ./solvers
func TestWriteZooSets(t *testing.T) {
	if os.Getenv("SUDOKUAR_WRITE_SETS") == "" {
		t.Skip("SUDOKUAR_WRITE_SETS is not set")
	}
	for _, set := range zooSets {
		if only := os.Getenv("SUDOKUAR_WRITE_SETS"); only != "1" && !strings.Contains(set.file, only) {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# %d %v puzzles at level %v (logic.Generate, seeds %d..%d, not symmetric), %s.\n", set.count, set.shape, set.level, set.first, set.first+int64(set.count)-1, set.why)
		fmt.Fprintf(&b, "# Made by: SUDOKUAR_WRITE_SETS=1 go test -run TestWriteZooSets -timeout 0 ./solvers\n")
		for i := range set.count {
			g, r, err := logic.Generate(set.shape, set.level, set.first+int64(i), false)
			if err != nil {
				t.Fatalf("%s seed %d: %v", set.file, set.first+int64(i), err)
			}
			fmt.Fprintf(&b, "%s # SE %.1f\n", g, r.SE)
		}
		path := filepath.Join("..", "testdata", "puzzles", set.file)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	}
}
