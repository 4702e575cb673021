package logic_test

import (
	"fmt"

	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/sudoku"
)

func ExampleRate() {
	p, _ := sudoku.ParseLine("2...8...3..7...4...38.4.76....651....1.....8.4.......95..924..6...376....9.....4.", nil)
	r, err := logic.Rate(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.1f %s, hardest: %s\n", r.SE, r.Level, r.Hardest)
	// Output: 3.0 hard, hardest: Naked pair
}

func ExampleHint() {
	p, _ := sudoku.ParseLine("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", nil)
	cur := p.Clone()
	cur.Cells[2] = 9 // the solution has 4 in r1c3
	h, _ := logic.Hint(p, cur)
	fmt.Println(h)
	cur.Cells[2] = 0
	h, _ = logic.Hint(p, cur)
	fmt.Println(h)
	// Output:
	// Wrong entry: 9 in r1c3 clashes with the 9 in r3c2
	// Hidden single: 8 can only go in r1c6 within box 2
}

func ExampleNextStep() {
	p, _ := sudoku.ParseLine(".7..362.5.....819.....5..8..5....92....3.7....87....3..6..4.....297.....5.468..7.", nil)
	g, _ := logic.NewGrid(p)
	for i := 0; i < 3; i++ {
		s, _ := logic.NextStep(g)
		fmt.Println(s.Technique, s.Rating)
		g.Apply(s)
	}
	// Output:
	// Hidden single 1.2
	// Hidden single 1.2
	// Hidden single 1.2
}
