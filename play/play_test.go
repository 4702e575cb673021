package play

import (
	"testing"
	"time"
)

// TestTally plays sequences of actions as a page sends them and checks
// the mistakes counted.
func TestTally(t *testing.T) {
	type act struct {
		cell  int  // -1: an action on no cell
		undo  bool //
		wrong bool // the action wrote a wrong digit in cell
	}
	for _, tc := range []struct {
		name  string
		shown bool
		acts  []act
		count int // settled
		total int // with the open slip
	}{
		{"a wrong digit undone at once is a slip", false, []act{{3, false, true}, {-1, true, false}}, 0, 0},
		{"erased at once", false, []act{{3, false, true}, {3, false, false}}, 0, 0},
		{"replaced at once by a right digit", false, []act{{3, false, true}, {3, false, false}}, 0, 0},
		{"replaced by another wrong one: one open", false, []act{{3, false, true}, {3, false, true}}, 0, 1},
		{"left while playing elsewhere", false, []act{{3, false, true}, {4, false, false}}, 1, 1},
		{"left while asking a hint", false, []act{{3, false, true}, {-1, false, false}}, 1, 1},
		{"two wrong digits in two cells", false, []act{{3, false, true}, {4, false, true}, {5, false, false}}, 2, 2},
		{"shown: undone still counts", true, []act{{3, false, true}, {-1, true, false}}, 1, 1},
		{"shown: each counts", true, []act{{3, false, true}, {3, false, true}}, 2, 2},
		{"right digits only", false, []act{{3, false, false}, {4, false, false}}, 0, 0},
	} {
		var tl Tally
		for _, a := range tc.acts {
			tl = tl.Next(a.cell, a.undo)
			if a.wrong {
				tl = tl.Wrote(a.cell, tc.shown)
			}
		}
		if tl.Count != tc.count || tl.Total() != tc.total {
			t.Errorf("%s: counted %d (total %d), want %d (%d)", tc.name, tl.Count, tl.Total(), tc.count, tc.total)
		}
		if s := tl.Settled(); s.Count != tc.total || s.Slip != 0 {
			t.Errorf("%s: settled %+v, want %d and no slip", tc.name, s, tc.total)
		}
	}
	if Lost(Tally{Count: 2}, 3) || !Lost(Tally{Count: 3}, 3) || Lost(Tally{Count: 30}, 0) {
		t.Error("Lost does not follow the limit")
	}
	for _, n := range []int{-1, MaxMistakeLimit + 1} {
		if CheckLimit(n) == nil {
			t.Errorf("limit %d taken", n)
		}
	}
	if CheckLimit(3) != nil || CheckLimit(0) != nil {
		t.Error("limits 0 and 3 refused")
	}
}

func TestAssists(t *testing.T) {
	for _, a := range []Assist{ShowMistakes, Check, Candidates, Reveal} {
		if !Unranks(a) {
			t.Errorf("%s does not unrank", a)
		}
	}
	if Unranks("hint") {
		t.Error("a hint unranks")
	}
	if Leaks(Candidates) || !Leaks(Check) || !Leaks(ShowMistakes) || !Leaks(Reveal) {
		t.Error("Leaks: candidates apply the rules only; check, mistakes and the solution tell right from wrong")
	}
	var u Used
	if u.Unranked() || u.Leaked() {
		t.Error("no assist used, yet unranked")
	}
	u = u.With(Candidates).With(Candidates)
	if len(u) != 1 || !u.Unranked() || u.Leaked() {
		t.Errorf("candidates used: %v, unranked %v, leaked %v", u, u.Unranked(), u.Leaked())
	}
	if u = u.With(Check); !u.Leaked() || len(u) != 2 {
		t.Errorf("check used: %v", u)
	}
}

func TestDaily(t *testing.T) {
	// 2025-03-03 was a Monday.
	for day, want := range map[string]string{"2025-03-03": "easy", "2025-03-04": "medium", "2025-03-06": "hard", "2025-03-08": "expert", "2025-03-09": "expert"} {
		if got, err := DailyLevel(day); err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", day, got, err, want)
		}
	}
	for _, bad := range []string{"", "2025-3-3", "2025-02-30", "03/03/2025", "2025-03-03 ", "2025-03-03T00:00"} {
		if _, err := ParseDay(bad); err == nil {
			t.Errorf("day %q parsed", bad)
		}
	}
	// The day is UTC's: 23:30 in New York is the next day already.
	ny, _ := time.LoadLocation("America/New_York")
	if ny != nil {
		if d := Day(time.Date(2025, 3, 3, 23, 30, 0, 0, ny)); d != "2025-03-04" {
			t.Errorf("23:30 in New York is day %s", d)
		}
	}
	a, b := DailySeed("2025-03-03"), DailySeed("2025-03-03")
	if a != b || a == DailySeed("2025-03-04") || a < 0 {
		t.Error("daily seeds: the same day, the same seed; another day, another")
	}
	noon := time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC)
	if DailyAllows(Check, "2025-03-03", noon) == nil || DailyAllows(ShowMistakes, "2025-03-03", noon) == nil || DailyAllows(Reveal, "2025-03-03", noon) == nil {
		t.Error("an assist that tells right from wrong is allowed on today's puzzle")
	}
	if DailyAllows(Candidates, "2025-03-03", noon) != nil || DailyAllows(Check, "2025-03-02", noon) != nil {
		t.Error("candidates, or yesterday's puzzle, refused")
	}
	if DailySolutionShown("2025-03-03", noon, false) || !DailySolutionShown("2025-03-03", noon, true) || !DailySolutionShown("2025-03-02", noon, false) {
		t.Error("a daily solution is shown to who solved it, or once the day is over, only")
	}
}
