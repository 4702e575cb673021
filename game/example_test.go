package game_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/sudokuar/sudokuar/game"
)

// A game read from the console game's file format, played a little and
// saved again.
func Example() {
	file := "2 2\n4 0 1. 0\n0 1. 0 0\n1. 0 0 2\n0 0 0 0\n"
	g, err := game.Read(strings.NewReader(file), true)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := g.Set(0, 2, 3); err != nil {
		fmt.Println(err) // r1c3 holds a fixed 1
	}
	g.Set(0, 1, 1)
	fmt.Println("r1c2 in conflict:", g.Conflict(0, 1))
	m, _ := g.Undo()
	fmt.Printf("undo r%dc%d: %d -> %d\n", m.Changes[0].Row+1, m.Changes[0].Col+1, m.Changes[0].To, m.Changes[0].From)
	m, _ = g.Autofill()
	fmt.Println("autofilled", len(m.Changes), "cells")
	g.Write(os.Stdout, false)
	// Output:
	// game: cell is fixed
	// r1c2 in conflict: true
	// undo r1c2: 1 -> 0
	// autofilled 1 cells
	// 2 2
	// 4 0 1. 3
	// 0 1. 0 0
	// 1. 0 0 2
	// 0 0 0 0
}
