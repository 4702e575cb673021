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

// TestCombinePen: the views may change a handwritten cell's digit, never
// its kind, and where they agree the first view's sureness stands.
func TestCombinePen(t *testing.T) {
	hand := func(d int, p float32) []float32 {
		x := make([]float32, PenClasses)
		x[PenHand0+d] = p
		x[PenEmpty] = 1 - p
		return x
	}
	mixed := func(printed, hand4 float32) []float32 {
		x := make([]float32, PenClasses)
		x[PenPrinted], x[PenHand0+4] = printed, hand4
		return x
	}
	for _, tc := range []struct {
		name      string
		all       [][]float32
		kind      Kind
		digit     int
		firstConf bool // the first view's digit probability stands
	}{
		{"one view", [][]float32{hand(9, 0.8)}, KindHand, 9, true},
		{"views agree", [][]float32{hand(9, 0.999), hand(9, 0.9)}, KindHand, 9, true},
		{"views name another digit", [][]float32{{0, 0, 0, 0, 0, 0.45, 0, 0, 0, 0, 0.55, 0, 0}, {0, 0, 0, 0, 0, 0.95, 0, 0, 0, 0, 0.05, 0, 0}}, KindHand, 4, false},
		{"views name another kind", [][]float32{mixed(0.49, 0.51), mixed(0.99, 0.01)}, KindHand, 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, _, d, dc := PenDecide(combinePen(tc.all))
			_, _, _, first := PenDecide(tc.all[0])
			if k != tc.kind || d != tc.digit || (dc == first) != tc.firstConf {
				t.Errorf("got %v %d (%.3f, first view %.3f), want %v %d", k, d, dc, first, tc.kind, tc.digit)
			}
		})
	}
}
