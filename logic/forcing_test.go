package logic

import "testing"

// TestForcingDeepeningExact checks that the level-by-level search finds the
// same step as one unbounded pass, on the states the rating path of some
// hard puzzles goes through.
func TestForcingDeepeningExact(t *testing.T) {
	puzzles := []string{
		"..1..57...6.98..5.3....6..89.3....7..2.....6..5....9.12..5....7.3..42.8...48..6..",
		"13...2....7..1.6..64.8..3..8.7.......6.....4.......9.7..6..4.53..4.7..2....5...68",
	}
	checked := 0
	for _, p := range puzzles {
		g, _ := uniqueGrid(t, p)
		for step := 0; step < 200 && !g.Solved(); step++ {
			for _, mode := range []fcMode{fcNishio, fcMultiple, fcDynamic} {
				e := newFCEngine(g, mode)
				deep, ok1 := e.find()
				e2 := newFCEngine(g, mode)
				flat := e2.pass(1 << 29)
				ok2 := flat.ok
				if ok1 != ok2 {
					t.Fatalf("%s step %d %s: deepening found %v, one pass %v", p, step, mode.name, ok1, ok2)
				}
				if ok1 {
					s2 := e2.build(flat.hit)
					s2.Rating = float64(flat.key.rating) / 10
					if deep.Rating != s2.Rating || deep.Text != s2.Text {
						t.Fatalf("%s step %d %s:\n deep %.1f %s\n flat %.1f %s", p, step, mode.name, deep.Rating, deep.Text, s2.Rating, s2.Text)
					}
					checked++
				}
			}
			s, ok := nextStep(g, rateOrder)
			if !ok {
				break
			}
			g.Apply(s)
		}
	}
	if checked == 0 {
		t.Fatal("no forcing-chain step compared")
	}
}
