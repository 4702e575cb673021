//go:build !linux

package main

import "time"

// threadClock falls back to the wall clock where the thread's CPU clock
// cannot be read.
func threadClock() func() time.Duration {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }
}

const haveThreadClock = false
