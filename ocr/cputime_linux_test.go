//go:build linux

package ocr_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time this process has used. With GOMAXPROCS=1
// a benchmark's CPU time per op is what the work costs, whatever else the
// machine runs at the time (wall time on a busy machine is not).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
