package kakuro

import (
	"math"
	"math/rand/v2"
)

// A shape is the layout of a play area: which cells are white, row-major,
// rows x cols, without the clue row and column the board adds. Generated
// shapes look like published ones: half-turn symmetric, every white cell in
// an across and a down run of 2 to maxRun cells, the white cells connected,
// about 64-80% of the area white, run lengths drawn towards runShare.

// runShare is the share of runs of each length (2-9) in published Kakuros,
// rounded: the shape drawer aims at it.
var runShare = [10]float64{2: 40, 3: 25, 4: 15, 5: 9, 6: 5, 7: 3.5, 8: 1.5, 9: 1}

// shapeDrawer draws shapes of one size by simulated annealing over
// mirrored pairs of blocks.
type shapeDrawer struct {
	rng        *rand.Rand
	rows, cols int
	maxRun     int
	target     [10]float64 // share of runs per length, summing to 1
	whiteLo    float64     // the fewest white cells a shape may keep, as a share
	// scratch
	seen  []bool
	stack []int
}

func newShapeDrawer(rng *rand.Rand, rows, cols, maxRun int) *shapeDrawer {
	d := &shapeDrawer{rng: rng, rows: rows, cols: cols, maxRun: maxRun, whiteLo: 0.5}
	longest := min(maxRun, max(rows, cols))
	total := 0.0
	for l := 2; l <= longest; l++ {
		total += runShare[l]
	}
	for l := 2; l <= longest; l++ {
		d.target[l] = runShare[l] / total
	}
	d.seen = make([]bool, rows*cols)
	return d
}

// shapeCost is what the annealing minimises; ok says the shape obeys the
// rules (no run of one, none longer than maxRun, connected).
type shapeCost struct {
	cost float64
	ok   bool
}

// cost measures white against the rules (heavily) and against the
// published look (run lengths, white share near wantWhite).
func (d *shapeDrawer) cost(white []bool, wantWhite float64) shapeCost {
	R, C := d.rows, d.cols
	var hist [10]int
	single, over, runs, whites := 0, 0, 0, 0
	count := func(n int) {
		switch {
		case n == 1:
			single++
		case n > d.maxRun:
			over += n - d.maxRun
		case n >= 2:
			hist[n]++
			runs++
		}
	}
	for r := 0; r < R; r++ {
		n := 0
		for c := 0; c < C; c++ {
			if white[r*C+c] {
				n++
				whites++
			} else {
				count(n)
				n = 0
			}
		}
		count(n)
	}
	for c := 0; c < C; c++ {
		n := 0
		for r := 0; r < R; r++ {
			if white[r*C+c] {
				n++
			} else {
				count(n)
				n = 0
			}
		}
		count(n)
	}
	// A border line without white cells wastes the area asked for.
	empty := 0
	for _, line := range [4][3]int{{0, 0, 1}, {(R - 1) * C, 0, 1}, {0, 1, C}, {C - 1, 1, C}} {
		start, vertical, step := line[0], line[1] == 1, line[2]
		n := C
		if vertical {
			n = R
		}
		w := 0
		for k := 0; k < n; k++ {
			if white[start+k*step] {
				w++
			}
		}
		if w < 2 {
			empty++
		}
	}
	parts := d.components(white)
	histCost := 0.0
	for l := 2; l <= 9; l++ {
		histCost += math.Abs(float64(hist[l]) - d.target[l]*float64(runs))
	}
	area := float64(R * C)
	whiteCost := math.Abs(float64(whites) - wantWhite*area)
	cost := 20*float64(single) + 20*float64(over) + 30*float64(max(parts-1, 0)) + 10*float64(empty) + histCost + 0.5*whiteCost
	ok := single == 0 && over == 0 && parts == 1 && float64(whites) >= d.whiteLo*area && whites >= 4
	return shapeCost{cost: cost, ok: ok}
}

// components counts the connected groups of white cells.
func (d *shapeDrawer) components(white []bool) int {
	R, C := d.rows, d.cols
	clear(d.seen)
	parts := 0
	for start, w := range white {
		if !w || d.seen[start] {
			continue
		}
		parts++
		d.seen[start] = true
		d.stack = append(d.stack[:0], start)
		for len(d.stack) > 0 {
			i := d.stack[len(d.stack)-1]
			d.stack = d.stack[:len(d.stack)-1]
			r, c := i/C, i%C
			for _, nb := range [4][2]int{{r, c + 1}, {r + 1, c}, {r, c - 1}, {r - 1, c}} {
				rr, cc := nb[0], nb[1]
				if rr >= 0 && rr < R && cc >= 0 && cc < C {
					if j := rr*C + cc; white[j] && !d.seen[j] {
						d.seen[j] = true
						d.stack = append(d.stack, j)
					}
				}
			}
		}
	}
	return parts
}

// mirror is the cell symmetric to i under a half turn.
func (d *shapeDrawer) mirror(i int) int { return d.rows*d.cols - 1 - i }

// draw returns a shape that obeys the rules, or nil after a few failed
// tries (tiny areas with long minimum runs).
func (d *shapeDrawer) draw() []bool {
	R, C := d.rows, d.cols
	area := R * C
	for try := 0; try < 20; try++ {
		wantWhite := 0.64 + 0.14*d.rng.Float64()
		if area <= 36 {
			wantWhite = 0.70 + 0.16*d.rng.Float64()
		}
		white := make([]bool, area)
		for i := range white {
			white[i] = true
		}
		for n := int((1 - wantWhite) * float64(area) / 2); n > 0; n-- {
			i := d.rng.IntN(area)
			white[i], white[d.mirror(i)] = false, false
		}
		cur := d.cost(white, wantWhite)
		best := append([]bool(nil), white...)
		bestCost := cur
		steps := 60 * area
		temp0 := 2.0
		for s := 0; s < steps; s++ {
			temp := temp0 * (1 - float64(s)/float64(steps))
			i := d.rng.IntN(area)
			j := d.mirror(i)
			white[i], white[j] = !white[i], !white[i]
			next := d.cost(white, wantWhite)
			delta := next.cost - cur.cost
			if delta <= 0 || (temp > 0 && d.rng.Float64() < math.Exp(-delta/temp)) {
				cur = next
				if next.ok && !bestCost.ok || next.ok == bestCost.ok && next.cost < bestCost.cost {
					copy(best, white)
					bestCost = next
				}
			} else {
				white[i], white[j] = !white[i], !white[i]
			}
		}
		if bestCost.ok {
			return best
		}
	}
	return nil
}

// addBlock turns white cell i (and its mirror) into blocks and then blocks
// every white cell left in a run of one, as often as needed. It returns
// the new shape, or nil when the result breaks the rules (disconnected,
// too little white).
func (d *shapeDrawer) addBlock(white []bool, i int) []bool {
	R, C := d.rows, d.cols
	out := append([]bool(nil), white...)
	out[i], out[d.mirror(i)] = false, false
	lone := func(j int) bool {
		r, c := j/C, j%C
		left := c > 0 && out[j-1]
		right := c < C-1 && out[j+1]
		up := r > 0 && out[j-C]
		down := r < R-1 && out[j+C]
		return !(left || right) || !(up || down)
	}
	for changed := true; changed; {
		changed = false
		for j, w := range out {
			if w && lone(j) {
				out[j], out[d.mirror(j)] = false, false
				changed = true
			}
		}
	}
	if c := d.cost(out, 0.7); !c.ok {
		return nil
	}
	return out
}
