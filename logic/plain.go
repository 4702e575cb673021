package logic

import (
	"fmt"
	"slices"
	"strings"
)

// Plain words: a step said for players who know no technique's name, with
// cells named as people say them ("row 3, column 5"). Advice carries them
// beside the engine's own wording (Nudge and Sentence, cells rXcY, the
// techniques named), which stays for experts.

// plainFamily is what plain words say of the techniques whose names
// contain one of keys: the nudge's clue (after "Look at ") and why the
// step holds (before ": " and what it does). {d} in either is the step's
// digit; a family with digit set needs a step of one digit.
type plainFamily struct {
	keys  []string
	clue  string
	why   string
	digit bool
}

// plainFamilies are tried in order: a name matches the first family with
// one of its keys (lower case) in it. Singles, locked candidates and
// subsets have sentences of their own (plainSentence); the families here
// say why in general words and let the highlighted cells show the rest.
var plainFamilies = []plainFamily{
	{keys: []string{"x-wing", "swordfish", "jellyfish"}, digit: true,
		clue: "the {d}s: in a few rows they fit only in the same few columns (or the other way round)",
		why:  "In the lit lines the {d}s can only go where those lines cross the other lit lines, so the crossing lines get their {d}s there and nowhere else"},
	{keys: []string{"skyscraper", "kite", "turbot", "empty rectangle", "x-chain", "x-cycle", "x-loop"}, digit: true,
		clue: "the {d}s: follow the lines where {d} has only two places",
		why:  "Each lit line has only two places for {d}; linked end to end, they mean one of the chain's two ends holds {d}, so a cell that sees both ends cannot"},
	{keys: []string{"colouring"}, digit: true,
		clue: "the {d}s: colour their places two by two along the lines where {d} has only two",
		why:  "The lit places of {d} split into two colours, one of which holds every {d}, so a cell that sees both colours cannot"},
	{keys: []string{"wing"},
		clue: "the cells with only two or three candidates left",
		why:  "The lit cells with few candidates are linked so that one of the end cells always holds the digit in question, so a cell that sees both ends cannot"},
	{keys: []string{"unique", "bug"},
		clue: "candidates that would give the puzzle two solutions",
		why:  "The puzzle has exactly one solution, and the lit cells would allow two if these candidates stayed"},
	{keys: []string{"als"},
		clue: "groups of cells with one candidate more than cells",
		why:  "Each lit group holds just one digit more than it has cells, so together they push the digit out of the cells that see them"},
	{keys: []string{"aligned"},
		clue: "two cells that see the same cells",
		why:  "The lit cells cannot take every pair of their candidates without emptying a cell they both see"},
	{keys: []string{"chain", "cycle", "loop", "nishio", "forcing", "inference"},
		clue: "the lit cells: a chain of if-then steps runs through them",
		why:  "Following the lit candidates step by step, every way leads to the same result"},
}

// family returns the plain family of a technique's name (lower case).
func family(name string, digits []int) (plainFamily, bool) {
	for _, f := range plainFamilies {
		if slices.ContainsFunc(f.keys, func(k string) bool { return strings.Contains(name, k) }) {
			return f, !f.digit || len(digits) == 1
		}
	}
	return plainFamily{}, false
}

// withDigit writes digit d into a family's text.
func (g *geometry) withDigit(text string, digits []int) string {
	if len(digits) == 0 {
		return text
	}
	return strings.ReplaceAll(text, "{d}", g.symbol(digits[0]))
}

// plainWords returns the plain nudge and sentence of step s found on g;
// house is the nudge's house ("" when the step spans several).
func plainWords(s Step, house string, g *Grid) (nudge, sentence string) {
	geo := g.geo
	where := house
	if where == "" {
		where = "the whole grid"
	}
	switch s.Technique {
	case nameFullHouse, nameHiddenSingle, nameNakedSingle:
		p := s.Placements[0]
		d, cell := geo.symbol(p.Digit), geo.plainCell(p.Cell)
		switch s.Technique {
		case nameFullHouse:
			return fmt.Sprintf("Look at %s: it has one empty cell left", where), fmt.Sprintf("%s is the last empty cell of %s: it takes the missing %s", upper(cell), house, d)
		case nameHiddenSingle:
			return fmt.Sprintf("Look at %s: one digit has only one place left there", where), fmt.Sprintf("In %s, %s fits in only one place: %s", house, d, cell)
		}
		return fmt.Sprintf("Look at %s: one of its cells can hold only one digit", where), fmt.Sprintf("%s can only be %s: its row, column and box hold every other digit", upper(cell), d)
	}
	name := strings.ToLower(s.Technique)
	digits := stepDigits(s)
	if sentence, ok := plainSentence(s, name, g); ok {
		return plainNudge(name, where, digits, geo), sentence
	}
	why := "The lit cells show why"
	if f, ok := family(name, digits); ok {
		why = geo.withDigit(f.why, digits)
	}
	return plainNudge(name, where, digits, geo), why + ": " + geo.plainResult(s)
}

