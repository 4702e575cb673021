package logic

import "math/bits"

// maxCells is the largest number of cells a Grid handles: 16×16. A cell set
// is a fixed array of words so that sets are plain values (no allocation) and
// the common operations are a handful of machine instructions.
const maxCells = 256

// cellSet is a set of cell indexes 0..maxCells-1.
type cellSet [maxCells / 64]uint64

func (s *cellSet) add(i int)    { s[i>>6] |= 1 << uint(i&63) }
func (s *cellSet) remove(i int) { s[i>>6] &^= 1 << uint(i&63) }

func (s cellSet) has(i int) bool { return s[i>>6]&(1<<uint(i&63)) != 0 }

func (s cellSet) and(t cellSet) cellSet {
	return cellSet{s[0] & t[0], s[1] & t[1], s[2] & t[2], s[3] & t[3]}
}

func (s cellSet) or(t cellSet) cellSet {
	return cellSet{s[0] | t[0], s[1] | t[1], s[2] | t[2], s[3] | t[3]}
}

func (s cellSet) andNot(t cellSet) cellSet {
	return cellSet{s[0] &^ t[0], s[1] &^ t[1], s[2] &^ t[2], s[3] &^ t[3]}
}

func (s cellSet) empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

// intersects reports whether s and t share a cell.
func (s cellSet) intersects(t cellSet) bool {
	return s[0]&t[0]|s[1]&t[1]|s[2]&t[2]|s[3]&t[3] != 0
}

// subsetOf reports whether every cell of s is in t.
func (s cellSet) subsetOf(t cellSet) bool {
	return s[0]&^t[0]|s[1]&^t[1]|s[2]&^t[2]|s[3]&^t[3] == 0
}

func (s cellSet) count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

// first returns the smallest cell in s, or -1.
func (s cellSet) first() int {
	for w, x := range s {
		if x != 0 {
			return w<<6 | bits.TrailingZeros64(x)
		}
	}
	return -1
}

// next returns the smallest cell in s greater than i, or -1.
func (s cellSet) next(i int) int {
	i++
	w := i >> 6
	if w >= len(s) {
		return -1
	}
	x := s[w] &^ (1<<uint(i&63) - 1)
	for {
		if x != 0 {
			return w<<6 | bits.TrailingZeros64(x)
		}
		w++
		if w >= len(s) {
			return -1
		}
		x = s[w]
	}
}

// appendTo appends the cells of s to dst in increasing order.
func (s cellSet) appendTo(dst []int) []int {
	for w, x := range s {
		for x != 0 {
			dst = append(dst, w<<6|bits.TrailingZeros64(x))
			x &= x - 1
		}
	}
	return dst
}

// maxDigits is the largest number of digits a Grid handles (16×16).
const maxDigits = 16

// digitMask is a set of digits: bit d-1 stands for digit d (1..16).
type digitMask uint32

func bit(d int) digitMask { return 1 << uint(d-1) }

func (m digitMask) has(d int) bool { return m&bit(d) != 0 }
func (m digitMask) count() int     { return bits.OnesCount32(uint32(m)) }

// first returns the smallest digit in m, or 0.
func (m digitMask) first() int {
	if m == 0 {
		return 0
	}
	return bits.TrailingZeros32(uint32(m)) + 1
}

// digits returns the digits of m in increasing order.
func (m digitMask) digits() []int {
	out := make([]int, 0, m.count())
	for x := m; x != 0; x &= x - 1 {
		out = append(out, bits.TrailingZeros32(uint32(x))+1)
	}
	return out
}
