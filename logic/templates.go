package logic

// Templates: the ways one digit can still fill the grid, one cell in every
// row, column and box among its candidates. A candidate in no template is
// false, one in every template is true; single-digit reasoning (X-chains,
// X-cycles, Nishio) can only ever find such candidates, so the search uses
// them to skip digits and starting points that cannot lead anywhere. The
// templates themselves are not a technique here, only a filter: the steps
// still come from the chains Sudoku Explainer would find.

// maxTemplates bounds the enumeration; beyond it the filter gives up.
const maxTemplates = 20000

type templateInfo struct {
	some, all cellSet // candidates in some / every template
	ok        bool    // enumeration finished within maxTemplates
}

// templates returns the template summary of digit d (cached per state).
func (g *Grid) templates(d int) templateInfo {
	dc := g.digitInfo(d)
	if !dc.tmplOK {
		dc.tmpl, dc.tmplOK = g.enumTemplates(d), true
	}
	return dc.tmpl
}

func (g *Grid) enumTemplates(d int) templateInfo {
	geo := g.geo
	n := geo.n
	// Rows still missing d, with their candidate cells; columns and boxes
	// already holding d.
	var usedCols, usedBoxes uint32
	type rowCells struct{ cells []int }
	var rows []rowCells
	for r := 0; r < n; r++ {
		placed := false
		for _, c := range geo.houses[r] {
			if g.value[c] == d {
				placed = true
				usedCols |= 1 << uint(c%n)
				usedBoxes |= 1 << uint(geo.cellHouse[c][kindBox]-2*n)
			}
		}
		if !placed {
			rows = append(rows, rowCells{g.housePos(r, d).appendTo(nil)})
		}
	}
	// Fewest choices first.
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && len(rows[j].cells) < len(rows[j-1].cells); j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
	info := templateInfo{all: geo.all}
	count := 0
	var path cellSet
	var rec func(i int, cols, boxes uint32) bool
	rec = func(i int, cols, boxes uint32) bool {
		if i == len(rows) {
			count++
			info.some = info.some.or(path)
			info.all = info.all.and(path)
			return count < maxTemplates
		}
		for _, c := range rows[i].cells {
			col := uint32(1) << uint(c%n)
			box := uint32(1) << uint(geo.cellHouse[c][kindBox]-2*n)
			if cols&col != 0 || boxes&box != 0 {
				continue
			}
			path.add(c)
			ok := rec(i+1, cols|col, boxes|box)
			path.remove(c)
			if !ok {
				return false
			}
		}
		return true
	}
	info.ok = rec(0, usedCols, usedBoxes)
	if count == 0 {
		info.all = cellSet{} // broken grid: no template at all
	}
	return info
}

// templateUseful reports whether single-digit reasoning on d can find
// anything: some candidate is in no template, or one that is not yet
// placed is in every template.
func (g *Grid) templateUseful(d int) bool {
	t := g.templates(d)
	if !t.ok {
		return true
	}
	cands := g.pos[d-1]
	return !cands.subsetOf(t.some) || t.all.intersects(cands)
}