// plainNudge is the first stage of a hint in plain words: where to look
// and for what, never the answer.
func plainNudge(name, where string, digits []int, geo *geometry) string {
	switch {
	case strings.Contains(name, "pointing") || strings.Contains(name, "claiming"):
		return fmt.Sprintf("Look at %s: one digit's places there all lie where it crosses a line or a box", where)
	case strings.Contains(name, "naked"):
		return fmt.Sprintf("Look at %s: a few of its cells share the same few candidates", where)
	case strings.Contains(name, "hidden"):
		return fmt.Sprintf("Look at %s: a few digits have only the same few places there", where)
	}
	if f, ok := family(name, digits); ok {
		return "Look at " + geo.withDigit(f.clue, digits)
	}
	if len(digits) == 1 {
		return fmt.Sprintf("There is a step to find for the %ss", geo.symbol(digits[0]))
	}
	return fmt.Sprintf("There is a step to find in %s", where)
}

// plainSentence words the steps whose pattern is one house's: locked
// candidates (a digit's places in a house all within another house) and
// naked and hidden subsets. ok is false for other steps.
func plainSentence(s Step, name string, g *Grid) (string, bool) {
	geo := g.geo
	var cells cellSet
	for _, c := range s.Cells {
		cells.add(c)
	}
	hs := geo.commonHouses(cells)
	if len(s.Cells) == 0 || len(hs) == 0 {
		return "", false
	}
	// The house the step works in: the one that holds what it removes or
	// places (a pair in a row and a box may clear either).
	target := func() int {
		for _, h := range hs {
			if slices.ContainsFunc(s.Eliminations, func(c Candidate) bool { return geo.houseSet[h].has(c.Cell) }) ||
				slices.ContainsFunc(s.Placements, func(c Candidate) bool { return geo.houseSet[h].has(c.Cell) }) {
				return h
			}
		}
		return hs[0]
	}
	digits := stepDigits(s)
	list := func(ds []int) string {
		out := make([]string, len(ds))
		for i, d := range ds {
			out[i] = geo.symbol(d)
		}
		return joinAnd(out)
	}
	switch {
	case strings.Contains(name, "pointing") || strings.Contains(name, "claiming"):
		if len(digits) != 1 || len(hs) < 2 {
			return "", false
		}
		other := target()
		base := hs[0]
		if base == other {
			base = hs[1]
		}
		d := geo.symbol(digits[0])
		places := geo.cellsIn(base, s.Cells) + ", all in " + geo.houseName(other)
		if base/geo.n == kindBox {
			places = fmt.Sprintf("in %s (%s)", geo.houseName(other), strings.TrimPrefix(geo.cellsIn(other, s.Cells), "in "))
		}
		return fmt.Sprintf("In %s, %s can only go %s, so the %s of %s is in %s: %s", geo.houseName(base), d, places,
			d, geo.houseName(other), geo.houseName(base), geo.plainResult(s)), true
	case strings.Contains(name, "naked") || strings.Contains(name, "hidden"):
		var cand []int
		for _, p := range s.Pattern {
			if !slices.Contains(cand, p.Digit) {
				cand = append(cand, p.Digit)
			}
		}
		slices.Sort(cand)
		if len(cand) == 0 {
			return "", false
		}
		h := geo.houseName(target())
		cells := geo.cellsIn(target(), s.Cells)
		if strings.Contains(name, "naked") {
			return fmt.Sprintf("In %s, the cells %s can only hold %s between them, so no other cell of %s can: %s", h, cells,
				list(cand), h, geo.plainResult(s)), true
		}
		return fmt.Sprintf("In %s, %s can only go in the cells %s, so those cells hold nothing else: %s", h, list(cand),
			cells, geo.plainResult(s)), true
	}
	return "", false
}

