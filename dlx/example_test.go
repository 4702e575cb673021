package dlx_test

import (
	"fmt"
	"slices"

	"github.com/sudokuar/sudokuar/dlx"
)

// The exact-cover example of Knuth's paper: columns A..G, six rows; the only
// cover is rows 0 (C E F), 3 (A D) and 4 (B G).
func Example() {
	m := dlx.New(7, 0)
	m.AddRow(2, 4, 5) // C E F
	m.AddRow(0, 3, 6) // A D G
	m.AddRow(1, 2, 5) // B C F
	m.AddRow(0, 3)    // A D
	m.AddRow(1, 6)    // B G
	m.AddRow(3, 4, 6) // D E G
	n, _ := m.Search(0, func(rows []int) bool {
		fmt.Println("cover:", slices.Sorted(slices.Values(rows)))
		return true
	})
	fmt.Println("solutions:", n)
	// Output:
	// cover: [0 3 4]
	// solutions: 1
}
