package sudoku

import (
	"fmt"
	"math/bits"

	"github.com/sudokuar/sudokuar/dlx"
)

// The bit-parallel solver for 9×9 grids with 3×3 boxes, after the fast C
// solvers (fsss2, JCZSolve, tdoku without SIMD): nine bitboards, one per
// digit, in three bands of 27 cells (bit (row%3)*9+column), so a house of
// one digit is a few shifts and masks. It places naked and hidden singles
// for all cells or houses at once, then strikes locked candidates (one
// table look-up per band), then guesses on a cell with the fewest
// candidates, keeping the other branch on a small stack of whole states.

const (
	all27      = 1<<27 - 1 // the 27 cells of a band
	minirowLow = 0x1249249 // the first cell of each of a band's nine minirows (three cells of a row in one box)
	rowLow     = 0x40201   // the first cell of each of a band's three rows
	boxLow     = 0x49      // the first cell of each of a band's three boxes, in its first row
)

// bitCell is where a cell sits in the bitboards and what placing a digit
// there clears of that digit's board: its row, column and box, itself
// excepted.
type bitCell struct {
	band  uint8
	pos   uint8     // bit within the band
	peers [3]uint32 // per band
}

// bitCells is the immutable geometry of the 81 cells.
var bitCells = func() (t [81]bitCell) {
	for i := range 81 {
		r, c := i/9, i%9
		t[i].band, t[i].pos = uint8(r/3), uint8(r%3*9+c)
		for j := range 81 {
			r2, c2 := j/9, j%9
			if j != i && (r2 == r || c2 == c || (r2/3 == r/3 && c2/3 == c/3)) {
				t[i].peers[r2/3] |= 1 << (r2%3*9 + c2)
			}
		}
	}
	return t
}()

// permutations[p] is, for a 3×3 pattern p of where a digit may still go
// (bit 3*line+box: one of a band's three rows, or one of a stack's three
// columns, inside one of its three boxes), the part of p that lies on some
// way to put the digit once in every line and once in every box: the rest
// can go (locked candidates, pointing and claiming, and their
// permutations). 0 means no way.
var permutations = func() (t [512]uint16) {
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for p := range 512 {
		for _, q := range perms {
			m := uint16(1<<q[0] | 1<<(3+q[1]) | 1<<(6+q[2]))
			if uint16(p)&m == m {
				t[p] |= m
			}
		}
	}
	return t
}()

// minirows3[v] is, for the nine cells v of a row, which of its three
// minirows (the cells in each box) hold any.
var minirows3 = func() (t [512]uint8) {
	for v := range 512 {
		for k := range 3 {
			if v>>(3*k)&7 != 0 {
				t[v] |= 1 << k
			}
		}
	}
	return t
}()

// spread3 turns three bits (one per box) into the 9 cells of those boxes'
// minirows in one row.
var spread3 = [8]uint32{0, 7, 7 << 3, 7<<3 | 7, 7 << 6, 7<<6 | 7, 7<<6 | 7<<3, 0x1ff}

// bitState is a search state: cand[b][d] holds the cells of band b where
// digit d+1 may still go, including the cell where it is placed; open the
// cells not yet filled; seen the boards as hidden singles last looked at
// them, so that they look again only at what changed.
type bitState struct {
	cand [3][9]uint32
	open [3]uint32
	seen [3][9]uint32
}

// reset makes s the empty grid.
func (s *bitState) reset() {
	for b := range s.cand {
		s.cand[b] = [9]uint32{all27, all27, all27, all27, all27, all27, all27, all27, all27}
	}
	s.open = [3]uint32{all27, all27, all27}
	s.seen = [3][9]uint32{}
}

// place puts digit d+1 in the cell at bit pos of band b; it reports false,
// changing nothing, when d+1 is no longer a candidate there.
func (s *bitState) place(d int, b int, pos uint) bool {
	c := &s.cand[b]
	bit := uint32(1) << pos
	if c[d]&bit == 0 {
		return false
	}
	s.open[b] &^= bit
	// Strike the cell out of every digit's board (unrolled: this is the
	// hottest loop).
	x0, x1, x2, x3, x4, x5, x6, x7, x8 := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
	c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8] = x0&^bit, x1&^bit, x2&^bit, x3&^bit, x4&^bit, x5&^bit, x6&^bit, x7&^bit, x8&^bit
	p := &bitCells[b*27+int(pos)].peers
	s.cand[0][d] &^= p[0]
	s.cand[1][d] &^= p[1]
	s.cand[2][d] &^= p[2]
	c[d] |= bit
	return true
}

