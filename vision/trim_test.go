package vision

import (
	"image"
	"testing"
)

// TestTrimTails draws a bold digit-like ring (4 px strokes) on a 32 px
// cell and checks which thin strokes attached to it are cut off.
func TestTrimTails(t *testing.T) {
	const side, cs = 32, 32.0
	ring := func(lab []int32, w int) { // a bold '0': 12×20 box at (12, 6), strokes w wide
		for y := 6; y < 26; y++ {
			for x := 12; x < 24; x++ {
				if x < 12+w || x >= 24-w || y < 6+w || y >= 26-w {
					lab[y*side+x] = 1
				}
			}
		}
	}
	tests := []struct {
		name      string
		draw      func(lab []int32)
		wantX     int // left edge of the component after trimming
		wantTrimd bool
	}{
		{"tail leaving to the left", func(lab []int32) {
			ring(lab, 4)
			for x := 1; x < 12; x++ { // a 1 px line, 11 px long
				lab[15*side+x] = 1
			}
		}, 12, true},
		{"short spur", func(lab []int32) {
			ring(lab, 4)
			for x := 9; x < 12; x++ {
				lab[15*side+x] = 1
			}
		}, 9, false},
		{"thin arc hugging the bulk", func(lab []int32) {
			ring(lab, 4)
			for x := 10; x < 26; x++ { // a thin bowl under the ring, wider than deep
				lab[27*side+x] = 1
				lab[28*side+x] = 1
			}
			for y := 26; y < 29; y++ {
				lab[y*side+10] = 1
				lab[y*side+25] = 1
			}
		}, 10, false},
		{"thin font left alone", func(lab []int32) {
			ring(lab, 1)
			for x := 1; x < 12; x++ {
				lab[15*side+x] = 1
			}
		}, 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lab := make([]int32, side*side)
			tc.draw(lab)
			p := piece{label: 1, x: side, y: side}
			x1, y1 := 0, 0
			for i, l := range lab {
				if l == 1 {
					x, y := i%side, i/side
					p.x, p.y, x1, y1 = min(p.x, x), min(p.y, y), max(x1, x), max(y1, y)
					p.area++
				}
			}
			p.w, p.h = x1-p.x+1, y1-p.y+1
			got := trimTails(lab, side, p, cs)
			if got.x != tc.wantX {
				t.Errorf("left edge %d, want %d", got.x, tc.wantX)
			}
			if trimmed := got.area < p.area; trimmed != tc.wantTrimd {
				t.Errorf("trimmed %v (area %d -> %d), want %v", trimmed, p.area, got.area, tc.wantTrimd)
			}
			n := 0
			for _, l := range lab {
				if l == 1 {
					n++
				}
			}
			if n != got.area {
				t.Errorf("labels hold %d pixels, piece says %d", n, got.area)
			}
		})
	}
}

