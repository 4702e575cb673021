//go:build linux

package main

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time used by the calling OS thread (the caller
// locks itself to it), so per-puzzle timings on a busy machine are not
// diluted by other processes.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
