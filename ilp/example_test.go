package ilp_test

import (
	"context"
	"fmt"

	"github.com/sudokuar/sudokuar/ilp"
)

// A knapsack: take items worth 60, 100 and 120 weighing 10, 20 and 30 into
// a bag that holds 50, for the most value.
func Example() {
	var m ilp.Model
	values, weights := []float64{60, 100, 120}, []float64{10, 20, 30}
	var take []ilp.Var
	var worth, weight []ilp.Term
	for i := range values {
		x := m.Binary()
		take = append(take, x)
		worth = append(worth, ilp.Term{Var: x, Coef: values[i]})
		weight = append(weight, ilp.Term{Var: x, Coef: weights[i]})
	}
	m.Add(weight, ilp.LE, 50)
	m.SetObjective(ilp.Maximize, 0, worth)

	sol, err := m.Solve(context.Background(), ilp.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sol.Status, sol.Objective)
	for i, x := range take {
		fmt.Printf("item %d: %d\n", i+1, sol.Int(x))
	}
	// Output:
	// optimal 220
	// item 1: 0
	// item 2: 1
	// item 3: 1
}

// Proving a puzzle unique: a tiny Latin square (each row and column holds 1
// and 2 once) with one cell given. x[r][c][d] says cell (r, c) holds d+1.
// Enumerate with limit 2 solves, excludes the solution and solves again;
// finding only one proves there is no other.
func ExampleModel_Enumerate() {
	var m ilp.Model
	var x [2][2][2]ilp.Var
	for r := range x {
		for c := range x[r] {
			for d := range x[r][c] {
				x[r][c][d] = m.Binary()
			}
			m.Add(ilp.Sum(x[r][c][0], x[r][c][1]), ilp.EQ, 1) // one digit per cell
		}
	}
	for i := 0; i < 2; i++ {
		for d := 0; d < 2; d++ {
			m.Add(ilp.Sum(x[i][0][d], x[i][1][d]), ilp.LE, 1) // at most once per row
			m.Add(ilp.Sum(x[0][i][d], x[1][i][d]), ilp.LE, 1) // and per column
		}
	}
	count := func() int {
		sols, err := m.Enumerate(context.Background(), ilp.Options{}, 2, nil)
		if err != nil {
			fmt.Println(err)
		}
		return len(sols)
	}
	fmt.Println("empty square, solutions found (limit 2):", count())
	m.Add(ilp.Sum(x[0][0][1]), ilp.EQ, 1) // give the top left cell a 2
	fmt.Println("with a given, solutions found (limit 2):", count())
	// Output:
	// empty square, solutions found (limit 2): 2
	// with a given, solutions found (limit 2): 1
}

// A 2x2 Kakuro: across, the top run sums to 4 and the bottom one to 3;
// down, the left run sums to 3 and the right one to 4. Each white cell
// gets binaries x[cell][d] ("the cell holds d"); a run's sum is the sum of
// d·x[cell][d] over its cells, and "no digit twice in a run" is at most one
// x[cell][d] per run and digit. Enumerate with limit 2 proves the answer
// unique.
func ExampleModel_kakuro() {
	var m ilp.Model
	var x [4][10]ilp.Var // cells a b / c d, digits 1..9
	for cell := range x {
		var one []ilp.Var
		for d := 1; d <= 9; d++ {
			x[cell][d] = m.Binary()
			one = append(one, x[cell][d])
		}
		m.Add(ilp.Sum(one...), ilp.EQ, 1) // one digit per cell
	}
	run := func(sum float64, cells ...int) {
		var total []ilp.Term
		for d := 1; d <= 9; d++ {
			var same []ilp.Var
			for _, c := range cells {
				total = append(total, ilp.Term{Var: x[c][d], Coef: float64(d)})
				same = append(same, x[c][d])
			}
			m.Add(ilp.Sum(same...), ilp.LE, 1) // digit d at most once in the run
		}
		m.Add(total, ilp.EQ, sum)
	}
	run(4, 0, 1) // a b
	run(3, 2, 3) // c d
	run(3, 0, 2) // a c
	run(4, 1, 3) // b d

	sols, err := m.Enumerate(context.Background(), ilp.Options{}, 2, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("solutions found (limit 2):", len(sols))
	for cell := range x {
		for d := 1; d <= 9; d++ {
			if sols[0].Int(x[cell][d]) == 1 {
				fmt.Print(d, " ")
			}
		}
	}
	fmt.Println()
	// Output:
	// solutions found (limit 2): 1
	// 1 3 2 1
}
