package play

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/store"
)

func TestPerStep(t *testing.T) {
	for _, tc := range []struct{ setting, want time.Duration }{
		{0, DefaultFloorPerStep},
		{-1, 0},
		{-time.Hour, 0},
		{time.Millisecond, time.Millisecond},
		{2 * time.Second, 2 * time.Second},
	} {
		if got := PerStep(tc.setting); got != tc.want {
			t.Errorf("PerStep(%v) = %v, want %v", tc.setting, got, tc.want)
		}
	}
}

func TestFloorMs(t *testing.T) {
	for _, tc := range []struct {
		per                time.Duration
		steps, empty, team int
		want               int64
	}{
		{300 * time.Millisecond, 40, 50, 1, 15000}, // the empty cells outnumber the steps
		{300 * time.Millisecond, 60, 50, 1, 18000}, // the steps outnumber the cells
		{300 * time.Millisecond, 0, 50, 0, 15000},  // a team of none is one player
		{300 * time.Millisecond, 0, 50, 3, 5000},   // shared by a team of three
		{0, 60, 50, 1, 0},                          // no floor
		{-time.Second, 60, 50, 1, 0},
	} {
		if got := FloorMs(tc.per, tc.steps, tc.empty, tc.team); got != tc.want {
			t.Errorf("FloorMs(%v, %d, %d, %d) = %d, want %d", tc.per, tc.steps, tc.empty, tc.team, got, tc.want)
		}
	}
}

func TestFinishFlag(t *testing.T) {
	for _, tc := range []struct {
		f    Finish
		want string
	}{
		{Finish{Ms: 20000, FloorMs: 15000}, ""},
		{Finish{Ms: 15000, FloorMs: 15000}, ""},
		{Finish{Ms: 14999, FloorMs: 15000}, store.FlagTooFast},
		{Finish{Own: true, Assisted: true, Ms: 1, FloorMs: 15000}, store.FlagOwn},
		{Finish{Assisted: true, Replay: true, Ms: 1, FloorMs: 15000}, store.FlagAssists},
		{Finish{Replay: true, Ms: 1, FloorMs: 15000}, store.FlagReplay},
		{Finish{Ms: 0}, ""}, // no floor
	} {
		if got := tc.f.Flag(); got != tc.want {
			t.Errorf("%+v: flag %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestSessionHintsAndFinish(t *testing.T) {
	var s Session
	for k := 1; k <= MaxHints; k++ {
		if err := s.TakeHint(); err != nil || s.Hints != k {
			t.Fatalf("hint %d: %v, %d counted", k, err, s.Hints)
		}
	}
	var pe *Error
	if err := s.TakeHint(); !errors.As(err, &pe) || pe.Kind != Conflict || s.Hints != MaxHints {
		t.Errorf("hint %d: %v, %d counted", MaxHints+1, err, s.Hints)
	}
	s = Session{FloorMs: 10000, Slip: 4}
	now := time.UnixMilli(1_000_000)
	s.Finish(now, 9000)
	if s.Flag != store.FlagTooFast || s.Mistakes != 1 || s.Slip != 0 || s.ElapsedMs != 9000 || s.FinishedAt != now.UnixMilli() {
		t.Errorf("finish: %+v", s)
	}
	s.Use(Candidates)
	if !s.Assisted || len(s.Used) != 1 {
		t.Errorf("after candidates: %+v", s)
	}
}

func TestGameError(t *testing.T) {
	for _, tc := range []struct {
		err  error
		kind ErrorKind
	}{
		{game.ErrNoUndo, Conflict},
		{game.ErrNoRedo, Conflict},
		{game.ErrFixed, Conflict},
		{game.ErrWall, Bad},
		{fmt.Errorf("move: %w", &game.RangeError{What: "value", Value: 12, Min: 0, Max: 9}), Bad},
	} {
		var pe *Error
		if err := GameError(tc.err); !errors.As(err, &pe) || pe.Kind != tc.kind {
			t.Errorf("%v: %v, want kind %d", tc.err, err, tc.kind)
		}
	}
	other := errors.New("disk full")
	if GameError(other) != other || GameError(nil) != nil {
		t.Error("other errors must pass unchanged")
	}
}
