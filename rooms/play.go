package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/sudoku"
)

// play handles a move, mark, undo, redo, hint, finish or forfeit from
// seat i during a game (message has checked the phase and the seat).
func (r *Room) play(i int, in In) {
	s := r.seats[i]
	switch in.T {
	case "move":
		r.move(i, in)
	case "mark":
		r.mark(i, in)
	case "undo", "redo":
		r.undoRedo(i, in)
	case "hint":
		r.askHint(i, in)
	case "finish":
		r.confirm(i, in)
	case "forfeit":
		s.out = "gave up"
		r.broadcastState()
		r.broadcastFinishIfOver()
	}
}

// boardOf is the board seat i plays on: their own in a race, the shared
// one in co-op.
func (r *Room) boardOf(i int) *game.Game {
	if r.set.Mode == Coop {
		return r.shared
	}
	return r.seats[i].board
}

// cellValue reads and checks a message's cell and value: the cell on the
// board and not a given, the value 0..N (lo..N for marks).
func (r *Room) cellValue(i int, in In, lo int) (cell, value int, ok bool) {
	c := r.seats[i].conn
	n := r.set.Shape.N()
	if in.Seat != nil && *in.Seat != i {
		c.sendError(in.Seq, ErrNotYours, "seat %d's board is not yours: you play on your own board only", *in.Seat)
		return 0, 0, false
	}
	cell, value, err := play.Squares(n, func(k int) bool { return r.fixed[k] }).Check(in.T, in.Cell, in.Value, lo)
	if err != nil {
		code, pe := ErrBad, (*play.Error)(nil)
		if errors.As(err, &pe) && pe.Kind == play.Conflict {
			code = ErrFixed
		}
		c.sendError(in.Seq, code, "%s", err)
		return 0, 0, false
	}
	return cell, value, true
}

func (r *Room) move(i int, in In) {
	cell, v, ok := r.cellValue(i, in, 0)
	if !ok {
		return
	}
	r.seats[i].openHint = nil
	r.put(i, in.Seq, cell, v, in.Clear)
}

// put writes v at cell of seat i's board and tells the room; clear (race
// boards, where the marks are on the board) also takes v out of the peers'
// pencil marks in the same move.
func (r *Room) put(i int, seq int64, cell, v int, clear bool) {
	s := r.seats[i]
	b := r.boardOf(i)
	n := b.N()
	row, col := cell/n, cell%n
	if b.Value(row, col) != v { // the same digit again is no move and no second mistake
		var m game.Move
		var err error
		if clear && v != 0 && r.set.Mode != Coop {
			m, err = b.Place(row, col, v)
		} else {
			m, err = b.Set(row, col, v)
		}
		if err != nil {
			if s.conn != nil {
				s.conn.sendError(seq, ErrBad, "%s", errorText(err))
			}
			return
		}
		if v != 0 && v != r.puzzle.Solution.Cells[cell] {
			s.mistakes++
		}
		r.hub.moves.Add(1)
		if r.set.Mode == Coop {
			r.version++
		} else {
			s.version++
		}
		r.journal(i, journalEntry{Op: "move", Cell: cell, Value: v, Clear: clear})
		changes := make([]Change, 0, len(m.Changes))
		for _, ch := range m.Changes {
			k := ch.Row*n + ch.Col
			changes = append(changes, Change{Cell: k, Value: b.Value(ch.Row, ch.Col), Marks: r.marksOf(i, k)})
		}
		r.announce(i, seq, changes, false)
		return
	}
	r.announce(i, seq, nil, false)
}

// marksOf returns seat i's pencil marks of a cell.
func (r *Room) marksOf(i, cell int) game.Marks {
	if r.set.Mode == Coop {
		return r.seats[i].marks[cell]
	}
	n := r.set.Shape.N()
	return r.seats[i].board.Marks(cell/n, cell%n)
}

