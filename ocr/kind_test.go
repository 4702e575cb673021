package ocr

import (
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

func TestEntrySure(t *testing.T) {
	r := Reading{
		Entries:   []int{0, 5, 5, 5},
		EntryConf: []float32{0, 0.999, 0.98, 0.999},
		KindConf:  []float32{1, 0.999, 0.999, 0.9},
	}
	for i, want := range []bool{false, true, false, false} {
		if got := r.EntrySure(i); got != want {
			t.Errorf("EntrySure(%d) = %v, want %v", i, got, want)
		}
	}
	if r.EntrySure(-1) || r.EntrySure(4) {
		t.Error("EntrySure out of range is true")
	}
}

func TestSetKindsWithoutPen(t *testing.T) {
	r := Reading{Given: sudoku.NewGrid(sudoku.Shape{BoxRows: 2, BoxCols: 2}), Conf: make([]float32, 16)}
	r.Given.Cells[3] = 4
	r.Conf[3] = 0.97
	setKinds(&r)
	for i, k := range r.Kinds {
		want := KindEmpty
		if i == 3 {
			want = KindPrinted
		}
		if k != want || r.Entries[i] != 0 {
			t.Errorf("cell %d: kind %v entry %d, want %v and no entry", i, k, r.Entries[i], want)
		}
	}
	if r.KindConf[3] != 0.97 {
		t.Errorf("KindConf[3] = %v, want the given's confidence", r.KindConf[3])
	}
}
