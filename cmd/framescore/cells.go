package main

import (
	"fmt"
	"io"

	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// confusion counts, per cell-size bucket, the cells of the frames whose
// grid was read in place, by truth (digit or empty) and reading, and says
// where each printed digit read empty was lost: vision found no ink worth
// the reader's look (noInk), vision called the cell empty but gave its
// faint ink to the reader, who left it empty (faint), or vision found a
// digit and the reader or the repair emptied it (unread).
type confusion struct {
	frames, skipped [5]int // one a bucket of calibBuckets
	right, misread  [5]int // digit read as the digit, as another digit
	noInk, faint    [5]int // digit read empty, by where it was lost
	unread          [5]int
	added, empty    [5]int // empty cell read as a digit, left empty
}

// add counts reading r of a frame against truth; cells are vision's cuts
// of the same frame (in the photo's layout, before r's Turns).
func (c *confusion) add(r pipeline.Result, cells []vision.Cell, truth sudoku.Grid) {
	b := bucketOf(r.CellPx)
	got := r.Puzzle
	n := truth.N()
	if got.Shape != truth.Shape || len(got.Cells) != len(truth.Cells) || len(cells) != len(truth.Cells) {
		c.skipped[b]++
		return
	}
	// A lattice off by a cell reads digits that are not the truth's
	// there: count only frames whose digits read mostly agree.
	read, agree := 0, 0
	for i, v := range got.Cells {
		if v != 0 {
			read++
			if v == truth.Cells[i] {
				agree++
			}
		}
	}
	if read < 5 || 10*agree < 7*read {
		c.skipped[b]++
		return
	}
	c.frames[b]++
	// Cell i of the reading is cell src of vision's cut.
	back := (4 - r.Turns%4) % 4
	for i, want := range truth.Cells {
		v := got.Cells[i]
		cell := cells[sudoku.TurnIndex(i, n, back)]
		switch {
		case want != 0 && v == want:
			c.right[b]++
		case want != 0 && v != 0:
			c.misread[b]++
		case want != 0 && !cell.Empty:
			c.unread[b]++
		case want != 0 && len(cell.Pixels) > 0:
			c.faint[b]++
		case want != 0:
			c.noInk[b]++
		case v != 0:
			c.added[b]++
		default:
			c.empty[b]++
		}
	}
}

// report writes the confusion, one line per bucket and a total.
func (c *confusion) report(w io.Writer) {
	fmt.Fprintln(w, "cells by size (frames read in place; digit->empty split by where the digit was lost):")
	fmt.Fprintf(w, "  %-10s %6s %5s  %7s %7s  %7s %7s %7s  %7s %7s\n",
		"cell", "frames", "off", "d->d", "d->d'", "noink", "faint", "unread", "e->d", "e->e")
	var t confusion
	for b := range calibBuckets {
		fmt.Fprintf(w, "  %-10s %6d %5d  %7d %7d  %7d %7d %7d  %7d %7d\n", bucketName(b), c.frames[b], c.skipped[b],
			c.right[b], c.misread[b], c.noInk[b], c.faint[b], c.unread[b], c.added[b], c.empty[b])
		for _, p := range [][2]*[5]int{{&t.frames, &c.frames}, {&t.skipped, &c.skipped}, {&t.right, &c.right},
			{&t.misread, &c.misread}, {&t.noInk, &c.noInk}, {&t.faint, &c.faint}, {&t.unread, &c.unread},
			{&t.added, &c.added}, {&t.empty, &c.empty}} {
			p[0][0] += p[1][b]
		}
	}
	fmt.Fprintf(w, "  %-10s %6d %5d  %7d %7d  %7d %7d %7d  %7d %7d\n", "all", t.frames[0], t.skipped[0],
		t.right[0], t.misread[0], t.noInk[0], t.faint[0], t.unread[0], t.added[0], t.empty[0])
}
