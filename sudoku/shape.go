package sudoku

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxN is the largest grid side this package handles: the one-line format
// has symbols for values up to 35 ('Z'), and 25×25 is the largest size the
// project uses.
const MaxN = 25

// Valid reports whether s describes a grid this package handles: boxes of at
// least 1×1 and a side of 1..MaxN.
func (s Shape) Valid() bool {
	return s.BoxRows >= 1 && s.BoxCols >= 1 && s.N() <= MaxN
}

// ShapeForN returns the usual box shape for a grid of side n: the one with
// the most nearly square boxes, rows not exceeding columns (4: 2x2, 6: 2x3,
// 8: 2x4, 9: 3x3, 10: 2x5, 12: 3x4, 16: 4x4, 25: 5x5). A prime n > 3 has no
// boxes and is refused, as is n outside 1..MaxN.
func ShapeForN(n int) (Shape, error) {
	if n < 1 || n > MaxN {
		return Shape{}, fmt.Errorf("sudoku: grid side %d out of range 1..%d", n, MaxN)
	}
	best := 1
	for r := 2; r*r <= n; r++ {
		if n%r == 0 {
			best = r
		}
	}
	if best == 1 && n > 3 {
		return Shape{}, fmt.Errorf("sudoku: grid side %d is prime, so it has no box shape", n)
	}
	if n <= 3 { // 1, 2 and 3 only make sense as a single row of boxes
		return Shape{1, n}, nil
	}
	return Shape{best, n / best}, nil
}

// ParseShape reads a box shape written "RxC" (e.g. "2x3"; 'X' and '*' also
// separate).
func ParseShape(text string) (Shape, error) {
	f := strings.FieldsFunc(strings.ToLower(strings.TrimSpace(text)), func(r rune) bool { return r == 'x' || r == '*' })
	if len(f) != 2 {
		return Shape{}, fmt.Errorf("sudoku: box shape %q: want RxC, e.g. 3x3", text)
	}
	r, err1 := strconv.Atoi(f[0])
	c, err2 := strconv.Atoi(f[1])
	s := Shape{r, c}
	if err1 != nil || err2 != nil || !s.Valid() {
		return Shape{}, fmt.Errorf("sudoku: box shape %q: want RxC with R, C >= 1 and R*C <= %d", text, MaxN)
	}
	return s, nil
}
