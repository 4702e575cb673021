package game

import "math/bits"

// Marks is a set of values, bit v for value v (bit 0 unused): a cell's
// pencil marks, or its legal values. For boards up to 25×25 every set is
// below 2^26, so it travels through JSON (and JavaScript numbers) intact.
type Marks uint64

// Has reports whether v is in the set.
func (m Marks) Has(v int) bool { return v >= 0 && v < 64 && m&(1<<v) != 0 }

// Count returns the number of values in the set.
func (m Marks) Count() int { return bits.OnesCount64(uint64(m)) }

// Values returns the values in the set, smallest first.
func (m Marks) Values() []int {
	var out []int
	for x := uint64(m); x != 0; x &= x - 1 {
		out = append(out, bits.TrailingZeros64(x))
	}
	return out
}

// Move kinds.
const (
	KindSet        = "set"        // one value entered or cleared
	KindAutofill   = "autofill"   // every cell that had one legal value
	KindGenerate   = "generate"   // a generated puzzle written on an empty board
	KindMarks      = "marks"      // one cell's pencil marks changed
	KindPlace      = "place"      // a value entered and taken from its peers' pencil marks
	KindCandidates = "candidates" // every empty cell's pencil marks set to its legal values
)

// Change is what a move did to one cell: its value and pencil marks before
// and after. Row and Col are 0-based.
type Change struct {
	Row       int   `json:"row"`
	Col       int   `json:"col"`
	From      int   `json:"from"`
	To        int   `json:"to"`
	MarksFrom Marks `json:"marksFrom,omitempty"`
	MarksTo   Marks `json:"marksTo,omitempty"`
}

// Move is one entry of the undo/redo list: the cells it changed, in the
// order it changed them (reading order for autofill and generate).
type Move struct {
	Kind    string   `json:"kind"`
	Changes []Change `json:"changes"`
}

// record applies m as a new move: the moves after the current one are
// dropped (the redo part), m is appended and becomes the current move.
func (g *Game) record(m Move) Move {
	g.apply(m, true)
	g.moves = append(g.moves[:g.pos], m)
	g.pos++
	return m
}

// step returns the k-th change that applying m forward (or backward, in
// reverse order) makes: the cell, the value and marks it must hold before
// and those it gets.
func (m Move) step(k int, forward bool) (c Change, fromV int, fromM Marks, toV int, toM Marks) {
	if forward {
		c = m.Changes[k]
		return c, c.From, c.MarksFrom, c.To, c.MarksTo
	}
	c = m.Changes[len(m.Changes)-1-k]
	return c, c.To, c.MarksTo, c.From, c.MarksFrom
}

// apply writes m's To values (forward) or From values (backward, in
// reverse order) into the board.
func (g *Game) apply(m Move, forward bool) {
	for k := range m.Changes {
		c, _, _, v, mk := m.step(k, forward)
		i := c.Row*g.cols + c.Col
		g.put(i, v)
		g.marks[i] = mk
	}
}

// change describes setting cell i to v with marks mk.
func (g *Game) change(i, v int, mk Marks) Change {
	return Change{Row: i / g.cols, Col: i % g.cols, From: g.values[i], To: v, MarksFrom: g.marks[i], MarksTo: mk}
}

// Set enters v (0 clears) at row, col (0-based) as a new move, even when
// the cell already holds v. Any value may be entered, even one that breaks
// a rule (see Conflict). Errors: *RangeError, ErrFixed.
func (g *Game) Set(row, col, v int) (Move, error) {
	i, err := g.writable(row, col, v, 0)
	if err != nil {
		return Move{}, err
	}
	return g.record(Move{Kind: KindSet, Changes: []Change{g.change(i, v, g.marks[i])}}), nil
}

// writable returns the index of row, col when v (lo..N) may be written
// there. Errors: *RangeError, ErrFixed, ErrWall.
func (g *Game) writable(row, col, v, lo int) (int, error) {
	i, err := g.index(row, col)
	if err != nil {
		return 0, err
	}
	if v < lo || v > g.n {
		return 0, &RangeError{What: "value", Value: v, Min: lo, Max: g.n}
	}
	return i, g.open(i)
}

// open says whether cell i takes moves: ErrWall, ErrFixed or nil.
func (g *Game) open(i int) error {
	switch {
	case g.isWall(i):
		return ErrWall
	case g.fixed[i]:
		return ErrFixed
	}
	return nil
}

// Place enters v (1..N) at row, col like Set, and in the same move takes v
// out of the pencil marks of every cell that shares a row, column or box
// with it, as players expect of a placed digit: one Undo brings the digit
// and the marks back. Errors as for Set.
func (g *Game) Place(row, col, v int) (Move, error) {
	i, err := g.writable(row, col, v, 1)
	if err != nil {
		return Move{}, err
	}
	m := Move{Kind: KindPlace, Changes: []Change{g.change(i, v, g.marks[i])}}
	for j := range g.values {
		if j != i && !g.fixed[j] && g.marks[j].Has(v) && g.peer(i, j) {
			m.Changes = append(m.Changes, g.change(j, g.values[j], g.marks[j]&^(1<<v)))
		}
	}
	return g.record(m), nil
}

