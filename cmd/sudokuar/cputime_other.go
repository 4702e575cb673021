//go:build !linux

package main

import "time"

var cpuEpoch = time.Now()

// threadCPU falls back to wall-clock time where thread CPU time is not
// available.
func threadCPU() time.Duration { return time.Since(cpuEpoch) }