// announce tells the room about seat i's change to its board (none: only
// an answer to the mover; private: a co-op player's own pencil marks),
// then sees whether it finished a game.
func (r *Room) announce(i int, seq int64, changes []Change, private bool) {
	s := r.seats[i]
	b := r.boardOf(i)
	if changes == nil {
		changes = []Change{}
	}
	_, conflicts := r.judge(b)
	m := Move{T: "ack", Seat: i, Seq: seq, Changes: changes, Wrong: []int{}, Conflicts: conflicts,
		Filled: b.N()*b.N() - b.EmptyCells()}
	if r.set.Mode == Coop {
		m.V = r.version
		if len(changes) > 0 && !private {
			m.T = "move"
			r.broadcast(m)
		} else if s.conn != nil {
			s.conn.sendJSON(m)
		}
		if r.solved(b) {
			r.coopWon()
		}
		return
	}
	m.V, m.CanUndo, m.CanRedo = s.version, b.CanUndo(), b.CanRedo()
	if s.conn != nil {
		s.conn.sendJSON(m)
	}
	if len(changes) > 0 {
		r.broadcastOthers(i, Progress{T: "progress", Seat: i, Filled: m.Filled, Hints: s.hints})
	}
	if r.solved(b) {
		r.finishSeat(i)
	}
}

// solved reports whether a board holds the solution.
func (r *Room) solved(b *game.Game) bool {
	return b.Full() && slices.Equal(b.Grid().Cells, r.puzzle.Solution.Cells)
}

func (r *Room) mark(i int, in In) {
	cell, v, ok := r.cellValue(i, in, 1)
	if !ok {
		return
	}
	s := r.seats[i]
	s.openHint = nil
	n := r.set.Shape.N()
	if r.set.Mode == Coop {
		s.marks[cell] ^= 1 << v // private: the shared board never sees them
		r.journal(i, journalEntry{Op: "mark", Cell: cell, Value: v})
		r.announce(i, in.Seq, []Change{{Cell: cell, Value: r.shared.Value(cell/n, cell%n), Marks: s.marks[cell]}}, true)
		return
	}
	if _, err := s.board.ToggleMark(cell/n, cell%n, v); err != nil {
		s.conn.sendError(in.Seq, ErrBad, "%s", errorText(err))
		return
	}
	s.version++
	r.journal(i, journalEntry{Op: "mark", Cell: cell, Value: v})
	r.announce(i, in.Seq, []Change{{Cell: cell, Value: s.board.Value(cell/n, cell%n), Marks: s.board.Marks(cell/n, cell%n)}}, false)
}

// undoRedo takes back or makes again a race player's own move. A shared
// co-op board has no undo: a player erases instead.
func (r *Room) undoRedo(i int, in In) {
	s := r.seats[i]
	s.openHint = nil
	if r.set.Mode == Coop {
		s.conn.sendError(in.Seq, ErrNotNow, "no %s on a shared board: erase the digit instead", in.T)
		return
	}
	var m game.Move
	var err error
	if in.T == "undo" {
		m, err = s.board.Undo()
	} else {
		m, err = s.board.Redo()
	}
	if err != nil {
		s.conn.sendError(in.Seq, ErrNotNow, "%s", errorText(err))
		return
	}
	s.version++
	r.hub.moves.Add(1)
	r.journal(i, journalEntry{Op: in.T})
	n := r.set.Shape.N()
	changes := make([]Change, 0, len(m.Changes))
	for _, ch := range m.Changes {
		changes = append(changes, Change{Cell: ch.Row*n + ch.Col, Value: s.board.Value(ch.Row, ch.Col), Marks: s.board.Marks(ch.Row, ch.Col)})
	}
	r.announce(i, in.Seq, changes, false)
}

// askHint spends one of the player's hints on the logic engine's next
// step for their board, found beside the loop.
func (r *Room) askHint(i int, in In) {
	s := r.seats[i]
	if in.Stage > 1 {
		r.hintStage(i, in)
		return
	}
	switch {
	case s.hints >= play.MaxHints:
		s.conn.sendError(in.Seq, ErrNoHints, "no hints left: all %d used", play.MaxHints)
		return
	case s.hintBusy:
		s.conn.sendError(in.Seq, ErrNotNow, "a hint is already on its way")
		return
	}
	s.hints++
	s.hintBusy = true
	r.journalHints(i)
	givens, cur := r.puzzle.Givens.Clone(), r.boardOf(i).Grid()
	e := &aside{seat: i, player: s.player, seq: in.Seq, gameNum: r.games}
	ctx, gate, key := r.ctx, r.hub.gate, s.conn.addr
	r.hub.goWork(func() {
		if done, err := gate.Enter(ctx, key); err != nil {
			e.err, e.busy = fmt.Errorf("the server is busy: try again in a few seconds (%w)", err), true
		} else {
			e.step, e.err = hint(ctx, givens, cur)
			done()
		}
		r.post(envelope{kind: evHint, aside: e})
	})
}

