package sudoku

import (
	"reflect"
	"testing"
)

func TestGridTurn(t *testing.T) {
	s := Shape{BoxRows: 2, BoxCols: 3}
	g := NewGrid(s)
	for i := range g.Cells {
		g.Cells[i] = i % 7
	}
	one := g.Turn(1)
	if one.Shape != (Shape{BoxRows: 3, BoxCols: 2}) {
		t.Fatalf("a quarter turn of %v boxes gave %v", s, one.Shape)
	}
	// The top-left cell goes to the top-right corner.
	if one.Cells[5] != g.Cells[0] || one.Cells[35] != g.Cells[5] {
		t.Fatalf("quarter turn moved cells wrongly: %v", one.Cells)
	}
	back := one.Turn(2).Turn(1)
	if !reflect.DeepEqual(back, g) {
		t.Fatalf("four quarter turns are not the identity")
	}
	for i := 0; i < 36; i++ {
		if j := TurnIndex(TurnIndex(i, 6, 1), 6, 3); j != i {
			t.Fatalf("TurnIndex(TurnIndex(%d, 1), 3) = %d", i, j)
		}
	}
}