// nakedSingles places every open cell with one candidate left and reports
// whether it placed any; ok is false when some cell has no candidate.
func (s *bitState) nakedSingles() (placed, ok bool) {
	for b := range 3 {
		var one, two uint32
		for _, x := range &s.cand[b] {
			two |= one & x
			one |= x
		}
		if one != all27 {
			return placed, false
		}
		single := one &^ two & s.open[b]
		for single != 0 {
			pos := uint(bits.TrailingZeros32(single))
			single &= single - 1
			bit := uint32(1) << pos
			d := 0
			for d < 9 && s.cand[b][d]&bit == 0 {
				d++
			}
			if d == 9 || !s.place(d, b, pos) {
				return placed, false // emptied by a placement of this round
			}
			placed = true
		}
	}
	return placed, true
}

// anyTwo returns, bit by bit, whether at least two of x, y and z are set.
func anyTwo(x, y, z uint32) uint32 { return x&y | x&z | y&z }

// bandHouses looks at one band x of a digit's board: h the cells that are
// the digit's only place in their row or box; ok is false when a row or
// box of the band has no place.
func bandHouses(x uint32) (h uint32, ok bool) {
	// Minirows (three cells of a row inside a box) with one or more, two
	// or more places, at each minirow's first bit.
	m1 := (x | x>>1 | x>>2) & minirowLow
	m2 := anyTwo(x, x>>1, x>>2) & minirowLow
	// A row is three minirows three bits apart, a box three minirows nine
	// bits apart.
	r1 := (m1 | m1>>3 | m1>>6) & rowLow
	r2 := (m2 | m2>>3 | m2>>6 | anyTwo(m1, m1>>3, m1>>6)) & rowLow
	b1 := (m1 | m1>>9 | m1>>18) & boxLow
	b2 := (m2 | m2>>9 | m2>>18 | anyTwo(m1, m1>>9, m1>>18)) & boxLow
	boxes := (b1 &^ b2) * 7
	return ((r1&^r2)*0x1ff | boxes | boxes<<9 | boxes<<18) & x, r1 == rowLow && b1 == boxLow
}

// hiddenSingles returns the open cells where digit d+1 is the only place
// left in a row, column or box; ok is false when some house has no place
// for it at all. Rows and boxes are looked at only in the bands (bits 0-2)
// that changed since the last look: the others have nothing new.
func (s *bitState) hiddenSingles(d int, bands uint32) (h [3]uint32, ok bool) {
	x0, x1, x2 := s.cand[0][d], s.cand[1][d], s.cand[2][d]
	o0, o1, o2 := s.open[0], s.open[1], s.open[2]
	if (x0&o0 | x1&o1 | x2&o2) == 0 {
		// Placed in full, or a house has lost it.
		return h, bits.OnesCount32(x0)+bits.OnesCount32(x1)+bits.OnesCount32(x2) == 9
	}
	ok = true
	var h0, h1, h2 uint32
	if bands&1 != 0 {
		h0, ok = bandHouses(x0)
	}
	if bands&2 != 0 && ok {
		h1, ok = bandHouses(x1)
	}
	if bands&4 != 0 && ok {
		h2, ok = bandHouses(x2)
	}
	// Columns: the nine cells of a column are three apart nine bits in
	// each band.
	c10, c11, c12 := (x0|x0>>9|x0>>18)&0x1ff, (x1|x1>>9|x1>>18)&0x1ff, (x2|x2>>9|x2>>18)&0x1ff
	one := c10 | c11 | c12
	if !ok || one != 0x1ff {
		return h, false
	}
	two := anyTwo(x0, x0>>9, x0>>18) | anyTwo(x1, x1>>9, x1>>18) | anyTwo(x2, x2>>9, x2>>18) | anyTwo(c10, c11, c12)
	cols := one &^ two & 0x1ff
	cols |= cols<<9 | cols<<18
	h[0] = (h0 | x0&cols) & o0
	h[1] = (h1 | x1&cols) & o1
	h[2] = (h2 | x2&cols) & o2
	return h, true
}

// propagate places singles until none is left. It reports false on a
// contradiction: a cell without candidates or a house without a place for
// some digit.
func (s *bitState) propagate() bool {
	for {
		placed, ok := s.nakedSingles()
		if !ok {
			return false
		}
		if placed {
			continue
		}
		for d := 0; !placed && d < 9; d++ {
			x0, x1, x2 := s.cand[0][d], s.cand[1][d], s.cand[2][d]
			var bands uint32
			if x0 != s.seen[0][d] {
				bands |= 1
			}
			if x1 != s.seen[1][d] {
				bands |= 2
			}
			if x2 != s.seen[2][d] {
				bands |= 4
			}
			if bands == 0 {
				continue
			}
			s.seen[0][d], s.seen[1][d], s.seen[2][d] = x0, x1, x2
			h, ok := s.hiddenSingles(d, bands)
			if !ok {
				return false
			}
			for b := range 3 {
				for x := h[b]; x != 0; x &= x - 1 {
					if !s.place(d, b, uint(bits.TrailingZeros32(x))) {
						return false // two singles of d in one house
					}
					placed = true
				}
			}
		}
		if !placed {
			if s.open == [3]uint32{} {
				return true
			}
			switch s.lockedCandidates() {
			case lockedNone:
				return true
			case lockedFail:
				return false
			}
		}
	}
}

