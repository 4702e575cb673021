package live

import "testing"

// waitingFrom is the page of a session that must read frame from before
// drawing (from < 0: none, the latest reading stands).
func waitingFrom(from int) page {
	if from < 0 {
		return page{state: following}
	}
	return page{state: onHold, from: from}
}

// TestPageNext: each transition of the page's state machine.
func TestPageNext(t *testing.T) {
	in := func(frame int, read bool) pageEvent { return pageEvent{kind: readingIn, frame: frame, read: read} }
	at := func(k eventKind, frame int) pageEvent { return pageEvent{kind: k, frame: frame} }
	for _, tc := range []struct {
		name string
		from page
		e    pageEvent
		want page
	}{
		{"first reading", page{}, in(3, false), page{state: following}},
		{"a reading while following", page{state: following}, in(3, true), page{state: following}},
		{"wavered while following", page{state: following}, at(wavered, 7), page{state: onHold, from: 7}},
		{"wavered before any reading", page{}, at(wavered, 7), page{state: onHold, from: 7}},
		{"wavered again on hold: the first frame stays", page{state: onHold, from: 7}, at(wavered, 9), page{state: onHold, from: 7}},
		{"on hold, a reading of an earlier frame", page{state: onHold, from: 7}, in(6, true), page{state: onHold, from: 7}},
		{"on hold, a reading that read no puzzle", page{state: onHold, from: 7}, in(8, false), page{state: onHold, from: 7}},
		{"on hold, a reading since", page{state: onHold, from: 7}, in(7, true), page{state: following}},
		{"changed while following", page{state: following}, at(pageChange, 7), page{state: changed, from: 7}},
		{"changed before any reading", page{}, at(pageChange, 7), page{state: changed, from: 7}},
		{"changed on hold: the first frame stays", page{state: onHold, from: 5}, at(pageChange, 7), page{state: changed, from: 5}},
		{"changed again", page{state: changed, from: 5}, at(pageChange, 7), page{state: changed, from: 5}},
		{"changed while chosen", page{state: chosen, from: 5}, at(pageChange, 7), page{state: chosen, from: 5}},
		{"wavered while changed", page{state: changed, from: 5}, at(wavered, 7), page{state: changed, from: 5}},
		{"changed, asked", page{state: changed, from: 5}, at(asked, 6), page{state: onHold, from: 5}},
		{"grid chosen while following", page{state: following}, at(gridChosen, 8), page{state: chosen, from: 8}},
		{"grid chosen on hold: the first frame stays", page{state: onHold, from: 5}, at(gridChosen, 8), page{state: chosen, from: 5}},
		{"chosen, asked", page{state: chosen, from: 8}, at(asked, 8), page{state: onHold, from: 8}},
		{"asked while following", page{state: following}, at(asked, 8), page{state: following}},
		{"asked on hold", page{state: onHold, from: 5}, at(asked, 8), page{state: onHold, from: 5}},
	} {
		if got := tc.from.next(tc.e); got != tc.want {
			t.Errorf("%s: %v from %d, want %v from %d", tc.name, got.state, got.from, tc.want.state, tc.want.from)
		}
	}
}

// TestPageWaitingAndFresh: what each state lets the session draw, and
// which ask the recogniser for a fresh vote.
func TestPageWaitingAndFresh(t *testing.T) {
	for _, tc := range []struct {
		state          pageState
		waiting, fresh bool
	}{
		{searching, false, false},
		{following, false, false},
		{onHold, true, false},
		{changed, true, true},
		{chosen, true, true},
	} {
		p := page{state: tc.state}
		if p.waiting() != tc.waiting || p.fresh() != tc.fresh {
			t.Errorf("%v: waiting %v fresh %v, want %v %v", tc.state, p.waiting(), p.fresh(), tc.waiting, tc.fresh)
		}
	}
}