// peer reports whether cells i and j share a house (a row, column or
// box).
func (g *Game) peer(i, j int) bool {
	for _, u := range g.units[i] {
		for _, w := range g.units[j] {
			if u == w {
				return true
			}
		}
	}
	return false
}

// SetMarks replaces the pencil marks of a cell that is not fixed, as a new
// move. Errors: *RangeError (a cell off the board, or a mark outside
// 1..N), ErrFixed, ErrWall.
func (g *Game) SetMarks(row, col int, m Marks) (Move, error) {
	i, err := g.index(row, col)
	if err != nil {
		return Move{}, err
	}
	if bad := m &^ g.allValues(); bad != 0 {
		return Move{}, &RangeError{What: "mark", Value: bad.Values()[0], Min: 1, Max: g.n}
	}
	if err := g.open(i); err != nil {
		return Move{}, err
	}
	return g.record(Move{Kind: KindMarks, Changes: []Change{g.change(i, g.values[i], m)}}), nil
}

// ToggleMark adds v to the cell's pencil marks, or takes it away, as a new
// move. Errors as for SetMarks.
func (g *Game) ToggleMark(row, col, v int) (Move, error) {
	i, err := g.index(row, col)
	if err != nil {
		return Move{}, err
	}
	if v < 1 || v > g.n {
		return Move{}, &RangeError{What: "mark", Value: v, Min: 1, Max: g.n}
	}
	return g.SetMarks(row, col, g.marks[i]^(1<<v))
}

// allValues returns the set 1..N.
func (g *Game) allValues() Marks { return Marks((uint64(1)<<g.n - 1) << 1) }

// Autofill fills, as one move, every empty cell that has exactly one legal
// value before the command, in reading order (left to right, then top to
// bottom). Cells that become obvious because of these fills are left for
// the next call, and two cells of a unit with the same single value are
// both filled (which then conflict). When no cell is obvious nothing is
// recorded and the returned move has no changes. Errors: ErrErroneous.
func (g *Game) Autofill() (Move, error) {
	if g.Erroneous() {
		return Move{}, ErrErroneous
	}
	m := Move{Kind: KindAutofill}
	for i, v := range g.values {
		if v != 0 || g.isWall(i) {
			continue
		}
		if l := g.legal(i); l.Count() == 1 {
			m.Changes = append(m.Changes, g.change(i, l.Values()[0], g.marks[i]))
		}
	}
	if len(m.Changes) == 0 {
		return m, nil
	}
	return g.record(m), nil
}

// Candidates pencils in, as one move, every value each empty cell could
// still take (Legal), replacing the marks that were there: what players
// call auto-candidates (or auto-notes). Fixed cells, walls and cells with
// a value keep theirs. When no mark changes nothing is recorded and the
// returned move has no changes.
func (g *Game) Candidates() Move {
	m := Move{Kind: KindCandidates}
	for i, v := range g.values {
		if v != 0 || g.open(i) != nil {
			continue
		}
		if l := g.legal(i); l != g.marks[i] {
			m.Changes = append(m.Changes, g.change(i, 0, l))
		}
	}
	if len(m.Changes) == 0 {
		return m
	}
	return g.record(m)
}

// Undo takes back the current move and returns it (its changes as they
// were made: undoing set each cell from To back to From). Errors:
// ErrNoUndo.
func (g *Game) Undo() (Move, error) {
	if g.pos == 0 {
		return Move{}, ErrNoUndo
	}
	g.pos--
	m := g.moves[g.pos]
	g.apply(m, false)
	return m, nil
}

// Redo makes the next undone move again and returns it. Errors: ErrNoRedo.
func (g *Game) Redo() (Move, error) {
	if g.pos == len(g.moves) {
		return Move{}, ErrNoRedo
	}
	m := g.moves[g.pos]
	g.apply(m, true)
	g.pos++
	return m, nil
}

// Reset undoes every move, back to the board as it was started (saving
// does not change that state), and clears the move list.
func (g *Game) Reset() {
	for g.pos > 0 {
		g.pos--
		g.apply(g.moves[g.pos], false)
	}
	g.moves = nil
}

// CanUndo and CanRedo report whether Undo and Redo have a move to take.
func (g *Game) CanUndo() bool { return g.pos > 0 }
func (g *Game) CanRedo() bool { return g.pos < len(g.moves) }

// History returns a copy of the move list and the number of moves done
// (the others are the redo part).
func (g *Game) History() ([]Move, int) {
	out := make([]Move, len(g.moves))
	for k, m := range g.moves {
		out[k] = Move{Kind: m.Kind, Changes: append([]Change(nil), m.Changes...)}
	}
	return out, g.pos
}

// TrimHistory forgets the oldest done moves so that at most max moves
// (done and undone) are kept: the board stays as it is, but undo stops
// at the oldest move kept, as if the game had started there. The undone
// moves are never dropped while done ones remain. It returns how many
// moves it forgot; max < 1 forgets nothing.
func (g *Game) TrimHistory(max int) int {
	drop := min(len(g.moves)-max, g.pos)
	if max < 1 || drop <= 0 {
		return 0
	}
	g.moves = append([]Move(nil), g.moves[drop:]...)
	g.pos -= drop
	return drop
}
