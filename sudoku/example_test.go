package sudoku_test

import (
	"errors"
	"fmt"

	"github.com/sudokuar/sudokuar/sudoku"
)

func Example() {
	g, err := sudoku.ParseLine("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, err := sudoku.Solve(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sol)
	fmt.Println("unique:", sudoku.IsUnique(g))
	// Output:
	// 534678912672195348198342567859761423426853791713924856961537284287419635345286179
	// unique: true
}

// A Solver is built once per shape and reused; errors say what is wrong.
func ExampleSolver() {
	sv, _ := sudoku.NewSolver(sudoku.Shape{BoxRows: 2, BoxCols: 2})
	for _, line := range []string{"1.3..4.......2.1", "11..............", "..4.4...1.2..2.."} {
		g, _ := sudoku.ParseLine(line, nil)
		sol, err := sv.Solve(g)
		var conflict *sudoku.ConflictError
		switch {
		case errors.As(err, &conflict):
			fmt.Println("conflict:", conflict.Conflicts[0])
		case errors.Is(err, sudoku.ErrNoSolution):
			fmt.Println("no solution")
		default:
			fmt.Println(sol)
		}
	}
	// Output:
	// no solution
	// conflict: 1 twice in row 1 (r1c1, r1c2)
	// 2341413214233214
}
