package kakuro

import (
	"math/bits"
	"slices"
)

// Digit sets are 9-bit masks: bit d-1 stands for digit d.
const allDigits = 0x1FF

// digitBit returns the mask of digit d (1-9).
func digitBit(d int) uint16 { return 1 << (d - 1) }

// maskDigit returns the digit of a one-digit mask.
func maskDigit(m uint16) int { return bits.TrailingZeros16(m) + 1 }

// maskSum[m] is the sum of the digits in m.
var maskSum = func() (t [512]uint8) {
	for m := 1; m < 512; m++ {
		low := bits.TrailingZeros(uint(m))
		t[m] = t[m&(m-1)] + uint8(low+1)
	}
	return
}()

// MinSum and MaxSum are the smallest and largest sums of n distinct digits
// 1-9 (n from 1 to 9): 1+2+...+n and 9+8+...+(10-n).
func MinSum(n int) int { return n * (n + 1) / 2 }

// MaxSum is the largest sum of n distinct digits (see MinSum).
func MaxSum(n int) int { return n * (19 - n) / 2 }

// comboTable lists, for every run length n (1-9) and sum s (0-45), the sets
// of n distinct digits that add up to s, in increasing mask order; s = 0
// stands for a run without a clue (any n distinct digits). union[n][s] is
// their union.
type comboTable struct {
	sets  [10][46][]uint16
	union [10][46]uint16
}

var combos = func() *comboTable {
	t := new(comboTable)
	for m := uint16(1); m < 512; m++ {
		n, s := bits.OnesCount16(m), maskSum[m]
		for _, sum := range [2]uint8{s, 0} {
			t.sets[n][sum] = append(t.sets[n][sum], m)
			t.union[n][sum] |= m
		}
	}
	return t
}()

// Combinations returns the sets of n distinct digits 1-9 that add up to sum,
// each as the digits in increasing order, the sets in dictionary order:
// Combinations(2, 10) is [[1 9] [2 8] [3 7] [4 6]]. It returns nil when
// there is none.
func Combinations(n, sum int) [][]int {
	if n < 1 || n > 9 || sum < 1 || sum > 45 {
		return nil
	}
	var out [][]int
	for _, m := range combos.sets[n][sum] {
		out = append(out, maskDigits(m))
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

// maskDigits lists the digits of m in increasing order.
func maskDigits(m uint16) []int {
	var ds []int
	for ; m != 0; m &= m - 1 {
		ds = append(ds, maskDigit(m))
	}
	return ds
}