// plainResult says what a step does: "row 3, column 5 is 7", "4 cannot
// go in row 1, columns 2 and 8", several digits one after the other.
func (g *geometry) plainResult(s Step) string {
	var parts []string
	for _, p := range s.Placements {
		parts = append(parts, fmt.Sprintf("%s is %s", g.plainCell(p.Cell), g.symbol(p.Digit)))
	}
	byDigit := map[int][]int{}
	var digits []int
	for _, e := range s.Eliminations {
		if _, ok := byDigit[e.Digit]; !ok {
			digits = append(digits, e.Digit)
		}
		byDigit[e.Digit] = append(byDigit[e.Digit], e.Cell)
	}
	slices.Sort(digits)
	// Digits removed from the same cells go together: "6 and 7 cannot go
	// in row 9, column 3".
	done := map[int]bool{}
	for _, d := range digits {
		if done[d] {
			continue
		}
		cells := byDigit[d]
		same := []string{g.symbol(d)}
		for _, d2 := range digits {
			if d2 > d && !done[d2] && slices.Equal(sortedCopy(byDigit[d2]), sortedCopy(cells)) {
				same = append(same, g.symbol(d2))
				done[d2] = true
			}
		}
		if len(cells) > 8 {
			parts = append(parts, fmt.Sprintf("%s come out of the %d cells struck through", joinAnd(same), len(cells)))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s cannot go in %s", joinAnd(same), g.plainCells(cells)))
	}
	if len(parts) == 0 {
		return "nothing changes"
	}
	return strings.Join(parts, "; ")
}

// plainWrong words a wrong entry: value v in cell, clashing with the
// cells of clash (none: it is only not the solution's).
func (g *geometry) plainWrong(cell, v int, clash []int) string {
	if len(clash) == 0 {
		return fmt.Sprintf("The %s in %s is wrong: it is not the solution's digit", g.symbol(v), g.plainCell(cell))
	}
	return fmt.Sprintf("The %s in %s is wrong: the same digit is already in %s", g.symbol(v), g.plainCell(cell), g.plainCells(clash))
}

// plainCell names a cell as people do: "row 3, column 5".
func (g *geometry) plainCell(i int) string {
	return fmt.Sprintf("row %d, column %d", i/g.n+1, i%g.n+1)
}

// cellsIn names cells of house h within it: "in rows 7 and 8" of a
// column, "in columns 2 and 5" of a row, "at row 1, column 3 and …" of a
// box.
func (g *geometry) cellsIn(h int, cells []int) string {
	var at []string
	for _, c := range sortedCopy(cells) {
		switch h / g.n {
		case kindRow:
			at = append(at, fmt.Sprint(c%g.n+1))
		case kindCol:
			at = append(at, fmt.Sprint(c/g.n+1))
		default:
			return "at " + g.plainCells(cells)
		}
	}
	word := map[bool]string{true: "columns", false: "rows"}[h/g.n == kindRow]
	if len(at) == 1 {
		word = word[:len(word)-1]
	}
	return "in " + word + " " + joinAnd(at)
}

// sortedCopy returns cells sorted, leaving cells as they are.
func sortedCopy(cells []int) []int {
	out := slices.Clone(cells)
	slices.Sort(out)
	return out
}

// plainCells names cells line by line, by rows or by columns, whichever
// takes fewer groups: "row 1, columns 2 and 8; row 5, column 2", "column
// 7, rows 7 and 9".
func (g *geometry) plainCells(cells []int) string {
	byRow := g.lineGroups(cells, true)
	if byCol := g.lineGroups(cells, false); len(byCol) < len(byRow) {
		return strings.Join(byCol, "; ")
	}
	return strings.Join(byRow, "; ")
}

// lineGroups names cells grouped by row (or by column).
func (g *geometry) lineGroups(cells []int, rows bool) []string {
	line := func(c int) (int, int) {
		if rows {
			return c / g.n, c % g.n
		}
		return c % g.n, c / g.n
	}
	sorted := slices.Clone(cells)
	slices.SortFunc(sorted, func(a, b int) int {
		la, pa := line(a)
		lb, pb := line(b)
		if la != lb {
			return la - lb
		}
		return pa - pb
	})
	outer, inner := "row", "column"
	if !rows {
		outer, inner = "column", "row"
	}
	var groups []string
	for i := 0; i < len(sorted); {
		l, _ := line(sorted[i])
		var at []string
		for ; i < len(sorted); i++ {
			m, p := line(sorted[i])
			if m != l {
				break
			}
			at = append(at, fmt.Sprint(p+1))
		}
		word := inner
		if len(at) > 1 {
			word += "s"
		}
		groups = append(groups, fmt.Sprintf("%s %d, %s %s", outer, l+1, word, joinAnd(at)))
	}
	return groups
}

// symbol writes a digit as the board shows it: 1-9, then A for 10 on
// boards above 9×9.
func (g *geometry) symbol(d int) string {
	if d > 9 && g.n > 9 {
		return string(rune('A' + d - 10))
	}
	return fmt.Sprint(d)
}

// upper starts s with a capital.
func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
