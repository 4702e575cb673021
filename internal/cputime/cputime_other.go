//go:build !linux

package cputime

import "time"

// Available reports whether the thread clocks measure CPU time here.
const Available = false

// Thread is not available here: it returns 0 (callers then report wall
// time only).
func Thread() time.Duration { return 0 }

// ThreadClock falls back to the wall clock where a thread's CPU clock
// cannot be read.
func ThreadClock() func() time.Duration {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }
}

// Process is not measured here: it returns 0.
func Process() time.Duration { return 0 }
