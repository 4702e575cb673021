package play

import (
	"fmt"
	"hash/fnv"
	"time"
)

// The daily puzzle: one 9×9 a day (a UTC date, "2006-01-02"), the same for
// everyone; its level follows the week. Everyone plays the same grid, so
// while its day lasts nothing that tells right from wrong (Leaks) is
// offered on it and a game given up shows its solution only the next day.
// A player's first game of the day is the ranked one; later ones replays.

// DailySize is the side of the daily puzzle.
const DailySize = 9

// dailyLevels is the week's levels, Sunday first (time.Weekday's order).
var dailyLevels = [7]string{"expert", "easy", "medium", "medium", "hard", "hard", "expert"}

// Day is the daily puzzle's day at t.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// ParseDay reads a day as Day writes it; it refuses anything else.
func ParseDay(day string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil || t.Format(time.DateOnly) != day {
		return time.Time{}, fmt.Errorf("day %q: want a date as 2006-01-02", day)
	}
	return t, nil
}

// DailyLevel is the level of day's puzzle.
func DailyLevel(day string) (string, error) {
	t, err := ParseDay(day)
	if err != nil {
		return "", err
	}
	return dailyLevels[t.Weekday()], nil
}

// DailySeed is the generator's seed for day's puzzle: the same day gives
// the same seed everywhere, so servers that make it at once make the same
// grid (the store keeps the first one written all the same).
func DailySeed(day string) int64 {
	h := fnv.New64a()
	h.Write([]byte("sudokuar daily " + day))
	return int64(h.Sum64() >> 1)
}

// DayOver reports whether day has ended at now.
func DayOver(day string, now time.Time) bool { return Day(now) > day }

// DailyAllows says whether assist a may be used on day's puzzle at now:
// none that tells right from wrong while the day lasts.
func DailyAllows(a Assist, day string, now time.Time) error {
	if Leaks(a) && !DayOver(day, now) {
		return fmt.Errorf("not on the daily puzzle: everyone plays the same grid today, so nothing tells right from wrong until the day is over (midnight UTC)")
	}
	return nil
}

// DailySolutionShown reports whether a finished game of day's puzzle
// may show its solution at now: to the player who solved it, or once the
// day is over.
func DailySolutionShown(day string, now time.Time, solved bool) bool {
	return solved || DayOver(day, now)
}