func (r *Room) gotHint(e *aside) {
	if e.seat >= len(r.seats) || r.seats[e.seat] == nil || r.seats[e.seat].player != e.player || r.games != e.gameNum {
		return // the player or the game has gone meanwhile
	}
	s := r.seats[e.seat]
	s.hintBusy = false
	if r.phase != PhasePlaying {
		return
	}
	if e.busy {
		s.hints-- // the engine never started: nothing was spent
		r.journalHints(e.seat)
		if s.conn != nil {
			s.conn.sendError(e.seq, ErrBusy, "no hint: %v", e.err)
		}
		return
	}
	if e.err != nil {
		// Still spent: the engine did the work (a hint is counted once
		// it is asked for, whatever the engine answers).
		if s.conn != nil {
			s.conn.sendError(e.seq, ErrNoHints, "no hint: %v", e.err)
		}
		return
	}
	s.hintStages++
	step := e.step
	s.openHint = &step
	if s.conn != nil {
		s.conn.sendJSON(HintMsg{T: "hint", Seq: e.seq, Step: e.step, Stage: 1, Used: s.hints, Stages: s.hintStages, Max: play.MaxHints})
	}
	b := r.boardOf(e.seat)
	r.broadcastOthers(e.seat, Progress{T: "progress", Seat: e.seat, Filled: b.N()*b.N() - b.EmptyCells(), Hints: s.hints})
}

// hintStage shows the open hint's pattern (stage 2) or plays its answer
// (stage 3: a wrong entry erased, the placements placed, clearing the
// peers' marks). Neither costs a hint; both count as stages. The hint
// closes with the seat's next move, so the step is still the engine's
// next one for the board.
func (r *Room) hintStage(i int, in In) {
	s := r.seats[i]
	switch {
	case in.Stage > 3:
		s.conn.sendError(in.Seq, ErrBad, "hint stage %d: want 1 (nudge), 2 (pattern) or 3 (answer)", in.Stage)
		return
	case s.openHint == nil:
		s.conn.sendError(in.Seq, ErrNotNow, "no hint open: ask for a new one")
		return
	}
	a := *s.openHint
	s.hintStages++
	s.conn.sendJSON(HintMsg{T: "hint", Seq: in.Seq, Step: a, Stage: in.Stage, Used: s.hints, Stages: s.hintStages, Max: play.MaxHints})
	if in.Stage < 3 {
		return
	}
	s.openHint = nil
	for _, w := range a.Wrong {
		r.put(i, 0, w, 0, false)
	}
	for _, p := range a.Placements {
		if r.phase == PhasePlaying {
			r.put(i, 0, p.Cell, p.Digit, true)
		}
	}
}

// confirm answers a "finish": the grid must be the board the player's
// moves built, and that board the solution. (A finish needs no message: the
// move that completes the board finishes. This is the check a client that
// claims a result goes through.)
func (r *Room) confirm(i int, in In) {
	s := r.seats[i]
	b := r.boardOf(i)
	n := b.N()
	cells, err := sudoku.ParseCells(in.Grid, n)
	if err != nil {
		s.conn.sendError(in.Seq, ErrBad, "finish needs \"grid\", the whole board: %v", err)
		return
	}
	played := b.Grid().Cells
	diff := 0
	for k := range cells {
		if cells[k] != played[k] {
			diff++
		}
	}
	if diff > 0 {
		s.conn.sendError(in.Seq, ErrNotPlayed, "that grid is not the board you played: %d cells differ from your moves", diff)
		return
	}
	if !r.solved(b) {
		// How many are wrong would be a signal a prober could read.
		s.conn.sendError(in.Seq, ErrNotSolved, "not solved yet: %d cells empty", b.EmptyCells())
		return
	}
	s.conn.sendJSON(Finish{T: "finish", Seat: i, Place: s.place, Ms: s.ms})
}

