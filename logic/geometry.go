package logic

import (
	"fmt"
	"sync"

	"github.com/sudokuar/sudokuar/sudoku"
)

// House kinds. Houses are numbered kind*N + index: rows 0..N-1, columns
// N..2N-1, boxes 2N..3N-1 (boxes row-major, as in package sudoku).
const (
	kindRow = iota
	kindCol
	kindBox
)

// geometry is everything about a box shape that does not depend on the
// digits: houses, which houses a cell is in, a cell's peers. It is built
// once per shape and shared (read-only) by every Grid of that shape.
type geometry struct {
	shape     sudoku.Shape
	n         int       // side, also the number of digits
	size      int       // n*n cells
	houses    [][]int   // cells of each house, increasing
	houseSet  []cellSet // the same as sets
	cellHouse [][3]int  // row, column and box house of each cell
	peers     []cellSet // cells sharing a house with the cell, itself excluded
	peerList  [][]int
	// sePeers lists the peers of each cell in the order Sudoku Explainer
	// meets them: the box, then the rest of the row, then the rest of the
	// column, each in increasing order.
	sePeers [][]int
	all     cellSet
	// segment[box][line] is the intersection of a box with a row or
	// column house (empty when they do not cross).
	segment map[[2]int]cellSet
	// crossing[h] lists the houses that share a segment with house h:
	// the boxes a line runs through, the lines that run through a box.
	crossing [][]int
	seOrder  []int // houses in Sudoku Explainer's order: boxes, columns, rows
}

var geometries sync.Map // sudoku.Shape -> *geometry (immutable once stored)

// geometryFor returns the shared geometry of shape s.
func geometryFor(s sudoku.Shape) (*geometry, error) {
	if g, ok := geometries.Load(s); ok {
		return g.(*geometry), nil
	}
	if !s.Valid() {
		return nil, fmt.Errorf("%w: box shape %v", sudoku.ErrInvalidGrid, s)
	}
	n := s.N()
	if n < 4 || n*n > maxCells {
		return nil, &SizeError{Shape: s}
	}
	g := &geometry{shape: s, n: n, size: n * n}
	g.houses = make([][]int, 3*n)
	g.houseSet = make([]cellSet, 3*n)
	g.cellHouse = make([][3]int, n*n)
	for i := 0; i < n*n; i++ {
		r, c := i/n, i%n
		b := (r/s.BoxRows)*s.BoxRows + c/s.BoxCols
		hs := [3]int{kindRow*n + r, kindCol*n + c, kindBox*n + b}
		g.cellHouse[i] = hs
		for _, h := range hs {
			g.houses[h] = append(g.houses[h], i)
			g.houseSet[h].add(i)
		}
		g.all.add(i)
	}
	g.peers = make([]cellSet, n*n)
	g.peerList = make([][]int, n*n)
	g.sePeers = make([][]int, n*n)
	for i := 0; i < n*n; i++ {
		var p cellSet
		for _, h := range g.cellHouse[i] {
			p = p.or(g.houseSet[h])
		}
		p.remove(i)
		g.peers[i] = p
		g.peerList[i] = p.appendTo(nil)
		var done cellSet
		done.add(i)
		for _, h := range [3]int{g.cellHouse[i][2], g.cellHouse[i][0], g.cellHouse[i][1]} {
			rest := g.houseSet[h].andNot(done)
			g.sePeers[i] = rest.appendTo(g.sePeers[i])
			done = done.or(rest)
		}
	}
	g.segment = make(map[[2]int]cellSet)
	g.crossing = make([][]int, 3*n)
	for b := 2 * n; b < 3*n; b++ {
		for l := 0; l < 2*n; l++ {
			seg := g.houseSet[b].and(g.houseSet[l])
			if seg.count() > 0 {
				g.segment[[2]int{b, l}] = seg
				g.crossing[b] = append(g.crossing[b], l)
				g.crossing[l] = append(g.crossing[l], b)
			}
		}
	}
	g.seOrder = g.buildSEOrder()
	actual, _ := geometries.LoadOrStore(s, g)
	return actual.(*geometry), nil
}

// cellName names a cell rXcY, 1-based.
func (g *geometry) cellName(i int) string {
	return sudoku.CellName(i, g.n)
}

// houseName names a house: "row 3", "column 5", "box 2".
func (g *geometry) houseName(h int) string {
	switch h / g.n {
	case kindRow:
		return fmt.Sprintf("row %d", h%g.n+1)
	case kindCol:
		return fmt.Sprintf("column %d", h%g.n+1)
	}
	return fmt.Sprintf("box %d", h%g.n+1)
}

// sees reports whether cells a and b share a house (a != b).
func (g *geometry) sees(a, b int) bool { return g.peers[a].has(b) }

// commonHouses returns the houses that contain every cell of s (at most two
// for two or more cells: a line and a box).
func (g *geometry) commonHouses(s cellSet) []int {
	c := s.first()
	if c < 0 {
		return nil
	}
	var out []int
	for _, h := range g.cellHouse[c] {
		if s.subsetOf(g.houseSet[h]) {
			out = append(out, h)
		}
	}
	return out
}

// seenByAll returns the cells that see every cell of s (cells of s excluded).
func (g *geometry) seenByAll(s cellSet) cellSet {
	out := g.all
	for c := s.first(); c >= 0; c = s.next(c) {
		out = out.and(g.peers[c])
	}
	return out.andNot(s)
}