// TestBesideDigit checks which pieces off a cell's middle join its digit
// as the other digit of a number. The boxes are those of testdata/synth
// image12 (16×16, 24 px canvas cells), where the 4 of a 14 lay wide of the
// cell's middle, and of dashes of faint lines seen beside digits.
func TestBesideDigit(t *testing.T) {
	one := piece{x: 9, y: 32, w: 6, h: 13, area: 59} // the 1 of r2c1's 14
	tests := []struct {
		name string
		p    piece
		want bool
	}{
		{"the 4 of 14", piece{x: 16, y: 32, w: 10, h: 12, area: 83}, true},
		{"a line's dash beside it", piece{x: 23, y: 31, w: 2, h: 13, area: 24}, false},
		{"a corner of two lines", piece{x: 9, y: 38, w: 20, h: 16, area: 69}, false},
		{"a short speck on its line", piece{x: 16, y: 40, w: 6, h: 5, area: 20}, false},
		{"a digit-sized blob a cell away", piece{x: 30, y: 32, w: 8, h: 12, area: 60}, false},
	}
	for _, tc := range tests {
		if got := besideDigit(one, tc.p); got != tc.want {
			t.Errorf("%s: besideDigit = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestGatherBrokenZero checks that a two-digit number keeps both arcs of
// a 0 that the binarisation broke apart. The pieces are those of
// testdata/synth image29 r4c1 (12×12, 32 px canvas cells, motion blur):
// the main component is the 1 of the 10, the near arc of the 0 is in the
// cell's middle, the far arc off it (and farther than a digit's gap from
// the 1); a line's dash beyond the far arc stays out.
func TestGatherBrokenZero(t *testing.T) {
	one := piece{label: 1, x: 10, y: 104, w: 4, h: 16, area: 55}
	near := piece{label: 2, x: 17, y: 104, w: 5, h: 15, area: 54}
	far := piece{label: 3, x: 24, y: 104, w: 5, h: 15, area: 60, aside: true}
	dash := piece{label: 4, x: 30, y: 103, w: 2, h: 16, area: 28, aside: true}
	box, keep, ink := gather([]piece{one, near, far, dash}, one, nil)
	if len(keep) != 3 || ink != 55+54+60 || box != image.Rect(10, 104, 29, 120) {
		t.Errorf("gathered labels %v (ink %d, box %v), want the 1 and both arcs of the 0 (1, 2, 3; ink 169, box (10,104)-(29,120))", keep, ink, box)
	}
}

// TestClipLineBands checks that a digit fused with the remnant of the
// grid line below it loses the remnant, not itself. The mask is the 5 of
// testdata/synth image29 r2c4 (12×12, 32 px canvas cells, rows 38..66,
// motion blur) whose foot ran into the line at y = 64.
func TestClipLineBands(t *testing.T) {
	five := []string{
		".......########.....",
		".......########.....",
		"......#########.....",
		"......#########.....",
		"......#########.....",
		"......#########.....",
		"......########......",
		"......########......",
		"......#########.....",
		"......#########.....",
		".......#########....",
		".......#########....",
		"...........######...",
		"............#####...",
		"............#####...",
		".......##...#####...",
		"......####.#####....",
		"......##########....",
		"......##########....",
		"......#########.....",
		".......#######......",
		".......######.......",
		"........###.........",
		"........###.........",
		".......#####........",
		".#.....########.....",
		"####.#########......",
		"###############.....",
		".......###..........",
	}
	const stride, x0, y0, cs = 128, 98, 38, 32.0
	labels := make([]int32, stride*stride)
	p := piece{label: 7, x: stride, y: stride}
	x1, y1 := 0, 0
	for dy, row := range five {
		for dx, c := range row {
			if c == '#' {
				x, y := x0+dx, y0+dy
				labels[y*stride+x] = 7
				p.area++
				p.x, p.y, x1, y1 = min(p.x, x), min(p.y, y), max(x1, x), max(y1, y)
			}
		}
	}
	p.w, p.h = x1-p.x+1, y1-p.y+1
	got := clipLineBands(labels, stride, p, cs, 1)
	// The cell's bottom line is at y = 64; its band starts 0.12 cell above.
	if got.y != 38 || got.y+got.h > 61 || got.area >= p.area || got.area < p.area*3/4 {
		t.Errorf("clipped to rows %d..%d, area %d of %d; want rows 38..60 (the 5 without the line's remnant)", got.y, got.y+got.h-1, got.area, p.area)
	}
	for y := 61; y < 67; y++ {
		for x := 0; x < stride; x++ {
			if labels[y*stride+x] == 7 {
				t.Fatalf("pixel (%d,%d) in the line's band still labelled", x, y)
			}
		}
	}
	// A digit the lattice puts mostly in the band (a lattice that is off)
	// is left whole.
	if q := clipLineBands(labels, stride, got, cs, 0); q != got {
		t.Errorf("a digit mostly below its cell was clipped: %+v -> %+v", got, q)
	}
}

// TestOnLine checks which pieces of a 32 px cell are told apart as a grid
// line's remnants: a dash on the row of a horizontal line the mask
// carries on beyond it, and a corner of two lines the masks carry on, are;
// a digit beside a line, and the foot of a 1 under a stem the vertical
// mask took, are not. The plane is 64×64 (2×2 cells of 32 px).
func TestOnLine(t *testing.T) {
	const side = 64
	tests := []struct {
		name  string
		ink   [][4]int // rectangles (x0, y0, x1, y1) of the piece's pixels
		hmask [][4]int // of the horizontal line mask
		vmask [][4]int // of the vertical line mask
		want  bool
	}{
		{"a dash of a broken line", [][4]int{{20, 10, 30, 12}}, [][4]int{{0, 10, 16, 12}, {34, 10, 64, 12}}, nil, true},
		{"a corner of two lines", [][4]int{{20, 20, 30, 22}, {20, 22, 22, 30}}, [][4]int{{0, 20, 17, 22}}, [][4]int{{20, 33, 22, 64}}, true},
		{"a digit beside a line", [][4]int{{10, 8, 20, 24}}, [][4]int{{0, 30, 64, 32}}, [][4]int{{24, 0, 26, 64}}, false},
		{"the foot of a 1 whose stem the mask took", [][4]int{{8, 30, 20, 33}}, nil, [][4]int{{13, 6, 15, 30}}, false},
		{"a digit on the row of a line far beyond it", [][4]int{{10, 8, 20, 24}}, [][4]int{{40, 8, 64, 10}}, nil, false},
	}
	for _, tc := range tests {
		labels := make([]int32, side*side)
		hl, vl := make([]uint8, side*side), make([]uint8, side*side)
		fill := func(rs [][4]int, f func(i int)) {
			for _, r := range rs {
				for y := r[1]; y < r[3]; y++ {
					for x := r[0]; x < r[2]; x++ {
						f(y*side + x)
					}
				}
			}
		}
		fill(tc.ink, func(i int) { labels[i] = 1 })
		fill(tc.hmask, func(i int) { hl[i] = 255 })
		fill(tc.vmask, func(i int) { vl[i] = 255 })
		p := piece{label: 1, x: side, y: side}
		x1, y1 := 0, 0
		for i, l := range labels {
			if l == 1 {
				x, y := i%side, i/side
				p.x, p.y, x1, y1 = min(p.x, x), min(p.y, y), max(x1, x+1), max(y1, y+1)
				p.area++
			}
		}
		p.w, p.h = x1-p.x, y1-p.y
		pl := plane{labels: labels, hl: hl, vl: vl, side: side, n: 2, cs: 32}
		if got := pl.onLine(&p); got != tc.want {
			t.Errorf("%s: onLine = %v, want %v", tc.name, got, tc.want)
		}
	}
}