// finishSeat: race seat i's board is the solution. Its moves are replayed
// from the puzzle before the place is given.
func (r *Room) finishSeat(i int) {
	s := r.seats[i]
	if err := r.replay(s.board); err != nil {
		r.hub.log.Error("rooms: a finished board does not replay", "room", r.code, "seat", i, "err", err)
		s.conn.sendError(0, ErrNotPlayed, "your board could not be verified from your moves")
		return
	}
	r.finishes++
	s.place, s.ms = r.finishes, r.now().Sub(r.started).Milliseconds()
	s.flag = play.Finish{Ms: s.ms, FloorMs: r.floorMs(1)}.Flag()
	r.broadcast(Finish{T: "finish", Seat: i, Place: s.place, Ms: s.ms})
	r.broadcastFinishIfOver()
	if r.phase == PhasePlaying {
		r.broadcastState()
	}
}

// coopWon: the shared board is the solution; everyone still in places 1.
func (r *Room) coopWon() {
	if err := r.replay(r.shared); err != nil {
		r.hub.log.Error("rooms: the shared board does not replay", "room", r.code, "err", err)
		return
	}
	ms := r.now().Sub(r.started).Milliseconds()
	team := 0
	for _, s := range r.seats {
		if s != nil && s.played && s.out == "" {
			team++
		}
	}
	for _, s := range r.seats {
		if s != nil && s.played && s.out == "" {
			s.place, s.ms = 1, ms
			s.flag = play.Finish{Ms: ms, FloorMs: r.floorMs(team)}.Flag()
		}
	}
	r.broadcast(Finish{T: "finish", Seat: -1, Place: 1, Ms: ms})
	r.over()
}

// replay plays b's moves again from the puzzle on a fresh board: every
// change must start from what the cell held, touch no given, and end on
// b's cells and the solution.
func (r *Room) replay(b *game.Game) error {
	end, err := replayMoves(r.puzzle.Givens, r.fixed, b.Snapshot())
	if err != nil {
		return err
	}
	if !slices.Equal(end.Cells, b.Grid().Cells) {
		return fmt.Errorf("the moves lead to another board")
	}
	if !slices.Equal(end.Cells, r.puzzle.Solution.Cells) {
		return fmt.Errorf("the moves do not lead to the solution")
	}
	return nil
}

// replayMoves checks a board's record snap against the puzzle and
// returns the board its done moves lead to. game.Restore checks the
// record itself (every change fits the board, walking back to the start
// and forward again, and no fixed cell changes); here the start it walks
// back to must be the puzzle's givens, fixed as the puzzle's, and the
// moves only of the kinds rooms plays (set, marks, and place: a digit that
// took itself out of its peers' pencil marks).
func replayMoves(givens sudoku.Grid, fixed []bool, snap game.Snapshot) (sudoku.Grid, error) {
	for k, m := range snap.Moves {
		if m.Kind != game.KindSet && m.Kind != game.KindMarks && m.Kind != game.KindPlace {
			return sudoku.Grid{}, fmt.Errorf("move %d: moves of kind %q are not played in rooms", k, m.Kind)
		}
	}
	g, err := game.Restore(snap)
	if err != nil {
		return sudoku.Grid{}, err
	}
	end := g.Grid()
	for g.CanUndo() {
		if _, err := g.Undo(); err != nil {
			return sudoku.Grid{}, err
		}
	}
	if g.Shape() != givens.Shape || !slices.Equal(g.Grid().Cells, givens.Cells) || !slices.Equal(g.FixedCells(), fixed) {
		return sudoku.Grid{}, fmt.Errorf("the moves do not start from the puzzle")
	}
	return end, nil
}

// floorMs is the plausibility floor (play.FloorMs) of a finish by a team
// of players sharing the work (a race player is a team of one). A finish
// under it is flagged, not ranked.
func (r *Room) floorMs(team int) int64 {
	if r.puzzle == nil {
		return 0
	}
	empty := 0
	for _, v := range r.puzzle.Givens.Cells {
		if v == 0 {
			empty++
		}
	}
	return play.FloorMs(r.hub.cfg.FloorPerStep, r.puzzle.Steps, empty, team)
}

