package kakuro

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time used by the calling OS thread, so that a
// benchmark can report a time that other processes on a busy machine do
// not inflate. The caller locks itself to its thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