const (
	lockedNone = iota // nothing struck out
	lockedSome        // some candidates struck out
	lockedFail        // a digit has no way through a band or stack
)

// lockedCandidates strikes out, for every digit, the candidates that
// cannot be part of putting it once in each row and box of a band, or
// each column and box of a stack (see permutations).
func (s *bitState) lockedCandidates() int {
	out := lockedNone
	for d := range 9 {
		if s.cand[0][d]&s.open[0]|s.cand[1][d]&s.open[1]|s.cand[2][d]&s.open[2] == 0 {
			continue // placed in full (hiddenSingles checked the count)
		}
		var colAny [3]uint32
		for b := range 3 {
			x := s.cand[b][d]
			p := uint16(minirows3[x&0x1ff]) | uint16(minirows3[x>>9&0x1ff])<<3 | uint16(minirows3[x>>18&0x1ff])<<6
			a := permutations[p]
			if a == 0 {
				return lockedFail
			}
			if a != p {
				x &= spread3[a&7] | spread3[a>>3&7]<<9 | spread3[a>>6]<<18
				s.cand[b][d] = x
				out = lockedSome
			}
			colAny[b] = (x | x>>9 | x>>18) & 0x1ff
		}
		for k := uint(0); k < 9; k += 3 {
			p := colAny[0]>>k&7 | (colAny[1]>>k&7)<<3 | (colAny[2]>>k&7)<<6
			a := uint32(permutations[p])
			if a == 0 {
				return lockedFail
			}
			if a == p {
				continue
			}
			for b := range 3 {
				drop := (p &^ a) >> (3 * b) & 7 << k // minicolumns of band b to clear
				s.cand[b][d] &^= drop | drop<<9 | drop<<18
			}
			out = lockedSome
		}
	}
	return out
}

// branch picks the cell to guess on: the first with two candidates, else
// the first with fewest. It returns the cell's band and bit.
func (s *bitState) branch() (b int, pos uint) {
	for b := range 3 {
		var one, two, three uint32
		for _, x := range &s.cand[b] {
			three |= two & x
			two |= one & x
			one |= x
		}
		if pair := two &^ three & s.open[b]; pair != 0 {
			return b, uint(bits.TrailingZeros32(pair))
		}
	}
	best := 10
	for bb := range 3 {
		for x := s.open[bb]; x != 0; x &= x - 1 {
			p := uint(bits.TrailingZeros32(x))
			n := 0
			for _, x := range &s.cand[bb] {
				n += int(x >> p & 1)
			}
			if n < best {
				best, b, pos = n, bb, p
			}
		}
	}
	return b, pos
}

// write stores the digits of a solved state in dst (81 cells).
func (s *bitState) write(dst []int) {
	_ = dst[80]
	for b := range s.cand {
		for d, x := range &s.cand[b] {
			for ; x != 0; x &= x - 1 {
				dst[b*27+bits.TrailingZeros32(x)] = d + 1
			}
		}
	}
}

// bitSolver is the search: the current state and a stack of the branches
// still to try.
type bitSolver struct {
	cur    bitState
	stack  [81]bitState
	budget uint64 // search nodes a search may visit; 0: no limit
	nodes  uint64 // search nodes (propagations) so far
	guess  uint64 // guesses so far
}

// load sets the givens of an already-checked 9×9 grid.
func (e *bitSolver) load(cells []int) {
	e.cur.reset()
	for i, v := range cells {
		if v != 0 {
			c := &bitCells[i]
			e.cur.place(v-1, int(c.band), uint(c.pos))
		}
	}
}

// search finds up to limit solutions (limit <= 0: all) of the loaded
// grid, writing the first to dst when dst is not nil, and returns how many
// it found; an error wrapping dlx.ErrBudget when the budget ran out.
func (e *bitSolver) search(limit int, dst []int) (int, error) {
	found, depth := 0, 0
	start := e.nodes
	s := &e.cur
	for {
		e.nodes++
		if s.propagate() {
			if s.open == [3]uint32{} {
				found++
				if found == 1 && dst != nil {
					s.write(dst)
				}
				if found == limit {
					return found, nil
				}
			} else if e.budget > 0 && e.nodes-start > e.budget {
				return found, fmt.Errorf("sudoku: bits: %w", dlx.ErrBudget)
			} else {
				// Guess the cell's lowest candidate; the stack keeps the
				// state where it is struck out instead.
				b, pos := s.branch()
				bit := uint32(1) << pos
				d := 0
				for s.cand[b][d]&bit == 0 {
					d++
				}
				alt := &e.stack[depth]
				*alt = *s
				alt.cand[b][d] &^= bit
				depth++
				e.guess++
				s.place(d, b, pos)
				continue
			}
		}
		if depth == 0 {
			return found, nil
		}
		depth--
		*s = e.stack[depth]
	}
}