// broadcastFinishIfOver ends the game when nobody is left playing: in a
// race every player has finished or is out, in co-op everyone is out.
func (r *Room) broadcastFinishIfOver() {
	if r.phase != PhasePlaying {
		return
	}
	for _, s := range r.seats {
		if s != nil && s.played && s.place == 0 && s.out == "" {
			return
		}
	}
	r.over()
}

// over ends the game: the ranking, the solution, and the match stored.
func (r *Room) over() {
	r.phase, r.ended = PhaseOver, r.now()
	r.results = r.ranking()
	r.broadcast(Over{T: "over", Results: r.results, Solution: sudoku.CellString(r.puzzle.Solution.Cells), Ms: r.ended.Sub(r.started).Milliseconds()})
	r.broadcastState()
	r.save()
}

// ranking lists the players: finishers by place, then the others by
// cells filled.
func (r *Room) ranking() []Placing {
	var out []Placing
	for i, s := range r.seats {
		if s == nil || !s.played {
			continue
		}
		b := r.boardOf(i)
		out = append(out, Placing{Seat: i, Name: s.name, Place: s.place, Ms: s.ms, Filled: b.N()*b.N() - b.EmptyCells(),
			Mistakes: s.mistakes, Hints: s.hints, Out: s.out, Flag: s.flag})
	}
	slices.SortStableFunc(out, func(a, b Placing) int {
		switch {
		case a.Place > 0 && b.Place > 0:
			return a.Place - b.Place
		case a.Place > 0:
			return -1
		case b.Place > 0:
			return 1
		}
		return b.Filled - a.Filled
	})
	return out
}

// seatRecord is what the store keeps of a seat's game (store.Seat.State):
// the board with every move, so the result can be checked again.
type seatRecord struct {
	Mode  string        `json:"mode"`
	Seat  int           `json:"seat"`
	Board game.Snapshot `json:"board"` // co-op: the shared board
	Marks []game.Marks  `json:"marks,omitempty"`
	Out   string        `json:"out,omitempty"`
}

// save writes the finished match to the store, beside the loop.
func (r *Room) save() {
	st := r.hub.cfg.Store
	if st == nil || r.replaying { // a game replayed from the journal was saved where it ended, if at all
		return
	}
	n := r.set.Shape.N()
	m := store.Match{
		ID: newID(), Mode: r.set.Mode, Kind: store.KindSudoku, Size: fmt.Sprintf("%dx%d", n, n), Level: r.set.Level.String(),
		Puzzle: sudoku.CellString(r.puzzle.Givens.Cells), Room: r.code, Started: r.started, Ended: r.ended,
	}
	for i, s := range r.seats {
		if s == nil || !s.played {
			continue
		}
		b := r.boardOf(i)
		rec, err := json.Marshal(seatRecord{Mode: r.set.Mode, Seat: i, Board: b.Snapshot(), Marks: s.marks, Out: s.out})
		if err != nil {
			r.hub.log.Error("rooms: encode a seat", "err", err)
			return
		}
		m.Seats = append(m.Seats, store.Seat{
			Player: s.player, Name: s.name, Placing: s.place, Millis: s.ms, Filled: n*n - b.EmptyCells(),
			Mistakes: s.mistakes, Hints: s.hints, State: rec, Flag: s.flag,
		})
	}
	if m.Mode == Race {
		m.Mode = store.ModeRace
	} else {
		m.Mode = store.ModeCoop
	}
	h := r.hub
	l, seq := r.log, int64(0)
	if l != nil {
		seq = l.seq.Load()
	}
	h.goWork(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		// A result is stored once the game's end is in the journal: a
		// node cut off from it (another may have taken the room) stores
		// nothing.
		if !l.waitDurable(ctx, seq) {
			h.log.Warn("rooms: a match not stored: its end is not in the journal", "room", r.code)
			return
		}
		if _, err := st.SaveMatch(ctx, m); err != nil {
			h.log.Error("rooms: save a match", "room", r.code, "err", err)
			return
		}
		h.matches.Add(1)
	})
}
