package logic

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Level is a difficulty band on the Sudoku Explainer scale, named the way
// games name them.
type Level int

// The levels, easiest first. Each covers the techniques people meet at that
// stage:
//
//	Easy     SE < 2.0        full houses, hidden singles (and the intersections that end in one)
//	Medium   2.0 ≤ SE < 3.0  naked singles, pointing and claiming
//	Hard     3.0 ≤ SE < 4.5  pairs, triples, X-wing, swordfish, skyscraper, kites, XY- and XYZ-wing
//	Expert   4.5 ≤ SE < 6.5  unique rectangles, quads, jellyfish, BUG, ALS wings, aligned pairs
//	Extreme  SE ≥ 6.5        chains and loops, forcing chains, nishio, dynamic chains
const (
	Easy Level = iota
	Medium
	Hard
	Expert
	Extreme
)

// The band edges: the lowest SE rating of each level above Easy.
const (
	MediumFrom  = 2.0
	HardFrom    = 3.0
	ExpertFrom  = 4.5
	ExtremeFrom = 6.5
)

// Levels lists every level, easiest first.
var Levels = []Level{Easy, Medium, Hard, Expert, Extreme}

var levelNames = [...]string{"easy", "medium", "hard", "expert", "extreme"}

// String returns the level's name in lower case ("easy").
func (l Level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("Level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel reads a level name (any case).
func ParseLevel(s string) (Level, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range levelNames {
		if n == t {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("logic: unknown level %q (want %s)", s, strings.Join(levelNames[:], ", "))
}

// LevelOf returns the level of an SE rating.
func LevelOf(se float64) Level {
	switch {
	case se >= ExtremeFrom:
		return Extreme
	case se >= ExpertFrom:
		return Expert
	case se >= HardFrom:
		return Hard
	case se >= MediumFrom:
		return Medium
	}
	return Easy
}

// Band returns the SE ratings of level l: lo <= rating < hi (hi is +Inf
// for Extreme, 0 for an unknown level).
func (l Level) Band() (lo, hi float64) {
	edges := []float64{0, MediumFrom, HardFrom, ExpertFrom, ExtremeFrom, math.Inf(1)}
	if l < 0 || int(l) >= len(levelNames) {
		return 0, 0
	}
	return edges[l], edges[l+1]
}

// MarshalJSON writes the level as its name.
func (l Level) MarshalJSON() ([]byte, error) { return json.Marshal(l.String()) }

// UnmarshalJSON reads a level name.
func (l *Level) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := ParseLevel(s)
	if err != nil {
		return err
	}
	*l = v
	return nil
}
