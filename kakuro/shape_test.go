package kakuro

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestShapeDrawer draws shapes of several sizes and run caps and checks the
// rules every generated puzzle relies on: half-turn symmetry, every white
// cell in an across and a down run of 2 to maxRun cells, the white cells
// connected, at least half the area white; and, on the bigger boards, that
// short runs outnumber long ones as on published boards.
func TestShapeDrawer(t *testing.T) {
	for _, c := range []struct{ rows, cols, maxRun int }{
		{5, 5, 5}, {6, 8, 9}, {9, 9, 9}, {15, 15, 9}, {15, 15, 4}, {12, 18, 9},
	} {
		t.Run(fmt.Sprintf("%dx%d-max%d", c.rows, c.cols, c.maxRun), func(t *testing.T) {
			d := newShapeDrawer(rand.New(rand.NewPCG(1, 2)), c.rows, c.cols, c.maxRun)
			var w []bool
			for try := 0; try < 5 && w == nil; try++ {
				w = d.draw()
			}
			if w == nil {
				t.Fatal("no shape in 5 draws")
			}
			b := NewBoard(c.rows+1, c.cols+1)
			whites := 0
			for i, x := range w {
				if x {
					whites++
					b.Set(i/c.cols+1, i%c.cols+1, Cell{White: true})
				}
				r, col := i/c.cols, i%c.cols
				if x != w[(c.rows-1-r)*c.cols+(c.cols-1-col)] {
					t.Fatalf("not symmetric at %d,%d", r+1, col+1)
				}
			}
			if 2*whites < c.rows*c.cols {
				t.Fatalf("%d white cells of %d", whites, c.rows*c.cols)
			}
			var hist [10]int
			inRuns := map[int]int{}
			for _, run := range b.Runs() {
				n := len(run.Cells)
				if n < 2 || n > c.maxRun {
					t.Fatalf("%s has %d cells\n%s", run.Name(b.Cols), n, b)
				}
				hist[n]++
				for _, i := range run.Cells {
					inRuns[i]++
				}
			}
			for _, i := range b.Whites() {
				if inRuns[i] != 2 {
					t.Fatalf("white cell %d in %d runs", i, inRuns[i])
				}
			}
			if !connected(b) {
				t.Fatalf("white cells not connected\n%s", b)
			}
			if c.rows >= 15 && c.maxRun == 9 && hist[2]+hist[3] <= hist[5]+hist[6]+hist[7]+hist[8]+hist[9] {
				t.Errorf("run lengths %v: short runs should dominate", hist[2:])
			}
		})
	}
}

// connected reports whether b's white cells form one region.
func connected(b *Board) bool {
	ws := b.Whites()
	if len(ws) == 0 {
		return true
	}
	seen := map[int]bool{ws[0]: true}
	stack := []int{ws[0]}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range []int{i - 1, i + 1, i - b.Cols, i + b.Cols} {
			if j >= 0 && j < len(b.Cells) && b.Cells[j].White && !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return len(seen) == len(ws)
}
