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

// processCPU is not measured here (loadgen then leaves its own CPU out).
func processCPU() time.Duration { return 0 }
