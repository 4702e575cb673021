package logic

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

// TestHardOnes rates the hardest known puzzles ($LOGIC_HARD=seconds per
// puzzle), a development aid for the nested last resort.
func TestHardOnes(t *testing.T) {
	secs := 0
	fmt.Sscan(os.Getenv("LOGIC_HARD"), &secs)
	if secs == 0 {
		t.Skip("set LOGIC_HARD=seconds")
	}
	for _, p := range []string{
		"1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1", // Easter Monster, SE 11.6
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second)
		t0 := time.Now()
		r, err := RateContext(ctx, mustParse(t, p))
		cancel()
		fmt.Println(p, r.SE, r.Hardest, err, time.Since(t0), len(r.Steps))
	}
}
